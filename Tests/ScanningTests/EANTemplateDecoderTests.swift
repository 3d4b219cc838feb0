// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import Imaging
import TestSupport
@testable import Scanning

/// Reading out-of-focus barcodes by fitting the symbol's structure (issue 11). The pictures
/// (``BlurredEAN13``) take their bars from GS1's table, not from the decoder's patterns.
extension Double {
    /// 1 or −1 by the sign; `nil` for a value within 0.5 of zero.
    var nonZeroSign: Double? { abs(self) < 0.5 ? nil : (self > 0 ? 1 : -1) }
}

@Suite struct EANTemplateDecoderTests {
    static func blurred(_ digits: String, module: Double, radius: Double, seed: UInt32 = 1, height: Int = 150,
                        top: Int = 40, barHeight: Int = 70) -> LuminanceImage {
        BlurredEAN13.picture(digits, module: module, radius: radius, seed: seed, height: height, top: top, barHeight: barHeight)
    }

    /// The profile along the middle row band (mean of rows 60…89).
    static func profile(_ image: LuminanceImage) -> [Double] {
        let pixels = image.pixels
        return (0..<image.width).map { x in (60..<90).reduce(0.0) { $0 + Double(pixels[$1 * image.width + x]) } / 30 }
    }

    @Test(arguments: [(1.5, 1.5), (2.0, 2.0), (2.0, 2.5), (3.0, 2.0)])
    func readsADefocusedProfile(module: Double, radiusInModules: Double) throws {
        let image = Self.blurred("9780306406157", module: module, radius: radiusInModules * module)
        let reading = try #require(EANTemplateDecoder.decode(Self.profile(image)))
        #expect(reading.digits.map(String.init).joined() == "9780306406157")
        #expect(reading.margin >= DecodingPolicy().templateMargin, "margin \(reading.margin)")
        #expect(reading.error <= DecodingPolicy().templateError, "error \(reading.error)")
        #expect(reading.confidence.count == 12 && reading.confidence.allSatisfy { $0 >= reading.margin })
        #expect(abs(reading.module - module) < 0.05 * module, "module \(reading.module)")
        #expect(abs(reading.radius - radiusInModules * module) < 0.35 * module + 0.5, "radius \(reading.radius)")
    }

