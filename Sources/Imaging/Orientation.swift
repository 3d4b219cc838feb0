// SPDX-License-Identifier: Apache-2.0
/// EXIF orientation (EXIF 2.3, tag 0x0112 `Orientation`): how the stored pixels must be
/// transformed to show the picture upright. Raw values 1…8.
public enum Orientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left–right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top–bottom.
    case downMirrored = 4
    /// 5: transposed (mirror along the top-left → bottom-right diagonal).
    case leftMirrored = 5
    /// 6: shown after rotating the stored pixels 90° clockwise (typical portrait phone photo).
    case right = 6
    /// 7: transversed (mirror along the top-right → bottom-left diagonal).
    case rightMirrored = 7
    /// 8: shown after rotating the stored pixels 90° counter-clockwise.
    case left = 8

    /// Whether width and height swap.
    public var swapsAxes: Bool { rawValue >= 5 }
}

extension LuminanceImage {
    /// The upright image a person sees: `self` (stored pixels) transformed by `orientation`.
    ///
    /// Returns `self` unchanged for ``Orientation/up``. For 5…8 width and height swap.
    public func applying(_ orientation: Orientation) -> LuminanceImage {
        if orientation == .up { return self }
        let w = width, h = height
        let outW = orientation.swapsAxes ? h : w
        let outH = orientation.swapsAxes ? w : h
        let result = LuminanceImage(width: outW, height: outH, filledWith: 0)
        let src = buffer.pointer, dst = result.buffer.pointer
        // For each stored pixel (x, y), where it lands in the upright image.
        for y in 0..<h {
            let row = src + y * w
            switch orientation {
            case .up:
                break
            case .upMirrored:
                for x in 0..<w { dst[y * outW + (w - 1 - x)] = row[x] }
            case .down:
                for x in 0..<w { dst[(h - 1 - y) * outW + (w - 1 - x)] = row[x] }
            case .downMirrored:
                for x in 0..<w { dst[(h - 1 - y) * outW + x] = row[x] }
            case .leftMirrored:
                for x in 0..<w { dst[x * outW + y] = row[x] }
            case .right:
                for x in 0..<w { dst[x * outW + (h - 1 - y)] = row[x] }
            case .rightMirrored:
                for x in 0..<w { dst[(w - 1 - x) * outW + (h - 1 - y)] = row[x] }
            case .left:
                for x in 0..<w { dst[(w - 1 - x) * outW + y] = row[x] }
            }
        }
        withExtendedLifetime(self) {}
        return result
    }
}
