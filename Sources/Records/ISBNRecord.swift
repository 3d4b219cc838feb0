import ISBN

/// An accepted ISBN as reported: `{"isbn13", "isbn10", "addon"}`.
public struct ISBNRecord: Sendable, Equatable, JSONRecord {
    /// The 13 digits, no hyphens.
    public var isbn13: String
    /// The ISBN-10 form (978 only), check digit `X` for 10.
    public var isbn10: String
    /// The EAN-5/EAN-2 add-on read beside the barcode, or `nil`.
    public var addOn: String?

    public init(isbn13: String, isbn10: String, addOn: String?) {
        self.isbn13 = isbn13
        self.isbn10 = isbn10
        self.addOn = addOn
    }

    public init(_ isbn: ISBN, addOn: String?) {
        self.init(isbn13: isbn.isbn13, isbn10: isbn.isbn10, addOn: addOn)
    }

    public var json: JSONValue {
        .object(["isbn13": .string(isbn13), "isbn10": .string(isbn10), "addon": .optional(addOn)])
    }
}