    /// zbar reads nothing once the blur's radius is two modules; the normal effort does, through
    /// the fitted structure, and accepts the ISBN.
    @Test func aDefocusedBookBarcodeIsReadAtNormalEffort() {
        let image = Self.blurred("9781593279288", module: 2, radius: 4, seed: 7)
        let fast = MultiPassDecoder(scanner: BarcodeScanner(), effort: .fast).decode(image)
        #expect(fast.codes.isEmpty, "\(fast.codes)")
        let normal = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal).decode(image)
        #expect(normal.isbns.map(\.isbn13) == ["9781593279288"])
        #expect(normal.codes.contains { $0.symbol.pass == "template" && $0.symbol.data == "9781593279288" })
    }

    /// A symbol whose bars lie halfway between two valid codes (the two books the wrong
    /// ISBN came from, two digits apart): the best and the best *other* valid code fit alike,
    /// so the fit gives neither, and the decoder accepts no ISBN. Each code alone is read.
    @Test func aFitWhoseTwoBestValidCodesAreCloseIsRefused() throws {
        let right = "9787046747311", rival = "9787048727311"
        let module = 2.0, radius = 1.0 * module
        let a = Self.blurred(right, module: module, radius: radius, seed: 3)
        let b = Self.blurred(rival, module: module, radius: radius, seed: 3)
        let left = 40 + 12 * module
        let candidate = Candidate(rect: PixelRect(x: Int(left), y: 40, width: Int(95 * module), height: 70), angle: 0,
                                  inverted: false, blocks: 40, coherence: 0.95, edges: 60)
        #expect(MultiPassDecoder.templateSymbols(a, around: candidate).map(\.data) == [right])
        #expect(MultiPassDecoder.templateSymbols(b, around: candidate).map(\.data) == [rival])
        let blend = LuminanceImage(width: a.width, height: a.height,
                                   pixels: zip(a.pixels, b.pixels).map { UInt8((Int($0) + Int($1) + 1) / 2) })
        // The whole profile's best code either fits too badly or beats the best other valid code
        // by too little; either way no code comes out.
        let policy = DecodingPolicy()
        let results = EANTemplateDecoder.readings(in: blend, around: candidate, margin: policy.templateMargin,
                                                  error: policy.templateError)
        if let whole = results.first(where: { $0.band == 0 })?.0 {
            let agreeing = results.filter { $0.band != 0 && $0.0.digits == whole.digits && $0.0.margin >= policy.templateMargin }
            #expect(whole.margin < policy.templateMargin || whole.error > policy.templateError || agreeing.isEmpty,
                    "margin \(whole.margin), error \(whole.error), \(agreeing.count) bands agree")
        }
        #expect(MultiPassDecoder.templateSymbols(blend, around: candidate).isEmpty)
        for effort in Effort.allCases {
            let report = MultiPassDecoder(scanner: BarcodeScanner(), effort: effort).decode(blend)
            #expect(report.isbns.isEmpty, "\(effort): \(report.isbns)")
        }
    }

    /// A label whose quiet zones are 7 modules, on a darker cover, in a barcode-like region 1.6
    /// times as wide as the symbol (type beside it): 5 of the region's modules are 8 of the
    /// symbol's, longer than either quiet zone, yet the light stretches either side, paired by the
    /// module their own distance gives, are the symbol's ends.
    @Test func quietZonesShorterThanTheRegionSuggestsArePairedByTheirDistance() throws {
        let module = 2.0
        let image = Self.blurred("9782628666301", module: module, radius: 1.0 * module, seed: 5)
        var samples = Self.profile(image)
        let start = 40 + 12 * module, end = start + 95 * module
        // The label: 7 modules of paper either side of the symbol; the cover beyond it is grey.
        for i in samples.indices where Double(i) < start - 7 * module || Double(i) > end + 7 * module { samples[i] = 120 }
        let guesses = EANTemplateDecoder.quietZones(samples, center: (start + end) / 2, width: 1.6 * 95 * module)
        let pair = try #require(guesses.first)
        #expect(guesses.count == 1)
        #expect(abs(pair.0 - start) <= 2 * module && abs(pair.1 - end) <= 2 * module, "\(pair) for \(start)...\(end)")
        let reading = try #require(EANTemplateDecoder.decode(samples, around: ((start + end) / 2, 1.6 * 95 * module)))
        #expect(reading.digits.map(String.init).joined() == "9782628666301")
        // Light again beyond the cover at both ends of the profile (another label, the page):
        // those stretches pair too, farther apart; the nearest pair is the symbol's.
        for i in samples.indices where i < 12 || i >= samples.count - 12 { samples[i] = 220 }
        let farther = EANTemplateDecoder.quietZones(samples, center: (start + end) / 2, width: 1.6 * 95 * module)
        #expect(farther.count == 1)
        let nearest = try #require(farther.first)
        #expect(abs(nearest.0 - start) <= 2 * module && abs(nearest.1 - end) <= 2 * module, "\(nearest) for \(start)...\(end)")
    }

    /// A symbol defocused by a module, with 7 modules of paper either side (GS1's least, right
    /// of an EAN-13) and a darker cover beyond (its edge sharp), then sharpened by the camera, in
    /// a region 1.5 times as wide as the symbol: halos stand beside the outer bars and the
    /// label's edges. The stretch
    /// where the profile changes ends within a module and a half of the symbol's ends, without
    /// the label's edges 7 modules beyond them, and the symbol is read from it. Paper over the
    /// symbol's middle, a label's edge alone, or paper alone give no stretch.
    @Test func theEndsAreWhereTheProfileChangesBetweenStillStretches() throws {
        let module = 2.0, digits = "9781728589183"
        let image = Self.blurred(digits, module: module, radius: 1.0 * module, seed: 11)
        var samples = Self.profile(image)
        let start = 40 + 12 * module, end = start + 95 * module
        for i in samples.indices where Double(i) < start - 7 * module || Double(i) > end + 7 * module { samples[i] = 110 }
        // The camera's unsharp mask: the profile plus 0.9 of its difference from a Gaussian of
        // 1.8 pixels (a linear filter, so a line across the bars is sharpened as the image is).
        let sigma = 1.8, reach = 6
        let kernel = (-reach...reach).map { (k: Int) -> Double in Foundation.exp(-Double(k * k) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        let smooth = samples.indices.map { (i: Int) -> Double in
            var sum = 0.0
            for k in -reach...reach { sum += kernel[k + reach] * samples[min(max(i + k, 0), samples.count - 1)] }
            return sum / total
        }
        samples = zip(samples, smooth).map { min(255, max(0, $0 + 0.9 * ($0 - $1))) }
        let around = ((start + end) / 2, 1.5 * 95 * module)
        let ends = try #require(EANTemplateDecoder.activeStretch(samples, center: around.0, width: around.1))
        #expect(abs(ends.0 - start) <= 1.5 * module && abs(ends.1 - end) <= 1.5 * module, "\(ends) for \(start)...\(end)")
        let reading = try #require(EANTemplateDecoder.decode(samples, start: ends.0, end: ends.1, known: nil,
                                                             within: around, maximumError: .infinity).first)
        #expect(reading.digits.map(String.init).joined() == digits)
        // A still stretch as long as a quiet zone inside (paper over the middle 6 modules, as
        // between two words of type) leaves no stretch a symbol's width.
        var parted = samples
        for i in parted.indices where abs(Double(i) - (start + end) / 2) < 3 * module { parted[i] = 200 }
        #expect(EANTemplateDecoder.activeStretch(parted, center: around.0, width: around.1) == nil)
        // A label's edge alone (paper, then cover) and paper alone give no stretch.
        let step = samples.indices.map { Double($0) < around.0 ? 200.0 : 110.0 }
        #expect(EANTemplateDecoder.activeStretch(step, center: around.0, width: around.1) == nil)
        #expect(EANTemplateDecoder.activeStretch([Double](repeating: 200, count: samples.count),
                                                 center: around.0, width: around.1) == nil)
    }

    /// A sharp symbol of 3-pixel modules: the wide spaces and bars inside it are still for a
    /// few samples, so its activity is many stretches; the stretch taken is the one with quiet
    /// zones outside it, the whole symbol, not the shortest run of bars a symbol's width.
    @Test func aSharpSymbolsStillSpacesAreNotTakenForItsQuietZones() throws {
        let module = 3.0, digits = "9780306406157"
        let samples = Self.profile(Self.blurred(digits, module: module, radius: 0.2 * module, seed: 2))
        let start = 40 + 12 * module, end = start + 95 * module
        let ends = try #require(EANTemplateDecoder.activeStretch(samples, center: (start + end) / 2,
                                                                 width: 1.5 * 95 * module))
        #expect(abs(ends.0 - start) <= module && abs(ends.1 - end) <= module, "\(ends) for \(start)...\(end)")
    }

    /// The search settled in another code's valley (a geometry a module off, a blur a module
    /// too wide: there the chain's best code is another one): the code that fits better at its
    /// own geometry is taken, and the code displaced stays a rival, against which the margin is
    /// measured at the geometry that suits it.
    @Test func aCodeTheFitDisplacesStaysARival() throws {
        let digits = "9781593279288", module = 1.5
        let samples = Self.profile(BlurredEAN13.picture(digits, module: module, radius: 1.5 * module, seed: 1))
        let start = 40 + 12 * module, end = start + 95 * module
        let around = ((start + end) / 2, 1.3 * 95 * module)
        let read = try #require(EANTemplateDecoder.decode(samples, around: around))
        #expect(read.digits.map(String.init).joined() == digits)
        var off = read.geometry
        off.x0 -= module
        off.blur += 1
        var settled = try #require(EANTemplateDecoder.decode(samples, from: off))
        let displaced = settled.digits
        #expect(displaced.map(String.init).joined() == "9771503479488")
        settled.otherGuesses = [read.digits]
        let checked = EANTemplateDecoder.checkingRivals(settled, of: samples, within: around)
        #expect(checked.digits.map(String.init).joined() == digits)
        #expect(checked.rivals.contains(displaced), "\(checked.rivals)")
        #expect(!checked.rivals.contains(checked.digits))
        #expect(abs(checked.geometry.x0 - read.geometry.x0) < 0.5 * module, "\(checked.geometry) vs \(read.geometry)")
        // Without the search's misstep there is nothing to displace: the rivals are the runners-up.
        let direct = EANTemplateDecoder.checkingRivals(read, of: samples, within: around)
        #expect(direct.digits == read.digits && !direct.rivals.contains(displaced))
    }

    /// A defocused symbol turned by 4°: from a direction 4° or 7° off, or right, the direction
    /// measured from the bars themselves is the symbol's to within half a degree, and the fit
    /// reads it along that direction.
    @Test(arguments: [-4.0, 3.0, 0.0])
    func theBarsDirectionIsMeasuredFromTheBars(offset: Double) throws {
        let upright = Self.blurred("9780306406157", module: 2, radius: 2, seed: 9, height: 260, top: 60, barHeight: 140)
        let (turned, _) = upright.rotated(degrees: 4)
        let truth = try #require(EANTemplateDecoder.refinedAngle(in: turned, around: Self.region(in: turned, angle: 0)).nonZeroSign)
        let start = truth * 4 + offset
        let measured = EANTemplateDecoder.refinedAngle(in: turned, around: Self.region(in: turned, angle: start))
        #expect(abs(measured - truth * 4) <= 0.5, "from \(start): \(measured)")
        var candidate = Self.region(in: turned, angle: start)
        candidate.angle = measured
        #expect(MultiPassDecoder.templateSymbols(turned, around: candidate).map(\.data) == ["9780306406157"])
    }

    /// The middle of `image` as a barcode-like region at `angle`, as the map gives one.
    static func region(in image: LuminanceImage, angle: Double) -> Candidate {
        Candidate(rect: PixelRect(x: image.width / 2 - 110, y: image.height / 2 - 60, width: 220, height: 120), angle: angle,
                  inverted: false, blocks: 60, coherence: 0.95, edges: 60)
    }

    /// Stripes with quiet zones either side (a grating, a fence): no code fits well enough.
    @Test func aGratingIsNoCode() {
        var sharp = [UInt8](repeating: 220, count: 400 * 150)
        for y in 40..<110 { for x in 60..<340 where (x / 3) % 2 == 0 { sharp[y * 400 + x] = 30 } }
        let image = LuminanceImage(width: 400, height: 150, pixels: sharp)
        let candidate = Candidate(rect: PixelRect(x: 60, y: 40, width: 280, height: 70), angle: 0, inverted: false,
                                  blocks: 70, coherence: 0.99, edges: 90)
        #expect(MultiPassDecoder.templateSymbols(image, around: candidate).isEmpty)
        #expect(MultiPassDecoder(scanner: BarcodeScanner(), effort: .thorough).decode(image).codes.isEmpty)
    }

    /// Bars of random widths between real guard patterns, blurred: whatever code fits best,
    /// another fits nearly as well, so nothing is accepted.
    @Test func randomBarsBetweenGuardsAreNoCode() {
        var noise = BlurredEAN13.Noise(seed: 99)
        for trial in 0..<4 {
            var widths = [1, 1, 1]
            for _ in 0..<24 { widths.append(1 + Int((noise.next(sigma: 1) + 2).magnitude) % 4) }
            widths += [1, 1, 1, 1, 1]
            for _ in 0..<24 { widths.append(1 + Int((noise.next(sigma: 1) + 2).magnitude) % 4) }
            widths += [1, 1, 1]
            let module = 2.0, left = 60.0
            var column = [Double](repeating: 0, count: 500)
            var u = 0.0
            for (k, w) in widths.enumerated() {
                if k % 2 == 0 {
                    for x in 0..<500 { column[x] += max(0, min(Double(x + 1), left + (u + Double(w)) * module) - max(Double(x), left + u * module)) }
                }
                u += Double(w)
            }
            var pixels = [UInt8](repeating: 220, count: 500 * 150)
            for y in 40..<110 { for x in 0..<500 { pixels[y * 500 + x] = UInt8(220 - 190 * min(1, column[x])) } }
            let image = LuminanceImage(width: 500, height: 150, pixels: pixels).boxBlurred().boxBlurred()
            let report = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal).decode(image)
            #expect(!report.codes.contains { $0.symbol.pass == "template" }, "trial \(trial): \(report.codes.map(\.symbol.data))")
        }
    }
}
