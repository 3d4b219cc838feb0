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

    /// The format whose signature starts `header`, or `nil`. 8 bytes are enough.
    public static func sniff(_ header: some Collection<UInt8>) -> ImageFormat? {
        let bytes = Array(header.prefix(8))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), isPNMSeparator(bytes[2]) {
            if bytes[1] == UInt8(ascii: "5") { return .pgm }
            if bytes[1] == UInt8(ascii: "6") { return .ppm }
        }
        return nil
    }

    /// A name for well-known formats we do not decode, for error messages ("GIF", "WebP"…).
    public static func nameOfUnsupported(_ header: some Collection<UInt8>) -> String? {
        let bytes = Array(header.prefix(12))
        func starts(_ s: String) -> Bool { bytes.starts(with: Array(s.utf8)) }
        if starts("GIF87a") || starts("GIF89a") { return "GIF" }
        if starts("BM") { return "BMP" }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts("RIFF"), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "WebP" }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) { return "HEIF/AVIF" }
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
