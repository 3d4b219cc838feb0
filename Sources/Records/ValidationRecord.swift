// SPDX-License-Identifier: Apache-2.0
import ISBN

/// What `validate` reports for one typed code:
/// `{"input", "valid", "isbn13", "isbn10", "reason", "detail"}`.
public struct ValidationRecord: Sendable, Equatable, JSONRecord {
    /// The code as typed.
    public var input: String
    /// The ISBN when valid and accepted.
    public var isbn: ISBNRecord?
    /// The reason's name and its sentence when refused.
    public var reason: String?
    public var detail: String?

    public init(input: String, verdict: Verdict, ranges: RangeMessage? = nil) {
        self.input = input
        self.isbn = verdict.isbn.map { ISBNRecord($0, addOn: nil, ranges: ranges) }
        self.reason = verdict.rejection?.reason.rawValue
        self.detail = verdict.rejection?.detail
    }

    public var valid: Bool { isbn != nil }

    public var json: JSONValue {
        .object(["input": .string(input), "valid": .bool(valid), "isbn13": .optional(isbn?.isbn13),
                 "isbn10": .optional(isbn?.isbn10), "hyphenated": .optional(isbn?.hyphenated),
                 "group": isbn?.group.map(\.json) ?? .null, "reason": .optional(reason), "detail": .optional(detail)])
    }
}
