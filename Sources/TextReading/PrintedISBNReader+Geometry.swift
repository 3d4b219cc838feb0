// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import Scanning

extension PrintedISBNReader {
    /// `image` with its light evened out: each pixel divided by the paper's brightness around it
    /// (the brightest of the 5×5 blocks around its block, blocks of 1/64 of the shorter side,
    /// smoothed), so that the paper is white everywhere and ink keeps its contrast to it.
    static func evenedOut(_ image: LuminanceImage) -> LuminanceImage {
        let block = max(1, min(image.width, image.height) / 64)
        let small = image.downscaled(by: block)
        let (w, h) = (small.width, small.height)
        let pixels = small.pixels
        var paper = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var brightest: UInt8 = 0
                for dy in -2...2 {
                    let yy = min(max(y + dy, 0), h - 1)
                    for dx in -2...2 { brightest = max(brightest, pixels[yy * w + min(max(x + dx, 0), w - 1)]) }
                }
                paper[y * w + x] = Double(brightest)
            }
        }
        // Two passes of a 3×3 mean: no block edges in the background.
        for _ in 0..<2 {
            var next = paper
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0.0, n = 0.0
                    for yy in max(0, y - 1)...min(h - 1, y + 1) {
                        for xx in max(0, x - 1)...min(w - 1, x + 1) { sum += paper[yy * w + xx]; n += 1 }
                    }
                    next[y * w + x] = sum / n
                }
            }
            paper = next
        }
        let scale = Double(block)
        let source = image.pixels
        return LuminanceImage(width: image.width, height: image.height) { out in
            for y in 0..<image.height {
                let fy = min(max((Double(y) + 0.5) / scale - 0.5, 0), Double(h - 1))
                let y0 = Int(fy), y1 = min(y0 + 1, h - 1), ty = fy - Double(y0)
                for x in 0..<image.width {
                    let fx = min(max((Double(x) + 0.5) / scale - 0.5, 0), Double(w - 1))
                    let x0 = Int(fx), x1 = min(x0 + 1, w - 1), tx = fx - Double(x0)
                    let top = paper[y0 * w + x0] * (1 - tx) + paper[y0 * w + x1] * tx
                    let bottom = paper[y1 * w + x0] * (1 - tx) + paper[y1 * w + x1] * tx
                    let background = max(16, top * (1 - ty) + bottom * ty)
                    out[y * image.width + x] = UInt8(min(255, Double(source[y * image.width + x]) * 255 / background))
                }
            }
        }
    }

    /// `image` turned by `degrees` clockwise (0, 90, 180, 270), pixel for pixel.
    static func turned(_ image: LuminanceImage, clockwise degrees: Int) -> LuminanceImage {
        guard degrees % 360 != 0 else { return image }
        let quarter = degrees % 180 != 0
        let size = (width: quarter ? image.height : image.width, height: quarter ? image.width : image.height)
        return image.resampled(width: size.width, height: size.height) { x, y in
            let p = upright(Point2(x: x, y: y), turn: degrees, turnedSize: size)
            return (p.x, p.y)
        }
    }

    /// A point in continuous pixel coordinates.
    struct Point2 { var x: Double; var y: Double }

    /// The point of the upright image that `p` of the image turned by `turn` clockwise is
    /// (`turnedSize`: the turned image's size).
    static func upright(_ p: Point2, turn: Int, turnedSize size: (width: Int, height: Int)) -> Point2 {
        let (w, h) = (Double(size.width), Double(size.height))
        switch turn % 360 {
        case 90: return Point2(x: p.y, y: w - p.x)
        case 180: return Point2(x: w - p.x, y: h - p.y)
        case 270: return Point2(x: h - p.y, y: p.x)
        default: return p
        }
    }

    /// The pixel of the upright image that `p` of `image` is, `image` being the upright image
    /// turned by `turn` clockwise, then scaled by `scale`: for polygons.
    static func upright(_ p: Point2, turn: Int, scale: Double, size image: LuminanceImage) -> Point {
        let q = upright(Point2(x: p.x / scale, y: p.y / scale), turn: turn,
                        turnedSize: (Int((Double(image.width) / scale).rounded()), Int((Double(image.height) / scale).rounded())))
        return Point(x: Int(q.x.rounded()), y: Int(q.y.rounded()))
    }

    /// The strip of `image` that holds `line`, cut along its baseline and scaled so the text is
    /// `textHeight` pixels tall (scaled by 0.5…8): from 1.15 text heights above the baseline to 0.45
    /// below, 0.3 before the line's box and 1.5 after it. Also the corners of the line's box along
    /// the baseline in `image` (clockwise from its top-left).
    ///
    /// Up to 8 times: a line of 6-pixel capitals still reaches each text height asked for, so that
    /// the looks at a line at different heights (``PrintedISBNReader/moreLooks``) are different
    /// images and their agreement means something (capped lower, every look at such a line was the
    /// same strip, read the same way twice). Enlarged with a cubic kernel (``cubicResampled(_:width:height:_:)``):
    /// bilinear steps on strokes one or two pixels wide.
    ///
    /// - Parameter typical: the median text height of the page's lines: a line's box that took in
    ///   part of its neighbour (blurred type) is not taller than 1.25 times it.
    static func band(of line: RecognizedLine, in image: LuminanceImage, textHeight: Double, typical: Double) -> (LuminanceImage, [Point2]) {
        let b = line.baseline
        let dx = Double(b.x1 - b.x0), dy = Double(b.y1 - b.y0)
        let length = max(1, (dx * dx + dy * dy).squareRoot())
        let (c, s) = (dx / length, dy / length)
        let height = min(line.textHeight, max(4, typical * 1.25))
        let scale = min(8, max(0.5, textHeight / height))
        let start = (x: Double(b.x0), y: Double(b.y0))
        func at(_ along: Double, _ across: Double) -> Point2 {
            Point2(x: start.x + along * c - across * s, y: start.y + along * s + across * c)
        }
        // Along the baseline, the box's whole extent (Tesseract's baseline may stop short of the
        // line's last character).
        let box = line.box
        let along = [(box.left, box.top), (box.right, box.top), (box.right, box.bottom), (box.left, box.bottom)].map {
            (Double($0.0) - start.x) * c + (Double($0.1) - start.y) * s
        }
        let (first, last) = (min(0, along.min()!), max(length, along.max()!))
        // 1.5 beyond the right end: the layout analysis may leave out a last character it could
        // not read (a check digit in small type), which the second reading then finds.
        let (left, right, above, below) = (first - 0.3 * height, last + 1.5 * height, -1.15 * height, 0.45 * height)
        let width = max(1, Int(((right - left) * scale).rounded())), rows = max(1, Int(((below - above) * scale).rounded()))
        let source = { (x: Double, y: Double) -> (Double, Double) in
            let p = at(left + x / scale, above + y / scale)
            return (p.x, p.y)
        }
        let strip = scale > 1 ? cubicResampled(image, width: width, height: rows, source)
            : image.resampled(width: width, height: rows, source)
        let corners = [at(first - 0.15 * height, -1.1 * height), at(last + 0.15 * height, -1.1 * height),
                       at(last + 0.15 * height, 0.35 * height), at(first - 0.15 * height, 0.35 * height)]
        return (strip, corners)
    }

    /// `image` sampled at `source(x + 0.5, y + 0.5)` for each pixel (x, y) of a `width`×`height`
    /// image, as ``LuminanceImage/resampled(width:height:_:)`` does, but with the cubic convolution
    /// kernel of Keys (a = -0.5, Catmull-Rom) over 4×4 pixels: an enlarged stroke keeps its edge
    /// (with a slight overshoot, a mild sharpening) where bilinear sampling blurs it into steps.
    /// Points outside the image are white, like the paper.
    static func cubicResampled(_ image: LuminanceImage, width outWidth: Int, height outHeight: Int,
                               _ source: (Double, Double) -> (Double, Double)) -> LuminanceImage {
        func weight(_ t: Double) -> Double {
            let x = abs(t)
            if x <= 1 { return (1.5 * x - 2.5) * x * x + 1 }
            if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
            return 0
        }
        let (w, h) = (image.width, image.height)
        let pixels = image.pixels
        return LuminanceImage(width: outWidth, height: outHeight) { out in
            for y in 0..<outHeight {
                for x in 0..<outWidth {
                    var (sx, sy) = source(Double(x) + 0.5, Double(y) + 0.5)
                    sx -= 0.5; sy -= 0.5
                    guard sx >= -0.5, sy >= -0.5, sx <= Double(w) - 0.5, sy <= Double(h) - 0.5 else {
                        out[y * outWidth + x] = 255
                        continue
                    }
                    let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                    let fx = sx - Double(x0), fy = sy - Double(y0)
                    let wx = (weight(1 + fx), weight(fx), weight(1 - fx), weight(2 - fx))
                    let columns = (min(max(x0 - 1, 0), w - 1), min(max(x0, 0), w - 1), min(max(x0 + 1, 0), w - 1), min(max(x0 + 2, 0), w - 1))
                    var sum = 0.0
                    for j in 0..<4 {
                        let row = min(max(y0 - 1 + j, 0), h - 1) * w
                        let across = wx.0 * Double(pixels[row + columns.0]) + wx.1 * Double(pixels[row + columns.1])
                            + wx.2 * Double(pixels[row + columns.2]) + wx.3 * Double(pixels[row + columns.3])
                        sum += weight(Double(j - 1) - fy) * across
                    }
                    out[y * outWidth + x] = UInt8(min(255, max(0, sum.rounded())))
                }
            }
        }
    }
}
