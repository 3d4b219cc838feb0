// SPDX-License-Identifier: Apache-2.0
import Imaging
import ISBN

/// What re-measuring a reading's bars found (see ``ReadingVerifier``).
public enum Verification: Hashable, Sendable {
    /// The fit of the printed symbol re-decodes to the same digits on `lines` scan lines (and to
    /// nothing else on any line).
    case confirmed(lines: Int)
    /// The fit re-decodes to `digits` — a different valid code — on `lines` scan lines and to the
    /// reading itself on none: the reading is a probable misread (a 1↔7 or 2↔8 confusion of bar widths).
    case contradicted(by: String, lines: Int)
    /// Nothing conclusive: the fit is poor (blur, noise, a curved or cropped symbol), the lines
    /// disagree, or the reading is not an EAN-13/EAN-8.
    case unverified
}

/// Checks a reading independently of the decoder that made it: takes several scan lines across
/// the place where it was read and, on each, fits the symbol and re-decodes every character
/// (``EANProfileFit``).
///
/// Lines run along the reading direction (``Symbol/orientation``: rows for 0° and 180°, columns
/// for 90° and 270°; both ways when unknown), spread evenly over the symbol's extent across
/// the bars, each extended by 12 modules beyond the symbol on both sides. Coordinates are
/// pixels of `image`, the image the reading was made in.
enum ReadingVerifier {
    /// Scan lines per reading.
    static let lines = 5

    static func verify(_ symbol: Symbol, in image: LuminanceImage) -> Verification {
        guard symbol.symbology == .ean13 || symbol.symbology == .ean8,
              symbol.data.count == (symbol.symbology == .ean13 ? 13 : 8),
              let digits = Optional(symbol.data.compactMap { $0.wholeNumberValue.map(UInt8.init) }),
              digits.count == symbol.data.count, let b = symbol.place else { return .unverified }
        let horizontal: [Bool]
        switch symbol.orientation {
        case 0?, 180?: horizontal = [true]
        case 90?, 270?: horizontal = [false]
        default: horizontal = b.width >= b.height ? [true, false] : [false, true]
        }
        let modules = Double(symbol.symbology == .ean13 ? 95 : 67)
        for isRow in horizontal {
            let (along0, along1) = isRow ? (b.x, b.lastX) : (b.y, b.lastY)
            let (across0, across1) = isRow ? (b.y, b.lastY) : (b.x, b.lastX)
            // zbar marks a symbol where its decode completed on each scan line: at either end
            // or at the middle guard (it decodes the halves apart), so the box may span the
            // symbol, either half of it, or one point. Each span it may stand for is tried.
            let extent = along1 - along0
            let acrossLength = isRow ? image.height : image.width
            var spans: [(Int, Int)] = []
            // The bars as the line itself shows them: the run of bars and spaces around the
            // box's centre, up to a light stretch too long to lie inside a symbol.
            // When the first run stops inside the symbol (thin, grey bars on one side leave a
            // space that looks like a quiet zone), a looser limit finds the rest.
            spans += barsAround((along0 + along1) / 2, line: (across0 + across1) / 2, isRow: isRow, in: image,
                                looseness: [3.2, 4.5], bars: symbol.symbology == .ean13 ? 30 : 22)
            if Double(extent) >= modules * 0.35 {
                for span in [(along0, along1), (along0, along1 + extent), (along0 - extent, along1)]
                where !spans.contains(where: { $0 == span }) { spans.append(span) }
            }
            var positions: [Int] = []
            if across1 - across0 >= lines {
                positions = (0..<lines).map { across0 + (2 * $0 + 1) * (across1 - across0) / (2 * lines) }
            } else {
                let centre = (across0 + across1) / 2
                positions = [0, -2, 2, -4, 4].map { centre + $0 }.filter { $0 >= 0 && $0 < acrossLength }
            }
            for (spanStart, spanEnd) in spans where Double(spanEnd - spanStart) >= modules * 0.7 {
                let margin = Int((Double(spanEnd - spanStart) / modules * 12).rounded(.up))
                let lineLength = isRow ? image.width : image.height
                let from = max(0, spanStart - margin), to = min(lineLength - 1, spanEnd + margin)
                guard to > from else { continue }
                for reversed in (symbol.orientation == nil ? [false, true] : [symbol.orientation! >= 180]) {
                    var results: [EANProfileFit.LineResult] = []
                    for position in positions {
                        var profile = [Double](repeating: 0, count: to - from + 1)
                        image.withUnsafeBytes { bytes in
                            for k in 0...(to - from) {
                                let along = from + k
                                profile[k] = Double(isRow ? bytes[position * image.width + along] : bytes[along * image.width + position])
                            }
                        }
                        var start = Double(spanStart - from), end = Double(spanEnd - from)
                        if reversed {
                            profile.reverse()
                            (start, end) = (Double(to - spanEnd), Double(to - spanStart))
                        }
                        if let result = EANProfileFit.measure(profile: profile, start: start, end: end, digits: digits) {
                            results.append(result)
                        }
                        // Two lines that agree settle it; two that fit badly say the span or
                        // the direction is wrong. Either way the other lines are not needed.
                        if results.count >= 2 {
                            let early = judge(symbol.data, results)
                            if early != .unverified { return early }
                            if results.allSatisfy({ $0.error > EANProfileFit.maximumError }) { break }
                        }
                    }
                    let verdict = judge(symbol.data, results)
                    if verdict != .unverified { return verdict }
                }
            }
        }
        return .unverified
    }

