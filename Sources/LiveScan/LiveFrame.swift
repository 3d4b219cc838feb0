// SPDX-License-Identifier: Apache-2.0
import Capture
import Imaging

/// A copy of one whole camera frame for display: the pixels as the camera sent them (colour
/// when it sends colour), or luminance for formats only decoded to luminance (Motion-JPEG).
///
/// The scanning path never uses it: it is made only when a viewer asks for a frame
/// (``SessionControl/requestFrame()``), at the viewer's rate.
public struct LiveFrame: Sendable {
    /// How ``bytes`` is laid out.
    public enum Layout: Sendable, Equatable {
        /// 4:2:2 packed Y0 U Y1 V, `bytesPerLine` per row (≥ 2 × width).
        case yuyv
        /// 4:2:0: a Y plane of `height` rows of `bytesPerLine`, then `height / 2` rows of
        /// interleaved CbCr of `bytesPerLine` bytes.
        case nv12
        /// 4:2:0 I420: a Y plane of `height` rows of `bytesPerLine`, then Cb and Cr planes of
        /// `height / 2` rows of `bytesPerLine / 2` bytes.
        case yu12
        /// 8-bit luminance only, `height` rows of `bytesPerLine` bytes.
        case grey
    }

    public let layout: Layout
    /// Size in pixels; origin top-left.
    public let width: Int
    public let height: Int
    /// Bytes from one row of the first plane to the next.
    public let bytesPerLine: Int
    public let bytes: [UInt8]

    public init(layout: Layout, width: Int, height: Int, bytesPerLine: Int, bytes: [UInt8]) {
        self.layout = layout
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.bytes = bytes
    }

    /// Bytes a frame of this layout needs.
    public static func size(of layout: Layout, height: Int, bytesPerLine: Int) -> Int {
        switch layout {
        case .yuyv, .grey: return bytesPerLine * height
        case .nv12, .yu12: return bytesPerLine * height + bytesPerLine * ((height + 1) / 2)
        }
    }

    /// A copy of `frame`'s pixels, or `nil` when its format cannot be shown as is (Motion-JPEG:
    /// use ``init(luminance:)``) or it holds fewer bytes than its format needs.
    public init?(copying frame: Frame) {
        let f = frame.format
        let layout: Layout
        switch f.pixelFormat {
        case .yuyv: layout = .yuyv
        case .nv12: layout = .nv12
        case .yu12: layout = .yu12
        case .grey: layout = .grey
        case .mjpg, .other: return nil
        }
        let needed = Self.size(of: layout, height: f.height, bytesPerLine: f.bytesPerLine)
        guard f.bytesPerLine > 0, frame.bytes.count >= needed else { return nil }
        let source = frame.bytes
        let bytes = [UInt8](unsafeUninitializedCapacity: needed) { buffer, count in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<needed]))
            count = needed
        }
        self.init(layout: layout, width: f.width, height: f.height, bytesPerLine: f.bytesPerLine, bytes: bytes)
    }

    /// A whole luminance image shown in grey.
    public init(luminance image: LuminanceImage) {
        self.init(layout: .grey, width: image.width, height: image.height, bytesPerLine: image.width, bytes: image.pixels)
    }
}
