import ISBN
import Records
@testable import Scanning
import Testing

@Suite struct JSONValueTests {
    @Test func keysKeepTheirOrderAndNilIsNull() {
        let value = JSONValue.object(["z": .int(1), "a": .null, "m": .array([.bool(true), .string("x")])])
        #expect(value.encoded == #"{"z": 1, "a": null, "m": [true, "x"]}"#)
    }

    @Test func stringsAreEscapedPerRFC8259() {
        #expect(JSONValue.string("a\"b\\c\nd\u{1}").encoded == #""a\"b\\c\nd\u0001""#)
    }
}

@Suite struct FormatterTests {
    static let accepted = ReadCode(symbol: Symbol(symbology: .ean13, data: "9780306406157", addOn: "51299", quality: 9,
                                                  orientation: 0, polygon: [Point(x: 1, y: 2), Point(x: 3, y: 2),
                                                                            Point(x: 3, y: 4), Point(x: 1, y: 4)]),
                                   verdict: ISBN.judge(ean: "9780306406157"))
    static let refused = ReadCode(symbol: Symbol(symbology: .ean13, data: "4901234567894", quality: 3, orientation: nil,
                                                 polygon: [Point(x: 0, y: 50), Point(x: 9, y: 50), Point(x: 9, y: 60),
                                                           Point(x: 0, y: 60)], pass: "smooth"),
                                  verdict: ISBN.judge(ean: "4901234567894"))
    static let record = FileRecord(file: "a,b.png", width: 10, height: 70,
                                   symbols: [SymbolRecord(accepted), SymbolRecord(refused)],
                                   isbns: [ISBNRecord(accepted.verdict.isbn!, addOn: "51299")],
                                   rejected: [RefusalRecord(refused, refused.verdict.rejection!)], error: nil)

    @Test func jsonLineHasTheDocumentedKeysInOrder() {
        #expect(JSONLinesFormatter().format(Self.record) == """
            {"file": "a,b.png", "width": 10, "height": 70, "symbols": [{"type": "EAN-13", "data": "9780306406157", \
            "addon": "51299", "quality": 9, "orientation": 0, "polygon": [[1, 2], [3, 2], [3, 4], [1, 4]], "pass": "full", \
            "verdict": "accepted", "reason": null}, {"type": "EAN-13", "data": "4901234567894", "addon": null, "quality": 3, \
            "orientation": null, "polygon": [[0, 50], [9, 50], [9, 60], [0, 60]], "pass": "smooth", "verdict": "rejected", \
            "reason": "prefix"}], "isbns": [{"isbn13": "9780306406157", "isbn10": "0306406152", "addon": "51299"}], \
            "rejected": [{"type": "EAN-13", "data": "4901234567894", "reason": "prefix", \
            "detail": "prefix 490 is not 978: Japanese JAN product code"}], "error": null}

            """)
    }

    @Test func textWithAndWithoutAll() {
        #expect(TextFormatter(options: .init(showNames: true, addOns: true)).format(Self.record) == "a,b.png: 9780306406157 51299\n")
        #expect(TextFormatter(options: .init(all: true)).format(Self.record) == """
            EAN-13 9780306406157 accepted ISBN-10 0306406152 add-on 51299
            EAN-13 4901234567894 rejected prefix: prefix 490 is not 978: Japanese JAN product code

            """)
    }

    @Test func csvQuotesAndRowsPerCode() {
        let csv = CSVFormatter(options: .init())
        #expect(csv.format(Self.record) == "\"a,b.png\",9780306406157,0306406152,EAN-13,9780306406157,51299,accepted,\r\n"
                + "\"a,b.png\",,,EAN-13,4901234567894,,rejected,prefix: prefix 490 is not 978: Japanese JAN product code\r\n")
        let unreadable = FileRecord(file: "c.jpg", width: nil, height: nil, symbols: [], isbns: [], rejected: [],
                                    error: "empty file (0 bytes)")
        #expect(csv.format(unreadable) == "c.jpg,,,,,,error,empty file (0 bytes)\r\n")
        #expect(JSONLinesFormatter().format(unreadable) == #"{"file": "c.jpg", "width": null, "height": null, "symbols": [], "isbns": [], "rejected": [], "error": "empty file (0 bytes)"}"# + "\n")
    }

    @Test func uniqueCountsFilesAndKeepsTheFirst() {
        var unique = UniqueAggregator()
        unique.add(Self.record)
        var second = Self.record
        second.file = "z.png"
        unique.add(second)
        #expect(unique.records == [UniqueRecord(isbn13: "9780306406157", isbn10: "0306406152", count: 2, file: "a,b.png")])
        #expect(TextFormatter(options: .init()).format(unique.records[0]) == "9780306406157 2 a,b.png\n")
    }

    /// A reason the formatters have never heard of is printed by its name.
    @Test func anyReasonIsPrintedByName() {
        var symbol = SymbolRecord(Self.refused)
        symbol.refusal?.reason = "misread"
        #expect(TextFormatter.describe(symbol) == "EAN-13 4901234567894 rejected misread: prefix 490 is not 978: Japanese JAN product code")
        #expect(symbol.json["reason"] == JSONValue.string("misread"))
    }
}
