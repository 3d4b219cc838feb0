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

    /// The Japan ISBN Agency's table as its copies give it (JapaneseBookCode's sources): every
    /// audience and format, and which subject numbers are used.
    @Test func theTableIsTheAgencys() {
        #expect((0...9).map { JapaneseBookCode.audiences[$0]!.ja } == [
            "一般", "教養", "実用", "専門", "検定教科書・消費税非課税品・その他", "婦人", "学参I（小中）", "学参II（高校）", "児童", "雑誌扱い",
        ])
        #expect((0...9).map { JapaneseBookCode.formats[$0]!.ja } == [
            "単行本", "文庫", "新書", "全集・双書", "ムック・その他", "事・辞典", "図鑑", "絵本", "磁性媒体など", "コミック",
        ])
        #expect(JapaneseBookCode.subjects.keys.sorted() == [
            0, 1, 2, 4, 10, 11, 12, 14, 15, 16, 20, 21, 22, 23, 25, 26, 30, 31, 32, 33, 34, 36, 37, 39,
            40, 41, 42, 43, 44, 45, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58, 60, 61, 62, 63, 65,
            70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 84, 85, 87, 90, 91, 92, 93, 95, 97, 98,
        ])
        #expect([31, 39, 58, 65, 76, 78, 93, 98].map { JapaneseBookCode.subjects[$0]!.ja } == [
            "政治－含む国防軍事", "民族・風習", "その他の工業", "交通・通信", "諸芸・娯楽", "日記・手帳", "日本文学、小説・物語", "外国文学、その他",
        ])
    }

    @Test func anUnusedSubjectNumberHasNoName() throws {
        #expect(try #require(JapaneseBookCode(ean: "1920003015001")).subject == nil)
    }

    @Test(arguments: ["1920095015003", "192009501500", "1930095015007", "9784048930659", "19200950150x2", ""])
    func notAJapaneseBookCode(data: String) {
        #expect(JapaneseBookCode(ean: data) == nil)
    }
}
