// SPDX-License-Identifier: Apache-2.0
import Imaging
import Scanning

extension PrintedISBNReader: PrintedDigitsWitness {
    /// The digits printed under an EAN-13 (``digitsUnderBars(in:quadrilateral:)``), for the
    /// arbiter to weigh as one more measurement where the bars leave a place in doubt.
    public func printedDigits(in image: LuminanceImage, quadrilateral: [Point]) -> String? {
        digitsUnderBars(in: image, quadrilateral: quadrilateral)?.digits
    }

    /// The human-readable digits printed under an EAN-13, as read: a second witness of the code,
    /// independent of the bars' edges.
    public struct BarDigits: Sendable, Equatable {
        /// The 13 digits, left to right (the first one printed left of the left guard).
        public var digits: String
        /// 0…1: Tesseract's confidence in a reading of the strip with every character allowed,
        /// times the share of the 13 places where that reading has the same digit (0 when it does
        /// not read 13 digits). A reading restricted to digits comes without a confidence.
        public var confidence: Double
        /// Whether the guard bars were found in the last row of bars (30 bars: GS1 General
        /// Specifications §5.2.3) and blanked out of the digits' strip; without them a guard
        /// that reaches into the digits may be read as a `1`.
        public var guardsBlanked: Bool
    }

    /// Reads the 13 digits printed under an EAN-13 symbol.
    ///
    /// GS1 General Specifications §5.2.3 (human-readable interpretation): the digits stand under
    /// the bars, the first left of the left guard, six between the left and centre guards, six
    /// between the centre and right guards, whose bars reach down among them. Going down from the
    /// quadrilateral's bottom edge, the last row that crosses the bars (27–33 dark runs) marks where
    /// the digits begin; the strip below it (0.12 of the symbol's width: digits are about 0.075 of
    /// it tall) from 0.12 of the width left of the bars to 0.04 right of them is cut out along the
    /// bottom edge, the guard bars are blanked out of it when that row shows all 30 bars, and it is
    /// read as one line of digits.
    ///
    /// - Parameters:
    ///   - image: 8-bit luminance, the image the symbol was read in.
    ///   - quadrilateral: the symbol's corners in pixels of `image`, in the symbol's own frame:
    ///     top-left, top-right, bottom-right, bottom-left as the bars are read (left to right, the
    ///     digits below). For a ``Symbol`` read upright (`orientation` 0) that is its `polygon`; for
    ///     one read at 180° its polygon's points two places on (bottom-right first), at 90° one place
    ///     on (top-right first), at 270° three.
    /// - Returns: 13 digits with a confidence (``BarDigits/confidence``), or `nil` when the strip does not read as
    ///   13 digits (no digits printed, cut off, too blurred). The check digit is not checked here:
    ///   the caller weighs the digits as one more measurement.
    public func digitsUnderBars(in image: LuminanceImage, quadrilateral q: [Point]) -> BarDigits? {
        guard q.count == 4 else { return nil }
        let p = q.map { Point2(x: Double($0.x), y: Double($0.y)) }
        let bottomLeft = p[3], bottomRight = p[2]
        let width = ((bottomRight.x - bottomLeft.x) * (bottomRight.x - bottomLeft.x)
                     + (bottomRight.y - bottomLeft.y) * (bottomRight.y - bottomLeft.y)).squareRoot()
        guard width >= 60 else { return nil }  // under about 0.6 px per module: nothing to read
        let u = Point2(x: (bottomRight.x - bottomLeft.x) / width, y: (bottomRight.y - bottomLeft.y) / width)
        var v = Point2(x: -u.y, y: u.x)
        if v.x * (p[3].x - p[0].x) + v.y * (p[3].y - p[0].y) < 0 { v = Point2(x: -v.x, y: -v.y) }
        func at(_ along: Double, _ down: Double) -> Point2 {
            Point2(x: bottomLeft.x + along * u.x + down * v.x, y: bottomLeft.y + along * u.y + down * v.y)
        }
        func sample(_ point: Point2) -> Double {
            let x = min(max(point.x - 0.5, 0), Double(image.width - 1)), y = min(max(point.y - 0.5, 0), Double(image.height - 1))
            let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
            let fx = x - Double(x0), fy = y - Double(y0)
            let top = Double(image[x0, y0]) * (1 - fx) + Double(image[x1, y0]) * fx
            let bottom = Double(image[x0, y1]) * (1 - fx) + Double(image[x1, y1]) * fx
            return top * (1 - fy) + bottom * fy
        }
        // The dark runs of one row across the bars: (start, end) in pixels along the bottom edge.
        let samples = Int(width.rounded())
        func runs(_ down: Double) -> [(Double, Double)] {
            let row = (0..<samples).map { sample(at(Double($0) + 0.5, down)) }
            guard let low = row.min(), let high = row.max(), high - low > 40 else { return [] }
            let threshold = (low + high) / 2
            var found: [(Double, Double)] = [], start: Int?
            for (i, value) in row.enumerated() {
                if value < threshold { if start == nil { start = i } }
                else if let s = start { found.append((Double(s), Double(i))); start = nil }
            }
            if let s = start { found.append((Double(s), Double(samples))) }
            return found
        }
        // Down from a quarter of the width above the bottom edge (a decoder's box may stop short
        // of the bars' ends) to where three rows in a row no longer cross the bars.
        var lastBars: (down: Double, runs: [(Double, Double)])?, misses = 0
        var down = -0.25 * width
        while down < 0.4 * width {
            let row = runs(down)
            if (27...33).contains(row.count) { lastBars = (down, row); misses = 0 }
            else if lastBars != nil { misses += 1; if misses >= 3 { break } }
            down += 1
        }
        guard let lastBars else { return nil }
        let top = lastBars.down + 1, stripHeight = 0.12 * width
        let (left, right) = (-0.12 * width, 1.04 * width)
        // 56 pixels for the strip: digits of about 35.
        let scale = 56 / stripHeight
        let outWidth = Int(((right - left) * scale).rounded()), outHeight = 56
        let guards = lastBars.runs.count == 30 ? [0, 1, 14, 15, 28, 29].map { lastBars.runs[$0] } : []
        let strip = LuminanceImage(width: outWidth, height: outHeight) { out in
            for y in 0..<outHeight {
                for x in 0..<outWidth {
                    let along = left + (Double(x) + 0.5) / scale, across = top - 0.01 * width + (Double(y) + 0.5) / scale
                    let blank = guards.contains { along >= $0.0 - 1.5 && along <= $0.1 + 1.5 }
                    out[y * outWidth + x] = blank ? 255 : UInt8(min(255, max(0, sample(at(along, across)).rounded())))
                }
            }
        }
        guard let line = engine.recognize(strip, layout: .singleLine, whitelist: "0123456789").first else { return nil }
        let digits = Array(line.text.filter { $0.isASCII && $0.isNumber })
        guard digits.count == 13 else { return nil }
        // Tesseract gives no confidence for a reading restricted to digits: the strip is read
        // again with every character, and the confidence is that reading's, times the share of
        // the 13 places where its digits agree.
        let free = engine.recognize(strip, layout: .singleLine)
        let other = Array(free.map(\.text).joined().filter { $0.isASCII && $0.isNumber })
        let agreeing = other.count == 13 ? zip(digits, other).count { $0 == $1 } : 0
        let confidence = Double(agreeing) / 13 * (free.first?.confidence ?? 0) / 100
        return BarDigits(digits: String(digits), confidence: confidence, guardsBlanked: !guards.isEmpty)
    }
}
