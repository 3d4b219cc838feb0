// SPDX-License-Identifier: Apache-2.0
/// The container formats isbnscan decodes, recognised by their magic bytes — never by the
/// file name's extension.
public enum ImageFormat: String, Sendable, CaseIterable {
    /// PNG (signature `89 50 4E 47 0D 0A 1A 0A`, ISO/IEC 15948 §5.2).
    case png = "PNG"
    /// JPEG / JFIF / Exif (starts with SOI `FF D8 FF`).
    case jpeg = "JPEG"
    /// Netpbm binary graymap, `P5`.
    case pgm = "PGM"
    /// Netpbm binary pixmap, `P6`.
    case ppm = "PPM"
    /// TIFF (`II*\0` or `MM\0*`, TIFF 6.0 §2; BigTIFF `II+\0` / `MM\0+`).
    case tiff = "TIFF"
    /// WebP (`RIFF` size `WEBP`, RFC 9649 §2).
    case webp = "WebP"
    /// GIF (`GIF87a` / `GIF89a`).
    case gif = "GIF"
    /// HEIF/HEIC or AVIF: an ISO base media file whose `ftyp` box names an image brand (`heic`,
    /// `heix`, `mif1`, `avif`…; ISO/IEC 23008-12 §10).
    case heif = "HEIF"
    /// Windows bitmap (`BM`, then a DIB header of 12, 40, 52, 56, 64, 108 or 124 bytes).
    case bmp = "BMP"

    /// The formats decoded by a library, for messages: "PNG, JPEG, TIFF, WebP, GIF, HEIF/HEIC, BMP".
    public static let readable = "PNG, JPEG, TIFF, WebP, GIF, HEIF/HEIC, BMP"

    /// How many first bytes ``sniff(_:)`` looks at.
    public static let signatureLength = 32

    /// The `ftyp` brands of still images libheif decodes.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis"]

    /// The format whose signature starts `header`, or `nil`. ``signatureLength`` bytes are enough.
    public static func sniff(_ header: some Collection<UInt8>) -> ImageFormat? {
        let bytes = Array(header.prefix(signatureLength))
        func starts(_ s: String) -> Bool { bytes.starts(with: Array(s.utf8)) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        if starts("RIFF"), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        if starts("GIF87a") || starts("GIF89a") { return .gif }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8),
           heifBrands.contains(String(decoding: bytes[8..<12], as: UTF8.self)) { return .heif }
        if starts("BM"), bytes.count >= 18 {
            let dib = UInt32(bytes[14]) | UInt32(bytes[15]) << 8 | UInt32(bytes[16]) << 16 | UInt32(bytes[17]) << 24
            if [12, 40, 52, 56, 64, 108, 124].contains(dib) { return .bmp }
        }
        if bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), isPNMSeparator(bytes[2]) {
            if bytes[1] == UInt8(ascii: "5") { return .pgm }
            if bytes[1] == UInt8(ascii: "6") { return .ppm }
        }
        return nil
    }

    /// A name for well-known formats we do not decode, for error messages ("PDF"…).
    public static func nameOfUnsupported(_ header: some Collection<UInt8>) -> String? {
        let bytes = Array(header.prefix(12))
        func starts(_ s: String) -> Bool { bytes.starts(with: Array(s.utf8)) }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            return "ISO media brand '\(String(decoding: bytes[8..<12], as: UTF8.self))', not a HEIF/AVIF image"
        }
        if starts("%PDF") { return "PDF" }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[1]) {
            let kind = bytes[1] == UInt8(ascii: "7") ? "PAM" : "plain (ASCII) or bitmap"
            return "Netpbm P\(Character(UnicodeScalar(bytes[1]))), \(kind)"
        }
        return nil
    }

    static func isPNMSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "#")
    }
}
