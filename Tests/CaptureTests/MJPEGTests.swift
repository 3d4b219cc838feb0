import Capture
import Foundation
import CCodecs
import Imaging
import Scanning
import Testing

/// Motion-JPEG frames from the fake device, with and without Huffman tables.
extension FakeDeviceTests { @Suite struct MJPEGTests {
    /// One whole MJPG frame of the fake showing `image`.
    func frameBytes(_ format: String) throws -> [UInt8] {
        try InProcessFake.configure(["FRAMES": testImages + "/roi/band-inside.png", "FORMATS": format, "FPS": "0"])
        let device = try CaptureDevice(path: "/dev/video0")
        _ = try device.configure(format: .mjpg, width: 640, height: 480, fps: nil)
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
}
}
