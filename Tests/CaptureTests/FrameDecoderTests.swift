// SPDX-License-Identifier: Apache-2.0
import Capture
import CCodecs
import Imaging
import Scanning
import Testing

@Suite struct FrameDecoderTests {
    let format = StreamFormat(pixelFormat: .yuyv, width: 8, height: 4, bytesPerLine: 20, sizeImage: 80)

    /// Runs `body` on a frame made of `bytes`.
    func withFrame<R>(_ bytes: [UInt8], _ format: StreamFormat, _ body: (Frame) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { raw in
            try body(Frame(bytes: raw, format: format, sequence: 0, damaged: false))
        }
    }

    @Test func yuyvTakesEveryEvenByteOfTheRegionOnly() throws {
        // Row r, pixel x: Y = 10*r + x, chroma 0xEE; 4 padding bytes per row.
        var bytes = [UInt8](repeating: 0x77, count: 80)
        for r in 0..<4 { for x in 0..<8 { bytes[r * 20 + 2 * x] = UInt8(10 * r + x); bytes[r * 20 + 2 * x + 1] = 0xEE } }
        let region = try RegionOfInterest(x: 0.25, y: 0.5, width: 0.5, height: 0.5)
        let pixels = try withFrame(bytes, format) { try FrameDecoder.luminance(of: $0, region: region, device: "t") }
        #expect(pixels.rect == PixelRect(x: 2, y: 2, width: 4, height: 2))
        #expect(pixels.image.pixels == [22, 23, 24, 25, 32, 33, 34, 35])
        #expect(pixels.frameWidth == 8 && pixels.frameHeight == 4)
    }

    @Test func greyAndNV12UseTheFirstPlaneWithItsStride() throws {
        for kind in [PixelFormat.grey, .nv12, .yu12] {
            let f = StreamFormat(pixelFormat: kind, width: 4, height: 2, bytesPerLine: 6, sizeImage: 18)
            let bytes: [UInt8] = [1, 2, 3, 4, 99, 99, 5, 6, 7, 8, 99, 99, 128, 128, 128, 128, 128, 128]
            let pixels = try withFrame(bytes, f) { try FrameDecoder.luminance(of: $0, region: .full, device: "t") }
            #expect(pixels.image.pixels == [1, 2, 3, 4, 5, 6, 7, 8], "\(kind)")
        }
    }

    @Test func shortFrameIsABadFrame() {
        #expect(throws: CaptureError.badFrame(device: "cam", detail: "10 bytes, a YUYV 8x4 frame needs 80")) {
            try withFrame([UInt8](repeating: 0, count: 10), format) { try FrameDecoder.luminance(of: $0, region: .full, device: "cam") }
        }
    }

    @Test func corruptMJPEGIsABadFrame() {
        let f = StreamFormat(pixelFormat: .mjpg, width: 8, height: 8, bytesPerLine: 0, sizeImage: 100)
        #expect(throws: CaptureError.self) {
            try withFrame([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x02, 0x12, 0x34], f) { try FrameDecoder.luminance(of: $0, region: .full, device: "cam") }
        }
    }

    /// ITU-T T.81 Annex K.3: the DHT that Motion-JPEG frames without tables imply.
    @Test func standardHuffmanTablesAreAnnexK3() throws {
        var segment: UnsafePointer<UInt8>?
        let length = isc_mjpeg_standard_dht(&segment)
        let bytes = Array(UnsafeBufferPointer(start: try #require(segment), count: length))
        #expect(length == 420)   // FF C4 + length 0x01A2
        #expect(Array(bytes[0..<4]) == [0xFF, 0xC4, 0x01, 0xA2])
        // Table K.3 (luminance DC): code counts per length 1…16, then the 12 values 0…11.
        #expect(Array(bytes[4..<33]) == [0x00, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0] + Array(0...11))
        // Table K.5 (luminance AC) header: class 1, id 0; counts 0 2 1 3 3 2 4 3 5 5 4 4 0 0 1 0x7D.
        #expect(Array(bytes[33..<50]) == [0x10, 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D])
        #expect(Array(bytes[50..<54]) == [0x01, 0x02, 0x03, 0x00])
    }
}
