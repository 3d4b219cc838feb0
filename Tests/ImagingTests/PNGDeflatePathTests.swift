// SPDX-License-Identifier: Apache-2.0
import CCodecs
import Foundation
import Testing
import TestSupport

/// The libdeflate path for 8-bit, non-interlaced PNGs must give exactly libpng's pixels, and
/// leave every other layout (and every damaged file) to libpng.
@Suite struct PNGDeflatePathTests {
    private func bytes(_ file: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/\(file)")))
    }

    /// (pixels, width, height, orientation), or nil with the status.
    private func decode(_ data: [UInt8], deflate: Bool) -> (pixels: [UInt8], width: Int, height: Int, orientation: Int32)? {
        var image = isc_luma_image()
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBufferPointer { buffer in
            deflate ? isc_png_decode_luma_deflate(buffer.baseAddress, buffer.count, 1 << 30, &image)
                    : isc_png_decode_luma_libpng(buffer.baseAddress, buffer.count, 1 << 30, &image, &message, message.count)
        }
        guard status == ISC_OK, let pixels = image.pixels else { return nil }
        defer { free(pixels) }
        let count = Int(image.width) * Int(image.height)
        return (Array(UnsafeBufferPointer(start: pixels, count: count)), Int(image.width), Int(image.height), image.orientation)
    }

    @Test(arguments: ["isbn/png-gray8.png", "isbn/png-gray-alpha.png", "isbn/png-rgb8.png", "isbn/png-rgba-transparent.png",
                      "isbn/png-palette.png", "isbn/png-palette-trns.png", "isbn/addon-ean5.png"])
    func eightBitLayoutsDecodeToLibpngsPixels(file: String) throws {
        let data = try bytes(file)
        let fast = try #require(decode(data, deflate: true), "the libdeflate path declined \(file)")
        let reference = try #require(decode(data, deflate: false))
        #expect(fast.width == reference.width && fast.height == reference.height)
        #expect(fast.orientation == reference.orientation)
        #expect(fast.pixels == reference.pixels)
    }

    @Test(arguments: ["isbn/png-interlaced.png", "isbn/png-gray1.png", "isbn/png-gray16.png", "isbn/png-rgb16.png",
                      "corrupt/truncated.png", "corrupt/corrupt-crc.png", "corrupt/truncated-header.png", "corrupt/bomb.png"])
    func otherLayoutsAndDamagedFilesAreLeftToLibpng(file: String) throws {
        #expect(decode(try bytes(file), deflate: true) == nil)
    }

    /// Every filter type (None, Sub, Up, Average, Paeth; PNG §9.2) on an RGB image, IDAT split in
    /// several chunks, an eXIf chunk after IDAT, and no IEND: the same pixels and orientation.
    @Test func everyFilterTypeAndAnEXIFChunkAfterIDAT() throws {
        let width = 37, height = 23
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt32 = 12345
        // Few levels, so that the Paeth predictor meets its ties (which neighbour wins matters).
        let levels: [UInt8] = [0, 64, 128, 192]
        for i in rgb.indices { state = state &* 1_103_515_245 &+ 12345; rgb[i] = levels[Int(state >> 16) % 4] }
        let png = PNGWriter.rgb(rgb, width: width, height: height, filter: { UInt8($0 % 5) }, exifOrientation: 6, end: false)
        let fast = try #require(decode(png, deflate: true))
        let reference = try #require(decode(png, deflate: false))
        #expect(fast.pixels == reference.pixels)
        #expect(fast.orientation == 6 && reference.orientation == 6)
        let weighted = 77 * Int(rgb[0]) + 150 * Int(rgb[1]) + 29 * Int(rgb[2]) + 128
        #expect(fast.pixels[0] == UInt8(weighted >> 8))
    }

    /// Two eXIf chunks: the first counts, on both paths (libpng ignores the second).
    @Test func theFirstOfTwoEXIFChunksCounts() throws {
        let rgb = [UInt8](repeating: 90, count: 9 * 7 * 3)
        let png = PNGWriter.rgb(rgb, width: 9, height: 7, filter: { _ in 0 }, exifOrientation: 6, end: true, moreOrientations: [1])
        #expect(try #require(decode(png, deflate: true)).orientation == 6)
        #expect(try #require(decode(png, deflate: false)).orientation == 6)
    }

    /// The filtered rows of a very big image are not held in memory by the libdeflate path (over
    /// 128 MiB): it declines at the header, before reading any image data.
    @Test func aVeryBigImageIsLeftToLibpng() {
        var png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        png += PNGWriter.chunk("IHDR", PNGWriter.bigEndian(8000) + PNGWriter.bigEndian(6000) + [8, 6, 0, 0, 0])  // 192 MB of RGBA
        png += PNGWriter.chunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff])
        png += PNGWriter.chunk("IEND", [])
        #expect(decode(png, deflate: true) == nil)
    }

    /// An IDAT stream longer than the image could need is not gathered in memory.
    @Test func anOversizedIDATIsLeftToLibpng() throws {
        let width = 8, height = 8
        let rgb = [UInt8](repeating: 200, count: width * height * 3)
        let png = PNGWriter.rgb(rgb, width: width, height: height, filter: { _ in 0 }, exifOrientation: nil, end: true,
                                idatPadding: 2 << 20)
        #expect(decode(png, deflate: true) == nil)
    }
}

/// A minimal PNG encoder for tests: zlib stream of stored (uncompressed) deflate blocks.
enum PNGWriter {
    static func rgb(_ rgb: [UInt8], width: Int, height: Int, filter: (Int) -> UInt8, exifOrientation: UInt16?,
                    end: Bool, idatPadding: Int = 0, moreOrientations: [UInt16] = []) -> [UInt8] {
        var raw: [UInt8] = []
        var previous = [UInt8](repeating: 0, count: width * 3)
        for y in 0..<height {
            let row = Array(rgb[(y * width * 3)..<((y + 1) * width * 3)])
            let type = filter(y)
            raw.append(type)
            for i in row.indices {
                let a = i >= 3 ? Int(row[i - 3]) : 0, b = Int(previous[i]), c = i >= 3 ? Int(previous[i - 3]) : 0
                let predictor: Int
                switch type {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: predictor = 0
                }
                raw.append(UInt8(truncatingIfNeeded: Int(row[i]) - predictor))
            }
            previous = row
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            zlib.append(offset + count == raw.count ? 1 : 0)
            zlib += [UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var s1: UInt32 = 1, s2: UInt32 = 0
        for byte in raw { s1 = (s1 + UInt32(byte)) % 65521; s2 = (s2 + s1) % 65521 }
        zlib += bigEndian((s2 << 16) | s1)
        zlib += [UInt8](repeating: 0, count: idatPadding)
        var png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        for start in stride(from: 0, to: zlib.count, by: 100) { png += chunk("IDAT", Array(zlib[start..<min(zlib.count, start + 100)])) }
        for orientation in (exifOrientation.map { [$0] } ?? []) + moreOrientations {
            let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                                 UInt8(orientation >> 8), UInt8(orientation & 0xff), 0, 0, 0, 0, 0, 0]
            png += chunk("eXIf", tiff)
        }
        if end { png += chunk("IEND", []) }
        return png
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xffff_ffff
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return bigEndian(UInt32(data.count)) + body + bigEndian(~crc)
    }
}
