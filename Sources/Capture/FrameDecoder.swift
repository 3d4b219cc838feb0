// SPDX-License-Identifier: Apache-2.0
import Imaging

#if canImport(Glibc)
import Glibc
#endif

/// The luminance of a frame's region of interest: what gets scanned.
public struct RegionPixels {
    /// The region's pixels, `rect.width`×`rect.height`, 8-bit luminance (Y800).
    public var image: LuminanceImage
    /// Where the region lies in the frame, in frame pixels (origin top-left).
    public var rect: PixelRect
    /// The whole frame's size in pixels.
    public var frameWidth: Int
    public var frameHeight: Int
    /// The whole frame's luminance when a Motion-JPEG frame was decoded as a whole (asked for
    /// with `wholeFrame`, or a frame of another size than negotiated), else `nil`: a viewer
    /// can show it without decoding again.
    public var decodedFrame: LuminanceImage?

    public init(image: LuminanceImage, rect: PixelRect, frameWidth: Int, frameHeight: Int, decodedFrame: LuminanceImage? = nil) {
        self.image = image
        self.rect = rect
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.decodedFrame = decodedFrame
    }
}

/// Turns frames into luminance, copying only the region of interest.
///
/// - GREY: the plane's bytes, row by row (`bytesPerLine` respected).
/// - YUYV (Y0 U Y1 V): every even byte of the region's rows and columns.
/// - NV12 / YU12: the Y plane, which comes first, as GREY.
/// - MJPG: libjpeg-turbo decodes to grayscale (no chroma work), with the standard Huffman
///   tables when the frame has none (see `isc_mjpeg_decode_luma`), only the rows of the region
///   (the codes of the rows above walked without libjpeg, rows below never decoded); then
///   cropped to its columns.
public enum FrameDecoder {
    /// Copies the luminance of `region` (fractions of the frame) out of `frame`.
    ///
    /// - Throws: ``CaptureError/badFrame(device:detail:)`` when the frame holds fewer bytes
    ///   than its format needs, or its JPEG is corrupt; `device` names the source in it.
    /// `wholeFrame`: decode a Motion-JPEG frame whole and keep it in
    /// ``RegionPixels/decodedFrame`` (for a viewer); by default only the region's rows are
    /// decoded (``MotionJPEG/luminance(of:rows:source:maxPixels:)``).
    public static func luminance(of frame: Frame, region: RegionOfInterest, device: String,
                                 wholeFrame: Bool = false) throws(CaptureError) -> RegionPixels {
        let format = frame.format
        switch format.pixelFormat {
        case .grey, .nv12, .yu12, .yuyv:
            let rect = region.pixelRect(imageWidth: format.width, imageHeight: format.height)
            let bytesPerPixel = format.pixelFormat == .yuyv ? 2 : 1
            let stride = format.bytesPerLine
            let lastByte = (rect.y + rect.height - 1) * stride + (rect.x + rect.width) * bytesPerPixel
            guard frame.bytes.count >= lastByte, let base = frame.bytes.baseAddress else {
                throw .badFrame(device: device, detail: "\(frame.bytes.count) bytes, a \(format) frame needs \(format.height * stride)")
            }
            let src = base.assumingMemoryBound(to: UInt8.self)
            let w = rect.width
            let out = LuminanceImage(width: rect.width, height: rect.height) { pixels in
                let dst = pixels.baseAddress!
                if bytesPerPixel == 1 {
                    for row in 0..<rect.height {
                        (dst + row * w).update(from: src + (rect.y + row) * stride + rect.x, count: w)
                    }
                } else {
                    for row in 0..<rect.height {
                        let line = src + (rect.y + row) * stride + rect.x * 2
                        let target = dst + row * w
                        for i in 0..<w { target[i] = line[2 &* i] }
                    }
                }
            }
            return RegionPixels(image: out, rect: rect, frameWidth: format.width, frameHeight: format.height)
        case .mjpg:
            if !wholeFrame {
                // Only the region's rows, when the frame has the negotiated size (else whole).
                let rect = region.pixelRect(imageWidth: format.width, imageHeight: format.height)
                let band = try decodeMJPEG(frame.bytes, rows: rect.y..<(rect.y + rect.height), device: device)
                if band.frameWidth == format.width && band.frameHeight == format.height && band.rows.height == rect.height {
                    let crop = rect.x == 0 && rect.width == band.rows.width
                        ? band.rows : band.rows.cropped(x: rect.x, y: 0, width: rect.width, height: rect.height)
                    return RegionPixels(image: crop, rect: rect, frameWidth: format.width, frameHeight: format.height)
                }
            }
            let image = try decodeMJPEG(frame.bytes, device: device)
            let rect = region.pixelRect(imageWidth: image.width, imageHeight: image.height)
            let crop = rect.width == image.width && rect.height == image.height
                ? image : image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            return RegionPixels(image: crop, rect: rect, frameWidth: image.width, frameHeight: image.height, decodedFrame: image)
        case .other:
            throw .badFrame(device: device, detail: "pixel format \(format.pixelFormat) cannot be decoded")
        }
    }

    /// Decodes one Motion-JPEG frame to a whole luminance image (``MotionJPEG`` in Imaging).
    ///
    /// - Throws: ``CaptureError/badFrame(device:detail:)`` with libjpeg's message.
    public static func decodeMJPEG(_ bytes: UnsafeRawBufferPointer, device: String) throws(CaptureError) -> LuminanceImage {
        do {
            return try MotionJPEG.luminance(of: bytes, source: device)
        } catch {
            throw badFrame(error, device: device)
        }
    }

    /// A Motion-JPEG decoding error as the capture error it is for the camera.
    static func badFrame(_ error: ImageError, device: String) -> CaptureError {
        switch error {
        case .empty: .badFrame(device: device, detail: "empty JPEG frame")
        case .corrupt(_, _, let detail): .badFrame(device: device, detail: "JPEG: \(detail)")
        default: .badFrame(device: device, detail: "JPEG: \(error.cause)")
        }
    }
}


extension FrameDecoder {
    /// Decodes rows `rows` of one Motion-JPEG frame (``MotionJPEG``) and gives the frame's size.
    ///
    /// - Throws: ``CaptureError/badFrame(device:detail:)`` with libjpeg's message.
    public static func decodeMJPEG(_ bytes: UnsafeRawBufferPointer, rows: Range<Int>, device: String) throws(CaptureError)
        -> (rows: LuminanceImage, frameWidth: Int, frameHeight: Int) {
        do {
            return try MotionJPEG.luminance(of: bytes, rows: rows, source: device)
        } catch {
            throw badFrame(error, device: device)
        }
    }
}
