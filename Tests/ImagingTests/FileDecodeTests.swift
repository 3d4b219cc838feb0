// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Imaging
import TestSupport

/// Files are decoded from their descriptor, reading only what the image needs (TIFF, WebP, GIF,
/// HEIF, BMP through the `*_fd` decoders, PGM/PPM through their header): the same pixels and the
/// same errors as the bytes decoded from memory.
@Suite struct FileDecodeTests {
    static let files = ["formats/tiff-g4.tif", "formats/tiff-gray8-lzw.tif", "formats/tiff-gray16.tif",
                        "formats/tiff-palette-deflate.tif", "formats/tiff-rgb-packbits.tif", "formats/tiff-orientation-6.tif",
                        "formats/tiff-multipage.tif", "formats/webp-lossy.webp", "formats/webp-lossless.webp",
                        "formats/webp-exif-6.webp", "formats/gif-rgb.gif", "formats/heic-gray.heic", "formats/heic-irot-270.heic",
                        "formats/bmp-1bit.bmp", "formats/bmp-gray8.bmp", "formats/bmp-rgb24-topdown.bmp",
                        "isbn/pgm-p5.pgm", "isbn/pgm-p5-16bit.pgm", "isbn/ppm-p6.ppm"]

    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "isbnscan-file-decode-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func fromMemory(_ bytes: [UInt8], path: String) -> Result<DecodedImage, ImageError> {
        bytes.withUnsafeBytes { raw in Result { () throws(ImageError) in try ImageLoader.decode(raw, path: path) } }
    }

    func fromFile(_ path: String) -> Result<DecodedImage, ImageError> {
        Result { () throws(ImageError) in try ImageLoader.load(path: path) }
    }

    func pixels(_ image: LuminanceImage) -> [UInt8] {
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image[x, y] } }
    }

    /// Whole, and cut at 30, 60 and 90 %: the file and the same bytes in memory agree, pixel for
    /// pixel or error for error.
    @Test(arguments: files)
    func aFileDecodesLikeItsBytes(file: String) throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/\(file)")))
        for percent in [100, 90, 60, 30] {
            let bytes = Array(whole.prefix(whole.count * percent / 100))
            let path = try temporaryFile(bytes)
            defer { unlink(path) }
            switch (fromFile(path), fromMemory(bytes, path: path)) {
            case (.success(let a), .success(let b)):
                #expect(a.image.width == b.image.width && a.image.height == b.image.height, "\(file) at \(percent) %")
                #expect(pixels(a.image) == pixels(b.image), "\(file) at \(percent) %")
                #expect(a.warning == b.warning && a.pageCount == b.pageCount, "\(file) at \(percent) %")
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "\(file) at \(percent) %")
            case (let a, let b):
                Issue.record("\(file) at \(percent) %: from the file \(a), from memory \(b)")
            }
        }
    }

    /// A BMP whose pixel data starts 1 MiB after its palette (the offset in the file header says
    /// so): the gap is skipped, the pixels are those of the file.
    @Test func aBMPWithAGapBeforeItsPixelsIsRead() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/formats/bmp-gray8.bmp")))
        let offset = Int(original[10]) | Int(original[11]) << 8 | Int(original[12]) << 16 | Int(original[13]) << 24
        let moved = offset + (1 << 20)
        var gapped = Array(original[..<offset]) + [UInt8](repeating: 0xAA, count: 1 << 20) + Array(original[offset...])
        for i in 0..<4 { gapped[10 + i] = UInt8((moved >> (8 * i)) & 0xFF) }
        let path = try temporaryFile(gapped)
        defer { unlink(path) }
        let decoded = try fromFile(path).get()
        let reference = try ImageLoader.load(path: "\(testImages)/formats/bmp-gray8.bmp")
        #expect(pixels(decoded.image) == pixels(reference.image))
    }

    /// A WebP whose RIFF header claims 4 GB (0xFFFFFFF0, the largest even length), followed by
    /// 300 MB of zeros: only 4 bytes a canvas pixel plus 16 MiB are read, and the image inside
    /// decodes.
    @Test func aWebPWhoseRIFFLengthLiesIsReadAsFarAsItsCanvasNeeds() throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/formats/webp-lossy.webp")))
        bytes.replaceSubrange(4..<8, with: [0xF0, 0xFF, 0xFF, 0xFF])
        let path = try temporaryFile(bytes)
        defer { unlink(path) }
        #expect(truncate(path, 300_000_000) == 0)
        let decoded = try fromFile(path).get()
        let reference = try ImageLoader.load(path: "\(testImages)/formats/webp-lossy.webp")
        #expect(pixels(decoded.image) == pixels(reference.image))
    }
}
