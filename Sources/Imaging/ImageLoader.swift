// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
internal import CCodecs

/// How image files are decoded.
public struct DecodeOptions: Sendable, Equatable {
    /// Images whose declared width × height is larger are refused with
    /// ``ImageError/tooLarge(path:width:height:limit:)`` before any pixel is allocated.
    /// Default 120 megapixels (a 12000×10000 scan).
    public var maxPixels: Int = 120_000_000
    /// Apply the EXIF orientation so the result is the upright picture. Default `true`.
    public var appliesOrientation: Bool = true
    /// JPEG only: decode at 1/n size with libjpeg's DCT scaling (1, 2, 4 or 8). Default 1.
    public var jpegScale: Int = 1
    /// JPEG only, when set: decode at half size (DCT scaling, much cheaper than a full decode
    /// plus a downscale) if the image has more pixels than this; ``DecodedImage/scale`` says
    /// whether it happened. Overrides ``jpegScale``. Default `nil`.
    public var halveJPEGAbovePixels: Int?
    /// TIFF only: the page (directory) to decode, from 0. Default 0; ``DecodedImage/pageCount``
    /// says how many there are.
    public var page: Int = 0
    /// Pages of a multi-page file (TIFF) that a scan of every page reads at most (`scan
    /// --max-pages`); the pages after them are left out with a warning. Decoding one page does
    /// not use it. Default 10000.
    public var maxPages: Int = 10_000
    /// JPEG at full size only (no ``halveJPEGAbovePixels``, ``jpegScale`` 1), when set: decode
    /// only these rows of the image as stored in the file (before the EXIF orientation; ranges in
    /// increasing order, overlaps ignored). The other rows of the whole-size image are 0 (black):
    /// libjpeg skips them without the inverse DCT and stops after the last range, and their
    /// memory is never touched. Damage to the file after the last range goes unseen. CMYK files
    /// are decoded whole. ``DecodedImage/decodedRows`` repeats the ranges. Default `nil`.
    public var jpegRows: [Range<Int>]?
    /// Whether ``jpegRows`` applies: set, with no scaling asked for.
    var decodesSomeJPEGRows: Bool { jpegRows != nil && halveJPEGAbovePixels == nil && jpegScale == 1 }

    public init(maxPixels: Int = 120_000_000, appliesOrientation: Bool = true, jpegScale: Int = 1) {
        self.maxPixels = maxPixels
        self.appliesOrientation = appliesOrientation
        self.jpegScale = jpegScale
    }
}

/// A decoded image file.
public struct DecodedImage {
    /// The upright luminance image (EXIF orientation applied unless switched off).
    public let image: LuminanceImage
    /// The container format, from the magic bytes.
    public let format: ImageFormat
    /// The EXIF orientation found in the file (``Orientation/up`` when there is none).
    public let orientation: Orientation
    /// How many file pixels one image pixel spans along each side: 1, or 2 (or more) when a
    /// JPEG was decoded at reduced size (``DecodeOptions/jpegScale``,
    /// ``DecodeOptions/halveJPEGAbovePixels``).
    public var scale: Int = 1
    /// The upright size of the image in the file, in pixels (``image`` is smaller when
    /// ``scale`` > 1).
    public var fullSize: (width: Int, height: Int)
    /// The page decoded, from 0 (``DecodeOptions/page``).
    public var page: Int = 0
    /// The rows of the stored image asked for with ``DecodeOptions/jpegRows`` when the JPEG was
    /// decoded at full size: the others are 0 (a CMYK file is decoded whole all the same); `nil`:
    /// every row was decoded.
    public var decodedRows: [Range<Int>]?
    /// Pages in the file: TIFF directories (a multi-page scan); 1 for every other format.
    public var pageCount: Int = 1
    /// Set when the file is damaged and only part of it was decoded (JPEG, PNG), e.g.
    /// `"truncated: decoded 2400 of 3000 rows"` or `"corrupt data: decoded 1200 of 3000 rows
    /// before it (Corrupt JPEG data: bad Huffman code)"`, in rows of the file's stored image.
    /// Truncated: the rows after those decoded are white. Corrupt JPEG data: the later rows are
    /// what libjpeg-turbo made of them after resynchronising. A file with no row decoded is an
    /// error instead.
    public var warning: String?
}

