// SPDX-License-Identifier: Apache-2.0
internal import CV4L2

/// A V4L2 pixel format, by its fourcc (V4L2 API, "Image Formats").
///
/// The ones isbnscan turns into luminance: ``grey`` (the plane itself), ``yuyv`` (every other
/// byte), ``nv12`` and ``yu12`` (the Y plane comes first) and ``mjpg`` (decoded by
/// libjpeg-turbo straight to grayscale). Any other fourcc is ``other(_:)``.
public enum PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// `GREY`: 8-bit luminance, `bytesPerLine` ≥ width.
    case grey
    /// `YUYV`: 4:2:2 packed, Y0 U Y1 V; luminance is every even byte.
    case yuyv
    /// `NV12`: 4:2:0, a Y plane then interleaved CbCr.
    case nv12
    /// `YU12` (I420): 4:2:0, Y, Cb and Cr planes.
    case yu12
    /// `MJPG`: one JPEG per frame, Huffman tables often left out.
    case mjpg
    /// Any other fourcc (not decoded).
    case other(UInt32)

    /// The formats isbnscan decodes, most preferred first: cheap luminance before JPEG.
    public static let preferred: [PixelFormat] = [.grey, .yuyv, .nv12, .yu12, .mjpg]

    /// The little-endian fourcc code (`v4l2_fourcc`).
    public var fourcc: UInt32 {
        switch self {
        case .grey: return Self.code("GREY")
        case .yuyv: return Self.code("YUYV")
        case .nv12: return Self.code("NV12")
        case .yu12: return Self.code("YU12")
        case .mjpg: return Self.code("MJPG")
        case .other(let value): return value
        }
    }

    public init(fourcc: UInt32) {
        self = Self.preferred.first { $0.fourcc == fourcc } ?? .other(fourcc)
    }

    /// Parses a fourcc name as written on the command line (`YUYV`, `MJPG`, `GREY`, `NV12`,
    /// `YU12`; case-insensitive). `nil` for other names.
    public init?(name: String) {
        guard let format = Self.preferred.first(where: { $0.description == name.uppercased() }) else { return nil }
        self = format
    }

    /// Whether isbnscan can turn frames of this format into luminance.
    public var isDecodable: Bool {
        if case .other = self { return false }
        return true
    }

    /// The four characters (`YUYV`), or `0x…` when they are not printable.
    public var description: String {
        let value = fourcc
        let bytes = (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return "0x" + String(value, radix: 16) }
        return String(decoding: bytes, as: UTF8.self).trimmingTrailingSpaces()
    }

    private static func code(_ text: StaticString) -> UInt32 {
        let p = text.utf8Start
        return isc_v4l2_fourcc(CChar(p[0]), CChar(p[1]), CChar(p[2]), CChar(p[3]))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
