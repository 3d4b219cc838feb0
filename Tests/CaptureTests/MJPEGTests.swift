// SPDX-License-Identifier: Apache-2.0
import Capture
import Foundation
import CCodecs
import Imaging
import Scanning
import Testing
import TestSupport

/// Motion-JPEG frames from the fake device, with and without Huffman tables.
extension FakeDeviceTests { @Suite struct MJPEGTests {
    /// One whole MJPG frame of the fake showing `image` (default: the book in the band).
    func frameBytes(_ format: String, width: Int = 640, height: Int = 480, image: String? = nil, quality: Int = 85) throws -> [UInt8] {
        try InProcessFake.configure(["FRAMES": image ?? testImages + "/roi/band-inside.png", "FORMATS": format, "FPS": "0",
                                     "SIZES": "\(width)x\(height)", "QUALITY": "\(quality)"])
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

    /// A seeded frame like a camera's (blocks of "text" on a light page, noise σ about 6): many
    /// coefficients per block and FF bytes in the entropy data (stuffed), so the walk above a band
    /// ends at every bit offset of a byte, next to stuffed bytes too. Written as a PGM the fake serves.
    /// `edges`: the first 8 columns black and the last 8 white, so that at quality 100 every MCU
    /// row starts with a DC difference of about -2040 (a code of 8 one bits and more): where a
    /// walk ends on a byte boundary, the frame's next byte is an FF (stuffed).
    static func noisyFrame(width: Int, height: Int, seed: UInt64, edges: Bool = false) throws -> String {
        var state = seed
        func random() -> UInt64 {   // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var pixels = [UInt8](repeating: 200, count: width * height)
        for _ in 0..<(width * height / 400) {   // dark "words"
            let w = Int(random() % 40) + 4, h = Int(random() % 8) + 3
            let x = Int(random() % UInt64(width)), y = Int(random() % UInt64(height))
            for yy in y..<min(height, y + h) { for xx in x..<min(width, x + w) { pixels[yy * width + xx] = 40 } }
        }
        for i in pixels.indices {
            let noise = Int(random() % 21) - 10   // uniform ±10: σ about 6
            pixels[i] = UInt8(clamping: Int(pixels[i]) + noise)
        }
        if edges {
            for y in 0..<height {
                for x in 0..<8 { pixels[y * width + x] = 0 }
                for x in (width - 8)..<width { pixels[y * width + x] = 255 }
            }
        }
        let path = NSTemporaryDirectory() + "isbnscan-mjpeg-\(getpid())-\(width)x\(height)-\(seed)\(edges ? "-edges" : "").pgm"
        try (Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Rows of `bytes` by one way (`isc_mjpeg_decode_luma_rows_by`).
    func rows(_ bytes: [UInt8], first: Int, count: Int, path: isc_mjpeg_rows_path)
        -> (status: isc_status, pixels: [UInt8], width: Int, frameHeight: Int, inserted: Int32) {
        var out = isc_luma_image()
        var inserted: Int32 = -1
        var message = [CChar](repeating: 0, count: 200)
        let status = isc_mjpeg_decode_luma_rows_by(bytes, bytes.count, 1 << 24, UInt32(first), UInt32(count), path,
                                                   &out, &inserted, &message, message.count)
        defer { free(out.pixels) }
        let pixels = out.pixels.map { Array(UnsafeBufferPointer(start: $0, count: Int(out.width * out.height))) } ?? []
        return (status, pixels, Int(out.width), Int(out.source_height), inserted)
    }

    /// The rows above a band walked without libjpeg (the frame cut at the band's iMCU row and
    /// handed to libjpeg with one made-up row that sets the DC predictions) give exactly the rows
    /// of a whole decode: every third first row of noisy frames, as 4:2:0 with and without DHT
    /// and 4:2:2 (iMCU rows of 16 and 8 pixel rows), at quality 85, and at 100 with dark and
    /// light edges (walks ending before a stuffed FF). A band in the first iMCU row is not cut.
    @Test(arguments: ["MJPG", "MJPG-NODHT", "MJPG-422"], [85, 100])
    func walkedRowsEqualTheRowsOfAWholeDecode(format: String, quality: Int) throws {
        let iMCU = format == "MJPG-422" ? 8 : 16
        for seed: UInt64 in [1, 2] {
            let path = try Self.noisyFrame(width: 640, height: 480, seed: seed, edges: quality == 100)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let bytes = try frameBytes(format, image: path, quality: quality)
            let whole = decode(bytes)
            #expect(whole.status == ISC_OK && whole.pixels.count == 640 * 480)
            for first in stride(from: 0, to: 480, by: 3) {
                let count = 1 + (first * 7) % 40
                let cut = rows(bytes, first: first, count: count, path: ISC_MJPEG_ROWS_CUT)
                if first < iMCU {
                    #expect(cut.status == ISC_ERR_UNSUPPORTED && cut.pixels.isEmpty)
                    continue
                }
                let n = min(count, 480 - first)
                #expect(cut.status == ISC_OK, "\(format) seed \(seed) first \(first)")
                #expect(cut.width == 640 && cut.frameHeight == 480)
                #expect(cut.inserted == (format == "MJPG-NODHT" ? 1 : 0))
                #expect(cut.pixels == Array(whole.pixels[(first * 640)..<((first + n) * 640)]), "\(format) seed \(seed) rows \(first)..<\(first + n)")
            }
        }
    }

    /// The camera's band at 1920x1080 (rows 432..<594) of a noisy frame: walked, skipped by
    /// libjpeg and cut from a whole decode, the same pixels; the default way walks.
    @Test func walkedBandOfA1080pFrame() throws {
        let path = try Self.noisyFrame(width: 1920, height: 1080, seed: 3)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try frameBytes("MJPG", width: 1920, height: 1080, image: path)
        let whole = decode(bytes).pixels
        let band = Array(whole[(432 * 1920)..<(594 * 1920)])
        for way in [ISC_MJPEG_ROWS_AUTO, ISC_MJPEG_ROWS_SKIP, ISC_MJPEG_ROWS_CUT] {
            let r = rows(bytes, first: 432, count: 162, path: way)
            #expect(r.status == ISC_OK)
            #expect(r.pixels == band, "way \(way.rawValue)")
        }
    }

    /// Frames the walk does not handle (restart markers; and, from files: progressive, one
    /// component, CMYK and YCCK) are declined by it and skipped by libjpeg: the default way gives
    /// what libjpeg alone gives, error or pixels.
    @Test(arguments: ["MJPG-RST", "isbn/jpeg-progressive.jpg", "isbn/fake-extension.jpg", "isbn/jpeg-cmyk.jpg",
                      "isbn/jpeg-ycck.jpg", "isbn/photo-like.jpg"])
    func framesTheWalkDeclinesAreSkippedByLibjpeg(source: String) throws {
        let bytes: [UInt8]
        if source.hasPrefix("MJPG") {
            let path = try Self.noisyFrame(width: 640, height: 480, seed: 4)
            defer { try? FileManager.default.removeItem(atPath: path) }
            bytes = try frameBytes(source, image: path)
        } else {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: testImages + "/" + source)))
        }
        let declines = source != "isbn/photo-like.jpg"   // a baseline 4:2:0 JPEG: walked
        for (first, count) in [(0, 40), (17, 30), (100, 64), (140, 200)] {
            let auto = rows(bytes, first: first, count: count, path: ISC_MJPEG_ROWS_AUTO)
            let skip = rows(bytes, first: first, count: count, path: ISC_MJPEG_ROWS_SKIP)
            let cut = rows(bytes, first: first, count: count, path: ISC_MJPEG_ROWS_CUT)
            #expect(auto.status == skip.status && auto.pixels == skip.pixels, "\(source) rows from \(first)")
            if declines || first < 16 {
                #expect(cut.status == ISC_ERR_UNSUPPORTED && cut.pixels.isEmpty, "\(source) rows from \(first)")
            } else {
                #expect(cut.status == ISC_OK && cut.pixels == skip.pixels, "\(source) rows from \(first)")
            }
        }
    }

    /// Damage above the band (bytes of the entropy data changed, seeded): the default way gives
    /// exactly what libjpeg's skipping gives, whether the walk declines (an invalid code, a
    /// marker) or walks the damaged codes as libjpeg decodes them.
    @Test func damageAboveTheBandGivesWhatLibjpegGives() throws {
        let path = try Self.noisyFrame(width: 640, height: 480, seed: 5)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clean = try frameBytes("MJPG", image: path)
        var sos = 2
        while clean[sos + 1] != 0xDA { sos += 2 + (Int(clean[sos + 2]) << 8 | Int(clean[sos + 3])) }
        let data = sos + 2 + (Int(clean[sos + 2]) << 8 | Int(clean[sos + 3]))
        var state: UInt64 = 7
        var walked = 0
        for _ in 0..<60 {
            var bytes = clean
            for _ in 0..<3 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let at = data + Int((state >> 33) % UInt64((clean.count - data) / 3))   // the top third
                bytes[at] = UInt8(truncatingIfNeeded: state >> 20)
            }
            let auto = rows(bytes, first: 200, count: 48, path: ISC_MJPEG_ROWS_AUTO)
            let skip = rows(bytes, first: 200, count: 48, path: ISC_MJPEG_ROWS_SKIP)
            #expect(auto.status == skip.status && auto.pixels == skip.pixels)
            if rows(bytes, first: 200, count: 48, path: ISC_MJPEG_ROWS_CUT).status == ISC_OK { walked += 1 }
        }
        // Both kinds happen: damage the walk reads through, and damage it declines.
        #expect(walked > 0 && walked < 60, "\(walked) of 60 walked")
    }

