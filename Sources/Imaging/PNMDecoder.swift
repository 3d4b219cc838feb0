// SPDX-License-Identifier: Apache-2.0
/// Decodes binary Netpbm images: PGM (`P5`) and PPM (`P6`), maxval 1…65535.
///
/// Netpbm formats (netpbm.sourceforge.net/doc/pgm.html, ppm.html): a header of
/// whitespace-separated ASCII fields (magic, width, height, maxval, `#` comments), one
/// whitespace byte, then the raster, 1 byte per sample when maxval < 256, else 2 bytes big
/// endian. Samples are scaled to 0…255; PPM goes to luminance with Rec. 601 weights.
enum PNMDecoder {
    enum Failure: Error, Equatable {
        case corrupt(String)
        case truncated(String)
        case tooLarge(width: Int, height: Int)
    }

    /// The header is looked for in at most this many first bytes of a file (64 KiB, comments
    /// included).
    static let maxHeaderBytes = 1 << 16

    /// The bytes a file whose first bytes are `prefix` needs (header and raster), or `nil` when
    /// `prefix` holds no valid header (``decode(_:maxPixels:)`` then says why).
    static func byteCount(_ prefix: UnsafeRawBufferPointer, maxPixels: Int) -> Int? {
        guard let h = try? header(prefix, maxPixels: maxPixels) else { return nil }
        return h.offset + h.width * h.height * h.channels * h.bytesPerSample
    }

    /// The header's fields and the offset of the raster (after the one whitespace byte).
    static func header(_ data: UnsafeRawBufferPointer, maxPixels: Int) throws(Failure)
        -> (width: Int, height: Int, maxval: Int, channels: Int, bytesPerSample: Int, offset: Int) {
        var offset = 2
        let channels = data[1] == UInt8(ascii: "6") ? 3 : 1

        func field(_ name: String) throws(Failure) -> Int {
            // Skip whitespace and comments.
            while offset < data.count {
                let byte = data[offset]
                if byte == UInt8(ascii: "#") {
                    while offset < data.count, data[offset] != 0x0A, data[offset] != 0x0D { offset += 1 }
                } else if ImageFormat.isPNMSeparator(byte) {
                    offset += 1
                } else {
                    break
                }
            }
            var value = 0
            var digits = 0
            while offset < data.count, data[offset] >= UInt8(ascii: "0"), data[offset] <= UInt8(ascii: "9") {
                value = value * 10 + Int(data[offset] - UInt8(ascii: "0"))
                digits += 1
                offset += 1
                if value > 1 << 30 { throw .corrupt("\(name) is too big") }
            }
            guard digits > 0 else {
                if offset >= data.count { throw .truncated("header ends before \(name)") }
                throw .corrupt("header field \(name) is not a number")
            }
            return value
        }

        let width = try field("width")
        let height = try field("height")
        let maxval = try field("maxval")
        guard width > 0, height > 0 else { throw .corrupt("width and height must be at least 1, got \(width)x\(height)") }
        guard maxval >= 1, maxval <= 65535 else { throw .corrupt("maxval \(maxval) is outside 1...65535") }
        guard width <= ImageError.maxSide, height <= ImageError.maxSide, width * height <= maxPixels else {
            throw .tooLarge(width: width, height: height)
        }
        guard offset < data.count, ImageFormat.isPNMSeparator(data[offset]) else {
            throw offset >= data.count ? .truncated("file ends after the header") : .corrupt("no whitespace after maxval")
        }
        offset += 1

        return (width, height, maxval, channels, maxval < 256 ? 1 : 2, offset)
    }

    static func decode(_ data: UnsafeRawBufferPointer, maxPixels: Int) throws(Failure) -> LuminanceImage {
        let (width, height, maxval, channels, bytesPerSample, offset) = try header(data, maxPixels: maxPixels)
        let needed = width * height * channels * bytesPerSample
        guard data.count - offset >= needed else {
            throw .truncated("raster has \(data.count - offset) bytes, needs \(needed)")
        }
        let image = LuminanceImage(width: width, height: height, filledWith: 0)
        let out = image.buffer.pointer
        let raster = data.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self)
        @inline(__always) func sample(_ index: Int) -> Int {
            let v = bytesPerSample == 1 ? Int(raster[index]) : (Int(raster[2 * index]) << 8 | Int(raster[2 * index + 1]))
            // Samples over maxval break the format; they are clamped rather than trusted.
            return maxval == 255 ? v : (min(v, maxval) * 255 + maxval / 2) / maxval
        }
        for i in 0..<(width * height) {
            if channels == 1 {
                out[i] = UInt8(sample(i))
            } else {
                let r = sample(3 * i), g = sample(3 * i + 1), b = sample(3 * i + 2)
                out[i] = UInt8((77 * r + 150 * g + 29 * b + 128) >> 8)
            }
        }
        return image
    }
}
