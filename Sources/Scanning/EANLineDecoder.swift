// SPDX-License-Identifier: Apache-2.0
import Imaging
import ISBN

/// A second EAN-13/EAN-8 decoder, independent of zbar, that reads one scan line at a time and
/// measures every digit on its own.
///
/// zbar measures bar widths against a module width taken from the whole symbol, so a barcode
/// that is curved (a bottle, a bent cover), seen in perspective, or only a few pixels tall
/// defeats it. This decoder follows the GS1 General Specifications §5.2.1 (EAN/UPC symbol
/// structure): on one line of luminance samples it finds the normal guard pattern (bar, space,
/// bar of one module), then reads each symbol character as 4 elements spanning 7 modules,
/// scaled by that character's own width, and matches it against the L, G and R sets of
/// character encodation (§5.2.1.2.1); the L/G parity of the six left-hand characters encodes
/// the leading digit (§5.2.1.2.3). A reading counts only if every character matches closely
/// and clearly better than any other digit, the guards are where they must be, and the check
/// digit is right.
///
/// Used by ``MultiPassDecoder`` as a recovery pass; it is not thread-safe only in the sense
/// that it keeps no state: every call is independent.
enum EANLineDecoder {
    /// Set A (L) widths of digits 0…9 (``EANSymbol/widthsA``), as the character fit compares them.
    static let lWidths: [[Double]] = EANSymbol.widthsA.map { $0.map(Double.init) }
    /// The number sets of the six left-hand characters (``EANSymbol/parities``).
    static let parities = EANSymbol.parities

    /// One reading on one line: the digits, and where along the line the symbol lies
    /// (sample indices of its first and last bar edge).
    struct Reading: Equatable {
        var symbology: Symbology
        var digits: String
        var start: Int
        var end: Int
    }

    /// Reads up to `lines` evenly spaced rows and as many columns of `image`, and returns each
    /// code read on at least two lines (one, for an image under 4 pixels across that way) as a
    /// symbol whose polygon spans the lines that read it, in `image`'s pixels. Codes read the
    /// same way on too few lines are dropped; `quality` is the number of agreeing lines.
    static func scan(_ image: LuminanceImage, lines: Int = 48, pass: PassName) -> [Symbol] {
        var symbols: [Symbol] = []
        for vertical in [false, true] {
            let length = vertical ? image.height : image.width
            let across = vertical ? image.width : image.height
            guard length >= 45 else { continue }
            let count = min(lines, across)
            var line = [UInt8](repeating: 0, count: length)
            // digits → where along the lines it lies, and which lines read it
            var found: [String: (symbology: Symbology, along: [Int], across: [Int])] = [:]
            for k in 0..<count {
                let position = (2 * k + 1) * across / (2 * count)
                image.withUnsafeBytes { bytes in
                    let base = bytes.bindMemory(to: UInt8.self)
                    if vertical {
                        for y in 0..<length { line[y] = base[y * image.width + position] }
                    } else {
                        for x in 0..<length { line[x] = base[position * image.width + x] }
                    }
                }
                let readings = line.withUnsafeBufferPointer { decode($0) }
                var seen = Set<String>()
                for reading in readings where seen.insert(reading.digits).inserted {
                    var entry = found[reading.digits] ?? (reading.symbology, [], [])
                    entry.along += [reading.start, reading.end]
                    entry.across.append(position)
                    found[reading.digits] = entry
                }
            }
            let needed = across < 4 ? 1 : 2
            for (digits, entry) in found where entry.across.count >= needed {
                let a0 = entry.along.min()!, a1 = entry.along.max()!
                let c0 = entry.across.min()!, c1 = entry.across.max()!
                let place = vertical
                    ? PixelRect(x: c0, y: a0, width: c1 - c0 + 1, height: a1 - a0 + 1)
                    : PixelRect(x: a0, y: c0, width: a1 - a0 + 1, height: c1 - c0 + 1)
                var symbol = Symbol(symbology: entry.symbology, data: digits, quality: entry.across.count,
                                    orientation: nil, place: place, pass: pass)
                symbol.measurement = .characterWidths
                symbols.append(symbol)
            }
        }
        return symbols.sorted { $0.data < $1.data }
    }

