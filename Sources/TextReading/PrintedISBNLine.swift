// SPDX-License-Identifier: Apache-2.0
/// What one recognised line says about an ISBN: the digits after its `ISBN` keyword, and the
/// qualifier printed after them.
///
/// The rule (Documentation/text.md): a line holds an ISBN only where the keyword `ISBN` is printed
/// (`ISBN`, `ISBN:`, `ISBN-10:`, `ISBN-13`, `ISBN4-…` as Japanese books print it; the OCR's usual
/// confusions of its letters, `1SBN`, `I5BN`, `ISB N`, count), followed by digit groups separated
/// by hyphens, spaces or dots that make exactly 10 characters (9 digits and a digit or `X`) or 13
/// digits, ending where a group ends. A line of numbers without the keyword (a phone number, a
/// price list, an order number, a page of figures) holds no ISBN, however its digits add up.
/// The printed hyphens say nothing (publishers misplace them): only the digits are kept.
struct PrintedISBNLine: Equatable, Sendable {
    /// The digits after the keyword: 10 (the last may be `X`) or 13, no separators.
    var digits: String
    /// The qualifier printed after them in parentheses, without them (`pbk.`, `hardcover`), or `nil`.
    var qualifier: String?

    /// Every ISBN-shaped run of digits after an `ISBN` keyword in `text`, in order.
    ///
    /// - Parameter keywordSeen: the line is known to hold the keyword (a second reading of a line
    ///   whose first reading showed it): when this reading has no keyword, the digits are taken
    ///   from its first digit on.
    static func parse(_ text: String, keywordSeen: Bool = false) -> [PrintedISBNLine] {
        let chars = Array(text.uppercased().map(normalised))
        var found: [PrintedISBNLine] = []
        var index = 0
        if keywordSeen, keywordEnd(in: chars, from: 0) == nil {
            // After the keyword's tail where the reading kept it (`[SBN 1-…`), else from the first digit.
            let start = keywordTail(in: chars) ?? 0
            guard let first = chars[start...].firstIndex(where: \.isDigit), let (digits, end) = groups(in: chars, from: first) else { return [] }
            return [PrintedISBNLine(digits: digits, qualifier: qualifier(in: chars, from: end))]
        }
        while let keyword = keywordEnd(in: chars, from: index) {
            index = keyword
            var cursor = keyword
            // The label's "-10", "-13", "- 13:", " 10:" (the two digits then a colon, or a hyphen
            // before them and a space after: "ISBN-10 0-306-…", but not the group of "ISBN 10-…"),
            // and ":" itself.
            var label = cursor, hyphen = false
            while label < chars.count, chars[label] == "-" || chars[label] == " " { hyphen = hyphen || chars[label] == "-"; label += 1 }
            if label > cursor, label + 2 < chars.count, ["10", "13"].contains(String(chars[label..<label + 2])),
               chars[label + 2] == ":" || (hyphen && chars[label + 2] == " ") {
                cursor = label + 2
            }
            while cursor < chars.count, chars[cursor] == ":" || chars[cursor] == " " || chars[cursor] == "-" { cursor += 1 }
            guard let (digits, end) = groups(in: chars, from: cursor) else { continue }
            index = end
            found.append(PrintedISBNLine(digits: digits, qualifier: qualifier(in: chars, from: end)))
        }
        return found
    }

    /// Whether `text` has the keyword, or its last three letters at the start of a word (`'SBN`:
    /// the OCR lost the `I` of a small or blurred line). Such a line is read again; what the
    /// readings give must still have an ISBN's shape and check digit.
    static func hasKeyword(_ text: String) -> Bool {
        let chars = Array(text.uppercased())
        return keywordEnd(in: chars, from: 0) != nil || keywordTail(in: chars) != nil
    }

    /// The index after the first `SBN` that starts a word and ends one, or `nil`.
    private static func keywordTail(in chars: [Character]) -> Int? {
        var i = 0
        while i + 3 <= chars.count {
            if String(chars[i..<i + 3]) == "SBN", i == 0 || !chars[i - 1].isLetter,
               i + 3 == chars.count || !chars[i + 3].isLetter { return i + 3 }
            i += 1
        }
        return nil
    }

