// SPDX-License-Identifier: Apache-2.0
import LiveScan
import Scanning
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
        var c = FrameConfirmer(requiredFrames: 3, repeatAfter: 3, window: 3)
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

    func read(_ code: String, x: Int = 100) -> Symbol {
        Symbol(symbology: .ean13, data: code, quality: 10, orientation: 0,
               polygon: [Point(x: x, y: 100), Point(x: x + 200, y: 100), Point(x: x + 200, y: 160), Point(x: x, y: 160)])
    }

    @Test func twoGlimpsesFarApartDoNotConfirm() {
        var c = FrameConfirmer(requiredFrames: 2, repeatAfter: 3, window: 1)
        #expect(c.observe([read("9780306406157")], reportable: ["9780306406157"], at: 0) == [])
        #expect(c.observe([], reportable: [], at: 1) == [])
        #expect(c.observe([read("9780306406157")], reportable: ["9780306406157"], at: 2) == [])  // 2 s apart
        #expect(c.observe([read("9780306406157")], reportable: ["9780306406157"], at: 2.1) == ["9780306406157"])
    }

    @Test func aRivalAtTheSamePlaceHoldsTheCodeBackUntilItIsOutnumbered() {
        // 9780306406157 and its misread 9780306406751 (1<->7 twice) alternate at one place: the misread,
        // seen in single frames, is never printed; the right code is printed once it has 3x the frames.
        var c = FrameConfirmer(requiredFrames: 2, repeatAfter: 3, window: 1)
        let right = "9780306406157", misread = "9780306406751"
        var printed: [String] = []
        let frames = [misread, right, right, misread, right, right, right, right, right, right]
        for (i, code) in frames.enumerated() {
            printed += c.observe([read(code, x: 100 + i)], reportable: [right, misread], at: Double(i) / 30)
        }
        #expect(printed == [right])
        // With fewer than 3 times the rival's frames in the window the right code waits.
        var d = FrameConfirmer(requiredFrames: 2, repeatAfter: 3, window: 1)
        #expect(d.observe([read(misread)], reportable: [right, misread], at: 0) == [])
        #expect(d.observe([read(right)], reportable: [right, misread], at: 0.03) == [])
        #expect(d.observe([read(right)], reportable: [right, misread], at: 0.06) == [])  // 2 : 1
        #expect(d.observe([read(right)], reportable: [right, misread], at: 0.1) == [right])  // 3 : 1
    }

    @Test func twoBooksSideBySideAreNotRivals() {
        var c = FrameConfirmer(requiredFrames: 2, repeatAfter: 3, window: 1)
        let a = read("9780306406157", x: 0), b = read("9780131103627", x: 400)
        #expect(c.observe([a, b], reportable: [a.data, b.data], at: 0) == [])
        #expect(c.observe([a, b], reportable: [a.data, b.data], at: 0.05) == [a.data, b.data])
    }
}