    /// Alternating run lengths of one line after binarization; `runs[0]` is light.
    static func runs(of samples: UnsafeBufferPointer<UInt8>) -> [Int] {
        let n = samples.count
        guard n >= 8 else { return [] }
        // Threshold each sample at the middle of the darkest and lightest sample within a
        // window around it (uneven light along the line); flat stretches count as light.
        let window = max(8, n / 12)
        var dark = [Bool](repeating: false, count: n)
        var lo = [UInt8](repeating: 0, count: n), hi = [UInt8](repeating: 0, count: n)
        // Sliding min/max over blocks: cheap and good enough for a threshold.
        let block = max(1, window / 2)
        let blocks = (n + block - 1) / block
        var blockMin = [UInt8](repeating: 255, count: blocks), blockMax = [UInt8](repeating: 0, count: blocks)
        for i in 0..<n {
            let b = i / block
            blockMin[b] = min(blockMin[b], samples[i])
            blockMax[b] = max(blockMax[b], samples[i])
        }
        for i in 0..<n {
            let b = i / block
            let from = max(0, b - 1), to = min(blocks - 1, b + 1)
            var l: UInt8 = 255, h: UInt8 = 0
            for k in from...to {
                l = min(l, blockMin[k])
                h = max(h, blockMax[k])
            }
            lo[i] = l
            hi[i] = h
        }
        var overallMin: UInt8 = 255, overallMax: UInt8 = 0
        for i in 0..<n {
            overallMin = min(overallMin, samples[i])
            overallMax = max(overallMax, samples[i])
        }
        let minContrast = max(12, Int(overallMax - overallMin) / 5)
        for i in 0..<n {
            let contrast = Int(hi[i]) - Int(lo[i])
            dark[i] = contrast >= minContrast && Int(samples[i]) * 2 < Int(hi[i]) + Int(lo[i])
        }
        var runs: [Int] = []
        var current = false, length = 0
        for value in dark {
            if value == current {
                length += 1
            } else {
                runs.append(length)
                current = value
                length = 1
            }
        }
        runs.append(length)
        return runs
    }

    /// Every EAN-13 and EAN-8 read on `samples` (either reading direction).
    static func decode(_ samples: UnsafeBufferPointer<UInt8>) -> [Reading] {
        let forward = runs(of: samples)
        guard forward.count >= 45 else { return [] }
        var readings = read(forward)
        let total = forward.reduce(0, +)
        // Right to left: the same runs reversed (the first run stays light when the count is odd).
        var backward = Array(forward.reversed())
        if backward.count % 2 == 0 { backward.insert(0, at: 0) }
        for reading in read(backward) {
            var flipped = reading
            flipped.start = total - 1 - reading.end
            flipped.end = total - 1 - reading.start
            readings.append(flipped)
        }
        return readings
    }

    /// Readings on runs that start with a light run (odd indices are dark).
    private static func read(_ runs: [Int]) -> [Reading] {
        var readings: [Reading] = []
        var offsets = [Int](repeating: 0, count: runs.count + 1)
        for (i, run) in runs.enumerated() { offsets[i + 1] = offsets[i] + run }
        var i = 1
        while i + 42 < runs.count {
            if let reading = readEAN13(runs, at: i, offsets: offsets) ?? readEAN8(runs, at: i, offsets: offsets) {
                readings.append(reading)
                i += reading.symbology == .ean13 ? 58 : 42
            } else {
                i += 2
            }
        }
        return readings
    }

    /// Whether runs `i`, `i+1`, `i+2` are a normal guard (bar, space, bar) of module `module`.
    /// The bar `cut` (0 or 2; -1: none) touches the end of the line, where the image's edge may
    /// have cut it: any part of it will do.
    /// (The caller also asks for a light quiet zone of at least 3 modules before the symbol,
    /// or the start of the line: §5.2.2.4.1 asks 11 on the left, but photos crop it.)
    private static func isGuard(_ runs: [Int], at i: Int, module: Double, cut: Int = -1) -> Bool {
        for k in 0..<3 {
            let ratio = Double(runs[i + k]) / module
            if ratio < (k == cut ? 0.1 : 0.5) || ratio > 1.6 { return false }
        }
        return true
    }

    private static func readEAN13(_ runs: [Int], at i: Int, offsets: [Int]) -> Reading? {
        readSymbol(runs, at: i, offsets: offsets, half: 6)
    }

