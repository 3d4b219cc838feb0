// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Scanning

/// Lines across a symbol whose bars converge, or end along a slanted edge, registered to the
/// bars. The profile is drawn from GS1's element widths (``BlurredEAN13/elements(_:)``), not
/// from the decoder's patterns.
@Suite struct BarRegistrationTests {
    static let digits = "9787831158216"
    /// Samples per line, and the symbol's first bar and module (pixels) along it.
    static let count = 400, origin = 60.0, module = 2.0
    /// Lines across the bars, and the distance between them along the bars (pixels).
    static let lineCount = 24, spacing = 3.0
    /// The region: the symbol and its quiet zones.
    static let span = 40..<360

    /// The symbol's profile at `x` (light 220, ink 30), defocused by a box of 1.5 modules.
    static func profile(_ x: Double) -> Double {
        var edges: [(Double, Double)] = [], u = 0
        for (k, w) in BlurredEAN13.elements(digits).enumerated() {
            if k % 2 == 0 { edges.append((origin + Double(u) * module, origin + Double(u + w) * module)) }
            u += w
        }
        let (lo, hi) = (x - 1.5, x + 1.5)
        var covered = 0.0
        for (b0, b1) in edges { covered += max(0, min(hi, b1) - max(lo, b0)) }
        return 220 - 190 * covered / (hi - lo)
    }

    static func rms(_ a: [Double], _ b: [Double], over range: Range<Int>) -> Double {
        (range.reduce(0) { $0 + ($1 < a.count ? (a[$1] - b[$1]) * (a[$1] - b[$1]) : 0) } / Double(range.count)).squareRoot()
    }

    static var sharp: [Double] { (0..<count).map { profile(Double($0)) } }

    static func plainMean(_ lines: [[Double]]) -> [Double] {
        (0..<count).map { i in lines.reduce(0) { $0 + $1[i] } / Double(lines.count) }
    }

    /// Bars that converge: their direction turns steadily from −6° at the start of the lines to
    /// +6° at the end, so a line 34.5 pixels from the middle sees them shifted by up to 3.6
    /// pixels (1.8 modules) one way at one end and the other way at the other.
    @Test func convergingBarsAreRegisteredOntoEachOther() throws {
        let lines = (0..<Self.lineCount).map { k -> [Double] in
            let distance = (Double(k) - Double(Self.lineCount - 1) / 2) * Self.spacing
            return (0..<Self.count).map { i in
                let turn = (Double(i) / Double(Self.count - 1) * 12 - 6) * Double.pi / 180
                return Self.profile(Double(i) + distance * tan(turn))
            }
        }
        let registered = try #require(BarRegistration(lines, span: Self.span, spacing: Self.spacing))
        #expect(registered.lines.count == 24)
        // Kept all along the region (its flat quiet zones as the windows next to them).
        #expect(registered.lines.allSatisfy { line in Self.span.allSatisfy { line.kept[$0] } })
        #expect(registered.referenceGroup == 10..<14)
        let symbol = 60..<250
        let mean = registered.mean(merge: 1)
        let plain = Self.rms(Self.plainMean(lines), Self.sharp, over: symbol)
        let aligned = Self.rms(mean, Self.sharp, over: symbol)
        #expect(plain > 12, "\(plain)")
        #expect(aligned < 2.5, "\(aligned)")
        // In blocks of two samples, as a big region's profile is merged: the blocks' means.
        let merged = registered.mean(merge: 2)
        #expect(merged.count == 200)
        #expect((0..<200).allSatisfy { abs(merged[$0] - (mean[2 * $0] + mean[2 * $0 + 1]) / 2) < 1e-9 })
    }

    /// A sheared label: the bars end along a slanted edge, at line 14 at the start of the region
    /// and at line 22 at its end; beyond their ends the lines cross type (noise about the paper's
    /// level). Each line is left out where it crosses no bars, so the mean keeps the bars'
    /// contrast everywhere.
    @Test func linesAreLeftOutBeyondTheEndsOfTheBars() throws {
        func lastLine(_ i: Int) -> Double { 14 + 8 * Double(i - Self.span.lowerBound) / Double(Self.span.count) }
        var noise = BlurredEAN13.Noise(seed: 3)
        let lines = (0..<Self.lineCount).map { k -> [Double] in
            (0..<Self.count).map { i in Double(k) <= lastLine(i) ? Self.profile(Double(i)) : 160 + noise.next(sigma: 40) }
        }
        let registered = try #require(BarRegistration(lines, span: Self.span, spacing: Self.spacing))
        #expect(registered.referenceGroup == 10..<14)
        // Line k crosses bars from sample 40 + 40 (k − 14) to the symbol's end at 250: lines 18
        // and on cross them in fewer than a third of the windows, and are not registered.
        #expect(registered.lines.map(\.index) == Array(0..<18))
        func line(_ k: Int) throws -> BarRegistration.Line { try #require(registered.lines.first { $0.index == k }) }
        // Line 16 crosses bars from sample 120 on: left out at the symbol's start, kept at its end.
        #expect(try line(16).kept[80] == false)
        #expect(try line(16).kept[200] == true)
        #expect(try line(5).kept[80] == true)
        let mean = registered.mean(merge: 1)
        let start = 60..<120
        let plain = Self.rms(Self.plainMean(lines), Self.sharp, over: start)
        let kept = Self.rms(mean, Self.sharp, over: start)
        #expect(plain > 20, "\(plain)")
        #expect(kept < 0.5, "\(kept)")
    }

    /// Lines that are not alike from one to the next (no bars) are not registered.
    @Test func linesWithoutBarsAreNotRegistered() {
        var noise = BlurredEAN13.Noise(seed: 7)
        let lines = (0..<Self.lineCount).map { _ in (0..<Self.count).map { _ in 128 + noise.next(sigma: 30) } }
        #expect(BarRegistration(lines, span: Self.span, spacing: Self.spacing) == nil)
        let flat = [[Double]](repeating: [Double](repeating: 200, count: Self.count), count: Self.lineCount)
        #expect(BarRegistration(flat, span: Self.span, spacing: Self.spacing) == nil)
    }
}
