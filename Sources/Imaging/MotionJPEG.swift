// SPDX-License-Identifier: Apache-2.0
internal import CCodecs

/// Motion-JPEG: the JPEG frames webcams send, often without Huffman tables.
public enum MotionJPEG {
    /// Decodes one Motion-JPEG frame to a whole luminance image (grayscale output, no chroma
    /// work), inserting the standard Huffman tables (ITU-T T.81 Annex K.3) when the frame has
    /// none; `isc_mjpeg_decode_luma`.
    ///
    /// - Parameters:
    ///   - bytes: one JPEG, SOI to EOI.
    ///   - source: names the frame's origin in errors (a device path).
    ///   - maxPixels: frames declaring more pixels are refused before any allocation.
    /// - Returns: `width`×`height` pixels, 8-bit luminance (Y800), origin top-left.
    /// - Throws: ``ImageError/empty(path:)`` for no bytes, ``ImageError/corrupt(path:format:detail:)``
    ///   with libjpeg's message.
    public static func luminance(of bytes: UnsafeRawBufferPointer, source: String,
                                 maxPixels: Int = 1 << 28) throws(ImageError) -> LuminanceImage {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .empty(path: source) }
        var out = isc_luma_image()
        var inserted: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = isc_mjpeg_decode_luma(base.assumingMemoryBound(to: UInt8.self), bytes.count, UInt64(maxPixels),
                                           &out, &inserted, &message, message.count)
        guard status == ISC_OK, let pixels = out.pixels else {
            let text = message.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .corrupt(path: source, format: .jpeg, detail: text)
        }
        let count = Int(out.width) * Int(out.height)
        return LuminanceImage(width: Int(out.width), height: Int(out.height),
                              buffer: PixelBuffer(adopting: pixels, count: count))
    }

    /// Decodes only rows `rows` of one Motion-JPEG frame (clamped to the frame), as
    /// ``luminance(of:source:maxPixels:)`` would decode them: the Huffman codes of the rows
    /// above are walked by isbnscan's own table walk (about twice as fast as libjpeg's
    /// `jpeg_skip_scanlines`, which frames the walk does not handle still get), libjpeg decodes
    /// from the band's iMCU row on, the rows below are never decoded (`jpeg_abort_decompress`);
    /// `isc_mjpeg_decode_luma_rows`.
    ///
    /// - Returns: the rows, `width`×`rows.count` pixels (fewer when the frame is shorter),
    ///   8-bit luminance, and the whole frame's size in pixels.
    /// - Throws: as ``luminance(of:source:maxPixels:)``.
    public static func luminance(of bytes: UnsafeRawBufferPointer, rows: Range<Int>, source: String,
                                 maxPixels: Int = 1 << 28) throws(ImageError)
        -> (rows: LuminanceImage, frameWidth: Int, frameHeight: Int) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .empty(path: source) }
        var out = isc_luma_image()
        var inserted: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let first = UInt32(clamping: max(0, rows.lowerBound)), count = UInt32(clamping: max(1, rows.count))
        let status = isc_mjpeg_decode_luma_rows(base.assumingMemoryBound(to: UInt8.self), bytes.count, UInt64(maxPixels),
                                                first, count, &out, &inserted, &message, message.count)
        guard status == ISC_OK, let pixels = out.pixels else {
            let text = message.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .corrupt(path: source, format: .jpeg, detail: text)
        }
        let image = LuminanceImage(width: Int(out.width), height: Int(out.height),
                                   buffer: PixelBuffer(adopting: pixels, count: Int(out.width) * Int(out.height)))
        return (image, Int(out.source_width), Int(out.source_height))
    }
}
