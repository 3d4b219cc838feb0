// SPDX-License-Identifier: Apache-2.0
import Testing
import ISBN
import Imaging
@testable import Scanning

/// The fit of the printed symbol that re-measures readings (issue 9): ink spread must not turn
/// a 1 into a 7 or a 2 into an 8.
@Suite struct EANProfileFitTests {
    /// One scan line of `digits` printed with every bar `spread` modules too wide (negative: too
    /// narrow), `module` pixels per module, 12 modules of quiet zone each side, blurred by a
    /// [1 2 1]/4 kernel: rendered at 32 samples per pixel and averaged (an independent renderer,
    /// not the fit's model).
    ///
    /// With `bend`, a photo at an angle: modules are `1 − bend` of `module` at the symbol's start
    /// and `1 + bend` at its end; with `shade`, the light falls off along the line (the space
    /// level drops by `shade` from the first sample to the last).
    static func line(_ digits: String, module: Double, spread: Double, bend: Double = 0,
                     shade: Double = 0) -> (samples: [UInt8], start: Double, end: Double) {
        let widths = EANProfileFit.elements(of: digits.compactMap(\.wholeNumberValue).map(UInt8.init))!
        let quiet = 12.0
        let totalModules = Double(widths.reduce(0, +)) + 2 * quiet
        let pixels = Int((totalModules * module).rounded(.up))
        var dark = [Double](repeating: 0, count: pixels)
        let sub = 32
        for p in 0..<pixels {
            var covered = 0
            for s in 0..<sub {
                // Modules from the symbol's start: x = m·(u + bend·u·(u − L)/L), solved for u.
                let x = (Double(p) + (Double(s) + 0.5) / Double(sub)) / module - quiet
                let length = Double(widths.reduce(0, +))
                let u = bend == 0 ? x : (-(1 - bend) + ((1 - bend) * (1 - bend) + 4 * bend / length * x).squareRoot()) / (2 * bend / length)
                var position = 0.0
                for (i, w) in widths.enumerated() {
                    if i % 2 == 0 && u >= position - spread / 2 && u < position + Double(w) + spread / 2 { covered += 1; break }
                    position += Double(w)
                }
            }
            dark[p] = Double(covered) / Double(sub)
        }
        let blurred = dark.indices.map { i in
            (dark[max(0, i - 1)] + 2 * dark[i] + dark[min(pixels - 1, i + 1)]) / 4
        }
        let samples = blurred.indices.map { i in
            let light = 220 - shade * Double(i) / Double(pixels - 1)
            return UInt8((light - (light - 40) * blurred[i]).rounded())
        }
        let start = quiet * module, end = start + Double(widths.reduce(0, +)) * module
        return (samples, start, end)
    }

    /// Codes full of 1, 2, 7 and 8, and a confusion of each that keeps a valid check digit.
    static let cases: [(right: String, misread: String)] = [
        ("9781788881814", "9187788881814"), ("9781788881814", "9781728887814"), ("9780306406157", "9780306406751"),
    ]

