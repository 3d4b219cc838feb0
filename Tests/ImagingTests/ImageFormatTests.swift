// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import Imaging

@Suite struct ImageFormatTests {
    @Test func sniffsSignatures() {
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff(Array("P5\n1 1".utf8)) == .pgm)
        #expect(ImageFormat.sniff(Array("P6 1 1".utf8)) == .ppm)
        #expect(ImageFormat.sniff(Array("P5x".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("GIF90a".utf8)) == nil)
        #expect(ImageFormat.sniff([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]) == .tiff)
        #expect(ImageFormat.sniff([0x4D, 0x4D, 0x00, 0x2A]) == .tiff)
        #expect(ImageFormat.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("RIFF\0\0\0\0WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypheic".utf8)) == .heif)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypavif".utf8)) == .heif)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypisom".utf8)) == nil)  // an MP4 video
        // BMP: "BM" alone is too weak (a text file can start so); the DIB header size must be known.
        #expect(ImageFormat.sniff(Array("BM".utf8) + Array(repeating: 0, count: 12) + [40, 0, 0, 0]) == .bmp)
        #expect(ImageFormat.sniff(Array("BMW owners club newsletter".utf8)) == nil)
        #expect(ImageFormat.sniff([0x89, 0x50]) == nil)
    }

    @Test func namesKnownUnsupportedFormats() {
        #expect(ImageFormat.nameOfUnsupported(Array("%PDF-1.4".utf8)) == "PDF")
        #expect(ImageFormat.nameOfUnsupported([0, 0, 0, 24] + Array("ftypisom".utf8)) == "ISO media brand 'isom', not a HEIF/AVIF image")
        #expect(ImageFormat.nameOfUnsupported(Array("hello".utf8)) == nil)
        #expect(ImageFormat.nameOfUnsupported(Array("P2\n3 1".utf8)) == "Netpbm P2, plain (ASCII) or bitmap")
    }
}
