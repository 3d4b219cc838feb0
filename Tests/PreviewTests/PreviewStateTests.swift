// SPDX-License-Identifier: Apache-2.0
import Imaging
import Preview
import Scanning
import Testing

@Suite struct PreviewStateTests {
    /// The status strip names the region scanned: the band, the whole frame, or the `--roi` given.
    @Test(arguments: [
        (RegionOfInterest.band, "region: band"),
        (RegionOfInterest.full, "region: whole frame"),
        (try! RegionOfInterest(x: 0.1, y: 0.2, width: 0.5, height: 0.25), "region: 0.1,0.2,0.5,0.25"),
    ])
    func statusNamesTheRegionScanned(region: RegionOfInterest, shown: String) {
        let state = PreviewState(scanRegion: region)
        #expect(state.status == "0.0 fps  0 ISBNs  \(shown)")
    }

    /// With --lookup the strip shows the last book's title once known, cut to 40 characters.
    @Test func statusShowsTheLastBooksTitleOnceKnown() {
        var state = PreviewState(scanRegion: .band)
        state.isbnCount = 2
        state.lastISBN = "978-0-306-40615-7"
        state.lastISBN13 = "9780306406157"
        #expect(state.status == "0.0 fps  2 ISBNs  last 978-0-306-40615-7  region: band")
        state.titles["9780451526533"] = "The adventures of Tom Sawyer"
        #expect(state.status == "0.0 fps  2 ISBNs  last 978-0-306-40615-7  region: band")
        state.titles["9780306406157"] = "Signals & systems: an introduction to linear time-invariant analysis"
        #expect(state.status == "0.0 fps  2 ISBNs  last 978-0-306-40615-7 \"Signals & systems: an introduction to...\"  region: band")
    }

    /// With --lookup a confirmed ISBN's outline carries its title once known, cut as in the
    /// strip; a refused code's outline keeps its reason.
    @Test func outlinesCarryTheBooksTitleOnceKnown() throws {
        var state = PreviewState(scanRegion: .full)
        func symbol(_ data: String, y: Int) -> Symbol {
            Symbol(symbology: .ean13, data: data, quality: 9, orientation: 0,
                   polygon: [Point(x: 10, y: y), Point(x: 90, y: y), Point(x: 90, y: y + 20), Point(x: 10, y: y + 20)])
        }
        let report = ScanReport(symbols: [symbol("9780306406157", y: 10), symbol("4901234567894", y: 50)])
        let book = try #require(report.codes.first { $0.symbol.data == "9780306406157" })
        let refused = try #require(report.codes.first { $0.symbol.data == "4901234567894" })
        state.apply(.confirmed(frame: 3, time: 0.1, width: 100, height: 80, report: report, codes: [book]))
        state.apply(.refused(frame: 3, code: refused))
        #expect(state.outlines.map(\.label) == ["4901234567894 refused: prefix", "9780306406157"])
        state.titles["9780306406157"] = "Signals & systems: an introduction to linear time-invariant analysis"
        state.titles["4901234567894"] = "not a book"
        #expect(state.outlines.map(\.label) == ["4901234567894 refused: prefix",
                                                "9780306406157 Signals & systems: an introduction to..."])
    }

    /// A Japanese book's second row is shown with its ISBN, before the title.
    @Test func statusShowsTheJapaneseBookCodeWithTheBook() {
        var state = PreviewState(scanRegion: .full)
        state.isbnCount = 1
        state.lastISBN = "978-4-04-893065-9"
        state.lastISBN13 = "9784048930659"
        state.lastJapaneseCode = "C-code 3055, 3200 yen before tax"
        state.titles["9784048930659"] = "Clean Architecture"
        #expect(state.status == "0.0 fps  1 ISBN  last 978-4-04-893065-9 C-code 3055, 3200 yen before tax \"Clean Architecture\"  region: whole frame")
    }
}

@Suite struct PreviewStateNotesTests {
    /// What the camera command tells the preview: an ISBN printed, with its notes; undone, the
    /// one before it is the last again, without notes.
    @Test func printedAndUndone() {
        var state = PreviewState(scanRegion: .band)
        state.printed("978-0-306-40615-7", isbn13: "9780306406157", japaneseCode: nil, count: 1, alreadyInCatalogue: false)
        state.printed("978-4-04-893065-9", isbn13: "9784048930659", japaneseCode: "C-code 3055, 3200 yen before tax", count: 2,
                      alreadyInCatalogue: true)
        #expect(state.status == "0.0 fps  2 ISBNs  last 978-4-04-893065-9 C-code 3055, 3200 yen before tax (already in catalogue)  region: band")
        state.titles["9780306406157"] = "Signals & systems"
        state.undone(back: "978-0-306-40615-7", isbn13: "9780306406157", count: 1)
        #expect(state.status == "0.0 fps  1 ISBN  last 978-0-306-40615-7 \"Signals & systems\"  region: band")
        state.undone(back: nil, isbn13: nil, count: 0)
        #expect(state.status == "0.0 fps  0 ISBNs  region: band")
    }
}
