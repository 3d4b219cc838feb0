// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Imaging
import TestSupport

/// TIFF, WebP, GIF, HEIF and BMP (TestImages/formats, made by TestImages/make_formats.py from
/// isbn/pgm-p5.pgm, ppm-p6.ppm, pgm-p5-16bit.pgm and png-gray8.png).
@Suite struct FormatDecoderTests {
    func load(_ file: String, _ options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        try ImageLoader.load(path: "\(testImages)/\(file)", options: options)
    }

    /// Lossless files give exactly the pixels of their source: same Rec. 601 weights, same
    /// orientation handling, rows in the right order (bottom-up BMP, TIFF Orientation 6).
    @Test(arguments: [
        ("formats/tiff-gray8-lzw.tif", ImageFormat.tiff, "isbn/pgm-p5.pgm"),
        ("formats/tiff-gray16.tif", .tiff, "isbn/pgm-p5-16bit.pgm"),
        ("formats/tiff-palette-deflate.tif", .tiff, "isbn/ppm-p6.ppm"),
        ("formats/tiff-rgb-packbits.tif", .tiff, "isbn/ppm-p6.ppm"),
        ("formats/tiff-orientation-6.tif", .tiff, "isbn/pgm-p5.pgm"),
        ("formats/bmp-gray8.bmp", .bmp, "isbn/pgm-p5.pgm"),
        ("formats/bmp-rgb24-topdown.bmp", .bmp, "isbn/ppm-p6.ppm"),
    ])
    func losslessFilesGiveTheSourcePixels(file: String, format: ImageFormat, source: String) throws {
        let decoded = try load(file)
        let reference = try load(source).image
        #expect(decoded.format == format)
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        var differing = 0
        for y in 0..<reference.height { for x in 0..<reference.width where decoded.image[x, y] != reference[x, y] { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ")
    }

    /// 1-bit files (CCITT G4 TIFF, BMP) are the source thresholded at 128.
    @Test(arguments: ["formats/tiff-g4.tif", "formats/bmp-1bit.bmp"])
    func bilevelFilesAreTheThresholdedSource(file: String) throws {
        let image = try load(file).image
        let reference = try load("isbn/pgm-p5.pgm").image
        var differing = 0
        for y in 0..<reference.height {
            for x in 0..<reference.width where image[x, y] != (reference[x, y] < 128 ? 0 : 255) { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test func tiffOrientationIsAppliedOrReported() throws {
        let upright = try load("formats/tiff-orientation-6.tif")
        #expect(upright.orientation == .right)
        #expect(upright.image.width == 250 && upright.image.height == 156)
        let stored = try load("formats/tiff-orientation-6.tif", DecodeOptions(appliesOrientation: false))
        #expect(stored.image.width == 156 && stored.image.height == 250)
    }

    @Test func everyPageOfAMultiPageTIFFCanBeDecoded() throws {
        let first = try load("formats/tiff-multipage.tif")
        #expect(first.pageCount == 2 && first.page == 0)
        #expect(first.image[125, 78] == 255)  // page 1 is blank
        var options = DecodeOptions()
        options.page = 1
        let second = try load("formats/tiff-multipage.tif", options)
        #expect(second.page == 1)
        #expect(second.image[45, 60] == 0)  // page 2 has the barcode (first bar at x 40)
        options.page = 2
        #expect(throws: ImageError.corrupt(path: "\(testImages)/formats/tiff-multipage.tif", format: .tiff,
                                           detail: "page 3: cannot be read")) { try load("formats/tiff-multipage.tif", options) }
    }

    /// Lossy or palette-reduced files: the quiet zone light, a bar dark, the right size.
    @Test(arguments: [
        ("formats/webp-lossy.webp", ImageFormat.webp, 250, 156),
        ("formats/webp-lossless.webp", .webp, 250, 156),
        ("formats/webp-exif-6.webp", .webp, 250, 156),
        ("formats/gif-rgb.gif", .gif, 250, 156),
        ("isbn/gif-zint.gif", .gif, 226, 116),
        ("formats/heic-gray.heic", .heif, 501, 312),
    ])
    func lossyFilesDecodeUpright(file: String, format: ImageFormat, width: Int, height: Int) throws {
        let decoded = try load(file)
        #expect(decoded.format == format)
        #expect(decoded.image.width == width && decoded.image.height == height)
        #expect(decoded.image[3, 3] > 200)
        let middleRow = (0..<decoded.image.width).map { decoded.image[$0, decoded.image.height / 3] }
        #expect(middleRow.min()! < 60)
    }

    /// The PGM stored turned (156x250) with an `irot` of 270°: libheif turns it upright, pixels
    /// within HEVC's loss of the source (a wrong turn would differ by about half the range).
    @Test func heifRotationIsApplied() throws {
        let decoded = try load("formats/heic-irot-270.heic")
        let reference = try load("isbn/pgm-p5.pgm").image
        #expect(decoded.image.width == 250 && decoded.image.height == 156)
        var total = 0
        for y in 0..<156 { for x in 0..<250 { total += abs(Int(decoded.image[x, y]) - Int(reference[x, y])) } }
        #expect(total / (250 * 156) < 8, "mean difference \(total / (250 * 156))")
    }

    @Test func webpExifOrientationIsApplied() throws {
        let decoded = try load("formats/webp-exif-6.webp")
        #expect(decoded.orientation == .right)
        let stored = try load("formats/webp-exif-6.webp", DecodeOptions(appliesOrientation: false))
        #expect(stored.image.width == 156 && stored.image.height == 250)
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        for file in ["formats/tiff-g4.tif", "formats/webp-lossy.webp", "formats/gif-rgb.gif", "formats/bmp-gray8.bmp"] {
            #expect(throws: ImageError.tooLarge(path: "\(testImages)/\(file)", width: 250, height: 156, limit: 1000)) {
                try load(file, DecodeOptions(maxPixels: 1000))
            }
        }
        #expect(throws: ImageError.tooLarge(path: "\(testImages)/formats/heic-gray.heic", width: 501, height: 312, limit: 1000)) {
            try load("formats/heic-gray.heic", DecodeOptions(maxPixels: 1000))
        }
    }

    /// Every file cut at 60 %: an error naming truncation or corruption, never a crash.
    @Test(arguments: ["formats/tiff-gray8-lzw.tif", "formats/tiff-g4.tif", "formats/webp-lossy.webp", "formats/gif-rgb.gif",
                      "formats/heic-gray.heic", "formats/bmp-gray8.bmp"])
    func cutFilesAreErrorsNotCrashes(file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/\(file)"))
        let cut = data.prefix(data.count * 6 / 10)
        let outcome = cut.withUnsafeBytes { raw in Result { () throws(ImageError) in try ImageLoader.decode(raw, path: "cut") } }
        switch outcome {
        case .success: Issue.record("\(file) cut at 60 % decoded without complaint")
        case .failure(let error):
            switch error {
            case .truncated, .corrupt: break
            default: Issue.record("\(file): \(error)")
            }
        }
    }

    @Test func bmpVariantsItDoesNotReadAreUnsupported() throws {
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/formats/bmp-gray8.bmp")))
        data[30] = 1  // compression BI_RLE8
        let outcome = data.withUnsafeBytes { raw in Result { () throws(ImageError) in try ImageLoader.decode(raw, path: "rle.bmp") } }
        #expect(throws: ImageError.unsupportedFormat(path: "rle.bmp", detail: "BMP: BMP with RLE8 (isbnscan reads uncompressed and bit-field BMPs)")) {
            try outcome.get()
        }
    }
}
