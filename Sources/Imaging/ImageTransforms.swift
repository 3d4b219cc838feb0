// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Pixel operations used by the multi-pass decoder. Each returns a new image; `self` is
/// never modified. Coordinates are pixels, origin top-left, x right, y down.
extension LuminanceImage {
    /// The pixels of `rect` (clamped to the image) as a new image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> LuminanceImage {
        let x0 = min(max(x, 0), width - 1), y0 = min(max(y, 0), height - 1)
        let cw = max(1, min(w, width - x0)), ch = max(1, min(h, height - y0))
        if x0 == 0 && y0 == 0 && cw == width && ch == height { return self }
        let out = LuminanceImage(width: cw, height: ch, filledWith: 0)
        for row in 0..<ch {
            (out.buffer.pointer + row * cw).update(from: buffer.pointer + (y0 + row) * width + x0, count: cw)
        }
        return out
    }

    /// The image inside a border of grey `value`, `x` pixels wide left and right and `y` pixels
    /// above and below: a barcode cropped at its guard bars gets back a quiet zone (EAN-13: 11
    /// modules on the left, 7 on the right, GS1 General Specifications §5.2.3.4), which zbar
    /// needs to find the symbol. Pixel (u, v) of `self` is pixel (u + x, v + y) of the result.
    public func padded(x: Int, y: Int, with value: UInt8) -> LuminanceImage {
        let x = max(0, x), y = max(0, y)
        guard x > 0 || y > 0 else { return self }
        let w = width + 2 * x, h = height + 2 * y
        let out = LuminanceImage(width: w, height: h, filledWith: value)
        for row in 0..<height {
            (out.buffer.pointer + (row + y) * w + x).update(from: buffer.pointer + row * width, count: width)
        }
        return out
    }

    /// The grey level that `fraction` of the pixels are at most (0.9: the paper of a label).
    public func percentile(_ fraction: Double) -> UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        let src = buffer.pointer, count = width * height
        for i in 0..<count { histogram[Int(src[i])] += 1 }
        let wanted = Int(Double(count - 1) * min(1, max(0, fraction)))
        var seen = 0
        for level in 0..<256 {
            seen += histogram[level]
            if seen > wanted { return UInt8(level) }
        }
        return 255
    }

    /// Each pixel replaced through a 256-entry lookup table.
    public func mapped(through table: [UInt8]) -> LuminanceImage {
        precondition(table.count == 256, "lookup table needs 256 entries")
        let out = LuminanceImage(width: width, height: height, filledWith: 0)
        let src = buffer.pointer, dst = out.buffer.pointer
        table.withUnsafeBufferPointer { lut in
            for i in 0..<(width * height) { dst[i] = lut[Int(src[i])] }
        }
        return out
    }

    /// Gamma curve: out = 255 · (in/255)^gamma. gamma < 1 lightens, > 1 darkens.
    public func gammaAdjusted(_ gamma: Double) -> LuminanceImage {
        mapped(through: (0..<256).map { UInt8(min(255, (pow(Double($0) / 255, gamma) * 255).rounded())) })
    }

    /// Negative image (light bars on a dark cover become dark on light).
    public func inverted() -> LuminanceImage {
        mapped(through: (0..<256).map { UInt8(255 - $0) })
    }

    /// Linear contrast stretch so that the `clip` fraction darkest pixels become 0 and the
    /// `clip` fraction lightest 255 (low contrast, faded print).
    public func contrastStretched(clip: Double = 0.01) -> LuminanceImage {
        var histogram = [Int](repeating: 0, count: 256)
        let src = buffer.pointer, count = width * height
        for i in 0..<count { histogram[Int(src[i])] += 1 }
        let cut = Int(Double(count) * clip)
        var low = 0, seen = 0
        while low < 255, seen + histogram[low] <= cut { seen += histogram[low]; low += 1 }
        var high = 255; seen = 0
        while high > low, seen + histogram[high] <= cut { seen += histogram[high]; high -= 1 }
        guard high > low else { return self }
        return mapped(through: (0..<256).map { UInt8(min(255, max(0, ($0 - low) * 255 / (high - low)))) })
    }

    /// Averages `factor`×`factor` blocks (box filter): a large or noisy photo gets smaller
    /// and smoother. Size is `width/factor`×`height/factor` (at least 1×1).
    public func downscaled(by factor: Int) -> LuminanceImage {
        precondition(factor >= 1, "factor must be at least 1")
        if factor == 1 { return self }
        if factor == 2 && width >= 2 && height >= 2 { return halved() }
        let ow = max(1, width / factor), oh = max(1, height / factor)
        let out = LuminanceImage(width: ow, height: oh, filledWith: 0)
        let src = buffer.pointer, dst = out.buffer.pointer
        let area = factor * factor
        var sums = [Int](repeating: 0, count: ow)
        for oy in 0..<oh {
            for i in 0..<ow { sums[i] = 0 }
            for dy in 0..<factor {
                let y = min(oy * factor + dy, height - 1)
                let row = src + y * width
                for ox in 0..<ow {
                    var s = 0
                    let base = ox * factor
                    for dx in 0..<factor { s += Int(row[min(base + dx, width - 1)]) }
                    sums[ox] += s
                }
            }
            for ox in 0..<ow { dst[oy * ow + ox] = UInt8((sums[ox] + area / 2) / area) }
        }
        return out
    }

    /// `downscaled(by: 2)` for images at least 2×2: each output pixel the rounded mean of a
    /// 2×2 block (an odd last row or column is dropped, as there).
    private func halved() -> LuminanceImage {
        let ow = width / 2, oh = height / 2
        let out = LuminanceImage(width: ow, height: oh, filledWith: 0)
        let src = buffer.pointer, dst = out.buffer.pointer
        for oy in 0..<oh {
            let top = src + 2 * oy * width, bottom = top + width, row = dst + oy * ow
            for ox in 0..<ow {
                let x = 2 * ox
                let sum = Int(top[x]) + Int(top[x + 1]) + Int(bottom[x]) + Int(bottom[x + 1])
                row[ox] = UInt8(truncatingIfNeeded: (sum + 2) >> 2)
            }
        }
        return out
    }

    /// Bilinear upscaling by `factor` (> 1): helps when modules are under 2 pixels wide.
    public func upscaled(by factor: Double) -> LuminanceImage {
        let ow = max(1, Int(Double(width) * factor)), oh = max(1, Int(Double(height) * factor))
        return resampled(width: ow, height: oh) { x, y in (x / factor, y / factor) }
    }

    /// 3×3 box blur (noise, JPEG artefacts, moiré).
    public func boxBlurred() -> LuminanceImage {
        let out = LuminanceImage(width: width, height: height, filledWith: 0)
        let src = buffer.pointer, dst = out.buffer.pointer
        let w = width
        // Separable: 3-tap horizontal sums of three rows kept in a ring, then summed vertically.
        let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: 3 * w)
        defer { sums.deallocate() }
        func horizontal(_ y: Int, into slot: UnsafeMutablePointer<UInt16>) {
            let row = src + y * w
            if w == 1 { slot[0] = UInt16(row[0]) * 3; return }
            slot[0] = UInt16(row[0]) * 2 + UInt16(row[1])
            var x = 1
            while x < w - 1 {
                slot[x] = UInt16(row[x - 1]) + UInt16(row[x]) + UInt16(row[x + 1])
                x += 1
            }
            slot[w - 1] = UInt16(row[w - 2]) + UInt16(row[w - 1]) * 2
        }
        horizontal(0, into: sums)                              // row y-1 (clamped)
        horizontal(0, into: sums + w)                          // row y
        horizontal(min(1, height - 1), into: sums + 2 * w)     // row y+1
        var above = sums, current = sums + w, below = sums + 2 * w
        for y in 0..<height {
            let out = dst + y * w
            for x in 0..<w {
                out[x] = UInt8((Int(above[x]) + Int(current[x]) + Int(below[x]) + 4) / 9)
            }
            // Shift the ring: the row above is dropped, the row after next is summed into it.
            let freed = above
            above = current
            current = below
            below = freed
            horizontal(min(y + 2, height - 1), into: below)
        }
        return out
    }

    /// Unsharp masking: `self + amount × (self − gaussian(self, sigma))`, clamped to 0…255.
    /// Restores the contrast of thin bars and spaces that optical blur (out-of-focus phone
    /// photos) has greyed, so that their edges cross a threshold again. The Gaussian is
    /// approximated by three box blurs (`sigma` in pixels).
    public func unsharpMasked(sigma: Double, amount: Double) -> LuminanceImage {
        unsharpMasked(by: gaussianBlurred(sigma: sigma), amount: amount)
    }

    /// The Gaussian blur ``unsharpMasked(sigma:amount:)`` subtracts, kept at integer precision so
    /// that several amounts can share it (``unsharpMasked(by:amount:)``): `width`×`height` values.
    public struct Blur: Sendable {
        let values: [Int32]
        let width: Int, height: Int
    }

    /// Three box blurs of radius r with (2r+1)² ≈ 4σ² + 1 (a Gaussian of `sigma` pixels), edges clamped.
    public func gaussianBlurred(sigma: Double) -> Blur {
        let radius = max(1, Int(((4 * sigma * sigma + 1).squareRoot() - 1) / 2 + 0.5))
        let w = width, h = height, count = w * h
        var a = [Int32](repeating: 0, count: count)
        let b = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        defer { b.deallocate() }
        let src = buffer.pointer
        let box = UInt64(2 * radius + 1)
        // (n + box/2) / box as a multiply and a shift: exact for every n up to 255·box (2³² / box
        // is far above it), and no division per pixel.
        let reciprocal = (UInt64(1) << 32 + box - 1) / box
        @inline(__always) func divide(_ n: Int32) -> Int32 { Int32(truncatingIfNeeded: ((UInt64(n) + box / 2) &* reciprocal) >> 32) }
        var sums = [Int32](repeating: 0, count: w)
        a.withUnsafeMutableBufferPointer { a in
            let a = a.baseAddress!
            for i in 0..<count { a[i] = Int32(src[i]) }
            sums.withUnsafeMutableBufferPointer { sums in
                for _ in 0..<3 {
                    // Along rows, a → b: a running sum per row.
                    for y in 0..<h {
                        let row = a + y * w, out = b + y * w
                        var sum: Int32 = 0
                        for j in -radius...radius { sum += row[min(max(j, 0), w - 1)] }
                        for x in 0..<w {
                            out[x] = divide(sum)
                            sum += row[min(x + radius + 1, w - 1)] - row[max(x - radius, 0)]
                        }
                    }
                    // Down columns, b → a: one running sum per column, rows visited in order.
                    for x in 0..<w { sums[x] = 0 }
                    for j in -radius...radius {
                        let row = b + min(max(j, 0), h - 1) * w
                        for x in 0..<w { sums[x] += row[x] }
                    }
                    for y in 0..<h {
                        let out = a + y * w
                        let entering = b + min(y + radius + 1, h - 1) * w, leaving = b + max(y - radius, 0) * w
                        for x in 0..<w {
                            out[x] = divide(sums[x])
                            sums[x] += entering[x] - leaving[x]
                        }
                    }
                }
            }
        }
        return Blur(values: a, width: w, height: h)
    }

    /// Unsharp masking with a blur of this image made by ``gaussianBlurred(sigma:)``.
    public func unsharpMasked(by blur: Blur, amount: Double) -> LuminanceImage {
        precondition(blur.width == width && blur.height == height, "a blur of another image")
        let out = LuminanceImage(width: width, height: height, filledWith: 0)
        let src = buffer.pointer, dst = out.buffer.pointer
        let gain = Int32((amount * 256).rounded())
        blur.values.withUnsafeBufferPointer { a in
            for i in 0..<(width * height) {
                let value = Int32(src[i]) + (gain * (Int32(src[i]) - a[i]) + 128) >> 8
                dst[i] = UInt8(clamping: value)
            }
        }
        return out
    }

    /// Binarizes against the local mean of a `window`×`window` neighbourhood minus `offset`
    /// (uneven light, shadows across the barcode). Uses an integral image; output is 0 or 255.
    public func locallyThresholded(window: Int = 25, offset: Int = 8) -> LuminanceImage {
        let w = width, h = height
        var integral = [Int](repeating: 0, count: (w + 1) * (h + 1))
        let src = buffer.pointer
        for y in 0..<h {
            var rowSum = 0
            for x in 0..<w {
                rowSum += Int(src[y * w + x])
                integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + rowSum
            }
        }
        let out = LuminanceImage(width: w, height: h, filledWith: 0)
        let dst = out.buffer.pointer
        let r = window / 2
        for y in 0..<h {
            let y0 = max(y - r, 0), y1 = min(y + r + 1, h)
            for x in 0..<w {
                let x0 = max(x - r, 0), x1 = min(x + r + 1, w)
                let sum = integral[y1 * (w + 1) + x1] - integral[y0 * (w + 1) + x1]
                    - integral[y1 * (w + 1) + x0] + integral[y0 * (w + 1) + x0]
                let mean = sum / ((y1 - y0) * (x1 - x0))
                dst[y * w + x] = Int(src[y * w + x]) < mean - offset ? 0 : 255
            }
        }
        return out
    }

    /// The image rotated by `degrees` clockwise about its centre, on a canvas large enough
    /// to hold all of it (new corners filled white), bilinear sampling.
    ///
    /// Returns the image and a function mapping a point of the rotated image back to `self`.
    public func rotated(degrees: Double) -> (image: LuminanceImage, toSource: @Sendable (Double, Double) -> (Double, Double)) {
        let radians = degrees * .pi / 180
        let c = cos(radians), s = sin(radians)
        let ow = Int((abs(Double(width) * c) + abs(Double(height) * s)).rounded(.up))
        let oh = Int((abs(Double(width) * s) + abs(Double(height) * c)).rounded(.up))
        let cx = Double(width) / 2, cy = Double(height) / 2
        let ocx = Double(ow) / 2, ocy = Double(oh) / 2
        // Inverse rotation: a rotated-image point back to the source.
        let toSource: @Sendable (Double, Double) -> (Double, Double) = { u, v in
            let dx = u - ocx, dy = v - ocy
            return (c * dx + s * dy + cx, -s * dx + c * dy + cy)
        }
        // Bilinear sampling as ``resampled(width:height:_:)`` does, without a closure or a libm
        // call per pixel.
        let out = LuminanceImage(width: ow, height: oh, filledWith: 255)
        let src = buffer.pointer, dst = out.buffer.pointer
        let maxX = Double(width - 1), maxY = Double(height - 1)
        for y in 0..<oh {
            let dy = Double(y) + 0.5 - ocy
            let rowX = s * dy + cx, rowY = c * dy + cy
            for x in 0..<ow {
                let dx = Double(x) + 0.5 - ocx
                let sx = c * dx + rowX - 0.5, sy = -s * dx + rowY - 0.5
                guard sx >= -0.5, sy >= -0.5, sx <= maxX + 0.5, sy <= maxY + 0.5 else { continue }
                let px = min(max(sx, 0), maxX), py = min(max(sy, 0), maxY)
                let x0 = Int(px), y0 = Int(py)
                let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                let fx = px - Double(x0), fy = py - Double(y0)
                let top = Double(src[y0 * width + x0]) * (1 - fx) + Double(src[y0 * width + x1]) * fx
                let bottom = Double(src[y1 * width + x0]) * (1 - fx) + Double(src[y1 * width + x1]) * fx
                dst[y * ow + x] = UInt8(top * (1 - fy) + bottom * fy + 0.5)
            }
        }
        return (out, toSource)
    }

    /// Builds a `outWidth`×`outHeight` image whose pixel (x, y) samples `self` bilinearly at
    /// `source(x + 0.5, y + 0.5) - 0.5`; outside `self` is white.
    public func resampled(width outWidth: Int, height outHeight: Int,
                   _ source: (Double, Double) -> (Double, Double)) -> LuminanceImage {
        let out = LuminanceImage(width: outWidth, height: outHeight, filledWith: 255)
        let src = buffer.pointer, dst = out.buffer.pointer
        let maxX = Double(width - 1), maxY = Double(height - 1)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                var (sx, sy) = source(Double(x) + 0.5, Double(y) + 0.5)
                sx -= 0.5; sy -= 0.5
                guard sx >= -0.5, sy >= -0.5, sx <= maxX + 0.5, sy <= maxY + 0.5 else { continue }
                sx = min(max(sx, 0), maxX); sy = min(max(sy, 0), maxY)
                let x0 = Int(sx), y0 = Int(sy)
                let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                let fx = sx - Double(x0), fy = sy - Double(y0)
                let top = Double(src[y0 * width + x0]) * (1 - fx) + Double(src[y0 * width + x1]) * fx
                let bottom = Double(src[y1 * width + x0]) * (1 - fx) + Double(src[y1 * width + x1]) * fx
                dst[y * outWidth + x] = UInt8((top * (1 - fy) + bottom * fy).rounded())
            }
        }
        return out
    }
}