    /// The extent along one line (a row `line` when `isRow`, else a column) of the bars and
    /// spaces around sample `centre`: the line is split into dark and light runs at the middle
    /// (three fifths of the way to the lightest) of the darkest and lightest sample within 300 samples of the centre, and the runs are
    /// followed both ways until a light run longer than `looseness` times the median run (an EAN's
    /// spaces are at most 4 modules, its quiet zones at least 7; the median element is about
    /// 1.5 modules). One extent per limit in `looseness` (the line is split into runs once), the
    /// same extent once; none when fewer than 20 runs are found. An extent holding exactly `bars`
    /// dark runs (the symbol's bar count: 30 for an EAN-13, 22 for an EAN-8, GS1 §5.2.1) comes
    /// first: on a sharp line that is the symbol, and a verifier trying the extents in turn
    /// fits it first.
    static func barsAround(_ centre: Int, line: Int, isRow: Bool, in image: LuminanceImage,
                           looseness: [Double] = [3.2], bars: Int? = nil) -> [(Int, Int)] {
        let length = isRow ? image.width : image.height
        guard line >= 0, line < (isRow ? image.height : image.width), centre >= 0, centre < length else { return [] }
        let from = max(0, centre - 300), to = min(length - 1, centre + 300)
        var samples = [UInt8](repeating: 0, count: to - from + 1)
        image.withUnsafeBytes { bytes in
            for k in samples.indices {
                samples[k] = isRow ? bytes[line * image.width + from + k] : bytes[(from + k) * image.width + line]
            }
        }
        guard let lo = samples.min(), let hi = samples.max(), Int(hi) - Int(lo) >= 24 else { return [] }
        // Nearer the light level than the middle: thin bars of an overexposed print stay grey.
        let threshold = Int(lo) + (Int(hi) - Int(lo)) * 3 / 5
        // Runs: (start, length, dark).
        var runs: [(start: Int, length: Int, dark: Bool)] = []
        for (k, value) in samples.enumerated() {
            let dark = Int(value) < threshold
            if let last = runs.last, last.dark == dark { runs[runs.count - 1].length += 1 } else { runs.append((k, 1, dark)) }
        }
        guard runs.count >= 20, let here = runs.firstIndex(where: { centre - from < $0.start + $0.length }) else { return [] }
        let lengths = runs[max(0, here - 30)..<min(runs.count, here + 31)].map(\.length).sorted()
        let median = Double(lengths[lengths.count / 2])
        var spans: [(Int, Int)] = []
        var exact = 0  // extents with `bars` dark runs, at the front
        for factor in looseness {
            let limit = median * factor
            var first = here, last = here
            while first > 0, runs[first - 1].dark || Double(runs[first - 1].length) <= limit { first -= 1 }
            while last < runs.count - 1, runs[last + 1].dark || Double(runs[last + 1].length) <= limit { last += 1 }
            while first < last, !runs[first].dark { first += 1 }
            while last > first, !runs[last].dark { last -= 1 }
            guard last - first >= 20 else { continue }
            let span = (from + runs[first].start, from + runs[last].start + runs[last].length - 1)
            guard !spans.contains(where: { $0 == span }) else { continue }
            if let bars, runs[first...last].count(where: \.dark) == bars {
                spans.insert(span, at: exact)
                exact += 1
            } else {
                spans.append(span)
            }
        }
        return spans
    }

    /// The verdict from the lines' results: the reading is confirmed when at least one line
    /// re-decodes to it and none to another code; contradicted when at least two lines agree on
    /// one other code and none re-decodes to the reading.
    static func judge(_ data: String, _ results: [EANProfileFit.LineResult]) -> Verification {
        var votes: [String: Int] = [:]
        for result in results where result.margin >= EANProfileFit.minimumMargin { if let digits = result.digits { votes[digits, default: 0] += 1 } }
        let same = votes[data] ?? 0
        let others = votes.filter { $0.key != data }
        if same > 0 && others.isEmpty { return .confirmed(lines: same) }
        if same == 0, let top = others.max(by: { $0.value < $1.value }), top.value >= 2,
           others.values.filter({ $0 == top.value }).count == 1 {
            return .contradicted(by: top.key, lines: top.value)
        }
        return .unverified
    }
}
