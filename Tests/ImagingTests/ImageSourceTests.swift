// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Imaging
import TestSupport

/// ``ImageSource`` decodes what ``ImageLoader/load(path:options:)-(String,_)`` decodes, at full
/// and at half size, from the bytes it read once (a small JPEG) or from the file (anything else).
@Suite struct ImageSourceTests {
    func expectSame(_ source: ImageSource, _ path: String, halving: Int?) throws {
        var options = DecodeOptions()
        options.halveJPEGAbovePixels = halving
        let expected = try ImageLoader.load(path: path, options: options)
        let got = try source.decode(halvingJPEGAbovePixels: halving)
        #expect(got.image.pixels == expected.image.pixels)
        #expect((got.image.width, got.image.height) == (expected.image.width, expected.image.height))
        #expect(got.scale == expected.scale && got.fullSize == expected.fullSize)
        #expect(got.orientation == expected.orientation && got.warning == expected.warning)
    }

    @Test(arguments: ["isbn/jpeg-rgb.jpg", "isbn/jpeg-progressive.jpg", "exif/orientation-6.jpg", "corrupt/truncated.jpg"])
    func aSmallJPEGIsHeldInMemoryAndDecodesAtBothSizes(file: String) throws {
        let path = "\(testImages)/\(file)"
        let source = try ImageSource(path: RawPath(path))
        #expect(source.isInMemory && source.canDecodeAgain)
        try expectSame(source, path, halving: 0)
        try expectSame(source, path, halving: nil)
        let half = try source.decode(halvingJPEGAbovePixels: 0)
        #expect(half.image.width == (half.fullSize.width + 1) / 2 && half.image.height == (half.fullSize.height + 1) / 2)
    }

    @Test(arguments: ["isbn/png-gray8.png", "formats/tiff-g4.tif", "isbn/pgm-p5.pgm"])
    func otherFormatsAreDecodedFromTheFile(file: String) throws {
        let path = "\(testImages)/\(file)"
        let source = try ImageSource(path: RawPath(path))
        #expect(!source.isInMemory)
        try expectSame(source, path, halving: nil)
    }

    /// A JPEG file over ``ImageSource/maxBytesInMemory`` (a tail after the image, sparse) is
    /// streamed from the file at each decode, so memory follows the image, not the file.
    @Test func aLargeJPEGFileIsStreamed() throws {
        let path = NSTemporaryDirectory() + "isbnscan-image-source-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/jpeg-rgb.jpg")).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, off_t(ImageSource.maxBytesInMemory + 1)) == 0)
        let source = try ImageSource(path: RawPath(path))
        #expect(!source.isInMemory)
        try expectSame(source, path, halving: 0)
        try expectSame(source, path, halving: nil)
    }

    /// `page` decodes that page of a multi-page TIFF, as ``DecodeOptions/page`` does.
    @Test func aPageIsDecodedAsTheLoaderDecodesIt() throws {
        let path = "\(testImages)/formats/tiff-multipage.tif"
        let source = try ImageSource(path: RawPath(path))
        var options = DecodeOptions()
        options.page = 1
        let expected = try ImageLoader.load(path: path, options: options)
        let got = try source.decode(page: 1)
        #expect(got.page == 1 && got.pageCount == 2)
        #expect(got.image.pixels == expected.image.pixels)
        #expect(try source.decode().image.pixels != got.image.pixels, "page 1 is not page 0")
    }

    @Test func openingErrorsAreThoseOfTheLoader() {
        let path = "\(testImages)/no-such-file.jpg"
        #expect(throws: ImageError.notFound(path: path)) { try ImageSource(path: RawPath(path)) }
        #expect(throws: ImageError.isDirectory(path: testImages)) { try ImageSource(path: RawPath(testImages)) }
    }
}
