// SPDX-License-Identifier: Apache-2.0
import Imaging
import ISBN

/// What one image file gave: its report, or the reason it could not be read.
public struct FileScanResult: Sendable {
    /// The path as the caller gave it.
    public var path: String
    /// Codes read, when the file could be decoded.
    public var report: ScanReport?
    /// Why the file could not be read, else `nil`.
    public var error: ImageError?
    /// Upright image size in pixels, when decoded.
    public var imageSize: (width: Int, height: Int)?
    /// Pages in the file: a multi-page TIFF has several, every one scanned; else 1.
    public var pageCount = 1
    /// For a file of several pages: the page (from 1) each of `report.codes` was read on; else empty.
    public var codePages: [Int] = []
    /// Set when the file was damaged and only part of it decoded, e.g. `"truncated: decoded 2400 of 3000 rows"`.
    public var warning: String?

    public init(path: String, report: ScanReport? = nil, error: ImageError? = nil, imageSize: (width: Int, height: Int)? = nil,
                warning: String? = nil) {
        self.path = path
        self.report = report
        self.error = error
        self.imageSize = imageSize
        self.warning = warning
    }
}

/// When a ``FileScanner`` reads printed ISBNs too (`scan --text`, ``PrintedISBNReading``).
public enum TextReadingMode: Sendable, Hashable {
    /// Barcodes only.
    case off
    /// Only on images (pages) where no barcode at all was read: `--effort thorough` (a photo whose
    /// only barcode is a product code is not a book's either way, so such a photo is not read).
    case whenNoBarcode
    /// On every image (`--text`).
    case always
}

/// Reads the ISBNs printed as text in an upright image: implemented by the TextReading module
/// (Tesseract), so that Scanning does not depend on an OCR engine. One per worker (not thread-safe).
public protocol PrintedISBNReading: AnyObject {
    /// The printed ISBNs of `image` (8-bit luminance, upright), each as a ``ReadCode`` of
    /// ``Symbology/isbnText`` with polygons in pixels of `image`, judged with `prefixes`; an
    /// empty list when there are none.
    func readCodes(in image: LuminanceImage, accepting prefixes: ISBNPrefixes) -> [ReadCode]
}

/// Reads image files and scans them: the per-file job of `isbnscan scan`.
///
/// A thin owner: it opens each file as an ``ImageSource``, lets its ``decoder`` decide at what
/// sizes to decode and look (``MultiPassDecoder/decode(_:page:region:)``), scans every page of a
/// multi-page TIFF, and turns a file that cannot be read into a ``FileScanResult`` with an error.
///
/// Owns one ``MultiPassDecoder`` (and so one ``BarcodeScanner``), so it is not thread-safe: one per worker.
public final class FileScanner {
    public let decodeOptions: DecodeOptions
    public let region: RegionOfInterest
    public let decoder: MultiPassDecoder

    /// Reads the ISBNs printed as text, when ``textMode`` asks for it; `nil`: barcodes only.
    public var textReader: (any PrintedISBNReading)?
    /// When ``textReader`` runs. Default ``TextReadingMode/off``.
    public var textMode = TextReadingMode.off

    /// The decoding policy (``MultiPassDecoder/policy``): effort, confirmations, size thresholds.
    public var policy: DecodingPolicy { decoder.policy }

    public init(decodeOptions: DecodeOptions = DecodeOptions(), scannerOptions: ScannerOptions = ScannerOptions(),
                region: RegionOfInterest = .full, policy: DecodingPolicy) {
        self.decodeOptions = decodeOptions
        self.region = region
        self.decoder = MultiPassDecoder(scanner: BarcodeScanner(options: scannerOptions), policy: policy)
    }

    /// A scanner with the default ``DecodingPolicy`` but for `effort`.
    public convenience init(decodeOptions: DecodeOptions = DecodeOptions(), scannerOptions: ScannerOptions = ScannerOptions(),
                            region: RegionOfInterest = .full, effort: Effort = .normal) {
        self.init(decodeOptions: decodeOptions, scannerOptions: scannerOptions, region: region,
                  policy: DecodingPolicy(effort: effort))
    }

    /// Decodes the file at `path` (upright, EXIF orientation applied), scans ``region`` of it
    /// and judges every code. Never throws: a bad file comes back with ``FileScanResult/error``.
    public func scanFile(path: String) -> FileScanResult { scanFile(path: RawPath(path)) }

    /// As ``scanFile(path:)-(String)`` for a path given as bytes (not necessarily UTF-8);
    /// the result's ``FileScanResult/path`` is `path.description`.
    ///
    /// The file is read once, into an ``ImageSource``, from which the decoder takes the image
    /// at the sizes it needs (``MultiPassDecoder/decode(_:page:region:)``: a big JPEG is looked
    /// at at half size first). Every page of a multi-page TIFF is scanned, through the same source.
    public func scanFile(path: RawPath) -> FileScanResult {
        do {
            let source = try ImageSource(path: path, options: decodeOptions)
            var first = try decoder.decode(source, region: region)
            first.report = try withPrintedISBNs(first.report, source: source, page: nil)
            if first.pageCount > 1 { return try scanPages(source, first: first) }
            return FileScanResult(path: path.description, report: first.report, error: nil, imageSize: first.imageSize,
                                  warning: first.warning)
        } catch {
            return FileScanResult(path: path.description, report: nil, error: error, imageSize: nil)
        }
    }

    /// `report` with the printed ISBNs of the page that ``textMode`` says to read (decoded again
    /// at full size from `source`: the barcode search may have looked at a half-size copy or a few
    /// rows only), in reading order after the barcodes of the same place. Standard input can be
    /// decoded only once: there text is read only when the barcode search decoded the whole image.
    func withPrintedISBNs(_ report: ScanReport, source: ImageSource, page: Int?) throws(ImageError) -> ScanReport {
        guard let textReader, textMode == .always || (textMode == .whenNoBarcode && report.codes.isEmpty),
              source.canDecodeAgain else { return report }
        let image = try source.decode(page: page).image
        let rect = region.pixelRect(imageWidth: image.width, imageHeight: image.height)
        let area = image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        var codes = textReader.readCodes(in: area, accepting: decoder.policy.accepting)
        for index in codes.indices {
            codes[index].symbol.polygon = codes[index].symbol.polygon.map { Point(x: $0.x + rect.x, y: $0.y + rect.y) }
        }
        var result = report
        result.codes += codes
        result.codes.sort(by: ScanReport.readingOrder)
        return result
    }
}
