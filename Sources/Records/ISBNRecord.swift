// SPDX-License-Identifier: Apache-2.0
import ISBN

/// An accepted ISBN as reported:
/// `{"isbn13", "isbn10", "addon", "hyphenated", "group": {"prefix", "agency"}, "price": {"currency", "amount", "kind"}}`.
public struct ISBNRecord: Sendable, Equatable, JSONRecord {
    /// The page (from 1) of a multi-page file it was read on, or `nil` (then not in the JSON).
    public var page: Int?
    /// The 13 digits, no hyphens.
    public var isbn13: String
    /// The ISBN-10 form, check digit `X` for 10; `nil` for a 979 ISBN.
    public var isbn10: String?
    /// The EAN-5/EAN-2 add-on read beside the barcode, or `nil`.
    public var addOn: String?
    /// `978-4-87311-903-8`, or `nil` when not hyphenatable or no range message was given.
    public var hyphenated: String?
    /// The registration group, when known.
    public var group: RangeMessage.RegistrationGroup?
    /// Why a valid ISBN cannot be hyphenated (its range is not defined for use), or `nil`.
    public var notHyphenatable: String?
    /// The price in a 5-digit add-on, or `nil`.
    public var price: AddOnPrice?
    /// The Japanese book code read beside it (the second row), or `nil` (then not in the JSON).
    public var jpBookCode: JapaneseBookCode?
    /// For an ISBN read from its printed line: the qualifier printed after it (`"pbk."`,
    /// `"hardcover"`), or `nil` (then not in the JSON).
    public var qualifier: String?

    public init(isbn13: String, isbn10: String?, addOn: String?, hyphenated: String? = nil,
                group: RangeMessage.RegistrationGroup? = nil, notHyphenatable: String? = nil) {
        self.isbn13 = isbn13
        self.isbn10 = isbn10
        self.addOn = addOn
        self.hyphenated = hyphenated
        self.group = group
        self.notHyphenatable = notHyphenatable
        self.price = addOn.flatMap(AddOnPrice.init(addOn:))
    }

    /// The record of `isbn`, hyphenated with `ranges` when given.
    public init(_ isbn: ISBN, addOn: String?, ranges: RangeMessage? = nil) {
        self.init(isbn13: isbn.isbn13, isbn10: isbn.isbn10, addOn: addOn)
        if let ranges { hyphenate(with: ranges) }
    }

    /// Fills ``hyphenated``, ``group`` and ``notHyphenatable`` from `ranges`.
    public mutating func hyphenate(with ranges: RangeMessage) {
        let result = ranges.hyphenate(isbn13)
        hyphenated = result.hyphenated
        group = result.group
        if case .notHyphenatable(_, let reason) = result { notHyphenatable = reason }
    }

    /// `978-0-306-40615-7 (978-0 English language)` or `not hyphenatable: <reason>`; `nil`
    /// when no range message was consulted.
    public var hyphenationText: String? {
        if let hyphenated, let group { return "\(hyphenated) (\(group.prefix) \(group.agency))" }
        if let notHyphenatable { return "not hyphenatable: \(notHyphenatable)" }
        return nil
    }

    public var json: JSONValue {
        .object(["isbn13": .string(isbn13), "isbn10": .optional(isbn10), "addon": .optional(addOn),
                 "hyphenated": .optional(hyphenated), "group": group.map(\.json) ?? .null, "price": price.map(\.json) ?? .null])
            .adding("page", page.map(JSONValue.int)).adding("jp_book_code", jpBookCode?.json)
            .adding("qualifier", qualifier.map(JSONValue.string))
    }
}

extension RangeMessage.RegistrationGroup {
    /// `{"prefix": "978-4", "agency": "Japan"}`.
    public var json: JSONValue { .object(["prefix": .string(prefix), "agency": .string(agency)]) }
}

extension AddOnPrice {
    /// `{"currency": "USD", "amount": "19.95", "kind": "price"}` (currency and amount `null`
    /// unless a price).
    public var json: JSONValue {
        .object(["currency": .optional(currency), "amount": .optional(amount), "kind": .string(kind.rawValue)])
    }
}
