// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import ISBN

@Suite struct ISBNTests {
    @Test(arguments: [
        ("9780306406157", "0306406152"),
        ("9780131103627", "0131103628"),
        ("9780804429573", "080442957X"),  // ISBN-10 check value 10 is written X
        ("9781491949863", "1491949864"),
    ])
    func acceptsValid978(ean: String, isbn10: String) throws {
        let isbn = try #require(ISBN.judge(ean: ean).isbn)
        #expect(isbn.isbn13 == ean)
        #expect(isbn.isbn10 == isbn10)
    }

    @Test(arguments: [
        ("96385074", RejectionReason.length),          // EAN-8
        ("978030640615", .length),                     // 12 digits
        ("97803064061577", .length),                   // 14 digits
        ("9791032305690", .prefix),                    // valid 979 ISBN: refused, 978 only
        ("9790230671187", .ismn),                      // ISMN: its own reason
        ("4901234567894", .prefix),                    // JAN
        ("0036000291452", .prefix),                    // UPC-A as EAN-13
        ("9780306406158", .checkDigit),
        ("97803064O6157", .nonDigit),                  // letter O
        ("", .nonDigit),
    ])
    func rejectsWithReason(ean: String, reason: RejectionReason) {
        #expect(ISBN.judge(ean: ean).rejection?.reason == reason)
    }

    @Test func rejectionDetailsSayWhatFailed() {
        #expect(ISBN.judge(ean: "9780306406158").rejection?.detail == "check digit is 8, expected 7")
        #expect(ISBN.judge(ean: "4901234567894").rejection?.detail == "prefix 490 is not 978: Japanese JAN product code")
        #expect(ISBN.judge(ean: "4901234567894").rejection?.remedy == nil)
        // A 978 read with 7 as 1: the rule says a new photo would help, in a value, not in words.
        let misread = ISBN.judge(ean: "9180306406155").rejection
        #expect(misread?.detail == "prefix 918 is not 978: probably a misread of a 978 ISBN (1 and 7, 2 and 8 look alike on a worn print)")
        #expect(misread?.remedy == .retakePhoto)
        #expect(ISBN.judge(ean: "96385074").rejection?.detail == "8 digits, an ISBN-13 has 13")
        #expect(ISBN.judge(ean: "9790230671187").rejection?.detail == "prefix 979-0 is an ISMN (printed music), not an ISBN")
    }

    @Test(arguments: [
        ("978-0-306-40615-7", "9780306406157"),
        ("978 0 306 40615 7", "9780306406157"),
        ("0-306-40615-2", "9780306406157"),       // ISBN-10 converted
        ("080442957X", "9780804429573"),
        ("080442957x", "9780804429573"),
        ("ISBN 0-306-40615-2", "9780306406157"),
        ("ISBN-13: 978-0-306-40615-7", "9780306406157"),
        ("  9780306406157\n", "9780306406157"),
    ])
    func typedCodes(input: String, isbn13: String) {
        #expect(ISBN.judge(typed: input).isbn?.isbn13 == isbn13)
    }

    @Test func typedISBN10WithBadCheckDigit() {
        let rejection = ISBN.judge(typed: "0-306-40615-3").rejection
        #expect(rejection?.reason == .checkDigit)
        #expect(rejection?.detail == "ISBN-10 check digit is 3, expected 2")
    }

    @Test func typedEmptyOrDanglingHyphen() {
        // Empty (nothing typed, or a label alone): a length refusal, as it has no digits at all.
        #expect(ISBN.judge(typed: "") == .rejected(Rejection(.length, "empty code, an ISBN has 10 or 13 digits")))
        #expect(ISBN.judge(typed: "ISBN:") == .rejected(Rejection(.length, "empty code, an ISBN has 10 or 13 digits")))
        // A typed code may be an ISBN-10: both lengths are named (a scanned EAN names 13 only).
        #expect(ISBN.judge(typed: "03064061") == .rejected(Rejection(.length, "8 digits, an ISBN has 10 or 13")))
        #expect(ISBN.judge(typed: "978-0-306-4061") == .rejected(Rejection(.length, "11 digits, an ISBN has 10 or 13")))
        #expect(ISBN.judge(ean: "03064061") == .rejected(Rejection(.length, "8 digits, an ISBN-13 has 13")))
        #expect(ISBN.judge(typed: "-9780306406157").rejection?.reason == .nonDigit)
        #expect(ISBN.judge(typed: "9780306406157-").rejection?.reason == .nonDigit)
    }

    @Test func typedCodeWithLetters() {
        #expect(ISBN.judge(typed: "978-0-306-4O615-7").rejection?.reason == .nonDigit)
        #expect(ISBN.judge(typed: "030640615²").rejection?.reason == .nonDigit)   // superscript two
        #expect(ISBN.judge(typed: "030640615٢").rejection?.reason == .nonDigit)   // Arabic-Indic two
    }

    @Test func eanCheckDigitForEAN8AndEAN13() {
        #expect(EAN.checkDigit(for: [9, 6, 3, 8, 5, 0, 7]) == 4)
        #expect(EAN.checkDigit(for: [9, 7, 8, 0, 3, 0, 6, 4, 0, 6, 1, 5]) == 7)
        #expect(EAN.hasValidCheckDigit([9, 6, 3, 8, 5, 0, 7, 4]))
        #expect(!EAN.hasValidCheckDigit([9, 6, 3, 8, 5, 0, 7, 5]))
    }

    @Test func everySingleDigitErrorIsCaught() {
        // The EAN modulo-10 check detects every single-digit substitution.
        let valid = Array("9780306406157")
        for position in 0..<13 {
            for digit in "0123456789" where digit != valid[position] {
                var code = valid
                code[position] = digit
                #expect(ISBN.judge(ean: String(code)).isbn == nil, "\(String(code)) accepted")
            }
        }
    }
}