    @Test(arguments: [1.6, 2.5, 4.0], [-0.6, -0.3, 0.0, 0.4, 0.7])
    func inkSpreadDoesNotChangeTheDigits(module: Double, spread: Double) throws {
        for (right, misread) in Self.cases {
            let (samples, start, end) = Self.line(right, module: module, spread: spread)
            let profile = samples.map(Double.init)
            // Fitted from the misread's pattern, the fit re-decodes the printed code.
            let result = try #require(EANProfileFit.measure(profile: profile, start: start, end: end,
                                                            digits: misread.compactMap(\.wholeNumberValue).map(UInt8.init)))
            #expect(result.digits == right, "module \(module) spread \(spread): \(result)")
            #expect(abs(result.spread - spread) < 0.25, "estimated spread \(result.spread) for \(spread)")
        }
    }

    /// A barcode photographed at an angle (modules 15 % narrower at one end than the mean, 15 %
    /// wider at the other) under light that falls off across it: the straight model fits badly,
    /// the bent and shaded one re-decodes the printed code, from the misread too.
    @Test(arguments: [0.15, -0.15])
    func perspectiveAndFallingLightAreFitted(bend: Double) throws {
        let (right, misread) = Self.cases[1]
        let (samples, start, end) = Self.line(right, module: 2.6, spread: 0.4, bend: bend, shade: 70)
        let profile = samples.map(Double.init)
        for digits in [right, misread] {
            let result = try #require(EANProfileFit.measure(profile: profile, start: start, end: end,
                                                            digits: digits.compactMap(\.wholeNumberValue).map(UInt8.init)))
            #expect(result.digits == right, "bend \(bend), fitted from \(digits): \(result)")
        }
    }

    @Test func theVerifierContradictsAMisreadAndConfirmsTheCode() throws {
        let right = "9781788881814", misread = "9781728887814"
        let (samples, start, end) = Self.line(right, module: 1.8, spread: 0.55)
        let image = LuminanceImage(width: samples.count, height: 40, pixels: Array((0..<40).map { _ in samples }.joined()))
        func reading(_ data: String) -> Symbol {
            Symbol(symbology: .ean13, data: data, quality: 10, orientation: 0,
                   polygon: [Point(x: Int(start), y: 10), Point(x: Int(end), y: 10), Point(x: Int(end), y: 30), Point(x: Int(start), y: 30)])
        }
        #expect(ReadingVerifier.verify(reading(misread), in: image) == .contradicted(by: right, lines: 2))
        #expect(ReadingVerifier.verify(reading(right), in: image) == .confirmed(lines: 2))
        // zbar's box may span one half only (its decode ends at the middle guard).
        var half = reading(right)
        half.polygon = [Point(x: Int(start), y: 10), Point(x: Int((start + end) / 2), y: 10),
                        Point(x: Int((start + end) / 2), y: 30), Point(x: Int(start), y: 30)]
        #expect(ReadingVerifier.verify(half, in: image) == .confirmed(lines: 2))
    }

    @Test func aBlankLineVerifiesNothing() {
        let image = LuminanceImage(width: 400, height: 40, filledWith: 200)
        let symbol = Symbol(symbology: .ean13, data: "9780306406157", quality: 10, orientation: 0,
                            polygon: [Point(x: 50, y: 10), Point(x: 300, y: 10), Point(x: 300, y: 30), Point(x: 50, y: 30)])
        #expect(ReadingVerifier.verify(symbol, in: image) == .unverified)
    }

    @Test func aReadingMarkedByOnePointIsMeasuredWhereTheBarsAre() throws {
        // zbar marks some readings with a box one pixel wide (where its decode ended on each
        // line): the bars around that point are found on the line itself.
        let right = "9781788881814", misread = "9781728887814"
        let (samples, start, end) = Self.line(right, module: 2.2, spread: -0.5)
        let image = LuminanceImage(width: samples.count, height: 40, pixels: Array((0..<40).map { _ in samples }.joined()))
        let found = try #require(ReadingVerifier.barsAround(Int((start + end) / 2), line: 20, isRow: true, in: image).first)
        #expect(abs(Double(found.0) - start) <= 2 && abs(Double(found.1) - end) <= 2, "found \(found), printed \(start)...\(end)")
        for x in [Int(start), Int((start + end) / 2), Int(end)] {
            let point = Symbol(symbology: .ean13, data: misread, quality: 60, orientation: 0,
                               polygon: [Point(x: x, y: 5), Point(x: x, y: 5), Point(x: x, y: 35), Point(x: x, y: 35)])
            #expect(ReadingVerifier.verify(point, in: image) == .contradicted(by: right, lines: 2), "point at \(x)")
        }
    }

    @Test func theExtentHoldingTheSymbolsThirtyBarsIsTriedFirst() throws {
        // On a sharp line the median run is one module, so the tight limit (3.2 of it) stops at
        // the first 4-module space of 9780306406157 (after its 21st bar); the looser one spans
        // all 30 bars, and the verifier, which fits the extents in turn, should fit that first.
        let (samples, start, end) = Self.line("9780306406157", module: 3, spread: 0)
        let image = LuminanceImage(width: samples.count, height: 40, pixels: Array((0..<40).map { _ in samples }.joined()))
        let centre = Int((start + end) / 2)
        let found = ReadingVerifier.barsAround(centre, line: 20, isRow: true, in: image, looseness: [3.2, 4.5])
        let counted = ReadingVerifier.barsAround(centre, line: 20, isRow: true, in: image, looseness: [3.2, 4.5], bars: 30)
        #expect(found.count == 2 && counted.count == 2)
        let whole = try #require(counted.first)
        #expect(abs(Double(whole.0) - start) <= 1 && abs(Double(whole.1) - end) <= 1, "found \(whole), printed \(start)...\(end)")
        #expect(found.first.map { $0.1 < whole.1 - 60 } == true, "\(found)")
        #expect(found.last.map { $0 == whole } == true, "\(found)")
    }
}
