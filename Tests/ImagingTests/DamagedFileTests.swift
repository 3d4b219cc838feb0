// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Imaging
import TestSupport

/// Damaged JPEG and PNG files are decoded as far as the data goes, with a warning.
@Suite struct DamagedFileTests {
    func decode(_ bytes: [UInt8], _ options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(ImageError) in try ImageLoader.decode(raw, path: "mem", options: options) } }
        return try result.get()
    }

    func bytes(_ file: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/\(file)")))
    }

    @Test(arguments: [
        ("corrupt/truncated.jpg", "truncated: decoded 160 of 312 rows"),
        ("corrupt/truncated.png", "truncated: decoded 189 of 312 rows"),
        ("corrupt/corrupt-crc.png", "corrupt data: decoded 311 of 312 rows before it (IDAT: incorrect data check)"),
    ])
    func damagedFixturesKeepTheirDecodedRows(file: String, warning: String) throws {
        let decoded = try decode(bytes(file))
        #expect(decoded.warning == warning)
        #expect(decoded.image.width == 501 && decoded.image.height == 312)
        if file.contains("truncated") {
            // Below the decoded rows: white, not invented grey.
            #expect((0..<501).allSatisfy { decoded.image[$0, 311] == 255 })
        }
    }

    /// The 1000x750 photo cut at 80 %: the rows before the cut are the intact file's rows.
    @Test func aCutJPEGKeepsTheRowsBeforeTheCut() throws {
        let whole = try bytes("isbn/photo-like.jpg")
        let intact = try decode(whole).image
        let cut = try decode(Array(whole.prefix(whole.count * 8 / 10)))
        let warning = try #require(cut.warning)
        #expect(warning.hasPrefix("truncated: decoded ") && warning.hasSuffix(" of 750 rows"))
        let rows = Int(warning.split(separator: " ")[2])!
        #expect(rows > 400 && rows < 750)
        #expect((0..<rows).allSatisfy { y in (0..<1000).allSatisfy { cut.image[$0, y] == intact[$0, y] } })
        // At half size (the first look of big photos) the count is still in rows of the file.
        var half = DecodeOptions()
        half.jpegScale = 2
        let small = try decode(Array(whole.prefix(whole.count * 8 / 10)), half)
        #expect(small.warning?.hasSuffix(" of 750 rows") == true)
    }

    @Test func aCutProgressiveJPEGHasEveryRowAtLowerQuality() throws {
        let whole = try bytes("isbn/jpeg-progressive.jpg")
        let cut = try decode(Array(whole.prefix(whole.count * 6 / 10)))
        #expect(cut.warning == "truncated: later progressive scans missing, all 312 rows decoded at lower quality")
        #expect(cut.image[12, 12] > 180)
    }

    /// 400 bytes of garbage in the middle of the entropy-coded data: libjpeg-turbo warns, resyncs
    /// and goes on; the rows before the garbage are intact.
    @Test func garbageInTheMiddleOfAJPEGIsACorruptDataWarning() throws {
        var data = try bytes("isbn/photo-like.jpg")
        var state: UInt32 = 12345  // a fixed linear congruential sequence: the same garbage every run
        let garbage = (0..<400).map { _ -> UInt8 in state = state &* 1_103_515_245 &+ 12345; return UInt8(state >> 24) }
        // A marker (APP5) inside the scan, then the garbage: libjpeg-turbo warns "premature end of
        // data segment" and resynchronises. (Garbage without a marker often decodes silently.)
        data.insert(contentsOf: [0xFF, 0xE5] + garbage, at: data.count / 2)
        let decoded = try decode(data)
        let warning = try #require(decoded.warning)
        #expect(warning.hasPrefix("corrupt data: decoded "))
        #expect(warning.contains(" of 750 rows before it (Corrupt JPEG data"))
        #expect(decoded.image.width == 1000 && decoded.image.height == 750)
    }
}
