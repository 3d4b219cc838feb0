// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Imaging
@testable import Scanning
import TestSupport

/// ``MultiPassDecoder/decode(_:page:region:)``: the decoder takes an image file and decides
/// itself when to look at half size and when at full size; the file is read once.
@Suite struct MultiPassDecoderSourceTests {
    /// Every JPEG gets a half-size look first.
    static var previewAlways: DecodingPolicy {
        var policy = DecodingPolicy()
        policy.previewAbovePixels = 0
        return policy
    }

    /// A half-size look that settles it is the answer: the JPEG is not decoded at full size, and
    /// the polygon is still in full-size pixels (the same place as a full-size reading's).
    @Test func aHalfSizeLookThatSettlesItIsTheAnswer() throws {
        let path = "\(testImages)/exif/orientation-1.jpg"
        let source = try ImageSource(path: RawPath(path))
        let full = try MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy()).decode(source)
        let half = try MultiPassDecoder(scanner: BarcodeScanner(), policy: Self.previewAlways).decode(source)
        #expect(full.report.codes.map(\.symbol.pass) == [.full])
        #expect(half.report.codes.map(\.symbol.pass) == [.preview])
        #expect(half.report.isbns.map(\.isbn13) == ["9780262033848"])
        let image = try ImageLoader.load(path: path).image
        #expect(half.imageSize == (image.width, image.height) && full.imageSize == half.imageSize)
        #expect(half.pageCount == 1 && half.warning == nil)
        let a = try #require(full.report.codes.first?.symbol.place), b = try #require(half.report.codes.first?.symbol.place)
        #expect(abs(a.x - b.x) <= 4 && abs(a.lastX - b.lastX) <= 4 && abs(a.y - b.y) <= 4 && abs(a.lastY - b.lastY) <= 4,
                "full size \(a), half size \(b)")
    }

    /// A JPEG whose half-size look does not settle it is decoded again at full size, from the
    /// same source: making the source and both decodes read the file once.
    @Test(arguments: ["isbn/jpeg-cmyk.jpg", "isbn/jpeg-ycck.jpg"])
    func aJPEGDecodedAtBothSizesIsReadOnce(file: String) throws {
        let path = "\(testImages)/\(file)"
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), policy: Self.previewAlways)
        _ = try decoder.decode(ImageSource(path: RawPath(path)))  // anything read once per process is read now
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let before = try bytesReadByThisThread()
        let result = try decoder.decode(ImageSource(path: RawPath(path)))
        let read = try bytesReadByThisThread() - before
        #expect(result.report.codes.map(\.symbol.pass) == [.full], "the half-size look did not settle it: both decodes happened")
        #expect(read >= size && read < size + 4096, "\(read) bytes read of a \(size)-byte file")
    }

    /// A 1.9-megapixel JPEG of a label with 1.6-pixel modules: halved for the first look, its
    /// bars average to grey and nothing looks like a barcode. `fast` ends there; `normal` looks
    /// at the photo in full (up to ``DecodingPolicy/fullLookUpToPixels``) and reads it.
    @Test func aPhotoWhoseBarsHalvingLosesIsLookedAtInFullBeyondFast() throws {
        let path = "\(testImages)/blur-light/motion-along-fine-bars.jpg"
        let source = try ImageSource(path: RawPath(path))
        let preview = try source.decode(halvingJPEGAbovePixels: DecodingPolicy().previewAbovePixels)
        #expect(preview.scale == 2 && CandidateMap.find(in: preview.image).isEmpty)
        let fast = try MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy(effort: .fast)).decode(source)
        #expect(fast.report.codes.isEmpty)
        let normal = try MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy()).decode(source)
        #expect(normal.report.isbns.map(\.isbn13) == ["9788821279720"])
        var smaller = DecodingPolicy()
        smaller.fullLookUpToPixels = 1_000_000
        #expect(try MultiPassDecoder(scanner: BarcodeScanner(), policy: smaller).decode(source).report.codes.isEmpty)
    }

    /// A 1.9-megapixel JPEG of a label with 1.3-pixel modules that no first look reads and whose
    /// half-size map sees nothing: looked at in full, it is mapped in full too, where the label's
    /// bars show, and the symbol fit reads it.
    @Test func aPhotoTheHalfSizeMapMissesIsMappedInFull() throws {
        let path = "\(testImages)/blur-light/gauss-fine-bars-mapped-in-full.jpg"
        let source = try ImageSource(path: RawPath(path))
        let preview = try source.decode(halvingJPEGAbovePixels: DecodingPolicy().previewAbovePixels)
        #expect(preview.scale == 2 && CandidateMap.find(in: preview.image).isEmpty)
        let full = try source.decode()
        let found = CandidateMap.find(in: full.image)
        #expect(!found.isEmpty)
        let normal = try MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy()).decode(source)
        #expect(normal.report.isbns.map(\.isbn13) == ["9786717778678"])
        #expect(normal.report.codes.map(\.symbol.pass) == [.symbolFit])
        // Where it was read: inside the label (x 979-1138, y 1390-1458 of the photo).
        let xs = normal.report.codes.flatMap(\.symbol.polygon).map(\.x), ys = normal.report.codes.flatMap(\.symbol.polygon).map(\.y)
        #expect((xs.min() ?? 0) >= 930 && (xs.max() ?? 0) <= 1190 && (ys.min() ?? 0) >= 1340 && (ys.max() ?? 0) <= 1510)
    }

    /// A big JPEG whose half-size look finds a barcode-like region but reads nothing is decoded
    /// again at full size in the rows around that region only, and read there.
    @Test func onlyTheRowsAroundABarcodeLikeRegionAreDecodedAtFullSize() throws {
        let path = "\(testImages)/isbn/jpeg-big-inverted.jpg"
        let source = try ImageSource(path: RawPath(path))
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy())
        let preview = try source.decode(halvingJPEGAbovePixels: decoder.policy.previewAbovePixels)
        #expect(preview.scale == 2)
        let look = decoder.look(preview.image, scale: 2)
        #expect(look.symbols == nil)
        let candidates = try #require(look.candidates)
        let rows = try #require(decoder.searchedRows(around: candidates, of: preview, region: .full))
        // The label's rows (1300...1540) and as many again around them; far fewer than all 2000.
        #expect(rows.count == 1 && rows[0].contains(1300) && rows[0].contains(1539), "\(rows)")
        #expect(rows.reduce(0) { $0 + $1.count } <= 1200, "\(rows)")
        #expect(rows[0].lowerBound >= 700, "the rows above the label are skipped: \(rows)")
        let result = try decoder.decode(source)
        #expect(result.report.isbns.map(\.isbn13) == ["9780262510875"])
        #expect(result.report.codes.first?.symbol.pass.rawValue == "invert")
        #expect(result.imageSize == (2400, 2000) && result.warning == nil)
        // Read the same from every row.
        let whole = try ImageLoader.load(path: path).image
        #expect(decoder.decode(whole).codes.map(\.symbol.data) == ["9780262510875"])
        // Stored turned (an EXIF orientation): every row.
        let turned = DecodedImage(image: preview.image, format: .jpeg, orientation: .right, scale: 2, fullSize: (2000, 2400))
        #expect(decoder.searchedRows(around: candidates, of: turned, region: .full) == nil)
    }

    /// Decoded pixels and the file they came from read the same (no half-size look below
    /// ``DecodingPolicy/previewAbovePixels``, and none for a PNG).
    @Test(arguments: ["isbn/png-gray8.png", "exif/orientation-6.jpg"])
    func aSmallImageReadsAsItsPixelsDo(file: String) throws {
        let path = "\(testImages)/\(file)"
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy())
        let fromFile = try decoder.decode(ImageSource(path: RawPath(path))).report
        let fromPixels = decoder.decode(try ImageLoader.load(path: path).image)
        #expect(!fromFile.codes.isEmpty)
        #expect(fromFile.codes.map(\.symbol) == fromPixels.codes.map(\.symbol))
    }

    /// `page` picks a TIFF's page: the barcode is on page 2 only, and every page tells the count.
    @Test func aPageOfATIFFIsDecodedFromTheSource() throws {
        let source = try ImageSource(path: RawPath("\(testImages)/formats/tiff-multipage.tif"))
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy())
        let first = try decoder.decode(source), second = try decoder.decode(source, page: 1)
        #expect(first.pageCount == 2 && second.pageCount == 2)
        #expect(first.report.codes.isEmpty)
        #expect(second.report.isbns.map(\.isbn13) == ["9780321573513"])
    }

    /// A file that cannot be decoded throws the loader's error.
    @Test func aBadFileThrowsTheLoadersError() throws {
        let path = "\(testImages)/corrupt/truncated-header.jpg"
        let source = try ImageSource(path: RawPath(path))
        #expect(throws: ImageError.truncated(path: path, detail: "file ends before the image does")) {
            try MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy()).decode(source)
        }
    }
}
