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
}