    /// A marker inside the scan below the cut (a fuzz finding: fill bytes and an APP1 marker in
    /// the band's bits). libjpeg's reading of such a scan depends on how its source buffers the
    /// bytes, so the walk declines any frame with a marker before its closing EOI, and the band
    /// is what libjpeg's skipping gives, at every band start and marker place tried.
    @Test func aMarkerInTheScanIsLeftToLibjpeg() throws {
        let path = try Self.noisyFrame(width: 640, height: 480, seed: 6)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clean = try frameBytes("MJPG", image: path)
        var sos = 2
        while clean[sos + 1] != 0xDA { sos += 2 + (Int(clean[sos + 2]) << 8 | Int(clean[sos + 3])) }
        let data = sos + 2 + (Int(clean[sos + 2]) << 8 | Int(clean[sos + 3]))
        #expect(rows(clean, first: 160, count: 48, path: ISC_MJPEG_ROWS_CUT).status == ISC_OK)
        for fraction in [0.2, 0.35, 0.5, 0.8] {
            var bytes = clean
            let at = data + Int(Double(clean.count - data) * fraction)
            bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xE1], at: at)
            for first in [16, 96, 160, 300] {
                let auto = rows(bytes, first: first, count: 48, path: ISC_MJPEG_ROWS_AUTO)
                let skip = rows(bytes, first: first, count: 48, path: ISC_MJPEG_ROWS_SKIP)
                #expect(auto.status == skip.status && auto.pixels == skip.pixels, "marker at \(fraction), rows from \(first)")
                #expect(rows(bytes, first: first, count: 48, path: ISC_MJPEG_ROWS_CUT).status == ISC_ERR_UNSUPPORTED)
            }
        }
        // The finding itself (minimised), with the band the fuzz target took from it.
        let finding = Array(try Data(contentsOf: URL(fileURLWithPath: testImages + "/../Fuzz/regressions/mjpeg-marker-in-band.jpg")))
        let first = Int(finding[finding.count / 2]) * 4, count = Int(finding[finding.count / 3]) + 1
        let auto = rows(finding, first: first, count: count, path: ISC_MJPEG_ROWS_AUTO)
        let skip = rows(finding, first: first, count: count, path: ISC_MJPEG_ROWS_SKIP)
        #expect(auto.status == ISC_OK && auto.status == skip.status && auto.pixels == skip.pixels)
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
