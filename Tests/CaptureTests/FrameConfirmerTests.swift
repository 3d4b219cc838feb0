import Capture
import Testing

@Suite struct FrameConfirmerTests {
    @Test func reportsAtTheSecondSighting() {
        var c = FrameConfirmer()
        #expect(c.observe(["9780306406157"], at: 0.0) == [])
        #expect(c.observe(["9780306406157"], at: 0.1) == ["9780306406157"])
        #expect(c.observe(["9780306406157"], at: 0.2) == [])
    }

    @Test func aSingleMisreadIsNeverReported() {
        var c = FrameConfirmer(requiredFrames: 2, repeatAfter: 1)
        #expect(c.observe(["9780306406158"], at: 0) == [])
        for t in 1...20 { #expect(c.observe([], at: Double(t) * 0.1) == []) }
        #expect(c.tracked.isEmpty)
        #expect(c.observe(["9780306406158"], at: 3) == [])   // a new visit starts at one sighting again
    }

    @Test func theSameCodeIsReportedAgainOnlyAfterLeavingTheView() {
        var c = FrameConfirmer(requiredFrames: 2, repeatAfter: 3)
        #expect(c.observe(["A"], at: 0) == [])
        #expect(c.observe(["A"], at: 0.1) == ["A"])
        #expect(c.observe([], at: 1) == [])
        #expect(c.observe(["A"], at: 2) == [])     // out of view for 1.9 s: same visit
        #expect(c.observe([], at: 5.5) == [])      // 3.5 s since last seen: gone
        #expect(c.observe(["A"], at: 6) == [])
        #expect(c.observe(["A"], at: 6.1) == ["A"])
    }

    @Test func severalCodesAndDuplicatesInAFrame() {
        var c = FrameConfirmer(requiredFrames: 3, repeatAfter: 3)
        #expect(c.observe(["A", "A", "B"], at: 0) == [])
        #expect(c.observe(["B", "A"], at: 1) == [])
        #expect(c.observe(["B", "A"], at: 2) == ["B", "A"])
    }

    @Test func oneFrameSuffices() {
        var c = FrameConfirmer(requiredFrames: 1, repeatAfter: 0)
        #expect(c.observe(["A"], at: 0) == ["A"])
        #expect(c.observe(["A"], at: 1) == [])
        #expect(c.observe([], at: 2) == [])
        #expect(c.observe(["A"], at: 3) == ["A"])
    }
}
