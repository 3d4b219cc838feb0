// SPDX-License-Identifier: Apache-2.0
import Testing
import ISBN
@testable import Scanning

@Suite struct ScanReportTests {
    func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> [Point] {
        [Point(x: x, y: y), Point(x: x + w, y: y), Point(x: x + w, y: y + h), Point(x: x, y: y + h)]
    }

    @Test func twoValidReadsAtOnePlaceAreAmbiguous() {
        // 9780306406157 vs 9780306406751? Use two codes that both pass the check digit.
        let a = Symbol(symbology: .ean13, data: "9780306406157", quality: 10, orientation: 0, polygon: box(100, 100, 200, 10))
        let b = Symbol(symbology: .ean13, data: "9780306406751", quality: 3, orientation: 0, polygon: box(102, 104, 198, 8))
        #expect(ISBN.judge(ean: b.data).isbn != nil)
        let report = ScanReport(symbols: [a, b])
        #expect(report.isbns.isEmpty)
        #expect(report.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
    }

    @Test func twoBandsOfOneBarcodeAreOneBookButTwoStackedBooksAreTwo() {
        // Passes that read the same bars along different rows give boxes one above the other.
        let upper = Symbol(symbology: .ean13, data: "9780306406157", quality: 9, orientation: 0, polygon: box(74, 45, 263, 86))
        let lower = Symbol(symbology: .ean13, data: "9780306406157", quality: 5, orientation: 0, polygon: box(75, 131, 257, 58))
        #expect(upper.overlaps(lower))
        #expect(ScanReport(symbols: [upper, lower]).codes.count == 1)
        // Two different books stacked just as close: both kept, neither ambiguous.
        var other = lower
        other.data = "9780553293357"
        #expect(!upper.overlaps(other))
        #expect(ScanReport(symbols: [upper, other]).isbns.map(\.isbn13).sorted() == ["9780306406157", "9780553293357"])
    }

    /// Lines across a slanted barcode cross its bars at different places along them: zbar's
    /// boxes of one product code in a quagga2 photo (640×480) read along rows 44 pixels apart,
    /// sharing 74 of their 186 pixels of length. One code, not two.
    @Test func readingsAcrossASlantedBarcodeAreOneCode() {
        let upper = Symbol(symbology: .ean13, data: "9002244845578", quality: 22, orientation: 180, polygon: box(193, 189, 186, 21))
        let lower = Symbol(symbology: .ean13, data: "9002244845578", quality: 8, orientation: 180, polygon: box(72, 254, 195, 28))
        #expect(upper.overlaps(lower))
        #expect(ScanReport(symbols: [upper, lower]).codes.count == 1)
        // Read along columns: the same, turned.
        let left = Symbol(symbology: .ean13, data: "0882428015343", quality: 27, orientation: 90, polygon: box(331, 167, 26, 156))
        let right = Symbol(symbology: .ean13, data: "0882428015343", quality: 16, orientation: 90, polygon: box(382, 70, 32, 163))
        #expect(left.overlaps(right))
        // Other digits at the same places stay apart; so do copies in one row, end to end.
        var other = lower
        other.data = "9780306406157"
        #expect(!upper.overlaps(other))
        let inRow = Symbol(symbology: .ean13, data: "9002244845578", quality: 8, orientation: 180, polygon: box(400, 189, 186, 21))
        #expect(!upper.overlaps(inRow))
    }

    @Test func twoBooksSideBySideAreBothKept() {
        let a = Symbol(symbology: .ean13, data: "9780306406157", quality: 10, orientation: 0, polygon: box(100, 100, 200, 10))
        let b = Symbol(symbology: .ean13, data: "9780131103627", quality: 10, orientation: 0, polygon: box(400, 100, 200, 10))
        #expect(ScanReport(symbols: [b, a]).isbns.map(\.isbn13) == ["9780306406157", "9780131103627"])
    }

    @Test func sameCodeTwiceAtOnePlaceIsOneCode() {
        let a = Symbol(symbology: .ean13, data: "9780306406157", quality: 4, orientation: 0, polygon: box(100, 100, 200, 10))
        var b = a
        b.quality = 9
        b.pass = "second"
        let report = ScanReport(symbols: [a, b])
        #expect(report.codes.count == 1)
        #expect(report.codes[0].symbol.quality == 9)
    }

    @Test func addOnGoesToTheEAN13BesideIt() {
        let left = Symbol(symbology: .ean13, data: "9780306406157", quality: 10, orientation: 0, polygon: box(100, 100, 200, 60))
        let right = Symbol(symbology: .ean13, data: "9780131103627", quality: 10, orientation: 0, polygon: box(600, 100, 200, 60))
        let addOn = Symbol(symbology: .ean5, data: "51299", quality: 5, orientation: 0, polygon: box(320, 110, 60, 50))
        let report = ScanReport(symbols: [left, right, addOn])
        #expect(report.codes.map(\.symbol.addOn) == ["51299", nil])
    }

    @Test func lonelyAddOnIsDropped() {
        let addOn = Symbol(symbology: .ean5, data: "51299", quality: 5, orientation: 0, polygon: box(320, 110, 60, 50))
        #expect(ScanReport(symbols: [addOn]).codes.isEmpty)
    }
}