/// Reads image files into ``LuminanceImage``s: PNG (libpng), JPEG (libjpeg-turbo), TIFF (libtiff),
/// WebP (libwebp), GIF (giflib, first frame), HEIF/HEIC/AVIF (libheif), BMP and PGM/PPM (own readers).
public enum ImageLoader {
    /// Reads and decodes the file at `path` (`-`: standard input).
    ///
    /// - Throws: ``ImageError``: `.notFound`, `.permissionDenied`, `.isDirectory`, `.empty`,
    ///   `.readFailed` from reading; `.notAnImage`, `.unsupportedFormat`, `.truncated`, `.corrupt`,
    ///   `.tooLarge`, `.outOfMemory` from decoding. Never traps on bad data.
    public static func load(path: String, options: DecodeOptions = DecodeOptions()) throws(ImageError) -> DecodedImage {
        try load(path: RawPath(path), options: options)
    }

    /// Reads and decodes the file whose path is the bytes of `path` (which need not be UTF-8);
    /// errors name it by `path.description`.
    ///
    /// - Throws: ``ImageError`` as for ``load(path:options:)-(String,_)``.
    ///
    /// Files are decoded straight from the file, so memory follows the image size, not the file
    /// size: bytes after the image are never read. PNG and JPEG through libpng's read callback
    /// and libjpeg's source manager; TIFF, GIF and HEIF through libtiff's, giflib's and libheif's
    /// read procedures; WebP up to the RIFF length its header declares; BMP, PGM and PPM their
    /// headers and the rows the header declares. Standard input is read the same way when it is
    /// a regular file (`< file`); a pipe is read into memory, at most ``maxStandardInputBytes``.
    public static func load(path: RawPath, options: DecodeOptions = DecodeOptions()) throws(ImageError) -> DecodedImage {
        if let result = try loadSeekable(path: path, options: options) { return result }
        let bytes = try readFile(path: path)
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageError) -> DecodedImage in try decode(raw, path: path.description, options: options) }
        }
        return try result.get()
    }

    /// Decodes a regular file (or standard input redirected from one, at its start) from its
    /// descriptor; `nil` for a pipe, which ``load(path:options:)`` reads into memory instead.
    static func loadSeekable(path: RawPath, options: DecodeOptions) throws(ImageError) -> DecodedImage? {
        let (fd, size) = try openFile(path)
        defer { close(fd) }
        if path.isStandardInput {
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, lseek(fd, 0, SEEK_CUR) == 0 else { return nil }
        }
        var header = [UInt8](repeating: 0, count: ImageFormat.signatureLength)
        let got = try pread(fd, into: &header, at: 0, path: path)
        let format = ImageFormat.sniff(header.prefix(got))
        if format == .pgm || format == .ppm {
            // The header, then as many bytes as it says the raster has.
            var prefix = [UInt8](repeating: 0, count: min(size, PNMDecoder.maxHeaderBytes))
            prefix.removeSubrange(try pread(fd, into: &prefix, at: 0, path: path)...)
            let needed = prefix.withUnsafeBytes { PNMDecoder.byteCount($0, maxPixels: options.maxPixels) }
            var bytes = prefix
            if let needed, needed > prefix.count {
                bytes = [UInt8](repeating: 0, count: min(needed, size))
                bytes.removeSubrange(try pread(fd, into: &bytes, at: 0, path: path)...)
            }
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(ImageError) -> DecodedImage in try decode(raw, path: path.description, options: options) }
            }
            return try result.get()
        }
        let result = Array(header.prefix(got)).withUnsafeBytes { raw in
            Result { () throws(ImageError) -> DecodedImage in
                try decode(raw, path: path.description, options: options, streamingFrom: format == nil ? nil : fd)
            }
        }
        return try result.get()
    }

    /// Reads up to `buffer.count` bytes of `fd` from `offset` (fewer at the end of the file);
    /// returns how many.
    static func pread(_ fd: Int32, into buffer: inout [UInt8], at offset: Int, path: RawPath) throws(ImageError) -> Int {
        var done = 0
        while done < buffer.count {
            let got = buffer.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw fileError(path: path.description, errno: errno, operation: "read")
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Decodes an image held in memory. `path` only names the source in errors.
    ///
    /// - Throws: ``ImageError`` as for ``load(path:options:)``, minus the file-system cases.
    public static func decode(_ data: UnsafeRawBufferPointer, path: String,
                              options: DecodeOptions = DecodeOptions()) throws(ImageError) -> DecodedImage {
        try decode(data, path: path, options: options, streamingFrom: nil)
    }

    /// As ``decode(_:path:options:)``; with `fd`, `data` holds only the file's first bytes and
    /// the image is decoded from `fd` (not PGM or PPM, which the caller reads into `data`).
    static func decode(_ data: UnsafeRawBufferPointer, path: String, options: DecodeOptions,
                       streamingFrom fd: Int32?) throws(ImageError) -> DecodedImage {
        guard data.count > 0 else { throw .empty(path: path) }
        guard let format = ImageFormat.sniff(data) else {
            let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            if data.count < 8, pngSignature.starts(with: data) || [0xFF, 0xD8].starts(with: data)
                || (data.count <= 2 && (Array("P5".utf8).starts(with: data) || Array("P6".utf8).starts(with: data))) {
                throw .truncated(path: path, detail: "file ends inside the format signature")
            }
            if let name = ImageFormat.nameOfUnsupported(data) {
                let binary = name.hasPrefix("Netpbm") ? "binary PGM (P5) and PPM (P6)" : "PGM and PPM"
                throw .unsupportedFormat(path: path, detail: "\(name) (isbnscan reads \(ImageFormat.readable), \(binary))")
            }
            throw .notAnImage(path: path)
        }
        var stored: LuminanceImage
        var orientation = Orientation.up
        var scale = 1
        var sourceSize: (width: Int, height: Int)? = nil
        var pageCount = 1
        var warning: String?
        switch format {
        case .png, .jpeg, .tiff, .webp, .gif, .heif, .bmp:
            var out = isc_luma_image()
            var message = [CChar](repeating: 0, count: 256)
            let base = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let limit = UInt64(options.maxPixels)
            let status = message.withUnsafeMutableBufferPointer { text -> isc_status in
                let (m, ms) = (text.baseAddress, text.count)
                switch format {
                case .png:
                    if let fd { return isc_png_decode_luma_fd(fd, limit, &out, m, ms) }
                    return isc_png_decode_luma(base, data.count, limit, &out, m, ms)
                case .jpeg where options.decodesSomeJPEGRows:
                    let bands = (options.jpegRows ?? []).map { rows in
                        isc_row_band(first: UInt32(clamping: rows.lowerBound), count: UInt32(clamping: rows.count))
                    }
                    return bands.withUnsafeBufferPointer { b in
                        isc_jpeg_decode_luma_rows(fd == nil ? base : nil, data.count, fd ?? -1, limit, b.baseAddress, b.count,
                                                  &out, m, ms)
                    }
                case .jpeg:
                    let scale = options.halveJPEGAbovePixels == nil ? UInt32(options.jpegScale) : 0
                    let halve = UInt64(options.halveJPEGAbovePixels ?? Int.max)
                    if let fd { return isc_jpeg_decode_luma_fd(fd, limit, scale, halve, &out, m, ms) }
                    return isc_jpeg_decode_luma(base, data.count, limit, scale, halve, &out, m, ms)
                case .tiff:
                    let page = UInt32(clamping: options.page)
                    if let fd { return isc_tiff_decode_luma_fd(fd, limit, page, &out, m, ms) }
                    return isc_tiff_decode_luma(base, data.count, limit, page, &out, m, ms)
                case .webp:
                    if let fd { return isc_webp_decode_luma_fd(fd, limit, &out, m, ms) }
                    return isc_webp_decode_luma(base, data.count, limit, &out, m, ms)
                case .gif:
                    if let fd { return isc_gif_decode_luma_fd(fd, limit, &out, m, ms) }
                    return isc_gif_decode_luma(base, data.count, limit, &out, m, ms)
                case .heif:
                    if let fd { return isc_heif_decode_luma_fd(fd, limit, &out, m, ms) }
                    return isc_heif_decode_luma(base, data.count, limit, &out, m, ms)
                case .bmp:
                    if let fd { return isc_bmp_decode_luma_fd(fd, limit, &out, m, ms) }
                    return isc_bmp_decode_luma(base, data.count, limit, &out, m, ms)
                case .pgm, .ppm: return ISC_ERR_UNSUPPORTED  // decoded in Swift below; never reached
                }
            }
            guard status == ISC_OK, let pixels = out.pixels else {
                let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                switch status {
                case ISC_ERR_TRUNCATED: throw .truncated(path: path, detail: detail)
                case ISC_ERR_TOO_LARGE:
                    throw .tooLarge(path: path, width: Int(out.source_width), height: Int(out.source_height), limit: options.maxPixels)
                case ISC_ERR_NO_MEMORY: throw .outOfMemory(path: path)
                case ISC_ERR_UNSUPPORTED: throw .unsupportedFormat(path: path, detail: "\(format.rawValue): \(detail)")
                default: throw .corrupt(path: path, format: format, detail: detail.isEmpty ? "decoder failed" : detail)
                }
            }
            let count = Int(out.width) * Int(out.height)
            stored = LuminanceImage(width: Int(out.width), height: Int(out.height),
                                    buffer: PixelBuffer(adopting: pixels, count: count))
            orientation = Orientation(rawValue: Int(out.orientation)) ?? .up
            // libjpeg's scaled width is the source width / n rounded up (501 → 251 at half size):
            // the ratio rounded, not truncated, is n.
            scale = max(1, Int((Double(out.source_width) / Double(max(1, out.width))).rounded()))
            sourceSize = (Int(out.source_width), Int(out.source_height))
            pageCount = max(1, Int(out.page_count))
            if out.damage != ISC_OK {
                let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let total = Int(out.source_height)
                let rows = min(total, Int(out.rows_decoded) * max(1, total / max(1, Int(out.height))))
                if out.damage == ISC_ERR_TRUNCATED {
                    // A progressive JPEG cut short has every row, from the scans that arrived.
                    warning = rows == total ? "truncated: later progressive scans missing, all \(total) rows decoded at lower quality"
                                            : "truncated: decoded \(rows) of \(total) rows"
                } else {
                    warning = "corrupt data: decoded \(rows) of \(total) rows before it (\(detail))"
                }
            }
        case .pgm, .ppm:
            do {
                stored = try PNMDecoder.decode(data, maxPixels: options.maxPixels)
            } catch {
                switch error {
                case .corrupt(let detail): throw .corrupt(path: path, format: format, detail: detail)
                case .truncated(let detail): throw .truncated(path: path, detail: detail)
                case .tooLarge(let w, let h): throw .tooLarge(path: path, width: w, height: h, limit: options.maxPixels)
                }
            }
        }
        let upright = options.appliesOrientation ? stored.applying(orientation) : stored
        var fullSize = sourceSize ?? (stored.width, stored.height)
        if upright.width != stored.width { fullSize = (fullSize.height, fullSize.width) }  // transposing orientation
        let banded = format == .jpeg && options.decodesSomeJPEGRows && stored.width == sourceSize?.width
        return DecodedImage(image: upright, format: format, orientation: orientation, scale: scale, fullSize: fullSize,
                            page: options.page, decodedRows: banded ? options.jpegRows : nil, pageCount: pageCount,
                            warning: warning)
    }

    /// Standard input through a pipe (`-`) is read into memory up to this many bytes (100 MiB);
    /// more is ``ImageError/inputTooLarge(path:limit:)``. Redirected from a regular file, it is
    /// decoded from the file like a named one, whatever the file's size.
    public static let maxStandardInputBytes = 100 << 20

    /// Opens `raw` for reading (`-`: a duplicate of standard input) and checks it is a regular
    /// file (standard input may also be a pipe). Returns the descriptor, which the caller closes,
    /// and the size `fstat` gives.
    static func openFile(_ raw: RawPath) throws(ImageError) -> (fd: Int32, size: Int) {
        let path = raw.description
        // O_NONBLOCK: opening a FIFO with no writer must not hang; it is refused below.
        let fd = raw.isStandardInput ? dup(0) : raw.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw fileError(path: path, errno: errno, operation: "open") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw fileError(path: path, errno: code, operation: "fstat")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { close(fd); throw .isDirectory(path: path) }
        if !raw.isStandardInput && (info.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            throw .unsupportedFormat(path: path, detail: "not a regular file (a device, FIFO or socket)")
        }
        return (fd, Int(info.st_size))
    }

    /// The whole file at `path`, read with POSIX `open`/`fstat`/`read`; `-` reads standard
    /// input (``load(path:options:)-(RawPath,_)`` uses it only for a pipe). A file whose first
    /// bytes are no image signature is not read further: decoding refuses it from those bytes
    /// alone.
    static func readFile(path raw: RawPath) throws(ImageError) -> [UInt8] {
        let path = raw.description
        let (fd, expected) = try openFile(raw)
        defer { close(fd) }
        let maxFileBytes = raw.isStandardInput ? maxStandardInputBytes : 1 << 31
        guard expected <= maxFileBytes else {
            if raw.isStandardInput { throw .inputTooLarge(path: path, limit: maxFileBytes) }
            throw .unsupportedFormat(path: path, detail: "file is \(expected) bytes, over the 2 GiB file limit")
        }
        // The expected size is read straight into uninitialized storage (no zero-fill); a file
        // that grew meanwhile is read on in doubling steps.
        var failure: Int32 = 0
        var atEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: max(expected + 1, 65536)) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = read(fd, buffer.baseAddress! + count, buffer.count - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { atEnd = true; return }
                count += got
                if count >= ImageFormat.signatureLength && ImageFormat.sniff(buffer[0..<ImageFormat.signatureLength]) == nil {
                    atEnd = true
                    return
                }
            }
        }
        if failure != 0 { throw fileError(path: path, errno: failure, operation: "read") }
        var total = bytes.count
        while !atEnd {
            if total == bytes.count {
                guard bytes.count < maxFileBytes else {
                    // More than the limit: an error, never an image silently cut short.
                    throw raw.isStandardInput ? .inputTooLarge(path: path, limit: maxFileBytes)
                        : .unsupportedFormat(path: path, detail: "file is over the 2 GiB file limit")
                }
                bytes.append(contentsOf: [UInt8](repeating: 0, count: min(bytes.count, maxFileBytes + 1 - bytes.count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + total, buffer.count - total)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw fileError(path: path, errno: errno, operation: "read")
            }
            if got == 0 { atEnd = true }
            total += got
        }
        if total == 0 { throw .empty(path: path) }
        if total < bytes.count { bytes.removeSubrange(total...) }
        return bytes
    }

    static func fileError(path: String, errno code: Int32, operation: String) -> ImageError {
        switch code {
        case ENOENT, ENOTDIR: return .notFound(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case EISDIR: return .isDirectory(path: path)
        default: return .readFailed(path: path, errno: code, detail: "\(operation): \(String(cString: strerror(code)))")
        }
    }
}
