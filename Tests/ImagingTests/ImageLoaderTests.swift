// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Imaging
import TestSupport

@Suite struct ImageLoaderTests {
    @Test(arguments: [
        ("isbn/png-gray8.png", ImageFormat.png, 501, 312),
        ("isbn/png-interlaced.png", .png, 501, 312),
        ("isbn/jpeg-progressive.jpg", .jpeg, 501, 312),
        ("isbn/jpeg-cmyk.jpg", .jpeg, 250, 156),
        ("isbn/fake-extension.jpg", .png, 501, 312),
        ("isbn/pgm-p5.pgm", .pgm, 250, 156),
        ("isbn/ppm-p6.ppm", .ppm, 250, 156),
    ])
    func formatComesFromMagicBytes(file: String, format: ImageFormat, width: Int, height: Int) throws {
        let decoded = try ImageLoader.load(path: "\(testImages)/\(file)")
        #expect(decoded.format == format)
        #expect(decoded.image.width == width)
        #expect(decoded.image.height == height)
    }

    /// Every variant's quiet zone (top-left corner) must come out near white and the first
    /// bar dark: catches alpha not composited, 16-bit low byte kept, CMYK not inverted.
    @Test(arguments: ["png-gray8.png", "png-gray1.png", "png-gray2.png", "png-gray4.png", "png-gray16.png",
                      "png-gray-alpha.png", "png-rgb8.png", "png-rgb16.png", "png-rgba-transparent.png",
                      "png-palette.png", "png-palette-trns.png", "png-interlaced.png", "jpeg-gray.jpg",
                      "jpeg-rgb.jpg", "jpeg-progressive.jpg", "jpeg-cmyk.jpg", "jpeg-ycck.jpg",
                      "pgm-p5.pgm", "pgm-p5-16bit.pgm", "ppm-p6.ppm"])
    func backgroundIsLightAndBarsAreDark(file: String) throws {
        let image = try ImageLoader.load(path: "\(testImages)/isbn/\(file)").image
        #expect(image[12, 12] > 180, "quiet zone of \(file) is \(image[12, 12])")
        let middleRow = (0..<image.width).map { image[$0, image.height / 3] }
        #expect(middleRow.min()! < 90, "no dark bar in \(file)")
    }

    @Test func transparentPixelsBecomeWhite() throws {
        let image = try ImageLoader.load(path: "\(testImages)/isbn/png-rgba-transparent.png").image
        #expect(image[0, 0] == 255)
        let trns = try ImageLoader.load(path: "\(testImages)/isbn/png-palette-trns.png").image
        #expect(trns[0, 0] == 255)
    }

    @Test func sixteenBitSamplesKeepTheHighByte() throws {
        // Background 0xEE00 → 0xEE; the low byte (0x00) would give black.
        let image = try ImageLoader.load(path: "\(testImages)/isbn/png-gray16.png").image
        #expect(image[0, 0] == 0xEE)
    }

    @Test(arguments: 1...8)
    func exifOrientationGivesTheUprightPicture(orientation: Int) throws {
        let decoded = try ImageLoader.load(path: "\(testImages)/exif/orientation-\(orientation).jpg")
        #expect(decoded.orientation.rawValue == orientation)
        let image = decoded.image
        #expect(image.width == 480 && image.height == 640)
        #expect(image[30, 30] < 60, "black square is not top-left")
        #expect(image[450, 30] > 200 && image[30, 610] > 200 && image[450, 610] > 200)
    }

    @Test func orientationCanBeIgnored() throws {
        let stored = try ImageLoader.load(path: "\(testImages)/exif/orientation-6.jpg",
                                          options: DecodeOptions(appliesOrientation: false)).image
        #expect(stored.width == 640 && stored.height == 480)
    }