    private static func readEAN8(_ runs: [Int], at i: Int, offsets: [Int]) -> Reading? {
        readSymbol(runs, at: i, offsets: offsets, half: 4)
    }

    /// An EAN-13 (`half` = 6 characters each side) or EAN-8 (`half` = 4) whose start guard is
    /// runs `i`…`i+2`: guard, `half` left-hand characters, middle guard (5 runs), `half`
    /// right-hand characters, end guard; 11 + 14 × `half` modules in 11 + 8 × `half` runs.
    private static func readSymbol(_ runs: [Int], at i: Int, offsets: [Int], half: Int) -> Reading? {
        let count = 11 + 8 * half, middle = i + 3 + 4 * half
        guard i + count <= runs.count else { return nil }
        // A photo cropped at the symbol: an outer guard bar that touches the end of the line
        // may be cut short. The module is measured without it, and the guard's widths decide.
        let cutStart = i == 1 && runs[0] == 0, cutEnd = i + count == runs.count
        let first = cutStart ? i + 1 : i, last = cutEnd ? i + count - 1 : i + count
        let modules = 11 + 14 * half - (cutStart ? 1 : 0) - (cutEnd ? 1 : 0)
        let module = Double(offsets[last] - offsets[first]) / Double(modules)
        guard module >= 0.6, isGuard(runs, at: i, module: module, cut: cutStart ? 0 : -1),
              isGuard(runs, at: i + count - 3, module: module, cut: cutEnd ? 2 : -1),
              i == 1 || Double(runs[i - 1]) >= 3 * module else { return nil }
        // Middle guard: space, bar, space, bar, space of one module each.
        for k in middle..<(middle + 5) {
            let ratio = Double(runs[k]) / module
            if ratio < 0.5 || ratio > 1.6 { return nil }
        }
        var digits: [UInt8] = []
        var parity: [Bool] = []
        for c in 0..<half {
            guard let (digit, isG) = character(runs, at: i + 3 + 4 * c, leftHand: true) else { return nil }
            digits.append(digit)
            parity.append(isG)
        }
        for c in 0..<half {
            guard let (digit, _) = character(runs, at: middle + 5 + 4 * c, leftHand: false) else { return nil }
            digits.append(digit)
        }
        if half == 6 {
            // The parity pattern of the left half encodes the leading digit (§5.2.1.2.3).
            guard let first = parities.firstIndex(of: parity) else { return nil }
            digits.insert(UInt8(first), at: 0)
        } else if parity.contains(true) {
            return nil  // EAN-8 uses the L set only on the left
        }
        guard EAN.hasValidCheckDigit(digits) else { return nil }
        return Reading(symbology: half == 6 ? .ean13 : .ean8, digits: String(digits.map { Character(String($0)) }),
                       start: offsets[i], end: offsets[i + count] - 1)
    }

    /// The digit whose 4 elements start at run `i`, scaled to 7 modules by their own width.
    /// Left-hand characters start with a space and may be L or G; right-hand ones (R set)
    /// start with a bar and have the L widths. `nil` unless one digit fits clearly best.
    private static func character(_ runs: [Int], at i: Int, leftHand: Bool) -> (UInt8, Bool)? {
        let elements = (0..<4).map { Double(runs[i + $0]) }
        let total = elements.reduce(0, +)
        guard total > 0 else { return nil }
        let scaled = elements.map { $0 * 7 / total }
        var best = (error: Double.infinity, digit: 0, isG: false)
        var second = Double.infinity
        for digit in 0..<10 {
            // L and R characters read left to right as space,bar,space,bar / bar,space,bar,space
            // with the same widths; G is the L widths in reverse order.
            var candidates: [([Double], Bool)] = [(lWidths[digit], false)]
            if leftHand { candidates.append((lWidths[digit].reversed(), true)) }
            for (pattern, isG) in candidates {
                var error = 0.0
                for k in 0..<4 {
                    let d = scaled[k] - pattern[k]
                    error += d * d
                }
                if error < best.error {
                    second = best.error
                    best = (error, digit, isG)
                } else if error < second {
                    second = error
                }
            }
        }
        // Thresholds in squared modules: a good character is within ~0.4 module per element,
        // and the runner-up must be clearly worse.
        guard best.error < 0.7, second - best.error > 0.25 else { return nil }
        return (UInt8(best.digit), best.isG)
    }
}
