// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import Imaging

@Suite struct PNMDecoderTests {
    func decode(_ bytes: [UInt8]) throws -> LuminanceImage {
        try bytes.withUnsafeBytes { try ImageLoader.decode($0, path: "mem").image }
    }

    @Test func pgmWithCommentAndMaxval15() throws {
        let image = try decode(Array("P5\n# made by hand\n3 1\n15\n".utf8) + [0, 15, 5])
        #expect(image.pixels == [0, 255, 85])
    }

    @Test func ppmToRec601Luminance() throws {
        let image = try decode(Array("P6 3 1 255\n".utf8) + [255, 0, 0, 0, 255, 0, 0, 0, 255])
        #expect(image.pixels == [77, 149, 29])
    }

    @Test func sixteenBitBigEndian() throws {
        let image = try decode(Array("P5 2 1 65535\n".utf8) + [0xFF, 0xFF, 0x80, 0x00])
        #expect(image.pixels == [255, 128])
    }

    @Test func samplesOverMaxvalAreClamped() throws {
        let image = try decode(Array("P5 3 1 1\n".utf8) + [0, 1, 255])
        #expect(image.pixels == [0, 255, 255])
    }

    @Test func shortRasterIsTruncated() {
        #expect(throws: ImageError.truncated(path: "mem", detail: "raster has 2 bytes, needs 4")) {
            _ = try decode(Array("P5 2 2 255\n".utf8) + [1, 2])
        }
    }

    @Test func maxvalZeroIsCorrupt() {
        #expect(throws: ImageError.corrupt(path: "mem", format: .pgm, detail: "maxval 0 is outside 1...65535")) {
            _ = try decode(Array("P5 2 2 0\n".utf8) + [1, 2, 3, 4])
        }
    }
}
