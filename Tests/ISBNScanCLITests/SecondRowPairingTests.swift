// SPDX-License-Identifier: Apache-2.0
import ISBN
@testable import ISBNScanCLI
import Records
import Scanning
import Testing

/// The camera's pairing of a Japanese book's two barcodes, read in different frames.
@Suite struct SecondRowPairingTests {
    static func symbol(_ data: String) -> Symbol {
        Symbol(symbology: .ean13, data: data, quality: 9, orientation: 0,
               polygon: [Point(x: 0, y: 0), Point(x: 9, y: 0), Point(x: 9, y: 9), Point(x: 0, y: 9)])
    }

    /// The frame event of the ISBN 9784048930659 confirmed alone at `frame`.
    static func isbnConfirmed(at frame: Int) -> FrameEventRecord {
        let report = ScanReport(symbols: [symbol("9784048930659")])
        return FrameEventRecord(device: "/dev/video0", frame: frame, width: 10, height: 10, report: report, printed: report.codes,
                                options: RecordOptions())
    }

    /// A second row read up to 45 frames before its ISBN is confirmed belongs to it; later, not.
    @Test(arguments: [(40, "3055"), (55, "3055"), (56, nil)])
    func theSecondRowGoesToTheISBNConfirmedSoonAfter(frame: Int, cCode: String?) {
        var pairing = SecondRowPairing()
        pairing.read(ScanReport(symbols: [Self.symbol("1923055032002")]), frame: 10)
        var event = Self.isbnConfirmed(at: frame)
        pairing.attach(to: &event, frame: frame)
        #expect(event.isbns.map(\.isbn13) == ["9784048930659"])
        #expect(event.isbns.first?.jpBookCode?.cCode == cCode)
    }

    /// A second row refused on its own is said once, and not at all right after its ISBN was printed.
    @Test func aSecondRowAloneIsSaidOnceAndNotAfterItsISBN() throws {
        let code = try #require(JapaneseBookCode(ean: "1923055032002"))
        var pairing = SecondRowPairing()
        let first = pairing.shouldExplain(code, at: 5), second = pairing.shouldExplain(code, at: 6)
        #expect(first && !second)
        var afterISBN = SecondRowPairing()
        afterISBN.printed(at: 100)
        let near = afterISBN.shouldExplain(code, at: 145), later = afterISBN.shouldExplain(code, at: 146)
        #expect(!near && later)
    }
}
