// SPDX-License-Identifier: Apache-2.0
/// Why a code is not accepted as an ISBN. The raw values are the names used on the command
/// line and in JSON output.
public enum RejectionReason: String, Sendable, CaseIterable, Hashable {
    /// The code holds characters other than the digits 0-9.
    case nonDigit = "non-digit"
    /// Not 13 digits (an EAN-8, a truncated read); for a typed code, not 10 or 13 digits, or
    /// empty.
    case length
    /// 13 digits, but the GS1 prefix is not 978 (979 ISBNs, ISMN, ISSN 977, JAN 45/49, UPC-A…).
    case prefix
    /// 979-0: an ISMN (International Standard Music Number, ISO 10957), printed music, not a book.
    case ismn
    /// The last digit is not the check digit of the others.
    case checkDigit = "check-digit"
    /// The same place in one image gave two different valid EAN-13 numbers (a 1↔7 or 2↔8
    /// confusion on a poor print) and the evidence does not settle which is right: neither is trusted.
    case ambiguous
    /// The same place in one image reads, with clearly more evidence, as another code: this
    /// reading is a probable misread of that code (which is judged in its place).
    case misread
}

/// What the person holding the book can do about a refusal. A value, so that the decoder and
/// the ISBN rules say *what* would help and the presentation (Records, the command line) says it
/// in words fit for where it is shown: a typed code (`validate`) is given none.
public enum Remedy: String, Sendable, Hashable, CaseIterable {
    /// A new photo would probably read the code right (a 978 ISBN misread as 918, 972, 912).
    case retakePhoto = "retake-photo"
    /// The bars do not settle between two readings: a new photo, or the printed digits.
    case retakeOrType = "retake-or-type"
}

/// A refusal: the reason, a sentence for people saying what exactly failed, and what would help.
public struct Rejection: Hashable, Sendable, CustomStringConvertible {
    public let reason: RejectionReason
    /// What failed, as facts: e.g. `"check digit is 3, expected 7"` or `"prefix 490 is not 978:
    /// Japanese JAN product code"`. No advice: that is ``remedy``.
    public let detail: String
    /// What the user can do about it, when something can be done with a camera.
    public let remedy: Remedy?

    public init(_ reason: RejectionReason, _ detail: String, remedy: Remedy? = nil) {
        self.reason = reason
        self.detail = detail
        self.remedy = remedy
    }

    public var description: String { "\(reason.rawValue): \(detail)" }
}

/// The outcome of judging one code.
public enum Verdict: Hashable, Sendable {
    case accepted(ISBN)
    case rejected(Rejection)

    /// The ISBN when accepted, else `nil`.
    public var isbn: ISBN? {
        if case .accepted(let isbn) = self { return isbn }
        return nil
    }

    /// The refusal when rejected, else `nil`.
    public var rejection: Rejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }
}
