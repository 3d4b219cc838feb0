// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ISBN
import Imaging
@testable import Scanning
import TestSupport

@Suite struct FileScannerTests {
    @Test(arguments: fixtures("isbn"))
    func everyImageVariantDecodesToItsISBN(file: String, expected: String) throws {
        let scanner = FileScanner(scannerOptions: ScannerOptions(addOns: true))
        let result = scanner.scanFile(path: "\(testImages)/\(file)")
        #expect(result.error == nil)
        let report = try #require(result.report)
        #expect(report.isbns.map(\.isbn13) == [String(expected.prefix(13))])
        let addOn = expected.count > 13 ? String(expected.dropFirst(13)) : nil
        #expect(report.codes.first?.symbol.addOn == addOn)
    }

    @Test func addOnsAreOffByDefault() throws {
        let report = try #require(FileScanner().scanFile(path: "\(testImages)/isbn/addon-ean5.png").report)
        #expect(report.codes.map(\.symbol.data) == ["9780553293357"])
        #expect(report.codes[0].symbol.addOn == nil)
    }

    @Test(arguments: [
        ("rejected/jan.png", "4901234567894", RejectionReason.prefix, Symbology.ean13),
        ("rejected/isbn979.png", "9791032305690", .prefix, .ean13),
        ("rejected/ean8.png", "96385074", .length, .ean8),
        ("rejected/upca.png", "0036000291452", .prefix, .ean13),
    ])
    func nonISBNCodesAreRefusedWithAReason(file: String, data: String, reason: RejectionReason, symbology: Symbology) throws {
        let report = try #require(FileScanner().scanFile(path: "\(testImages)/\(file)").report)
        #expect(report.isbns.isEmpty)
        #expect(report.codes.count == 1)
        #expect(report.codes.first?.symbol.data == data)
        #expect(report.codes.first?.symbol.symbology == symbology)
        #expect(report.codes.first?.verdict.rejection?.reason == reason)
    }

    @Test(arguments: ["blank.png", "noise.png", "text.png", "stripes.png"])
    func negativesDecodeNothing(file: String) throws {
        let report = try #require(FileScanner().scanFile(path: "\(testImages)/negative/\(file)").report)
        #expect(report.codes.isEmpty)
    }

    @Test func badFileComesBackAsAnErrorValue() {
        let result = FileScanner().scanFile(path: "\(testImages)/corrupt/truncated-header.jpg")
        #expect(result.report == nil)
        #expect(result.error == .truncated(path: "\(testImages)/corrupt/truncated-header.jpg", detail: "file ends before the image does"))
    }

    @Test func polygonIsInUprightPixelCoordinates() throws {
        // Upright barcode spans x 50..430, rows 269..339 in every orientation's upright picture.
        for orientation in 1...8 {
            let report = try #require(FileScanner(region: .band)
                .scanFile(path: "\(testImages)/exif/orientation-\(orientation).jpg").report)
            #expect(report.isbns.map(\.isbn13) == ["9780262033848"], "orientation \(orientation)")
            let box = try #require(report.codes.first?.symbol.place)
            #expect(box.x >= 40 && box.lastX <= 440 && box.y >= 256 && box.lastY <= 352,
                    "orientation \(orientation): box \(box)")
        }
    }

    @Test func ignoringExifPutsTheBandOnTheWrongPixels() throws {
        // Stored sideways (orientation 6), the barcode crosses the band instead of lying in it:
        // applying the orientation first is what makes the ROI point at the right pixels.
        let scanner = FileScanner(decodeOptions: DecodeOptions(appliesOrientation: false), region: .band)
        let report = try #require(scanner.scanFile(path: "\(testImages)/exif/orientation-6.jpg").report)
        #expect(report.isbns.isEmpty)
    }

    /// A JPEG whose half-size preview does not settle it is decoded again at full size, from the
    /// same ``ImageSource``: the file is read once (before, a second decode read it again).
    @Test(arguments: ["isbn/jpeg-cmyk.jpg", "isbn/jpeg-ycck.jpg"])
    func aJPEGDecodedAtBothSizesIsReadOnce(file: String) throws {
        let path = "\(testImages)/\(file)"
        var policy = DecodingPolicy()
        policy.previewAbovePixels = 0  // every JPEG gets a half-size look first
        let scanner = FileScanner(policy: policy)
        _ = scanner.scanFile(path: path)  // anything read once per process (the range message) is read now
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let before = try bytesReadByThisThread()
        let report = try #require(scanner.scanFile(path: path).report)
        let read = try bytesReadByThisThread() - before
        #expect(report.codes.map(\.symbol.pass) == [.full], "the preview did not settle it: both decodes happened")
        #expect(read >= size && read < size + 4096, "\(read) bytes read of a \(size)-byte file")
    }
}

