internal import CCodecs
import Imaging
import Scanning
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
}

/// Turns frames into luminance, copying only the region of interest.
///
/// - GREY: the plane's bytes, row by row (`bytesPerLine` respected).
/// - YUYV (Y0 U Y1 V): every even byte of the region's rows and columns.
/// - NV12 / YU12: the Y plane, which comes first, as GREY.
/// - MJPG: libjpeg-turbo decodes to grayscale (no chroma work), with the standard Huffman
///   tables inserted when the frame has none (see `isc_mjpeg_decode_luma`); then cropped.
public enum FrameDecoder {
    /// Copies the luminance of `region` (fractions of the frame) out of `frame`.
    ///
    /// - Throws: ``CaptureError/badFrame(device:detail:)`` when the frame holds fewer bytes
    ///   than its format needs, or its JPEG is corrupt; `device` names the source in it.
    public static func luminance(of frame: Frame, region: RegionOfInterest, device: String) throws(CaptureError) -> RegionPixels {
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
            let out = LuminanceImage(width: rect.width, height: rect.height, filledWith: 0)
            let dst = out.buffer.pointer
            let src = base.assumingMemoryBound(to: UInt8.self)
            let w = rect.width
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
            return RegionPixels(image: out, rect: rect, frameWidth: format.width, frameHeight: format.height)
        case .mjpg:
            let image = try decodeMJPEG(frame.bytes, device: device)
            let rect = region.pixelRect(imageWidth: image.width, imageHeight: image.height)
            let crop = rect.width == image.width && rect.height == image.height
                ? image : image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            return RegionPixels(image: crop, rect: rect, frameWidth: image.width, frameHeight: image.height)
        case .other:
            throw .badFrame(device: device, detail: "pixel format \(format.pixelFormat) cannot be decoded")
        }
    }

    /// Decodes one Motion-JPEG frame to a whole luminance image (`isc_mjpeg_decode_luma`),
    /// inserting the standard Huffman tables (ITU-T T.81 Annex K.3) when the frame has none.
    ///
    /// - Throws: ``CaptureError/badFrame(device:detail:)`` with libjpeg's message.
    public static func decodeMJPEG(_ bytes: UnsafeRawBufferPointer, device: String) throws(CaptureError) -> LuminanceImage {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .badFrame(device: device, detail: "empty JPEG frame") }
        var out = isc_luma_image()
        var inserted: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = isc_mjpeg_decode_luma(base.assumingMemoryBound(to: UInt8.self), bytes.count, 1 << 28,
                                           &out, &inserted, &message, message.count)
        guard status == ISC_OK, let pixels = out.pixels else {
            let text = message.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .badFrame(device: device, detail: "JPEG: \(text)")
        }
        let count = Int(out.width) * Int(out.height)
        return LuminanceImage(width: Int(out.width), height: Int(out.height),
                              buffer: PixelBuffer(adopting: pixels, count: count))
    }
}

/// Scans the region of interest of frames: the same decoding and ISBN layer as `scan`
/// (``MultiPassDecoder`` over ``BarcodeScanner``, judged by ``ScanReport``).
///
/// Owns one zbar scanner: not thread-safe, one per capture loop.
public final class FrameScanner {
    public let region: RegionOfInterest
    public let decoder: MultiPassDecoder

    /// - Parameters:
    ///   - region: the part of the frame to scan (fractions, origin top-left).
    ///   - effort: ``Effort/fast`` (default) is one zbar pass per frame; the next frame is
    ///     the next chance, and ``FrameConfirmer`` guards against misreads.
    public init(region: RegionOfInterest, scannerOptions: ScannerOptions = ScannerOptions(), effort: Effort = .fast) {
        self.region = region
        self.decoder = MultiPassDecoder(scanner: BarcodeScanner(options: scannerOptions), effort: effort)
    }

    /// Scans `pixels` and judges every code. Polygons are in pixels of the whole frame.
    public func scan(_ pixels: RegionPixels) -> ScanReport {
        var report = decoder.decode(pixels.image)
        for index in report.codes.indices {
            report.codes[index].symbol.polygon = report.codes[index].symbol.polygon.map {
                Point(x: $0.x + pixels.rect.x, y: $0.y + pixels.rect.y)
            }
        }
        return report
    }
}
