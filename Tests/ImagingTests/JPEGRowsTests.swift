// SPDX-License-Identifier: Apache-2.0
import Foundation
import Imaging
import Testing
import TestSupport

/// ``DecodeOptions/jpegRows``: only some rows of a JPEG decoded at full size, the same pixels as a
/// whole decode, the other rows 0.
@Suite struct JPEGRowsTests {
    static let bands = [3..<40, 30..<61, 100..<140, 900..<2000]

    static func rows(_ image: LuminanceImage, _ range: Range<Int>) -> [UInt8] {
        let pixels = image.pixels
        return Array(pixels[(range.lowerBound * image.width)..<(range.upperBound * image.width)])
    }

    /// Baseline 4:2:0 and gray, progressive, and a large one; from memory and streamed from the file.
    @Test(arguments: ["isbn/jpeg-rgb.jpg", "isbn/jpeg-gray.jpg", "isbn/jpeg-progressive.jpg", "isbn/photo-like.jpg",
                      "isbn/jpeg-big-inverted.jpg"])
    func theRowsAskedForAreTheWholeDecodesAndTheOthersAreZero(file: String) throws {
        let path = "\(testImages)/\(file)"
        let whole = try ImageLoader.load(path: path).image
        var options = DecodeOptions()
        options.jpegRows = Self.bands
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let fromMemory = try bytes.withUnsafeBytes { try ImageLoader.decode($0, path: path, options: options) }
        let fromFile = try ImageLoader.load(path: path, options: options)
        for decoded in [fromMemory, fromFile] {
            #expect(decoded.decodedRows == Self.bands)
            #expect(decoded.image.width == whole.width && decoded.image.height == whole.height)
            let height = whole.height
            // 3..<61 (two bands overlapping), 100..<140, 900..< the last row.
            let wanted = [3..<61, 100..<140, min(900, height)..<height].filter { !$0.isEmpty }
            for range in wanted {
                #expect(Self.rows(decoded.image, range) == Self.rows(whole, range), "rows \(range) of \(file)")
            }
            for range in [0..<3, 61..<100, 140..<min(900, height)] where !range.isEmpty {
                #expect(Self.rows(decoded.image, range).allSatisfy { $0 == 0 }, "rows \(range) of \(file) are not 0")
            }
        }
    }

    /// A band that starts a few rows after the last one ended, inside the same 16-row iMCU row of a
    /// 4:2:0 JPEG: libjpeg-turbo 2.1.5's jpeg_skip_scanlines returned the row where reading had
    /// stopped (row 179 for row 183), so those rows are read and dropped instead.
    @Test(arguments: ["isbn/photo-like.jpg", "isbn/jpeg-rgb.jpg"])
    func aBandStartingInsideTheIMCURowWhereTheLastEndedHasItsOwnRows(file: String) throws {
        let path = "\(testImages)/\(file)"
        let whole = try ImageLoader.load(path: path).image
        var options = DecodeOptions()
        options.jpegRows = [71..<179, 183..<211, 230..<232]
        let decoded = try ImageLoader.load(path: path, options: options).image
        for range in options.jpegRows! where range.upperBound <= whole.height {
            #expect(Self.rows(decoded, range) == Self.rows(whole, range), "rows \(range) of \(file)")
        }
    }

    /// A file cut short: the rows before the cut are the whole decode's, the rows asked for after
    /// it white as in a whole decode, and the damage is reported, not an error (also when the cut
    /// lies among rows passed over).
    @Test func aCutFileGivesTheWholeDecodesRowsAndItsDamage() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/photo-like.jpg")))
        let cut = Array(bytes.prefix(bytes.count * 6 / 10))
        let whole = try cut.withUnsafeBytes { try ImageLoader.decode($0, path: "cut.jpg") }
        let warning = try #require(whole.warning)
        #expect(warning.hasPrefix("truncated: decoded "))
        var options = DecodeOptions()
        options.jpegRows = [0..<50, 700..<750]
        let banded = try cut.withUnsafeBytes { try ImageLoader.decode($0, path: "cut.jpg", options: options) }
        #expect(banded.warning?.hasPrefix("truncated: decoded ") == true)
        #expect(Self.rows(banded.image, 0..<50) == Self.rows(whole.image, 0..<50))
        #expect(Self.rows(banded.image, 700..<750) == Self.rows(whole.image, 700..<750))
        #expect(Self.rows(whole.image, 700..<750).allSatisfy { $0 == 255 })
    }

    /// Rows beyond the last band are not decoded, and a band past the image is ignored.
    @Test func nothingAfterTheLastBand() throws {
        let path = "\(testImages)/isbn/photo-like.jpg"
        let whole = try ImageLoader.load(path: path).image
        var options = DecodeOptions()
        options.jpegRows = [10..<20, 5000..<6000]
        let decoded = try ImageLoader.load(path: path, options: options).image
        #expect(Self.rows(decoded, 10..<20) == Self.rows(whole, 10..<20))
        #expect(Self.rows(decoded, 20..<whole.height).allSatisfy { $0 == 0 })
    }

    /// CMYK is decoded whole; a decode at half size ignores the rows.
    @Test func cmykAndHalfSizeDecodeEveryRow() throws {
        var options = DecodeOptions()
        options.jpegRows = [0..<10]
        let cmyk = "\(testImages)/isbn/jpeg-cmyk.jpg"
        #expect(try ImageLoader.load(path: cmyk, options: options).image.pixels == ImageLoader.load(path: cmyk).image.pixels)
        options.halveJPEGAbovePixels = 1
        let half = try ImageLoader.load(path: "\(testImages)/isbn/photo-like.jpg", options: options)
        #expect(half.scale == 2 && half.decodedRows == nil)
        #expect(Self.rows(half.image, 300..<375).contains { $0 != 0 })
    }
}
