// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ISBN
import Imaging
@testable import Scanning
import TestSupport

@Suite struct MultiPassDecoderTests {
    let upright = try! ImageLoader.load(path: "\(testImages)/isbn/png-gray8.png").image

    func decode(_ image: LuminanceImage, _ effort: Effort, region: RegionOfInterest = .full) -> ScanReport {
        MultiPassDecoder(scanner: BarcodeScanner(), effort: effort).decode(image, region: region)
    }

    @Test func invertedBarcodeNeedsARecoveryPass() throws {
        let negative = upright.inverted()
        #expect(decode(negative, .fast).codes.isEmpty)
        let report = decode(negative, .normal)
        #expect(report.isbns.map(\.isbn13) == ["9780306406157"])
        #expect(report.codes[0].symbol.pass.rawValue.hasPrefix("invert"))
    }

    @Test(arguments: [30.0, 45, -45, 60])
    func rotatedBarcodeIsReadAndPlacedInTheOriginalImage(degrees: Double) throws {
        let turned = upright.rotated(degrees: degrees).image
        let report = decode(turned, .normal)
        #expect(report.isbns.map(\.isbn13) == ["9780306406157"])
        try expectCentred(try #require(report.codes.first?.symbol), in: turned)
    }

    @Test(arguments: [30.0, -45])  // light bars on dark, turned
    func invertedRotationIsReadByAnInvertingPass(degrees: Double) throws {
        let turned = upright.inverted().rotated(degrees: degrees).image
        #expect(decode(turned, .fast).codes.isEmpty)
        let report = decode(turned, .thorough)
        #expect(report.isbns.map(\.isbn13) == ["9780306406157"])
        let symbol = try #require(report.codes.first?.symbol)
        #expect(symbol.pass.rawValue.hasPrefix("invert"), "read by \(symbol.pass)")
        try expectCentred(symbol, in: turned)
    }

    @Test(arguments: [30.0, -30, 45, -60])
    func rotationPassMapsPolygonsBackToTheSource(degrees: Double) throws {
        // Undo a rotation with the opposite rotation pass: the barcode must land where it is.
        let turned = upright.rotated(degrees: degrees).image
        let (image, toSource) = DecodingPass.rotated(by: -degrees).apply(turned)
        let symbol = try #require(BarcodeScanner().scan(image).first)
        try expectCentred(symbol.mapped(toSource), in: turned)
    }

    /// The box lies inside the rotated canvas, near its centre where the barcode is.
    func expectCentred(_ symbol: Symbol, in turned: LuminanceImage) throws {
        let box = try #require(symbol.place)
        #expect(box.x >= -2 && box.lastX <= turned.width + 2 && box.y >= -2 && box.lastY <= turned.height + 2)
        let centre = box.center
        #expect(abs(centre.x - turned.width / 2) < turned.width / 4 && abs(centre.y - turned.height / 2) < turned.height / 4,
                "box \(box) in \(turned.width)x\(turned.height)")
    }

    @Test(arguments: Array(stride(from: -60.0, through: 60, by: 5)))
    func thoroughReadsEveryAngleUpTo60(degrees: Double) {
        let turned = upright.rotated(degrees: degrees).image
        #expect(decode(turned, .thorough).isbns.map(\.isbn13) == ["9780306406157"])
    }

    @Test func twoBooksReadByRecoveryPassesStayTwoBooks() throws {
        // Both barcodes inverted: each is found by the recovery passes, neither contradicts
        // the other, and neither is refused as ambiguous.
        let shelf = try ImageLoader.load(path: "\(testImages)/roi/band-two-books.png").image.inverted()
        #expect(decode(shelf, .fast).codes.isEmpty)
        let report = decode(shelf, .normal)
        #expect(report.isbns.map(\.isbn13) == ["9780451524935", "9780743273565"])
        #expect(report.rejected.isEmpty)
    }

    @Test func recoveryPassesRespectTheRegion() {
        // Inverted barcode, but the region is the top 10 % where there is no barcode.
        let top = try! RegionOfInterest(x: 0, y: 0, width: 1, height: 0.1)
        #expect(decode(upright.inverted(), .thorough, region: top).codes.isEmpty)
    }

