// SPDX-License-Identifier: Apache-2.0
/// A validated ISBN-13: 978 ("Bookland"), or 979 when the caller accepts it; 978 ones have an
/// ISBN-10 form.
///
/// Rules: ISO 2108 and the ISBN Users' Manual (International ISBN Agency, 7th ed.): an
/// ISBN-13 is an EAN-13 whose GS1 prefix is 978 or 979, with the EAN-13 modulo-10 check digit
/// (weights 1, 3). Only 978 numbers have an ISBN-10 form: the 9 digits after 978 followed by a
/// modulo-11 check digit (weights 10…2), written `X` when it is 10.
///
/// isbnscan accepts 978 only by default, as the iOS reader it replaces does (`code.count == 13 &&
/// code.hasPrefix("978")`); 979 numbers are refused with reason ``RejectionReason/prefix`` unless
/// ``ISBNPrefixes/with979`` is asked for. 979-0 is an ISMN (ISO 10957, printed music), never an
/// ISBN: refused with ``RejectionReason/ismn`` either way.
public struct ISBN: Hashable, Sendable, CustomStringConvertible {
    /// The 13 digits, no hyphens, e.g. `"9780306406157"`.
    public let isbn13: String

    /// Judges a 13-digit EAN as read from a barcode.
    ///
    /// Checks in this order and reports the first failure: ``RejectionReason/nonDigit``,
    /// ``RejectionReason/length`` (13 digits), ``RejectionReason/ismn`` (9790),
    /// ``RejectionReason/prefix`` (978, or 978 and 979 with `prefixes` ``ISBNPrefixes/with979``),
    /// ``RejectionReason/checkDigit``.
    public static func judge(ean data: String, accepting prefixes: ISBNPrefixes = .only978) -> Verdict {
        guard !data.isEmpty else { return .rejected(Rejection(.nonDigit, "empty code")) }
        guard let digits = EAN.digitValues(data) else {
            return .rejected(Rejection(.nonDigit, "'\(data)' has characters other than the digits 0-9"))
        }
        guard digits.count == 13 else {
            return .rejected(Rejection(.length, "\(digits.count) digits, an ISBN-13 has 13"))
        }
        if data.hasPrefix("9790") {
            return .rejected(Rejection(.ismn, "prefix 979-0 is an ISMN (printed music), not an ISBN"))
        }
        guard data.hasPrefix("978") || (prefixes == .with979 && data.hasPrefix("979")) else {
            let (explanation, remedy) = prefixExplanation(data)
            return .rejected(Rejection(.prefix, explanation, remedy: remedy))
        }
        guard EAN.hasValidCheckDigit(digits) else {
            let expected = EAN.checkDigit(for: Array(digits.dropLast()))
            return .rejected(Rejection(.checkDigit, "check digit is \(digits[12]), expected \(expected)"))
        }
        return .accepted(ISBN(isbn13: data))
    }