    /// Letters the OCR gives for digits (`O`/`D` for 0, `I`/`L`/`|` for 1, `S` for 5, `B` for 8,
    /// `Z` for 2), read as those digits inside a group: where the next character is a digit, or
    /// a digit comes before and a separator and a digit after (not after the last group: the `S`
    /// of `5S (paperback)` stays a letter).
    private static let digitLookAlikes: [Character: Character] = ["O": "0", "D": "0", "I": "1", "L": "1", "|": "1",
                                                                  "S": "5", "B": "8", "Z": "2"]

    /// Dashes and look-alike separators as `-`.
    private static func normalised(_ c: Character) -> Character {
        switch c {
        case "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}", "_": "-"
        default: c
        }
    }

    /// The index after the next `ISBN` keyword at or after `start` (letters the OCR confuses
    /// accepted: `1`/`L`/`|` for `I`, `5`/`$` for `S`, `8` for `B`; one space inside allowed).
    private static func keywordEnd(in chars: [Character], from start: Int) -> Int? {
        let alternatives: [Set<Character>] = [["I", "1", "L", "|", "l"], ["S", "5", "$"], ["B", "8"], ["N"]]
        var i = start
        while i < chars.count {
            var j = i, matched = 0
            while matched < 4, j < chars.count {
                if alternatives[matched].contains(chars[j]) { matched += 1; j += 1 }
                else if chars[j] == " " && matched > 0 && matched < 4 && j + 1 < chars.count && chars[j + 1] != " " { j += 1 }
                else { break }
            }
            // Not the tail of a longer word ("ISBNS" is not a keyword; "XISBN" neither).
            let before = i == 0 || !chars[i - 1].isLetter
            if matched == 4, before, j == chars.count || !chars[j].isLetter { return j }
            i += 1
        }
        return nil
    }

    /// Digit groups from `start`: the first 13 digits when they make whole groups and start with
    /// 978/979, else the first 10 (the tenth may be `X`) when they make whole groups; with the
    /// index after them.
    private static func groups(in chars: [Character], from start: Int) -> (String, Int)? {
        var digits = "", i = start, ends: [(String, Int)] = []
        while i < chars.count {
            var c = chars[i]
            if let digit = digitLookAlikes[c], i + 1 < chars.count {
                let next = chars[i + 1]
                let endsGroup = i > start && chars[i - 1].isDigit && "-. ".contains(next) && i + 2 < chars.count && chars[i + 2].isDigit
                if next.isDigit || endsGroup { c = digit }
            }
            if c.isDigit || c == "X" {
                if c == "X" && digits.count != 9 { break }
                digits.append(c)
                i += 1
                if c == "X" { break }
                continue
            }
            // A group ends here.
            if digits.count == 10 || digits.count == 13 { ends.append((digits, i)) }
            if c == "-" || c == "." || c == " " {
                // One separator (a space around a hyphen counts as part of it) between groups.
                var j = i + 1
                while j < chars.count, chars[j] == " " || chars[j] == "-" { j += 1 }
                let lookAlike = j + 1 < chars.count && digitLookAlikes[chars[j]] != nil && chars[j + 1].isDigit
                guard j < chars.count, chars[j].isDigit || chars[j] == "X" || lookAlike, j - i <= 3 else { break }
                i = j
                continue
            }
            break
        }
        if digits.count == 10 || digits.count == 13, i == chars.count || !(chars[i].isDigit) {
            if ends.last?.0 != digits { ends.append((digits, i)) }
        }
        if let thirteen = ends.first(where: { $0.0.count == 13 }), thirteen.0.hasPrefix("978") || thirteen.0.hasPrefix("979") {
            return thirteen
        }
        return ends.first { $0.0.count == 10 }
    }

    /// The first parenthesised words after `start`, e.g. `pbk.` of `(pbk.)`, when they come
    /// before any further digits.
    private static func qualifier(in chars: [Character], from start: Int) -> String? {
        guard let open = chars[start...].firstIndex(of: "("), !chars[start..<open].contains(where: \.isDigit),
              let close = chars[open...].firstIndex(of: ")"), close - open > 1, close - open <= 30 else { return nil }
        return String(chars[(open + 1)..<close]).lowercased()
    }
}

extension Character {
    fileprivate var isDigit: Bool { isASCII && isNumber }
}
