// SPDX-License-Identifier: Apache-2.0
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
            "reason": "prefix"}], "isbns": [{"isbn13": "9780306406157", "isbn10": "0306406152", "addon": "51299", \
            "hyphenated": null, "group": null, "price": {"currency": "USD", "amount": "12.99", "kind": "price"}}], \
            "rejected": [{"type": "EAN-13", "data": "4901234567894", "reason": "prefix", \
            "detail": "prefix 490 is not 978: Japanese JAN product code"}], "error": null}

            """)
    }

    /// The scan of a Japanese book's two rows, an ISBN with its add-on and a refused code, as a
    /// scan makes it (``ScanReport``, paired): read back from its JSON line, every output is the same.
    @Test func aRecordReadsBackFromItsJSONLineWithItsJapaneseBookCode() throws {
        func symbol(_ data: String, addOn: String? = nil, x: Int, y: Int) -> Symbol {
            Symbol(symbology: .ean13, data: data, addOn: addOn, quality: 40, orientation: 0,
                   polygon: [Point(x: x, y: y), Point(x: x + 380, y: y), Point(x: x + 380, y: y + 192), Point(x: x, y: y + 192)])
        }
        let report = ScanReport(symbols: [symbol("9784048930659", x: 81, y: 45), symbol("9780553293357", addOn: "51299", x: 662, y: 45),
                                          symbol("1923055032002", x: 77, y: 333), symbol("4901234567894", x: 662, y: 417)])
        let options = RecordOptions(ranges: .bundled)
        let record = FileRecord(FileScanResult(path: "shelf.png", report: report, imageSize: (1298, 684)), options: options)
        #expect(record.symbols.map(\.verdict) == ["accepted", "accepted", "jp-book-code", "rejected"])
        let back = try #require(JSONValue(parsing: record.json.encoded).flatMap { FileRecord(json: $0, file: "shelf.png", options: options) })
        #expect(back == record)
        #expect(CSVFormatter(options: .init()).format(back).hasPrefix(
            "shelf.png,9784048930659,4048930656,EAN-13,9784048930659,,accepted,,978-4-04-893065-9,978-4,Japan,,,,3055\r\n"))
        #expect(TextFormatter(options: .init(all: true)).format(back).contains(
            "\nEAN-13 1923055032002 Japanese book code of 9784048930659: C-code 3055 "))
    }

    @Test func textWithAndWithoutAll() {
        #expect(TextFormatter(options: .init(showNames: true, addOns: true)).format(Self.record) == "a,b.png: 9780306406157 51299\n")
        #expect(TextFormatter(options: .init(all: true)).format(Self.record) == """
            EAN-13 9780306406157 accepted ISBN-10 0306406152 add-on 51299 (USD 12.99)
            EAN-13 4901234567894 rejected prefix: prefix 490 is not 978: Japanese JAN product code

            """)
    }

    /// An ISBN read from its barcode and from the line printed beside it is one book: listed once
    /// without `--all` (the barcode's line, with its add-on), both readings with it; the same
    /// ISBN printed on another page, and another ISBN's printed line, are listed.
    @Test func aPrintedLineBesideItsBarcodeIsListedOnce() {
        func code(_ type: String, _ digits: String, addOn: String? = nil, page: Int?) -> SymbolRecord {
            var symbol = SymbolRecord(type: type, data: digits, addOn: addOn, quality: 90, orientation: 0,
                                      polygon: [Point(x: 0, y: 0), Point(x: 9, y: 0), Point(x: 9, y: 9), Point(x: 0, y: 9)],
                                      pass: type == "ISBN text" ? "text" : "full",
                                      isbn: ISBN.judge(ean: digits).isbn.map { ISBNRecord($0, addOn: addOn) }, refusal: nil)
            symbol.page = page
            return symbol
        }
        let photo = FileRecord(file: "back.jpg", width: 10, height: 10,
                               symbols: [code("EAN-13", "9780306406157", addOn: "51299", page: nil),
                                         code("ISBN text", "9780306406157", page: nil),
                                         code("ISBN text", "9781566199094", page: nil)],
                               isbns: [], rejected: [], error: nil)
        #expect(TextFormatter(options: .init(addOns: true)).format(photo) == "9780306406157 51299\n9781566199094\n")
        #expect(TextFormatter(options: .init(all: true)).format(photo).split(separator: "\n").map { $0.prefix(23) }
                == ["EAN-13 9780306406157 ac", "ISBN text 9780306406157", "ISBN text 9781566199094"])
        let pages = FileRecord(file: "scan.tif", width: 10, height: 10,
                               symbols: [code("ISBN text", "9780306406157", page: 1), code("EAN-13", "9780306406157", page: 1),
                                         code("ISBN text", "9780306406157", page: 2)],
                               isbns: [], rejected: [], error: nil)
        #expect(TextFormatter(options: .init(showNames: true)).format(pages)
                == "scan.tif: 9780306406157 (page 1)\nscan.tif: 9780306406157 (page 2)\n")
    }

    @Test func csvQuotesAndRowsPerCode() {
        let csv = CSVFormatter(options: .init())
        #expect(csv.format(Self.record) == "\"a,b.png\",9780306406157,0306406152,EAN-13,9780306406157,51299,accepted,,,,,USD 12.99,,,\r\n"
                + "\"a,b.png\",,,EAN-13,4901234567894,,rejected,prefix: prefix 490 is not 978: Japanese JAN product code,,,,,,,\r\n")
        let unreadable = FileRecord(file: "c.jpg", width: nil, height: nil, symbols: [], isbns: [], rejected: [],
                                    error: "empty file (0 bytes)")
        #expect(csv.format(unreadable) == "c.jpg,,,,,,error,empty file (0 bytes),,,,,,,\r\n")
        #expect(JSONLinesFormatter().format(unreadable) == #"{"file": "c.jpg", "width": null, "height": null, "symbols": [], "isbns": [], "rejected": [], "error": "empty file (0 bytes)"}"# + "\n")
    }

    /// The page and warning columns: the page of each code (from 1) and the file's warning on every row.
    @Test func csvPageAndWarningColumns() {
        var record = Self.record
        record.symbols[0].page = 2
        record.symbols[1].page = 3
        record.pages = 3
        record.warning = "truncated: decoded 2400 of 3000 rows"
        #expect(CSVFormatter(options: .init()).format(record) == "\"a,b.png\",9780306406157,0306406152,EAN-13,9780306406157,51299,accepted,,,,,"
                + "USD 12.99,2,truncated: decoded 2400 of 3000 rows,\r\n"
                + "\"a,b.png\",,,EAN-13,4901234567894,,rejected,prefix: prefix 490 is not 978: Japanese JAN product code,,,,,3,"
                + "truncated: decoded 2400 of 3000 rows,\r\n")
        let empty = FileRecord(file: "d.png", width: 10, height: 10, symbols: [], isbns: [], rejected: [], error: nil)
        var cut = empty
        cut.warning = "truncated: decoded 7 of 10 rows"
        #expect(CSVFormatter(options: .init()).format(empty) == "d.png,,,,,,no-barcode,,,,,,,,\r\n")
        #expect(CSVFormatter(options: .init()).format(cut) == "d.png,,,,,,no-barcode,,,,,,,truncated: decoded 7 of 10 rows,\r\n")
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
    @Test func aRemedyIsWordedAfterTheDetail() {
        let code = ReadCode(symbol: Symbol(symbology: .ean13, data: "9180306406155", quality: 3, orientation: nil, polygon: []),
                            verdict: ISBN.judge(ean: "9180306406155"))
        let record = RefusalRecord(code, code.verdict.rejection!)
        #expect(record.detail == "prefix 918 is not 978: probably a misread of a 978 ISBN (1 and 7, 2 and 8 look alike "
                + "on a worn print): take the photo again")
        let plain = RefusalRecord(Self.refused, Self.refused.verdict.rejection!)
        #expect(plain.detail == "prefix 490 is not 978: Japanese JAN product code")
    }

    @Test func anyReasonIsPrintedByName() {
        var symbol = SymbolRecord(Self.refused)
        symbol.refusal?.reason = "misread"
        #expect(TextFormatter.describe(symbol) == "EAN-13 4901234567894 rejected misread: prefix 490 is not 978: Japanese JAN product code")
        #expect(symbol.json["reason"] == JSONValue.string("misread"))
    }
}

@Suite struct HyphenatedRecordTests {
    @Test func isbnRecordsCarryHyphenationGroupAndPrice() {
        let record = ISBNRecord(ISBN.judge(ean: "9784873119038").isbn!, addOn: "51995", ranges: .bundled)
        #expect(record.json.encoded == #"{"isbn13": "9784873119038", "isbn10": "4873119030", "addon": "51995", "hyphenated": "978-4-87311-903-8", "group": {"prefix": "978-4", "agency": "Japan"}, "price": {"currency": "USD", "amount": "19.95", "kind": "price"}}"#)
        #expect(record.hyphenationText == "978-4-87311-903-8 (978-4 Japan)")
    }

    @Test func notHyphenatableIsSaid() {
        // 978-6700000...978-6998999 has Length 0 in the range message.
        let twelve = "978670000000"
        let isbn = ISBN.judge(ean: twelve + String(EAN.checkDigit(for: EAN.digitValues(twelve)!))).isbn!
        let record = ISBNRecord(isbn, addOn: nil, ranges: .bundled)
        #expect(record.hyphenated == nil && record.group == nil)
        #expect(record.hyphenationText == "not hyphenatable: the range 978-6700000 is not defined for use")
    }

    @Test func judgedAccepts979OnlyWhenAsked() {
        func box(_ y: Int) -> [Point] { [Point(x: 0, y: y), Point(x: 90, y: y), Point(x: 90, y: y + 30), Point(x: 0, y: y + 30)] }
        let symbols = [Symbol(symbology: .ean13, data: "9791032305690", quality: 5, orientation: 0, polygon: box(0)),
                       Symbol(symbology: .ean13, data: "9790230671187", quality: 5, orientation: 0, polygon: box(500))]
        #expect(ScanReport(symbols: symbols).accepted.isEmpty)
        let judged = ScanReport(symbols: symbols, accepting: .with979)
        #expect(judged.accepted.map(\.symbol.data) == ["9791032305690"])
        #expect(judged.rejected.map { $0.verdict.rejection!.reason } == [.ismn])
        let record = SymbolRecord(judged.codes[0], options: RecordOptions(ranges: .bundled, prefixes: .with979))
        #expect(TextFormatter.describe(record) == "EAN-13 9791032305690 accepted 979-10-323-0569-0 (979-10 France)")
    }
}