    @Test func singleRecoveryReadIsNotTrusted() {
        let once = Symbol(symbology: .ean13, data: "9780306406157", quality: 50, orientation: 0,
                          polygon: [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 20), Point(x: 0, y: 20)], pass: "gamma-0.6")
        #expect(ScanReport(symbols: [once], recoveryEvidence: 2).codes.isEmpty)
        var again = once
        again.pass = "smooth"
        #expect(ScanReport(symbols: [once, again], recoveryEvidence: 2).isbns.map(\.isbn13) == ["9780306406157"])
        var rival = once
        rival.data = "9780306406751"
        let report = ScanReport(symbols: [once, again, rival], recoveryEvidence: 2)
        #expect(report.isbns.isEmpty)
        #expect(Set(report.codes.map(\.verdict.rejection?.reason)) == [.ambiguous])
    }

    /// Misreads are worse than misses: 200 noise and stripe textures must give nothing.
    @Test func noFalsePositivesOnTextures() {
        var rng = SplitMix64(seed: 2026)
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(options: ScannerOptions(addOns: true)), effort: .normal)
        var found: [String] = []
        for index in 0..<200 {
            let width = 160, height = 100
            var pixels = [UInt8](repeating: 255, count: width * height)
            switch index % 4 {
            case 0:  // white noise
                for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
            case 1:  // random vertical bars of 1-4 px: the texture most like a barcode
                var x = 0
                while x < width {
                    let run = Int(rng.next() % 4) + 1, value: UInt8 = rng.next() % 2 == 0 ? 20 : 235
                    for xx in x..<min(x + run, width) { for y in 0..<height { pixels[y * width + xx] = value } }
                    x += run
                }
            case 2:  // bars plus noise
                var x = 0
                while x < width {
                    let run = Int(rng.next() % 6) + 1, value = rng.next() % 2 == 0 ? 40 : 215
                    for xx in x..<min(x + run, width) {
                        for y in 0..<height { pixels[y * width + xx] = UInt8(clamping: Int(value) + Int(rng.next() % 41) - 20) }
                    }
                    x += run
                }
            default:  // smooth blobs
                let cx = Double(rng.next() % 160), cy = Double(rng.next() % 100)
                for y in 0..<height { for x in 0..<width {
                    let d = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                    pixels[y * width + x] = UInt8(128 + 120 * sin(d / 3))
                } }
            }
            let report = decoder.decode(LuminanceImage(width: width, height: height, pixels: pixels))
            found += report.codes.map { "texture \(index): \($0.symbol.data) (\($0.symbol.pass))" }
        }
        #expect(found.isEmpty, "\(found)")
    }

    /// The fit reads in a copy at half size, with no floor on the module beyond the fit's own
    /// (0.7 sample, ``EANTemplateDecoder/admits(_:count:within:)``): a symbol of 1.8-pixel
    /// modules, 0.9 pixel in the copy, is read there, and read right. (The coarse fit, which
    /// fits each region in the full-size image first, reads the same code.) On the sets of
    /// `make bench-accuracy`, every one of the coarse fit's readings under a pixel per module
    /// (12, on 7 files of check-a, check-b and world) was the right code; a floor of one pixel
    /// lost those 7 files and refused no wrong code.
    @Test func theCoarseFitReadsModulesUnderAPixelOfItsCopy() throws {
        let sharp = BlurredEAN13.picture("9780306406157", module: 1.8, radius: 2.7, sigma: 2, seed: 4, height: 300, top: 60,
                                         barHeight: 180)
        let image = LuminanceImage(width: sharp.width, height: sharp.height,
                                   pixels: sharp.pixels.map { UInt8(max(0, min(255, 160 + (Double($0) - 160) * 0.4))) })
        let half = image.downscaled(by: 2)
        let region = try #require(CandidateMap.find(in: half, within: PixelRect(x: 0, y: 0, width: half.width, height: half.height),
                                                    defocused: true).first)
        let policy = DecodingPolicy()
        let reading = try #require(EANTemplateDecoder.readings(in: half, around: region, margin: policy.templateMargin,
                                                               error: policy.templateError).first?.0)
        #expect(abs(reading.module - 0.9) < 0.05, "module \(reading.module)")
        var search = MultiPassDecoder.Search(image: image, region: .full, rect: PixelRect(x: 0, y: 0, width: image.width,
                                                                                          height: image.height),
                                             readings: [], candidates: [])
        let read = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal).coarseFit(&search)
        #expect(read.map(\.data) == ["9780306406157"])
        #expect(read.map(\.pass) == [.symbolFit])
    }

    /// The whole image at half size is made once per search: the map of a region of a megapixel
    /// or more keeps the copy it made, and the coarse fit (``MultiPassDecoder/halfSize()``) takes
    /// that copy again; a smaller region's map is made at full size and makes none. A copy the
    /// first look made is the one every stage takes.
    @Test func theMapsHalfSizeCopyIsMadeOnceAndShared() throws {
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal)
        var noise = BlurredEAN13.Noise(seed: 11)
        func picture(_ width: Int, _ height: Int) -> LuminanceImage {
            LuminanceImage(width: width, height: height,
                           pixels: (0..<(width * height)).map { _ in UInt8(128 + noise.next(sigma: 20).rounded()) })
        }
        func search(_ image: LuminanceImage) -> MultiPassDecoder.Search {
            MultiPassDecoder.Search(image: image, region: .full, rect: PixelRect(x: 0, y: 0, width: image.width, height: image.height),
                                    readings: [], candidates: nil)
        }
        let big = picture(1100, 1000)
        #expect(big.width * big.height >= decoder.policy.mapAtHalfSizeAbovePixels)
        var mapped = search(big)
        _ = decoder.map(&mapped)
        let copy = try #require(mapped.halfSizeCopy)
        #expect(copy.width == 550 && copy.height == 500)
        #expect(copy.pixels == big.downscaled(by: 2).pixels)
        #expect(mapped.halfSize().buffer === copy.buffer)
        _ = decoder.coarseFit(&mapped)
        #expect(mapped.halfSizeCopy?.buffer === copy.buffer)
        // Under a megapixel the map is made at full size: no copy until the coarse fit asks.
        var small = search(picture(800, 600))
        _ = decoder.map(&small)
        #expect(small.halfSizeCopy == nil)
        let made = small.halfSize()
        #expect(made.width == 400 && small.halfSizeCopy?.buffer === made.buffer)
        // The first look's copy is everyone's.
        var looked = search(big)
        looked.halved = copy
        _ = decoder.map(&looked)
        #expect(looked.halfSizeCopy == nil && looked.halfSize().buffer === copy.buffer)
    }
}

/// Deterministic generator (SplitMix64) so texture tests see the same images every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
