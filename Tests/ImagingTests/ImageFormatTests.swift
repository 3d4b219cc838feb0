import Testing
@testable import Imaging

@Suite struct ImageFormatTests {
    @Test func sniffsSignatures() {
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff(Array("P5\n1 1".utf8)) == .pgm)
        #expect(ImageFormat.sniff(Array("P6 1 1".utf8)) == .ppm)
        #expect(ImageFormat.sniff(Array("P5x".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == nil)
        #expect(ImageFormat.sniff([0x89, 0x50]) == nil)
    }

    @Test func namesKnownUnsupportedFormats() {
        #expect(ImageFormat.nameOfUnsupported(Array("GIF89a..".utf8)) == "GIF")
        #expect(ImageFormat.nameOfUnsupported(Array("RIFF\0\0\0\0WEBP".utf8)) == "WebP")
        #expect(ImageFormat.nameOfUnsupported([0x49, 0x49, 0x2A, 0x00]) == "TIFF")
        #expect(ImageFormat.nameOfUnsupported(Array("hello".utf8)) == nil)
        #expect(ImageFormat.nameOfUnsupported(Array("P2\n3 1".utf8)) == "Netpbm P2, plain (ASCII) or bitmap")
    }
}