/// When a ``FileScanner`` asks its text reader (``TextReadingMode``): `thorough` reads text only on
/// an image without any barcode; a photo whose only barcode is a product code is a photo of
/// something else (issue 28), and `--text` reads every image.
@Suite struct TextReadingModeTests {
    /// A reader that records the images it was given and reads one printed ISBN on each.
    final class RecordingReader: PrintedISBNReading {
        var sizes: [String] = []
        func readCodes(in image: LuminanceImage, accepting prefixes: ISBNPrefixes) -> [ReadCode] {
            sizes.append("\(image.width)x\(image.height)")
            let symbol = Symbol(symbology: .isbnText, data: "9780306406157", quality: 90, orientation: 0,
                                polygon: [Point(x: 1, y: 1), Point(x: 9, y: 1), Point(x: 9, y: 5), Point(x: 1, y: 5)], pass: "text")
            return [ReadCode(symbol: symbol, verdict: ISBN.judge(typed: "9780306406157", accepting: prefixes))]
        }
    }

    func scan(_ file: String, _ mode: TextReadingMode) throws -> (report: ScanReport, asked: [String]) {
        let scanner = FileScanner(effort: .thorough)
        let reader = RecordingReader()
        scanner.textReader = reader
        scanner.textMode = mode
        let report = try #require(scanner.scanFile(path: "\(testImages)/\(file)").report)
        return (report, reader.sizes)
    }

    @Test func thoroughReadsTextOnlyWhereNoBarcodeAtAllWasRead() throws {
        // A product code (JAN 490…, refused): no text read.
        let jan = try scan("rejected/jan.png", .whenNoBarcode)
        #expect(jan.asked == [])
        #expect(jan.report.codes.map(\.symbol.data) == ["4901234567894"])
        // An ISBN barcode: no text read.
        #expect(try scan("isbn/png-gray8.png", .whenNoBarcode).asked == [])
        // No barcode at all: the whole image is read as text, and its reading is reported.
        let blank = try scan("negative/blank.png", .whenNoBarcode)
        #expect(blank.asked.count == 1)
        #expect(blank.report.isbns.map(\.isbn13) == ["9780306406157"])
    }

    @Test func withTextEveryImageIsRead() throws {
        #expect(try scan("rejected/jan.png", .always).asked.count == 1)
        #expect(try scan("isbn/png-gray8.png", .always).asked == ["501x312"])
        #expect(try scan("isbn/png-gray8.png", .off).asked == [])
    }
}

/// A photo of several books at once: each book's barcode is its own place.
@Suite struct SeveralBooksTests {
    /// TestImages/many/four-books.jpg: four generated back covers on a table, turned up to 25°,
    /// 1600x1000 (a JPEG looked at first at half size). The half-size look reads one of them; the
    /// barcode-like regions it does not cover are other books, searched at full size.
    @Test(arguments: [Effort.fast, .normal, .thorough])
    func everyBookOfThePhotoIsRead(effort: Effort) throws {
        let expected = try String(contentsOfFile: "\(testImages)/many/four-books.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let scanner = FileScanner(policy: DecodingPolicy(effort: effort))
        let report = try #require(scanner.scanFile(path: "\(testImages)/many/four-books.jpg").report)
        #expect(Set(report.isbns.map(\.isbn13)) == Set(expected))
        #expect(report.isbns.count == 4)
        #expect(report.problems.isEmpty)
    }

    /// Once a code is read and settled, a barcode-like region beside it is searched only up to
    /// ``DecodingPolicy/maximumPlaces``: with none, the half-size look's one book is the answer.
    @Test func otherPlacesAreSearchedUpToTheirLimit() throws {
        var policy = DecodingPolicy(effort: .fast)
        policy.maximumPlaces = 0
        let report = try #require(FileScanner(policy: policy).scanFile(path: "\(testImages)/many/four-books.jpg").report)
        #expect(report.isbns.count == 1)
    }
}
