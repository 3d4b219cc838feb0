// SPDX-License-Identifier: Apache-2.0
import Catalog
import ISBN
import Records

/// A book of `catalog list --json` and `export --format jsonl`, with what the lookup cache
/// knows of it.
struct BookRecord: JSONRecord {
    let book: Catalog.Book
    /// The ISBN hyphenated, with its group, the price of its add-on and its Japanese book code.
    let isbn: ISBNRecord
    /// The cache's answer, or `nil` when the book has not been looked up.
    let lookup: Catalog.CachedLookup?

    init(_ book: Catalog.Book, ranges: RangeMessage, lookup: Catalog.CachedLookup? = nil) {
        self.book = book
        var isbn = ISBNRecord(isbn13: book.isbn13, isbn10: book.isbn10, addOn: book.addOn)
        isbn.hyphenate(with: ranges)
        isbn.jpBookCode = book.jpBookCode.flatMap(JapaneseBookCode.init(ean:))
        self.isbn = isbn
        self.lookup = lookup
    }

    /// The metadata, when a provider knew the book.
    var metadata: BookMetadata? { lookup?.metadata }

    /// `"book"`: `null` when not looked up; else `{"found", <BookMetadata's keys>, "fetched_at"}`
    /// (`found` false and the fields null when no provider knew it; `source` then null too).
    var bookJSON: JSONValue {
        guard let lookup else { return .null }
        let members = (lookup.metadata ?? BookMetadata(source: "")).jsonMembers.map { member in
            lookup.metadata == nil ? JSONValue.Member(member.key, .null) : member
        }
        return .object([.init("found", .bool(lookup.found))] + members + [.init("fetched_at", .string(lookup.fetchedAt))])
    }

    var json: JSONValue {
        .object(["isbn13": .string(book.isbn13), "isbn10": .optional(book.isbn10), "hyphenated": .optional(isbn.hyphenated),
                 "group": isbn.group.map(\.json) ?? .null, "addon": .optional(book.addOn), "price": isbn.price.map(\.json) ?? .null,
                 "jp_book_code": isbn.jpBookCode?.json ?? .null, "count": .int(book.count), "first_seen": .string(book.firstSeen), "last_seen": .string(book.lastSeen),
                 "first_source": .string(book.firstSource), "book": bookJSON])
    }

    /// `Title: Subtitle / A. Author, B. Author` (the by-statement when no author is named), then
    /// `; C-code …, <price>` for a Japanese book code read with it; `nil` when neither is known.
    var titleLine: String? {
        var parts: [String] = []
        if let metadata {
            var line = metadata.title ?? "(no title)"
            if let subtitle = metadata.subtitle { line += ": \(subtitle)" }
            if let authors = metadata.authors, !authors.isEmpty { line += " / " + authors.joined(separator: ", ") }
            else if let by = metadata.byStatement { line += " / " + by }
            parts.append(line)
        }
        if let code = isbn.jpBookCode { parts.append(code.description) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
