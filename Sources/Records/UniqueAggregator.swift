// SPDX-License-Identifier: Apache-2.0
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
