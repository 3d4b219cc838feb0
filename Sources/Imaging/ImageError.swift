// SPDX-License-Identifier: Apache-2.0
/// Why an image file could not be turned into a ``LuminanceImage``. Every case names the
/// file (as the caller gave it) and the cause; ``description`` is the one-line message the
/// command line prints after `Error: `.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No file at `path` (ENOENT).
    case notFound(path: String)
    /// The file exists but may not be read (EACCES/EPERM).
    case permissionDenied(path: String)
    /// `path` is a directory where a file was expected.
    case isDirectory(path: String)
    /// The file has 0 bytes.
    case empty(path: String)
    /// The data ends before the image does.
    case truncated(path: String, detail: String)
    /// The decoder rejected the data (bad CRC, bad header, bad Huffman code…).
    case corrupt(path: String, format: ImageFormat, detail: String)
    /// A known format isbnscan does not decode (PDF, plain PNM…), a variant of a format it reads that it does not (12-bit JPEG, RLE BMP…), or not a regular file.
    case unsupportedFormat(path: String, detail: String)
    /// The first bytes are no image signature isbnscan knows: a text file, an archive…
    /// (a folder walk skips such files unless their name ends like an image's).
    case notAnImage(path: String)
    /// The declared size is over the pixel limit (`--max-pixels`); no pixels were allocated.
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// Reading failed for another reason; `errno` is the C error number.
    case readFailed(path: String, errno: Int32, detail: String)
    /// Memory ran out while decoding.
    case outOfMemory(path: String)
    /// A symbolic link whose target does not exist.
    case brokenSymlink(path: String)
    /// Standard input holds more than `limit` bytes (``ImageLoader/maxStandardInputBytes``).
    case inputTooLarge(path: String, limit: Int)

    /// The path this error is about.
    public var path: String {
        switch self {
        case .notFound(let p), .permissionDenied(let p), .isDirectory(let p), .empty(let p),
             .truncated(let p, _), .corrupt(let p, _, _), .unsupportedFormat(let p, _), .notAnImage(let p),
             .tooLarge(let p, _, _, _), .readFailed(let p, _, _), .outOfMemory(let p), .brokenSymlink(let p), .inputTooLarge(let p, _):
            return p
        }
    }

    /// The cause without the path, e.g. `"truncated: file ends before the image does"`.
    public var cause: String {
        switch self {
        case .notFound: return "no such file"
        case .permissionDenied: return "permission denied"
        case .isDirectory: return "is a directory"
        case .empty: return "empty file (0 bytes)"
        case .truncated(_, let detail): return "truncated: \(detail)"
        case .corrupt(_, let format, let detail): return "corrupt \(format.rawValue): \(detail)"
        case .unsupportedFormat(_, let detail): return "unsupported format: \(detail)"
        case .notAnImage: return "unsupported format: not an image (no \(ImageFormat.readable), PGM or PPM signature)"
        case .tooLarge(_, let w, let h, let limit):
            if w > ImageError.maxSide || h > ImageError.maxSide {
                return "image is \(w)x\(h), a side over the \(ImageError.maxSide)-pixel maximum"
            }
            return "image is \(w)x\(h) = \(w * h) pixels, over the limit of \(limit) (see --max-pixels)"
        case .readFailed(_, let code, let detail): return "read failed (errno \(code)): \(detail)"
        case .outOfMemory: return "out of memory while decoding"
        case .brokenSymlink: return "broken symbolic link (its target does not exist)"
        case .inputTooLarge(_, let limit):
            return "more than \(limit >> 20) MiB on standard input (the limit for '-'; give the file's name instead)"
        }
    }

    public var description: String { "\(path): \(cause)" }

    /// Longest side accepted, in pixels, whatever the pixel limit (JPEG's own maximum is 65500;
    /// a PNG 120 000 000 × 1 would need gigabytes of row buffers in libpng).
    public static let maxSide = 65535
}
