// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import TextReading

/// The shape rule for a printed ISBN: the keyword, then 10 or 13 digits in whole groups.
@Suite struct PrintedISBNLineTests {
    @Test(arguments: [
        ("ISBN 0-306-40615-2", ["0306406152"]),
        ("ISBN-13: 978-4-10-101001-4", ["9784101010014"]),
        ("ISBN-10: 0-8044-2957-X", ["080442957X"]),
        ("ISBN- 10: 84-376-4077-6", ["8437640776"]),        // the label read apart
        ("ISBN 10-306-40615", ["1030640615"]),              // "10" here is a group, not a label
        ("ISBN-13 978-4-10-101001-4", ["9784101010014"]),
        ("ISBN4-10-101001-3 C0193 ¥476E", ["4101010013"]),
        ("isbn 0 306 40615 2", ["0306406152"]),
        ("ISBN: 0306406152", ["0306406152"]),
        ("1SBN 0-306-40615-2", ["0306406152"]),          // the OCR's 1 for I
        ("ISBN 978–0–306–40615–7", ["9780306406157"]),   // en dashes
        ("ISBN 978-0-306-40615.7", ["9780306406157"]),   // a hyphen read as a dot
        ("ISBN 0-306-40615-2; ISBN 978-4-10-101001-4", ["0306406152", "9784101010014"]),
        // Misplaced hyphens are no evidence either way.
        ("ISBN 03-0640-6152", ["0306406152"]),
        // 13 digits that do not start with 978/979: the first 10 when they end a group.
        ("ISBN 0-306-40615-2 123", ["0306406152"]),
    ])
    func readsTheDigitsAfterTheKeyword(line: String, digits: [String]) {
        #expect(PrintedISBNLine.parse(line).map(\.digits) == digits)
    }

    @Test(arguments: [
        "Tel. 0-306-40615-2",                // no keyword
        "Orders: 030-640-6152",
        "ISSN 0317-8471",
        "ISBNS 0306406152",                   // a longer word
        "ISBN 030640615",                     // 9 digits
        "ISBN 0-306-40615-21",                // 11 digits
        "ISBN 03064X6152",                    // X inside
        "ISBN 97803064061577",                // 14 digits
        "ISBN",
        "12.95  8.50  19.99  0306406152",
    ])
    func findsNoISBNWithoutTheShape(line: String) {
        #expect(PrintedISBNLine.parse(line) == [])
    }

    @Test func keepsTheQualifier() {
        #expect(PrintedISBNLine.parse("ISBN 0-306-40615-2 (pbk.)") == [PrintedISBNLine(digits: "0306406152", qualifier: "pbk.")])
        #expect(PrintedISBNLine.parse("ISBN 978-1-56619-909-4 (Hardcover)").first?.qualifier == "hardcover")
        #expect(PrintedISBNLine.parse("ISBN 0-306-40615-2").first?.qualifier == nil)
        // A parenthesis after other digits is not this ISBN's.
        #expect(PrintedISBNLine.parse("ISBN 0-306-40615-2 12 (cloth)").first?.qualifier == nil)
    }
}

/// Readings of a line whose first reading showed the keyword, and the OCR's letters for digits.
@Suite struct PrintedISBNLineRereadTests {
    @Test func aSecondReadingNeedsNoKeyword() {
        #expect(PrintedISBNLine.parse("978-1-56619-171-5", keywordSeen: true).map(\.digits) == ["9781566191715"])
        #expect(PrintedISBNLine.parse("978-1-56619-171-5").isEmpty)
        // Still the shape: 12 digits are no ISBN.
        #expect(PrintedISBNLine.parse("978-1-56619-171-", keywordSeen: true).isEmpty)
    }

    /// A reading that kept only the keyword's tail (`[SBN`, `'SBN`): the digits after it, not a
    /// number before it.
    @Test func aSecondReadingTakesTheDigitsAfterTheKeywordsTail() {
        #expect(PrintedISBNLine.parse("[SBN 1-55860-497-9 |", keywordSeen: true).map(\.digits) == ["1558604979"])
        #expect(PrintedISBNLine.parse("Tel. 03 'SBN 0-306-40615-2", keywordSeen: true).map(\.digits) == ["0306406152"])
        #expect(PrintedISBNLine.parse("Tel. 03 'SBN 0-306-40615-2").isEmpty)
    }

    @Test func lettersInsideAGroupAreTheDigitsTheyLookLike() {
        #expect(PrintedISBNLine.parse("ISBN 978-1-S6619-17I-5").map(\.digits) == ["9781566191715"])
        #expect(PrintedISBNLine.parse("ISBN 0-3O6-4O615-2").map(\.digits) == ["0306406152"])
        // A letter after the last digit is not one (the 'S' of a reading of "5 (paperback)").
        #expect(PrintedISBNLine.parse("ISBN: 978-1-56619-171-5S (paperback)").map(\.digits) == ["9781566191715"])
    }

    @Test(arguments: [("ISBN 0-306-40615-2", true), ("'SBN77K-0-14.236390.4", true), ("Tel. 0-306-40615-2", false),
                      ("SUBSBNX 12", false), ("the ISBNs of", false)])
    func hasKeyword(line: String, expected: Bool) {
        #expect(PrintedISBNLine.hasKeyword(line) == expected)
    }
}
