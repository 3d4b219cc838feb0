// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// One image file, from which a decoder takes the image at full size or (a JPEG) at half size,
/// as often as it needs, while the file is read once.
///
/// A JPEG that is a regular file of at most ``maxBytesInMemory`` bytes is read into memory when
/// the source is made, and every ``decode(page:halvingJPEGAbovePixels:rows:)`` decodes those bytes
/// (``ImageLoader/decode(_:path:options:)``). Anything else is decoded straight from the file at
/// each call, as ``ImageLoader/load(path:options:)-(RawPath,_)`` does, so that memory follows the
/// image size, not the file size: a larger JPEG (a huge tail after the image) decoded twice is
/// streamed twice, and standard input is for one decode only (``canDecodeAgain``).
public struct ImageSource {
    /// JPEG files up to this many bytes (32 MiB) are held in memory. A 12-megapixel photo is
    /// 3–8 MB; the decoded image at full size is as large as that, so holding the bytes costs
    /// less than the image and saves reading them again.
    public static let maxBytesInMemory = 32 << 20

    /// The file, as the caller named it.
    public let path: RawPath
    /// How every decode of the source decodes (``decode(page:halvingJPEGAbovePixels:rows:)`` may add the halving).
    public let options: DecodeOptions
    /// The file's bytes, when held in memory; else `nil`.
    private let bytes: [UInt8]?

    /// Opens the file at `path` (`-`: standard input) and, for a JPEG of at most
    /// ``maxBytesInMemory`` bytes, reads it.
    ///
    /// - Throws: ``ImageError`` from opening or reading the file (`.notFound`, `.permissionDenied`,
    ///   `.isDirectory`, `.readFailed`, `.unsupportedFormat` for a device, FIFO or socket), as
    ///   ``ImageLoader/load(path:options:)-(RawPath,_)`` would.
    public init(path: RawPath, options: DecodeOptions = DecodeOptions()) throws(ImageError) {
        self.path = path
        self.options = options
        self.bytes = path.isStandardInput ? nil : try Self.readSmallJPEG(path)
    }

    /// Whether ``decode(page:halvingJPEGAbovePixels:rows:)`` may be called more than once: not for
    /// standard input, which can be read once only.
    public var canDecodeAgain: Bool { !path.isStandardInput }

    /// Whether the file's bytes are held in memory (a JPEG of at most ``maxBytesInMemory`` bytes).
    public var isInMemory: Bool { bytes != nil }

    /// Decodes the image; with `halvingJPEGAbovePixels`, a JPEG of more pixels than that is
    /// decoded at half size (``DecodeOptions/halveJPEGAbovePixels``; ``DecodedImage/scale`` says
    /// whether it happened).
    ///
    /// - Parameters:
    ///   - page: TIFF only: the page (directory) to decode, from 0, in place of ``options``'
    ///     ``DecodeOptions/page``; ``DecodedImage/pageCount`` says how many there are.
    ///   - halvingJPEGAbovePixels: pixels of the full-size image (width × height).
    ///   - rows: a JPEG decoded at full size: only these rows of the stored image
    ///     (``DecodeOptions/jpegRows``; ``DecodedImage/decodedRows`` says whether it happened).
    /// - Throws: ``ImageError`` as ``ImageLoader/load(path:options:)-(RawPath,_)`` does.
    public func decode(page: Int? = nil, halvingJPEGAbovePixels: Int? = nil, rows: [Range<Int>]? = nil) throws(ImageError)
        -> DecodedImage {
        var options = options
        if let page { options.page = page }
        if let halvingJPEGAbovePixels { options.halveJPEGAbovePixels = halvingJPEGAbovePixels }
        if let rows { options.jpegRows = rows }
        guard let bytes else { return try ImageLoader.load(path: path, options: options) }
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageError) -> DecodedImage in try ImageLoader.decode(raw, path: path.description, options: options) }
        }
        return try result.get()
    }

    /// The bytes of the regular file at `path` when it is a JPEG of at most ``maxBytesInMemory``
    /// bytes (as many as `fstat` counted; a file cut shorter meanwhile, fewer); else `nil`.
    private static func readSmallJPEG(_ path: RawPath) throws(ImageError) -> [UInt8]? {
        let (fd, size) = try ImageLoader.openFile(path)
        defer { close(fd) }
        guard size >= ImageFormat.signatureLength, size <= maxBytesInMemory else { return nil }
        var bytes = [UInt8](repeating: 0, count: ImageFormat.signatureLength)
        guard try ImageLoader.pread(fd, into: &bytes, at: 0, path: path) == bytes.count,
              ImageFormat.sniff(bytes) == .jpeg else { return nil }
        bytes = [UInt8](repeating: 0, count: size)
        bytes.removeSubrange(try ImageLoader.pread(fd, into: &bytes, at: 0, path: path)...)
        return bytes
    }
}
