// SPDX-License-Identifier: Apache-2.0
import Imaging

/// Test pictures of out-of-focus EAN-13 symbols, rendered independently of the decoders: the
/// element widths come from the table of GS1 General Specifications §5.2.1.2 written out here.
public enum BlurredEAN13 {
    /// Deterministic noise: the sum of four uniform draws (roughly Gaussian), scaled to σ.
    public struct Noise {
        var state: UInt32
        public init(seed: UInt32) { state = seed }
        public mutating func next(sigma: Double) -> Double {
            var sum = 0.0
            for _ in 0..<4 {
                state = state &* 1_103_515_245 &+ 12345
                sum += Double(state >> 16 & 0x7fff) / 32768 - 0.5
            }
            return sum * sigma * (3.0).squareRoot()  // 4 uniforms of variance 1/12 → 1/3
        }
    }

    /// Set A (L) element widths, space first; set B (G) is each reversed; set C (R) is set A
    /// with bars and spaces swapped, bar first.
    static let setA: [[Int]] = [[3, 2, 1, 1], [2, 2, 2, 1], [2, 1, 2, 2], [1, 4, 1, 1], [1, 1, 3, 2],
                                [1, 2, 3, 1], [1, 1, 1, 4], [1, 3, 1, 2], [1, 2, 1, 3], [3, 1, 1, 2]]
    static let parities = ["AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB", "ABBAAB", "ABBBAA", "ABABAB", "ABABBA", "ABBABA"]

    /// Element widths in modules of the symbol for 13 digits, bar first, guards included.
    public static func elements(_ digits: String) -> [Int] {
        let d = digits.compactMap(\.wholeNumberValue)
        precondition(d.count == 13)
        let parity = Array(parities[d[0]])
        var widths = [1, 1, 1]
        for c in 0..<6 { widths += parity[c] == "B" ? setA[d[c + 1]].reversed() : setA[d[c + 1]] }
        widths += [1, 1, 1, 1, 1]
        for c in 6..<12 { widths += setA[d[c + 1]] }
        return widths + [1, 1, 1]
    }

    /// A `width`×`height` picture (light 220) with the symbol for `digits` printed at
    /// (`left`, `top`) with modules of `module` pixels and bars `barHeight` tall (ink 30), then
    /// defocused — every pixel the mean of the pixels within `radius` of it, a disk — and given
    /// noise of `sigma` levels.
    public static func picture(_ digits: String, module: Double, radius: Double, sigma: Double = 3, seed: UInt32 = 1,
                               width: Int? = nil, height: Int = 150, left: Double? = nil, top: Int = 40,
                               barHeight: Int = 70) -> LuminanceImage {
        let origin = left ?? 40 + 12 * module
        let width = width ?? Int(origin + (95 + 12) * module) + 40
        var bars: [(Double, Double)] = []
        var u = 0
        for (k, w) in elements(digits).enumerated() {
            if k % 2 == 0 { bars.append((origin + Double(u) * module, origin + Double(u + w) * module)) }
            u += w
        }
        // Bar coverage of each column: the exact area of [x, x + 1) under the bars.
        let column = (0..<width).map { x -> Double in
            var covered = 0.0
            for (b0, b1) in bars { covered += max(0, min(Double(x + 1), b1) - max(Double(x), b0)) }
            return covered
        }
        var sharp = [Double](repeating: 220, count: width * height)
        for y in top..<min(height, top + barHeight) { for x in 0..<width { sharp[y * width + x] = 220 - 190 * column[x] } }
        let r = Int(radius.rounded(.up))
        var taps: [(Int, Int)] = []
        for dy in -r...r {
            for dx in -r...r where Double(dx * dx + dy * dy) <= radius * radius { taps.append((dx, dy)) }
        }
        var noise = Noise(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for (dx, dy) in taps {
                    let xx = min(max(x + dx, 0), width - 1), yy = min(max(y + dy, 0), height - 1)
                    sum += sharp[yy * width + xx]
                }
                pixels[y * width + x] = UInt8(max(0, min(255, (sum / Double(taps.count) + noise.next(sigma: sigma)).rounded())))
            }
        }
        return LuminanceImage(width: width, height: height, pixels: pixels)
    }
}
