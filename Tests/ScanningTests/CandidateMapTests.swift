// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging
import TestSupport
@testable import Scanning

/// The barcode-likeness map (issue 10): where a barcode may be, before any decoder runs.
@Suite struct CandidateMapTests {
    /// `png-gray8.png` (a 501×312 EAN-13, black on white) pasted at (300, 250) on a 1200×900
    /// grey canvas, optionally turned a quarter and with its tones inverted on a dark canvas.
    static func scene(turned: Bool = false, inverted: Bool = false, cutMiddle: Bool = false) throws -> LuminanceImage {
        let label = try ImageLoader.load(path: "\(testImages)/isbn/png-gray8.png").image
        var pixels = [UInt8](repeating: inverted ? 40 : 200, count: 1200 * 900)
        let source = label.pixels
        for y in 0..<label.height {
            for x in 0..<label.width {
                var value = source[y * label.width + x]
                if cutMiddle && x >= 230 && x < 290 { value = 255 }  // the middle guard and its neighbours
                if inverted { value = 255 - value }
                let (cx, cy) = turned ? (label.height - 1 - y, x) : (x, y)
                pixels[(250 + cy) * 1200 + 300 + cx] = value
            }
        }
        return LuminanceImage(width: 1200, height: 900, pixels: pixels)
    }

    @Test func findsTheBarcodeWhereItIs() throws {
        let found = CandidateMap.find(in: try Self.scene())
        let first = try #require(found.first)
        // The bars span about x 380…740, y 285…500 of the canvas.
        #expect(first.rect.x <= 400 && first.rect.x + first.rect.width >= 720, "\(first.rect)")
        #expect(first.rect.y <= 300 && first.rect.y + first.rect.height >= 480, "\(first.rect)")
        #expect(abs(first.angle) < 10)
        #expect(!first.inverted)
        #expect(first.coherence > 0.9)
    }

    @Test func aTurnedBarcodeHasItsDirection() throws {
        let first = try #require(CandidateMap.find(in: try Self.scene(turned: true)).first)
        #expect(abs(first.angle) > 80, "angle \(first.angle)")
    }

    @Test func lightBarsOnADarkGroundAreInverted() throws {
        let first = try #require(CandidateMap.find(in: try Self.scene(inverted: true)).first)
        #expect(first.inverted)
    }

    @Test func aHalfSizeCopyMapsBackToFullSizePixels() throws {
        let full = try Self.scene()
        let first = try #require(CandidateMap.find(in: full.downscaled(by: 2), scale: 2).first)
        #expect(first.rect.x <= 400 && first.rect.x + first.rect.width >= 720, "\(first.rect)")
    }

