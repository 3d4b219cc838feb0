import Capture
import Foundation
import CCodecs
import Imaging
import Scanning
import Testing

/// Motion-JPEG frames from the fake device, with and without Huffman tables.
extension FakeDeviceTests { @Suite struct MJPEGTests {
    /// One whole MJPG frame of the fake showing `image`.
    func frameBytes(_ format: String, width: Int = 640, height: Int = 480) throws -> [UInt8] {
        try InProcessFake.configure(["FRAMES": testImages + "/roi/band-inside.png", "FORMATS": format, "FPS": "0",
                                     "SIZES": "\(width)x\(height)"])
        let device = try CaptureDevice(path: "/dev/video0")
        _ = try device.configure(format: .mjpg, width: width, height: height, fps: nil)
        try device.start()
        return try #require(try device.withNextFrame(timeout: 5) { Array($0.bytes) })
    }

    static func hasDHT(_ bytes: [UInt8]) -> Bool {
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xDA {
            if bytes[at + 1] == 0xC4 { return true }
            at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
        }
        return false
    }

    func decode(_ bytes: [UInt8]) -> (pixels: [UInt8], inserted: Int32, status: isc_status) {
        var out = isc_luma_image()
        var inserted: Int32 = -1
        var message = [CChar](repeating: 0, count: 200)
        let status = isc_mjpeg_decode_luma(bytes, bytes.count, 1 << 24, &out, &inserted, &message, message.count)
        defer { free(out.pixels) }
        let pixels = out.pixels.map { Array(UnsafeBufferPointer(start: $0, count: Int(out.width * out.height))) } ?? []
        return (pixels, inserted, status)
    }

    @Test func framesWithoutDHTDecodeLikeFramesWithIt() throws {
        let withTables = try frameBytes("MJPG")
        let without = try frameBytes("MJPG-NODHT")
        #expect(Self.hasDHT(withTables))
        #expect(!Self.hasDHT(without))
        let a = decode(withTables), b = decode(without)
        #expect(a.status == ISC_OK && b.status == ISC_OK)
        #expect(a.inserted == 0)
        #expect(b.inserted == 1)
        #expect(a.pixels.count == 640 * 480)
        #expect(a.pixels == b.pixels)
    }

    /// libjpeg-turbo 2.1 itself falls back to the standard tables when a frame has none
    /// (jdhuff.c, for Motion-JPEG): the plain JPEG decoder reads the same pixels. The
    /// insertion keeps isbnscan independent of that behaviour of one libjpeg build.
    @Test func libjpegTurboAloneAlsoToleratesMissingDHT() throws {
        let without = try frameBytes("MJPG-NODHT")
        var out = isc_luma_image()
        var message = [CChar](repeating: 0, count: 200)
        let status = isc_jpeg_decode_luma(without, without.count, 1 << 24, 1, 0, &out, &message, message.count)
        defer { free(out.pixels) }
        #expect(status == ISC_OK)
        #expect(decode(without).pixels == Array(UnsafeBufferPointer(start: out.pixels, count: Int(out.width * out.height))))
    }

    /// Decoding only some rows (the rest skipped or never read) gives exactly the pixels of a
    /// whole decode: both run the same IDCT on the same coefficients (the skipped rows are
    /// still entropy-decoded, so the DC predictions match), pixel-exact, no tolerance. Bands
    /// that start and end inside an iMCU row (16 rows at 4:2:0), at the top, at the bottom,
    /// and past the end (clamped).
    @Test(arguments: [(0, 480), (192, 72), (7, 26), (16, 16), (470, 10), (300, 1000), (479, 1)])
    func rowsEqualTheRowsOfAWholeDecode(first: Int, count: Int) throws {
        for format in ["MJPG", "MJPG-NODHT"] {
            let bytes = try frameBytes(format)
            let whole = decode(bytes).pixels
            let band = try bytes.withUnsafeBytes { try MotionJPEG.luminance(of: $0, rows: first..<(first + count), source: "frame") }
            let rows = min(count, 480 - first)
            #expect(band.frameWidth == 640 && band.frameHeight == 480)
            #expect(band.rows.width == 640 && band.rows.height == rows)
            #expect(band.rows.pixels == Array(whole[(first * 640)..<((first + rows) * 640)]), "\(format) rows \(first)..<\(first + rows)")
        }
    }

    /// FrameDecoder's band (rows decoded, columns cropped) equals the band cropped from a
    /// whole decode (`wholeFrame: true`), at 1280x720 and 1920x1080 with the default band.
    @Test(arguments: [(1280, 720), (1920, 1080)])
    func regionOfAFrameEqualsTheRegionOfAWholeDecode(width: Int, height: Int) throws {
        try InProcessFake.configure(["FRAMES": testImages + "/roi/band-inside.png", "FORMATS": "MJPG-NODHT", "FPS": "0",
                                     "SIZES": "\(width)x\(height)"])
        let device = try CaptureDevice(path: "/dev/video0")
        _ = try device.configure(format: .mjpg, width: width, height: height, fps: nil)
        try device.start()
        let pair = try #require(try device.withNextFrame(timeout: 5) { frame in
            (Result { () throws(CaptureError) in try FrameDecoder.luminance(of: frame, region: .band, device: "fake") },
             Result { () throws(CaptureError) in try FrameDecoder.luminance(of: frame, region: .band, device: "fake", wholeFrame: true) })
        })
        let band = try pair.0.get(), whole = try pair.1.get()
        #expect(band.decodedFrame == nil)
        #expect(whole.decodedFrame?.width == width)
        #expect(band.rect == whole.rect)
        #expect(band.image.width == whole.image.width && band.image.height == whole.image.height)
        #expect(band.image.pixels == whole.image.pixels)
        // Not a uniform band: the book's bars are in it.
        #expect(Set(band.image.pixels).count > 20)
    }
}
}