    @Test(arguments: [
        ("corrupt/empty.png", "empty file (0 bytes)"),
        ("corrupt/not-an-image.png", "unsupported format: not an image (no PNG, JPEG, TIFF, WebP, GIF, HEIF/HEIC, BMP, PGM or PPM signature)"),
        ("corrupt/truncated-header.png", "truncated: file ends before the image does"),
        ("corrupt/truncated-header.jpg", "truncated: file ends before the image does"),
        ("corrupt/corrupt.jpg", "corrupt JPEG: Unsupported marker type 0x8e"),
        ("corrupt/bomb.png", "image is 50000x50000 = 2500000000 pixels, over the limit of 120000000 (see --max-pixels)"),
        ("corrupt/bad-pnm.pgm", "corrupt PGM: width and height must be at least 1, got 0x300"),
        ("corrupt/bad-pnm-garbage.pgm", "corrupt PGM: header field width is not a number"),
        ("does-not-exist.png", "no such file"),
        ("isbn", "is a directory"),
    ])
    func badFilesGiveTheNamedError(file: String, cause: String) {
        let path = "\(testImages)/\(file)"
        #expect {
            _ = try ImageLoader.load(path: path)
        } throws: { error in
            let error = error as! ImageError
            return error.cause == cause && error.path == path
        }
    }

    /// A JPEG cut anywhere before its image is complete is truncated, not corrupt: inside the
    /// header (the fake end marker libjpeg reads then makes the header invalid) as well.
    @Test(arguments: [100, 200, 360])
    func aJPEGCutShortIsTruncated(bytes: Int) throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/jpeg-rgb.jpg"))
        #expect(whole.count > bytes)
        #expect {
            try whole.prefix(bytes).withUnsafeBytes { raw in _ = try ImageLoader.decode(raw, path: "cut.jpg") }
        } throws: { error in
            (error as? ImageError)?.cause == "truncated: file ends before the image does"
        }
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() {
        #expect(throws: ImageError.tooLarge(path: "p", width: 501, height: 312, limit: 1000)) {
            try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/png-gray8.png")).withUnsafeBytes { raw in
                _ = try ImageLoader.decode(raw, path: "p", options: DecodeOptions(maxPixels: 1000))
            }
        }
    }

    @Test func errnoMapsToNamedErrors() {
        #expect(ImageLoader.fileError(path: "p", errno: EACCES, operation: "open") == .permissionDenied(path: "p"))
        #expect(ImageLoader.fileError(path: "p", errno: EPERM, operation: "open") == .permissionDenied(path: "p"))
        #expect(ImageLoader.fileError(path: "p", errno: ENOENT, operation: "open") == .notFound(path: "p"))
        #expect(ImageLoader.fileError(path: "p", errno: EIO, operation: "read")
                == .readFailed(path: "p", errno: EIO, detail: "read: Input/output error"))
    }

    @Test func jpegScaledDecodeHalvesTheSize() throws {
        let decoded = try ImageLoader.load(path: "\(testImages)/isbn/photo-like.jpg", options: DecodeOptions(jpegScale: 2))
        #expect(decoded.image.width == 500 && decoded.image.height == 375)
        #expect(decoded.scale == 2)
    }

    /// libjpeg rounds a scaled size up: a 501-pixel-wide JPEG halves to 251, and the scale is
    /// still 2 (a truncating 501 / 251 said 1, and the scanner took the half-size picture for the
    /// full-size one).
    @Test func anOddWidthHalvesWithScale2() throws {
        var options = DecodeOptions()
        options.halveJPEGAbovePixels = 1
        let decoded = try ImageLoader.load(path: "\(testImages)/isbn/jpeg-gray.jpg", options: options)
        #expect(decoded.image.width == 251 && decoded.image.height == 156)
        #expect(decoded.scale == 2)
        #expect(decoded.fullSize.width == 501 && decoded.fullSize.height == 312)
    }
}

@Suite struct UnsharpMaskTests {
    @Test func restoresTheContrastOfABlurredThinBar() {
        // A 2-pixel dark bar on white, blurred to a shallow dip; unsharp masking deepens it.
        var row = [UInt8](repeating: 255, count: 40)
        row[19] = 0; row[20] = 0
        let sharp = LuminanceImage(width: 40, height: 9, pixels: Array((0..<9).map { _ in row }.joined()))
        let blurred = sharp.boxBlurred().boxBlurred().boxBlurred()
        let restored = blurred.unsharpMasked(sigma: 4, amount: 3)
        #expect(blurred[19, 4] > 120)
        #expect(restored[19, 4] < blurred[19, 4] - 60)
        #expect(restored[2, 4] == 255)  // flat white stays white
        let flat = LuminanceImage(width: 7, height: 5, filledWith: 90)
        #expect(flat.unsharpMasked(sigma: 4, amount: 8)[3, 2] == 90)
    }
}
