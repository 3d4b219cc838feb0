// SPDX-License-Identifier: Apache-2.0
import Imaging
import Preview
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
