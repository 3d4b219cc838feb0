// SPDX-License-Identifier: Apache-2.0
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
