// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import ISBN

/// Re-measures an EAN-13/EAN-8 reading on the luminance profile of one scan line by fitting the
/// printed symbol to it, and re-decodes every symbol character from that fit.
///
/// zbar (and any decoder that classifies characters by their edge-to-similar-edge distances)
/// cannot tell 1 from 7 or 2 from 8 by those distances: the pairs differ only in how wide their
/// bars are (GS1 General Specifications §5.2.1.2, table of character encodation; ISO/IEC 15420
/// Annex, reference decode algorithm). Ink spread or overexposure widens or narrows every bar
/// of a print by the same amount, so a bar-width threshold fixed in advance confuses them, and
/// two confusions can still pass the check digit. This fit estimates that amount for the whole
/// symbol — from the guard patterns and every other character — together with the position,
/// module width and blur, and only then judges each character, so uniform ink spread cancels.
///
/// The model of one line, in pixels along it: the symbol's bars (from the candidate digits, GS1
/// §5.2.1: guards, L/G/R character sets, the parity of the left half encoding the leading
/// digit) start at `x0` with modules of `m` pixels; every bar is `spread` modules wider than
/// printed (negative: narrower) and spaces narrower by as much; the optics blur with a Gaussian
/// of `sigma` pixels, and each sample averages one pixel. Luminance = `a + b × darkness`, with
/// `a`, `b` fitted by least squares. Position, module, spread and blur are fitted by coordinate
/// descent from the reading's own extent; then each symbol character in turn is replaced by
/// every character of its set (L and G on the left, R on the right) and the one whose rendering
/// fits the samples of that character best is taken.
enum EANProfileFit {
    /// The outcome on one line.
    struct LineResult: Equatable {
        /// The digits re-decoded from the fit (check digit valid), or `nil` when the fit is poor,
        /// the parity pattern is not valid or the check digit fails. Whether each character was
        /// clear is in ``margin``.
        var digits: String?
        /// The mean squared fit error per sample in units of the squared bar/space contrast
        /// (0 = perfect; a fit above ``maximumError`` is not used).
        var error: Double
        /// The estimated bar growth in modules (positive: ink spread; negative: thin bars).
        var spread: Double
        /// The smallest margin of a character over its runner-up: the fit error of the runner-up
        /// minus that of the best, per sample of the character, in squared-contrast units.
        var margin: Double
    }

    /// Fits worse than this (mean squared error per sample, squared-contrast units) are not used.
    static let maximumError = 0.06
    /// A character is trusted only when its runner-up fits worse by at least this much.
    static let minimumMargin = 0.008

    // MARK: Symbol structure (GS1 General Specifications §5.2.1)

    /// Element widths of the characters in one position of the symbol: `(widths, isG)` per
    /// option, widths from the left starting with a space (left half) or a bar (right half).
    static func options(leftHand: Bool) -> [(digit: UInt8, isG: Bool, widths: [Int])] {
        var result: [(UInt8, Bool, [Int])] = []
        for digit in 0..<10 {
            let l = EANSymbol.widthsA[digit]
            result.append((UInt8(digit), false, l))
            if leftHand { result.append((UInt8(digit), true, l.reversed())) }
        }
        return result
    }

    /// The element widths of the whole symbol (``EANSymbol/elements(of:)``).
    static func elements(of digits: [UInt8]) -> [Int]? { EANSymbol.elements(of: digits) }

    /// Bars (start, end) in modules from the symbol's left edge, for element widths starting with a bar.
    static func bars(_ widths: [Int]) -> [(Double, Double)] {
        var bars: [(Double, Double)] = []
        var position = 0
        for (i, w) in widths.enumerated() {
            if i % 2 == 0 { bars.append((Double(position), Double(position + w))) }
            position += w
        }
        return bars
    }

    // MARK: The model

    struct Parameters {
        var x0: Double
        var module: Double
        var spread: Double
        var sigma: Double
        /// Perspective (a book photographed at an angle): ``EANSymbol/position(_:x0:module:bend:length:)``.
        var bend = 0.0
        /// Modules in the symbol (95 for EAN-13, 67 for EAN-8): the span `bend` refers to.
        var length = 95.0
        /// Levels that change linearly along the line (``Levels``) instead of constant ones.
        var shading = false