    /// Judges a code typed by a person: ISBN-13 or ISBN-10, with optional hyphens or spaces
    /// and an optional leading `ISBN`, `ISBN-13:` or `ISBN-10:` label.
    ///
    /// An ISBN-10 (9 digits and a check digit 0-9 or X) must pass its modulo-11 check, then is
    /// converted to its 978 ISBN-13 and judged like a scanned code. A code of another length,
    /// or an empty one (nothing after the label), is refused with ``RejectionReason/length``
    /// naming both lengths: `"8 digits, an ISBN has 10 or 13"`, `"empty code, an ISBN has 10 or 13 digits"`.
    public static func judge(typed input: String, accepting prefixes: ISBNPrefixes = .only978) -> Verdict {
        // Dashes pasted from web catalogues (U+2010 hyphen, U+2011 non-breaking hyphen,
        // U+2012 figure dash, U+2013 en dash, U+2212 minus) count as the hyphen-minus.
        let dashes: Set<Character> = ["\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2212}"]
        var text = Substring(String(input.map { dashes.contains($0) ? "-" : $0 }).trimmingWhitespace())
        for label in ["ISBN-13:", "ISBN-10:", "ISBN13:", "ISBN10:", "ISBN-13", "ISBN-10", "ISBN:", "ISBN"] {
            if text.uppercased().hasPrefix(label) { text = text.dropFirst(label.count); break }
        }
        guard !text.isEmpty else { return .rejected(Rejection(.length, "empty code, an ISBN has 10 or 13 digits")) }
        if text.first == "-" || text.last == "-" {
            return .rejected(Rejection(.nonDigit, "'\(text)' starts or ends with a hyphen"))
        }
        let compact = String(text.filter { $0 != "-" && $0 != " " })
        if compact.count == 10, let isbn10Digits = EAN.digitValues(compact.prefix(9)),
           let last = compact.last, (last.isASCII && last.isNumber) || last == "X" || last == "x" {
            let given: UInt8 = (last == "X" || last == "x") ? 10 : UInt8(String(last)) ?? 255
            let expected = isbn10CheckDigit(isbn10Digits)
            guard given == expected else {
                return .rejected(Rejection(.checkDigit,
                    "ISBN-10 check digit is \(last), expected \(expected == 10 ? "X" : String(expected))"))
            }
            let payload = [9, 7, 8] + isbn10Digits
            let isbn13 = (payload + [EAN.checkDigit(for: payload)]).map(String.init).joined()
            return judge(ean: isbn13, accepting: prefixes)
        }
        let verdict = judge(ean: compact, accepting: prefixes)
        // A typed code may be an ISBN-10 too: the length refusal names both lengths.
        if verdict.rejection?.reason == .length {
            return .rejected(Rejection(.length, "\(compact.count) digits, an ISBN has 10 or 13"))
        }
        return verdict
    }

    /// The ISBN-10 form: the 9 digits after 978 and a modulo-11 check digit (`X` for 10);
    /// `nil` for a 979 ISBN, which has none.
    public var isbn10: String? {
        guard isbn13.hasPrefix("978") else { return nil }
        let core = EAN.digitValues(isbn13.dropFirst(3).prefix(9))!
        let check = ISBN.isbn10CheckDigit(core)
        return core.map(String.init).joined() + (check == 10 ? "X" : String(check))
    }

    public var description: String { isbn13 }

    private init(isbn13: String) { self.isbn13 = isbn13 }

    /// ISBN-10 check value 0…10 for 9 digits: weights 10, 9, …, 2; sum + check ≡ 0 (mod 11).
    static func isbn10CheckDigit(_ nine: [UInt8]) -> UInt8 {
        var sum = 0
        for (index, digit) in nine.enumerated() { sum += Int(digit) * (10 - index) }
        return UInt8((11 - sum % 11) % 11)
    }

    /// Names the GS1 prefix of a 13-digit code that is not 978 (GS1 General Specifications
    /// 1.4, GS1 prefixes), so a refusal says what the code probably is, and whether a new photo
    /// would help.
    static func prefixExplanation(_ data: String) -> (String, Remedy?) {
        let kind: String
        var remedy: Remedy?
        if data.hasPrefix("9790") { kind = "ISMN (printed music)" }
        else if data.hasPrefix("979") { kind = "ISBN-13 in the 979 range" }
        else if data.hasPrefix("977") { kind = "ISSN (serial publication)" }
        else if ["918", "972", "912"].contains(where: data.hasPrefix) {
            // 978 with 7 read as 1 or 8 as 2: the digits a print's ink spread confuses.
            kind = "probably a misread of a 978 ISBN (1 and 7, 2 and 8 look alike on a worn print)"
            remedy = .retakePhoto
        }
        else if data.hasPrefix("45") || data.hasPrefix("49") { kind = "Japanese JAN product code" }
        else if data.hasPrefix("0") { kind = "UPC-A product code (US/Canada)" }
        else if data.hasPrefix("2") { kind = "restricted-circulation number (in-store code)" }
        else { kind = "product code" }
        return ("prefix \(data.prefix(3)) is not 978: \(kind)", remedy)
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        var s = Substring(self)
        while let first = s.first, first.isWhitespace { s = s.dropFirst() }
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return s
    }
}

/// Which GS1 prefixes count as ISBNs.
public enum ISBNPrefixes: Sendable, Hashable {
    /// 978 only (the default, as the iOS reader isbnscan replaces).
    case only978
    /// 978 and 979 (979-8, 979-10…979-13; 979-0 is an ISMN and stays refused).
    case with979
}
