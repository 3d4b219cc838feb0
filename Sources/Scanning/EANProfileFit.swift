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
            let l = EANLineDecoder.lWidths[digit].map { Int($0) }
            result.append((UInt8(digit), false, l))
            if leftHand { result.append((UInt8(digit), true, l.reversed())) }
        }
        return result
    }

    /// The element widths of the whole symbol (bar first; guards included) for `digits`
    /// (13 for EAN-13, 8 for EAN-8), or `nil` for another length.
    static func elements(of digits: [UInt8]) -> [Int]? {
        let half: Int
        let parity: [Bool]
        switch digits.count {
        case 13: half = 6; parity = EANLineDecoder.parities[Int(digits[0])]
        case 8: half = 4; parity = [Bool](repeating: false, count: 4)
        default: return nil
        }
        let encoded = digits.count == 13 ? Array(digits[1...]) : digits
        var widths = [1, 1, 1]
        for c in 0..<half {
            let l = EANLineDecoder.lWidths[Int(encoded[c])].map { Int($0) }
            // Left-hand characters begin with a space: the space after the guard's last bar.
            widths += parity[c] ? l.reversed() : l
        }
        widths += [1, 1, 1, 1, 1]
        for c in half..<(2 * half) { widths += EANLineDecoder.lWidths[Int(encoded[c])].map { Int($0) } }
        widths += [1, 1, 1]
        // widths alternate bar, space, … from the first guard bar; the middle guard starts with
        // a space, right-hand characters with a bar, and that keeps the alternation.
        return widths
    }

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
    }

    /// Φ, the standard normal distribution function, from a table (no libm call per sample).
    private static let phiTable: [Double] = (0...1200).map { i in 0.5 * erfc(-(Double(i) / 100 - 6) / 2.0.squareRoot()) }

    @inline(__always) private static func phi(_ z: Double) -> Double {
        let t = (z + 6) * 100
        if t <= 0 { return 0 }
        if t >= 1200 { return 1 }
        let i = Int(t)
        let f = t - Double(i)
        return phiTable[i] + (phiTable[i + 1] - phiTable[i]) * f
    }

    /// Adds each bar's darkness (0…1) to `darkness[k]` for samples `range.lowerBound + k`.
    static func render(_ bars: [(Double, Double)], _ p: Parameters, range: Range<Int>, into darkness: inout [Double]) {
        let s = (p.sigma * p.sigma + 1.0 / 12).squareRoot()
        for (a, b) in bars {
            let left = p.x0 + p.module * (a - p.spread / 2)
            let right = p.x0 + p.module * (b + p.spread / 2)
            guard right > left else { continue }
            let from = max(range.lowerBound, Int((left - 4 * s).rounded(.down)))
            let to = min(range.upperBound - 1, Int((right + 4 * s).rounded(.up)))
            guard from <= to else { continue }
            for x in from...to {
                let xd = Double(x)
                darkness[x - range.lowerBound] += phi((right - xd) / s) - phi((left - xd) / s)
            }
        }
        for k in darkness.indices where darkness[k] > 1 { darkness[k] = 1 }
    }

    /// Least-squares `a + b × darkness` to the samples: (a, b, sum of squared errors).
    static func fitLevels(_ samples: ArraySlice<Double>, _ darkness: [Double]) -> (a: Double, b: Double, sse: Double) {
        let n = Double(darkness.count)
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0
        for (k, y) in zip(darkness.indices, samples) {
            let x = darkness[k]
            sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y
        }
        let det = n * sxx - sx * sx
        guard det > 1e-9 else { return (sy / max(n, 1), 0, .infinity) }
        let b = (n * sxy - sx * sy) / det
        let a = (sy - b * sx) / n
        let sse = max(0, syy - a * sy - b * sxy)
        return (a, b, sse)
    }

    /// The fit of symbol `widths` with parameters `p` over `range` of `profile`: (a, b, error per
    /// sample in squared-contrast units); `.infinity` when bars come out lighter than spaces.
    static func score(_ widths: [Int], _ p: Parameters, profile: [Double], range: Range<Int>) -> (a: Double, b: Double, error: Double) {
        var darkness = [Double](repeating: 0, count: range.count)
        render(bars(widths), p, range: range, into: &darkness)
        let (a, b, sse) = fitLevels(profile[range], darkness)
        guard b < -8 else { return (a, b, .infinity) }  // bars at least 8 levels darker than spaces
        return (a, b, sse / (b * b * Double(range.count)))
    }

    /// Coordinate descent on position, module, spread and blur from `start`.
    static func fit(_ widths: [Int], from start: Parameters, profile: [Double], range: Range<Int>) -> (Parameters, Double) {
        var p = start
        var best = score(widths, p, profile: profile, range: range).error
        // A few starting positions a module apart: the reading's extent may be off by one or two.
        for shift in [-2.0, -1, 1, 2] {
            var q = start
            q.x0 += shift * start.module
            let e = score(widths, q, profile: profile, range: range).error
            if e < best { best = e; p = q }
        }
        var steps = [start.module * 0.5, start.module * 0.01, 0.2, max(0.15, start.module * 0.25)]
        for _ in 0..<4 {
            var improved = true
            var rounds = 0
            while improved && rounds < 4 {
                improved = false
                rounds += 1
                for k in 0..<4 {
                    for direction in [-1.0, 1.0] {
                        var q = p
                        switch k {
                        case 0: q.x0 += direction * steps[0]
                        case 1: q.module += direction * steps[1]
                        case 2: q.spread = min(0.9, max(-0.9, q.spread + direction * steps[2]))
                        default: q.sigma = min(3 * q.module + 1, max(0.05, q.sigma + direction * steps[3]))
                        }
                        let e = score(widths, q, profile: profile, range: range).error
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
        var p = Parameters(x0: start, module: module, spread: 0, sigma: 0.5 * module)
        var current = digits
        var result: LineResult?
        // Fit, re-decode; when the re-decoded digits differ, fit them again and re-decode once more
        // (the spread estimated with wrong characters is off, and a misread's pattern may fit
        // poorly where the printed one fits well: a poor first fit is re-decoded too, and only
        // the fit of the digits finally decoded must be good).
        for round in 0..<2 {
            let (fitted, error) = fit(widths, from: p, profile: profile, range: range)
            p = fitted
            guard error <= (round == 0 ? 2 * maximumError : maximumError) else {
                return LineResult(digits: nil, error: error, spread: p.spread, margin: 0)
            }
            let (decoded, margin) = redecode(widths, p, profile: profile, range: range, half: digits.count == 13 ? 6 : 4)
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
        let (a, b, _) = score(widths, p, profile: profile, range: range)
        let s = (p.sigma * p.sigma + 1.0 / 12).squareRoot()
        var encoded: [UInt8] = []
        var parity: [Bool] = []
        var smallest = Double.infinity
        var w = widths
        for c in 0..<(2 * half) {
            let leftHand = c < half
            let first = 3 + 4 * c + (leftHand ? 0 : 5)  // index of the character's first element
            let moduleStart = 3 + 7 * c + (leftHand ? 0 : 5)
            let lo = max(range.lowerBound, Int((p.x0 + p.module * Double(moduleStart) - 2 * s).rounded(.down)))
            let hi = min(range.upperBound, Int((p.x0 + p.module * Double(moduleStart + 7) + 2 * s).rounded(.up)))
            guard hi > lo else { return (nil, 0) }
            let window = lo..<hi
            var scored: [(error: Double, digit: UInt8, isG: Bool)] = []
            for option in options(leftHand: leftHand) {
                for k in 0..<4 { w[first + k] = option.widths[k] }
                var darkness = [Double](repeating: 0, count: window.count)
                render(bars(w), p, range: window, into: &darkness)
                var sse = 0.0
                for (k, y) in zip(darkness.indices, profile[window]) {
                    let d = y - (a + b * darkness[k])
                    sse += d * d
                }
                scored.append((sse / (b * b * Double(window.count)), option.digit, option.isG))
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
            guard let leading = EANLineDecoder.parities.firstIndex(of: Array(parity[0..<6])) else { return (nil, smallest) }
            digits.insert(UInt8(leading), at: 0)
        } else if parity.contains(true) {
            return (nil, smallest)
        }
        guard EAN.hasValidCheckDigit(digits) else { return (nil, smallest) }
        return (digits, smallest)
    }
}