        /// Pixel position of module boundary `u` (modules from the symbol's left edge).
        @inline(__always) func position(_ u: Double) -> Double {
            EANSymbol.position(u, x0: x0, module: module, bend: bend, length: length)
        }
    }

    /// Φ, the standard normal distribution function, from a table (no libm call per sample).
    private static let phiTable: [Double] = (0...1200).map { i in 0.5 * erfc(-(Double(i) / 100 - 6) / 2.0.squareRoot()) }

    @inline(__always) private static func phi(_ table: UnsafeBufferPointer<Double>, _ z: Double) -> Double {
        let t = (z + 6) * 100
        if t <= 0 { return 0 }
        if t >= 1200 { return 1 }
        let i = Int(t)
        let f = t - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    /// Adds each bar's darkness (0…1) to `darkness[k]` for samples `range.lowerBound + k`.
    ///
    /// The fit's hot loop (a few hundred renderings per scan line): unsafe buffers, no
    /// allocation, the Φ table read through one pointer.
    static func render(_ bars: [(Double, Double)], _ p: Parameters, range: Range<Int>, into darkness: inout [Double]) {
        let s = (p.sigma * p.sigma + 1.0 / 12).squareRoot()
        let lo = range.lowerBound, hi = range.upperBound - 1
        phiTable.withUnsafeBufferPointer { table in
            darkness.withUnsafeMutableBufferPointer { out in
                bars.withUnsafeBufferPointer { bars in
                    for (a, b) in bars {
                        let left = p.position(a - p.spread / 2)
                        let right = p.position(b + p.spread / 2)
                        guard right > left else { continue }
                        let from = max(lo, Int((left - 4 * s).rounded(.down)))
                        let to = min(hi, Int((right + 4 * s).rounded(.up)))
                        guard from <= to else { continue }
                        var x = from
                        while x <= to {
                            let xd = Double(x)
                            out[x - lo] += phi(table, (right - xd) / s) - phi(table, (left - xd) / s)
                            x += 1
                        }
                    }
                }
                for k in 0..<out.count where out[k] > 1 { out[k] = 1 }
            }
        }
    }

    /// Luminance of the spaces (`a`) and bar contrast (`b`, negative: bars darker) along the
    /// line; with shading both change linearly from one end of the fitted range to the other
    /// (light falling off across a cover), `t` from −½ to ½.
    struct Levels {
        var a: Double
        var b: Double
        var aSlope = 0.0
        var bSlope = 0.0
        var origin = 0.0
        var span = 1.0

        @inline(__always) func at(_ x: Int) -> (a: Double, b: Double) {
            let t = (Double(x) - origin) / span - 0.5
            return (a + aSlope * t, b + bSlope * t)
        }
    }

    /// Least-squares `a + b × darkness` to the samples (or, with `shading`, `a(t) + b(t) × darkness`
    /// with `a`, `b` linear in the position `t`): the levels and the sum of squared errors.
    static func fitLevels(_ samples: ArraySlice<Double>, _ darkness: [Double], shading: Bool = false) -> (Levels, sse: Double) {
        let n = Double(darkness.count)
        if shading { return fitShadedLevels(samples, darkness) }
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0
        samples.withUnsafeBufferPointer { ys in
            darkness.withUnsafeBufferPointer { xs in
                for k in 0..<min(xs.count, ys.count) {
                    let x = xs[k], y = ys[k]
                    sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y
                }
            }
        }
        let det = n * sxx - sx * sx
        guard det > 1e-9 else { return (Levels(a: sy / max(n, 1), b: 0), .infinity) }
        let b = (n * sxy - sx * sy) / det
        let a = (sy - b * sx) / n
        let sse = max(0, syy - a * sy - b * sxy)
        return (Levels(a: a, b: b), sse)
    }

    /// The shaded model: least squares on the features (1, t, d, t·d) by the normal equations.
    private static func fitShadedLevels(_ samples: ArraySlice<Double>, _ darkness: [Double]) -> (Levels, sse: Double) {
        let count = min(samples.count, darkness.count)
        var m = [Double](repeating: 0, count: 16), v = [Double](repeating: 0, count: 4)
        var syy = 0.0
        let span = Double(max(1, count))
        samples.withUnsafeBufferPointer { ys in
            darkness.withUnsafeBufferPointer { xs in
                for k in 0..<count {
                    let t = Double(k) / span - 0.5, d = xs[k], y = ys[k]
                    let f = (1.0, t, d, t * d)
                    let fs = [f.0, f.1, f.2, f.3]
                    for r in 0..<4 {
                        v[r] += fs[r] * y
                        for c in r..<4 { m[4 * r + c] += fs[r] * fs[c] }
                    }
                    syy += y * y
                }
            }
        }
        for r in 0..<4 { for c in 0..<r { m[4 * r + c] = m[4 * c + r] } }
        // Gaussian elimination with partial pivoting on the 4×4 system.
        var a = m, rhs = v
        for col in 0..<4 {
            let pivot = (col..<4).max { abs(a[4 * $0 + col]) < abs(a[4 * $1 + col]) }!
            guard abs(a[4 * pivot + col]) > 1e-9 else { return (Levels(a: 0, b: 0), .infinity) }
            if pivot != col {
                for c in 0..<4 { a.swapAt(4 * pivot + c, 4 * col + c) }
                rhs.swapAt(pivot, col)
            }
            for r in (col + 1)..<4 {
                let factor = a[4 * r + col] / a[4 * col + col]
                for c in col..<4 { a[4 * r + c] -= factor * a[4 * col + c] }
                rhs[r] -= factor * rhs[col]
            }
        }
        var beta = [Double](repeating: 0, count: 4)
        for r in stride(from: 3, through: 0, by: -1) {
            var sum = rhs[r]
            for c in (r + 1)..<4 { sum -= a[4 * r + c] * beta[c] }
            beta[r] = sum / a[4 * r + r]
        }
        let sse = max(0, syy - (0..<4).reduce(0) { $0 + beta[$1] * v[$1] })
        return (Levels(a: beta[0], b: beta[2], aSlope: beta[1], bSlope: beta[3], origin: 0, span: span), sse)
    }

    /// The fit of symbol `widths` with parameters `p` over `range` of `profile`: the levels and the
    /// error per sample in squared-contrast units; `.infinity` when bars come out lighter than spaces.
    static func score(_ widths: [Int], _ p: Parameters, profile: [Double], range: Range<Int>) -> (levels: Levels, error: Double) {
        var darkness = [Double](repeating: 0, count: range.count)
        return score(bars: bars(widths), p, profile: profile, range: range, scratch: &darkness)
    }

    /// ``score(_:_:profile:range:)`` for bars already laid out, rendering into `scratch` (any
    /// contents; resized to `range.count`): the fit calls it hundreds of times per line.
    static func score(bars: [(Double, Double)], _ p: Parameters, profile: [Double], range: Range<Int>,
                      scratch darkness: inout [Double]) -> (levels: Levels, error: Double) {
        if darkness.count != range.count { darkness = [Double](repeating: 0, count: range.count) } else {
            darkness.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        render(bars, p, range: range, into: &darkness)
        var (levels, sse) = fitLevels(profile[range], darkness, shading: p.shading)
        levels.origin = Double(range.lowerBound)
        // Bars at least 8 levels darker than spaces, at both ends of the line too.
        guard levels.b < -8, levels.b + abs(levels.bSlope) / 2 < -4 else { return (levels, .infinity) }
        return (levels, sse / (levels.b * levels.b * Double(range.count)))
    }

    /// Coordinate descent on position, module, spread and blur from `start`.
    ///
    /// With `bend`, the perspective ``Parameters/bend`` is fitted too (a fifth coordinate).
    static func fit(_ widths: [Int], from start: Parameters, profile: [Double], range: Range<Int>,
                    bend: Bool = false) -> (Parameters, Double) {
        let layout = bars(widths)
        var scratch: [Double] = []
        // The descent asks again for points it has just scored (the other direction of a
        // coordinate that moved; in the next round, the coordinates after the last one that
        // moved): the score is a function of the parameters alone, so the last few are kept,
        // keyed on their exact bits.
        typealias Key = (UInt64, UInt64, UInt64, UInt64, UInt64)
        var recent: [(key: Key, error: Double)] = []
        var next = 0
        func score(_ q: Parameters) -> Double {
            let key: Key = (q.x0.bitPattern, q.module.bitPattern, q.spread.bitPattern, q.sigma.bitPattern, q.bend.bitPattern)
            for entry in recent where entry.key == key { return entry.error }
            let error = Self.score(bars: layout, q, profile: profile, range: range, scratch: &scratch).error
            if recent.count < 24 { recent.append((key, error)) } else { recent[next] = (key, error) }
            next = (next + 1) % 24
            return error
        }
        var p = start
        var best = score(p)
        // A few starting positions a module apart: the reading's extent may be off by one or two.
        for shift in [-2.0, -1, 1, 2] {
            var q = start
            q.x0 += shift * start.module
            let e = score(q)
            if e < best { best = e; p = q }
        }
        var steps = [start.module * 0.5, start.module * 0.01, 0.2, max(0.15, start.module * 0.25), 0.04]
        let coordinates = bend ? 5 : 4
        for _ in 0..<4 {
            var improved = true
            var rounds = 0
            while improved && rounds < 4 {
                improved = false
                rounds += 1
                for k in 0..<coordinates {
                    for direction in [-1.0, 1.0] {
                        var q = p
                        switch k {
                        case 0: q.x0 += direction * steps[0]
                        case 1: q.module += direction * steps[1]
                        case 2: q.spread = min(0.9, max(-0.9, q.spread + direction * steps[2]))
                        case 3: q.sigma = min(3 * q.module + 1, max(0.05, q.sigma + direction * steps[3]))
                        default: q.bend = min(0.3, max(-0.3, q.bend + direction * steps[4]))
                        }
                        let e = score(q)
                        if e < best { best = e; p = q; improved = true }
                    }
                }
            }
            steps = steps.map { $0 / 2 }
        }
        return (p, best)
    }

    // MARK: One line

    /// Fits `digits` to `profile` (luminance samples along the reading direction) where the
    /// symbol spans samples `start`…`end` (its first and last bar edge, roughly), then
    /// re-decodes every character from the fit.
    static func measure(profile full: [Double], start fullStart: Double, end fullEnd: Double, digits: [UInt8]) -> LineResult? {
        guard var widths = elements(of: digits) else { return nil }
        let modules = Double(widths.reduce(0, +))
        // Modules wider than 3 samples carry no more information for the fit than 2-3 samples
        // do: average blocks of samples so that the fit's cost does not grow with the size.
        let block = max(1, Int((fullEnd - fullStart) / modules / 2.5))
        let profile = block == 1 ? full : stride(from: 0, to: full.count - block + 1, by: block).map { i in
            full[i..<(i + block)].reduce(0, +) / Double(block)
        }
        let start = (fullStart + 0.5) / Double(block) - 0.5, end = (fullEnd + 0.5) / Double(block) - 0.5
        let module = (end - start) / modules
        guard module >= 0.7, profile.count >= Int(modules) else { return nil }
        let range = max(0, Int(start - 3 * module))..<min(profile.count, Int((end + 3 * module).rounded(.up)) + 1)
        guard range.count >= Int(modules) else { return nil }
        var p = Parameters(x0: start, module: module, spread: 0, sigma: 0.5 * module, length: modules)
        var current = digits
        var bending = false
        var result: LineResult?
        // Fit, re-decode; when the re-decoded digits differ, fit them again and re-decode once more
        // (the spread estimated with wrong characters is off, and a misread's pattern may fit
        // poorly where the printed one fits well: a poor first fit is re-decoded too, and only
        // the fit of the digits finally decoded must be good).
        let half = digits.count == 13 ? 6 : 4
        for round in 0..<2 {
            var (fitted, error) = fit(widths, from: p, profile: profile, range: range, bend: bending)
            var (decoded, margin) = error <= 2 * maximumError ? redecode(widths, fitted, profile: profile, range: range, half: half)
                                                              : (nil, 0)
            if !bending && error < 3 * maximumError && (error > maximumError || decoded == nil) {
                // A symbol photographed at an angle: its modules narrow along the line, and the
                // light changes across it. The straight model then fits badly, or fits with a
                // wrong spread that re-decodes to nothing. (A fit three times worse than the
                // limit is the wrong span or no symbol at all: not worth the extra fit.)
                var shaded = p  // from the start: the straight fit may have gone astray
                shaded.shading = true
                let (bent, bentError) = fit(widths, from: shaded, profile: profile, range: range, bend: true)
                if bentError < error {
                    (fitted, error, bending) = (bent, bentError, true)
                    (decoded, margin) = error <= 2 * maximumError ? redecode(widths, fitted, profile: profile, range: range, half: half)
                                                                  : (nil, 0)
                }
            }
            p = fitted
            guard error <= (round == 0 ? 2 * maximumError : maximumError) else {
                return LineResult(digits: nil, error: error, spread: p.spread, margin: 0)
            }
            let good = error <= maximumError
            result = LineResult(digits: good ? decoded.map { String($0.map { Character(String($0)) }) } : nil,
                                error: error, spread: p.spread, margin: good && decoded != nil ? margin : 0)
            guard let decoded, decoded != current, let next = elements(of: decoded) else { break }
            current = decoded
            widths = next
        }
        return result
    }

    /// Replaces each symbol character by every option of its set and keeps the best fitting one
    /// (levels `a`, `b` held from the whole fit). Returns the digits (nil if the parity pattern
    /// is invalid or the check digit wrong) and the smallest margin of a character.
    static func redecode(_ widths: [Int], _ p: Parameters, profile: [Double], range: Range<Int>, half: Int) -> ([UInt8]?, Double) {
        let levels = score(widths, p, profile: profile, range: range).levels
        let s = (p.sigma * p.sigma + 1.0 / 12).squareRoot()
        var encoded: [UInt8] = []
        var parity: [Bool] = []
        var smallest = Double.infinity
        var w = widths
        for c in 0..<(2 * half) {
            let leftHand = c < half
            let first = 3 + 4 * c + (leftHand ? 0 : 5)  // index of the character's first element
            let moduleStart = 3 + 7 * c + (leftHand ? 0 : 5)
            let lo = max(range.lowerBound, Int((p.position(Double(moduleStart)) - 2 * s).rounded(.down)))
            let hi = min(range.upperBound, Int((p.position(Double(moduleStart + 7)) + 2 * s).rounded(.up)))
            guard hi > lo else { return (nil, 0) }
            let window = lo..<hi
            var scored: [(error: Double, digit: UInt8, isG: Bool)] = []
            for option in options(leftHand: leftHand) {
                for k in 0..<4 { w[first + k] = option.widths[k] }
                var darkness = [Double](repeating: 0, count: window.count)
                render(bars(w), p, range: window, into: &darkness)
                var sse = 0.0
                for (k, y) in zip(darkness.indices, profile[window]) {
                    let (a, b) = levels.at(window.lowerBound + k)
                    let d = y - (a + b * darkness[k])
                    sse += d * d
                }
                scored.append((sse / (levels.b * levels.b * Double(window.count)), option.digit, option.isG))
            }
            for k in 0..<4 { w[first + k] = widths[first + k] }
            scored.sort { $0.error < $1.error }
            let margin = scored[1].error - scored[0].error
            smallest = min(smallest, margin)
            encoded.append(scored[0].digit)
            parity.append(scored[0].isG)
        }
        var digits = encoded
        if half == 6 {
            guard let leading = EANSymbol.parities.firstIndex(of: Array(parity[0..<6])) else { return (nil, smallest) }
            digits.insert(UInt8(leading), at: 0)
        } else if parity.contains(true) {
            return (nil, smallest)
        }
        guard EAN.hasValidCheckDigit(digits) else { return (nil, smallest) }
        return (digits, smallest)
    }
}
