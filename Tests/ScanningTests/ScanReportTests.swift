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
