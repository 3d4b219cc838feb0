/// One ISBN of a `--unique` list: `{"isbn13", "isbn10", "count", "file"}`.
public struct UniqueRecord: Sendable, Equatable, JSONRecord {
    public var isbn13: String
    /// `nil` for a 979 ISBN.
    public var isbn10: String?
    /// In how many files it was accepted.
    public var count: Int
    /// The first of those files.
    public var file: String

    public init(isbn13: String, isbn10: String?, count: Int, file: String) {
        self.isbn13 = isbn13
        self.isbn10 = isbn10
        self.count = count
        self.file = file
    }

    public var json: JSONValue {
        .object(["isbn13": .string(isbn13), "isbn10": .optional(isbn10), "count": .int(count), "file": .string(file)])
    }
}

/// `--unique`: each accepted ISBN once, in order of first sight, with its count of files and
/// the first file.
public struct UniqueAggregator: Sendable {
    public private(set) var records: [UniqueRecord] = []
    private var index: [String: Int] = [:]

    public init() {}

    /// Counts the ISBNs of one file (each once per file).
    public mutating func add(_ record: FileRecord) {
        for isbn in record.isbns {
            if let i = index[isbn.isbn13] {
                records[i].count += 1
            } else {
                index[isbn.isbn13] = records.count
                records.append(UniqueRecord(isbn13: isbn.isbn13, isbn10: isbn.isbn10, count: 1, file: record.file))
            }
        }
    }
}
