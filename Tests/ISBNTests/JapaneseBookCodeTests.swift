// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import ISBN

@Suite struct JapaneseBookCodeTests {
    @Test func theSecondRowOfAJapaneseBook() throws {
        let code = try #require(JapaneseBookCode(ean: "1920095015002"))
        #expect(code.cCode == "0095")
        #expect(code.priceYen == 1500)
        #expect(!code.taxIncluded)
        #expect(code.audience == .init(ja: "一般", en: "General"))
        #expect(code.format == .init(ja: "単行本", en: "Monograph"))
        #expect(code.subject == .init(ja: "日本文学、評論、随筆、その他", en: "Japanese literature: criticism, essays, other"))
        #expect(code.description == "C-code 0095 一般/単行本/日本文学、評論、随筆、その他 (General/Monograph/Japanese literature: criticism, essays, other), 1500 yen before tax")
    }

    @Test func olderTaxIncludedForm() throws {
        let code = try #require(JapaneseBookCode(ean: "1911079009803"))
        #expect(code.cCode == "1079")
        #expect(code.priceYen == 980)
        #expect(code.taxIncluded)
        #expect(code.audience?.en == "Liberal arts")
        #expect(code.format?.en == "Monograph")
        #expect(code.subject?.en == "Comics, gekiga")
        #expect(code.priceText == "980 yen tax included")
    }

    @Test func priceOf100000YenOrMore() throws {
        let code = try #require(JapaneseBookCode(ean: "1923040000009"))
        #expect(code.priceYen == nil)
        #expect(code.priceText == "100000 yen or more")
        #expect(code.subject?.ja == "自然科学総記")
    }

    @Test func anUnusedSubjectNumberHasNoName() throws {
        #expect(try #require(JapaneseBookCode(ean: "1920003015001")).subject == nil)
    }

    @Test(arguments: ["1920095015003", "192009501500", "1930095015007", "9784048930659", "19200950150x2", ""])
    func notAJapaneseBookCode(data: String) {
        #expect(JapaneseBookCode(ean: data) == nil)
    }
}