    /// The stretches of a band that its rows must scan: the symbol's bars (x 40 + 12 × 2 = 64 to
    /// 64 + 95 × 2 = 254 of a 1152×108 band, modules of 2 pixels), in whole blocks of 16; none in a
    /// blank band or for its columns, only the ends of lines of text lying along it.
    @Test func barSpansCoverTheBarsTheLinesCross() throws {
        let band = BlurredEAN13.picture("9780345391803", module: 2, radius: 0.5, sigma: 3, width: 1152, height: 108,
                                        left: 300, top: 0, barHeight: 108)
        let spans = CandidateMap.barSpans(in: band, alongRows: true)
        #expect(spans.count == 1)
        let span = try #require(spans.first)
        #expect(span.lowerBound % 16 == 0 && span.upperBound % 16 == 0)
        #expect(span.lowerBound <= 304 && span.upperBound >= 486, "\(spans)")
        #expect(span.lowerBound >= 300 - 32 && span.upperBound <= 490 + 32, "\(spans)")
        #expect(CandidateMap.barSpans(in: band, alongRows: false).isEmpty)
        #expect(CandidateMap.barSpans(in: LuminanceImage(width: 1152, height: 108, filledWith: 200), alongRows: true).isEmpty)
        var lines = [UInt8](repeating: 230, count: 1152 * 108)
        for y in 0..<108 where y % 20 < 8 { for x in 50..<1100 { lines[y * 1152 + x] = 30 } }
        // Lines of text lying along the band: only the blocks where they end (x 50 and 1100), whose
        // short upright edges rows do cross.
        #expect(CandidateMap.barSpans(in: LuminanceImage(width: 1152, height: 108, pixels: lines), alongRows: true)
                == [48..<64, 1088..<1104])
        // A side that is no multiple of 16: its last block ends at the edge.
        let cut = band.cropped(x: 0, y: 0, width: 1152, height: 100)
        #expect(CandidateMap.barSpans(in: cut, alongRows: true) == spans)
        let edge = BlurredEAN13.picture("9780345391803", module: 2, radius: 0.5, sigma: 3, width: 500, height: 108,
                                        left: 300, top: 0, barHeight: 108)
        #expect(CandidateMap.barSpans(in: edge, alongRows: true).last?.upperBound == 500)
        // Too small to map: the whole length.
        #expect(CandidateMap.barSpans(in: LuminanceImage(width: 20, height: 20, filledWith: 9), alongRows: true) == [0..<20])
    }

    /// Stripes like lines of text (one edge pair every 20 pixels), a blank page and grain: nothing.
    @Test func stripesBlankAndGrainAreNotBarcodes() {
        var stripes = [UInt8](repeating: 230, count: 800 * 600)
        for y in 0..<600 where y % 20 < 8 { for x in 100..<700 { stripes[y * 800 + x] = 30 } }
        #expect(CandidateMap.find(in: LuminanceImage(width: 800, height: 600, pixels: stripes)).isEmpty)
        #expect(CandidateMap.find(in: LuminanceImage(width: 800, height: 600, filledWith: 128)).isEmpty)
        var state: UInt32 = 7
        let grain = (0..<(800 * 600)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(100 + Int(state >> 16) % 60)
        }
        #expect(CandidateMap.find(in: LuminanceImage(width: 800, height: 600, pixels: grain)).isEmpty)
    }

    /// Lines of large type: stems 5 pixels wide, 8 to 14 apart, in words, 26 pixels tall (an
    /// x-height: 2 to 3 edge spacings) with every seventh stem an ascender of 36, lines 60 pixels
    /// apart: coherent blocks with many edges, as a page photographed at 48 megapixels shows,
    /// whose strokes end after a few edge spacings. Not a barcode (the map without the bar-length
    /// test found 14 regions here).
    @Test func linesOfLargeTypeAreNotBarcodes() {
        var page = [UInt8](repeating: 225, count: 1200 * 900)
        var state: UInt32 = 3
        func next(_ n: Int) -> Int { state = state &* 1_103_515_245 &+ 12345; return Int(state >> 16) % n }
        for line in 0..<12 {
            let baseline = 100 + line * 60
            var x = 80, stem = 0
            while x < 1100 {
                let top = stem % 7 == 0 ? baseline - 36 : baseline - 26
                for y in top..<baseline { for dx in 0..<5 { page[y * 1200 + x + dx] = 35 } }
                stem += 1
                x += 13 + next(7) + (next(4) == 0 ? 18 : 0)  // letters, and now and then a word space
            }
        }
        // Softened as a lens and a JPEG soften it.
        let found = CandidateMap.find(in: LuminanceImage(width: 1200, height: 900, pixels: page).boxBlurred())
        #expect(found.isEmpty, "\(found.map(\.rect))")
    }

    /// A sharp print's edges are a fraction of their spacing wide, and that spacing is the bars'
    /// (about 1.6 modules); defocused by 2 modules, the same symbol's edges are all slope. What
    /// the map measures here decides whether the structure fit runs on a region
    /// (``Candidate/hasSharpEdges``).
    @Test func sharpAndDefocusedBarsAreToldApartByTheirEdges() throws {
        let sharp = BlurredEAN13.picture("9780306406157", module: 4, radius: 0, sigma: 2, height: 200, top: 40, barHeight: 120)
        let crisp = try #require(CandidateMap.find(in: sharp).first)
        let spacing = try #require(crisp.edgeSpacing), width = try #require(crisp.edgeWidth)
        #expect(spacing >= 1.2 * 4 && spacing <= 2.5 * 4, "spacing \(spacing)")
        #expect(width < 0.45 * spacing, "edge width \(width) of \(spacing)")
        #expect(crisp.hasSharpEdges)

        let defocused = BlurredEAN13.picture("9780306406157", module: 4, radius: 8, sigma: 2, height: 200, top: 40, barHeight: 120)
        let soft = try #require(CandidateMap.find(in: defocused).first)
        let softSpacing = try #require(soft.edgeSpacing), softWidth = try #require(soft.edgeWidth)
        #expect(softWidth >= 0.45 * softSpacing, "edge width \(softWidth) of \(softSpacing)")
        #expect(!soft.hasSharpEdges)
    }

    /// Bars cut down to a quarter of the symbol's width (as some book covers print them) are
    /// still bars: the region stays a candidate.
    @Test func shortBarsAreStillACandidate() throws {
        let full = try Self.scene()
        var pixels = full.pixels
        // The label's bars span rows 285…500 of the canvas: keep 300…390.
        for y in 285..<300 { for x in 300..<801 { pixels[y * 1200 + x] = 255 } }
        for y in 390..<500 { for x in 300..<801 { pixels[y * 1200 + x] = 255 } }
        let found = CandidateMap.find(in: LuminanceImage(width: 1200, height: 900, pixels: pixels))
        let first = try #require(found.first)
        #expect(first.rect.x <= 400 && first.rect.x + first.rect.width >= 720, "\(first.rect)")
    }

    /// A symbol with its middle cut out reads as nothing; the report says where it is.
    @Test func anUnreadableBarcodeIsReportedAsACandidate() throws {
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal)
        let report = decoder.decode(try Self.scene(cutMiddle: true))
        #expect(report.codes.isEmpty)
        // The bars left of the cut (canvas x 530…590) are there.
        let rects = report.candidates.map(\.rect)
        #expect(rects.contains { $0.x <= 420 && $0.x + $0.width >= 520 && $0.y < 400 && $0.y + $0.height > 400 }, "\(rects)")
        // The whole symbol reads, with nothing left over as a candidate.
        let whole = decoder.decode(try Self.scene())
        #expect(whole.isbns.map(\.isbn13) == ["9780306406157"])
        #expect(whole.candidates.isEmpty)
    }

    @Test func nothingBarcodeLikeEndsWithNoCandidates() {
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal)
        let report = decoder.decode(LuminanceImage(width: 1200, height: 900, filledWith: 200))
        #expect(report.codes.isEmpty && report.candidates.isEmpty)
    }

    @Test func passesAreOrderedForWhatTheRegionLooksLike() {
        let passes = MultiPassDecoder.passes(for: .normal, width: 1000, height: 800)
        func candidate(angle: Double, inverted: Bool) -> Candidate {
            Candidate(rect: PixelRect(x: 0, y: 0, width: 100, height: 100), angle: angle, inverted: inverted, blocks: 20, coherence: 0.95)
        }
        #expect(MultiPassDecoder.ordered(passes, for: nil).map(\.name) == passes.map(\.name))
        #expect(MultiPassDecoder.ordered(passes, for: candidate(angle: 0, inverted: true)).prefix(2).map(\.name) == ["invert", "invert-smooth"])
        #expect(MultiPassDecoder.ordered(passes, for: candidate(angle: 32, inverted: false)).prefix(2).map(\.name) == ["rotate+30", "rotate-30"])
        #expect(MultiPassDecoder.ordered(passes, for: candidate(angle: 2, inverted: false)).map(\.name) == passes.map(\.name))
    }

    @Test func aSharpRegionGetsNoSmoothingOrUnsharpMaskingWhenTheAreaIsAroundItAlone() {
        let passes = MultiPassDecoder.passes(for: .normal, width: 1000, height: 800)
        func region(spacing: Double, edgeWidth: Double) -> Candidate {
            Candidate(rect: PixelRect(x: 0, y: 0, width: 300, height: 100), angle: 0, inverted: false, blocks: 20,
                      coherence: 0.95, edges: 60, edgeSpacing: spacing, edgeWidth: edgeWidth)
        }
        let sharp = region(spacing: 10, edgeWidth: 3), defocused = region(spacing: 10, edgeWidth: 7)
        #expect(sharp.hasSharpEdges && !defocused.hasSharpEdges)
        let names = passes.map(\.name.rawValue)
        let restoring: Set = ["smooth", "unsharp", "unsharp-strong"]
        #expect(MultiPassDecoder.planned(passes, for: sharp, focused: true).map(\.name.rawValue) == names.filter { !restoring.contains($0) })
        #expect(MultiPassDecoder.planned(passes, for: defocused, focused: true).map(\.name.rawValue) == names)
        // An area that is not around that region alone may hold other bars: every pass.
        #expect(MultiPassDecoder.planned(passes, for: sharp, focused: false).map(\.name.rawValue) == names)
    }

    @Test func zbarScansAcrossTheBarsAroundARegionAndBothWaysOnATurnedCopy() {
        func region(angle: Double) -> Candidate {
            Candidate(rect: PixelRect(x: 0, y: 0, width: 300, height: 100), angle: angle, inverted: false, blocks: 20, coherence: 0.95)
        }
        // About 300 lines (DecodingPolicy.focusedRecoveryLines) each way: every 2nd row of 600, every 3rd column of 900.
        #expect(MultiPassDecoder.lines(across: region(angle: 3), width: 900, height: 600, turned: false) == (2, 0))
        #expect(MultiPassDecoder.lines(across: region(angle: -88), width: 900, height: 600, turned: false) == (0, 3))
        #expect(MultiPassDecoder.lines(across: region(angle: 45), width: 900, height: 600, turned: false) == (2, 3))
        #expect(MultiPassDecoder.lines(across: region(angle: 3), width: 900, height: 600, turned: true) == (2, 3))
    }
}
