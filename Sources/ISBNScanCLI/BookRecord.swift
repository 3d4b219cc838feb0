import Catalog
import ISBN
import Records

/// A book of `catalog list --json` and `export --format jsonl`.
struct BookRecord: JSONRecord {
    let book: Catalog.Book
    /// The ISBN hyphenated, with its group and the price of its add-on.
    let isbn: ISBNRecord
    init(_ book: Catalog.Book, ranges: RangeMessage) {
        self.book = book
        var isbn = ISBNRecord(isbn13: book.isbn13, isbn10: book.isbn10, addOn: book.addOn)
        isbn.hyphenate(with: ranges)
        self.isbn = isbn
    }
    var json: JSONValue {
        .object(["isbn13": .string(book.isbn13), "isbn10": .optional(book.isbn10), "hyphenated": .optional(isbn.hyphenated),
                 "group": isbn.group.map(\.json) ?? .null, "addon": .optional(book.addOn), "price": isbn.price.map(\.json) ?? .null,
                 "count": .int(book.count), "first_seen": .string(book.firstSeen), "last_seen": .string(book.lastSeen),
                 "first_source": .string(book.firstSource)])
    }
}
