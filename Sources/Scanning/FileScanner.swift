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

/// Reads image files and scans them: the per-file job of `isbnscan scan`.
///
/// Owns one ``MultiPassDecoder`` (and so one ``BarcodeScanner``), so it is not thread-safe: one per worker.
public final class FileScanner {
    public let decodeOptions: DecodeOptions
    public let region: RegionOfInterest
    public let decoder: MultiPassDecoder

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
    /// A JPEG over ``DecodingPolicy/previewAbovePixels`` (``DecodingPolicy/halfSizeAbovePixels``
    /// with add-ons) is first decoded at half size with
    /// libjpeg's DCT scaling (a fraction of the cost of a full decode) for the decoder's
    /// ``MultiPassDecoder/firstLook(_:region:scale:)``; only when that finds nothing the fit of the
    /// bars confirms (``ReadingVerifier``) is it decoded again at full size — and when it finds
    /// nothing at all, only if ``CandidateMap`` sees something barcode-like in the half-size copy.
    /// Both decodes come from one ``ImageSource``, which reads the file once (a JPEG over
    /// ``ImageSource/maxBytesInMemory`` bytes is streamed from the file for each).
    public func scanFile(path: RawPath) -> FileScanResult {
        do {
            let source = try ImageSource(path: path, options: decodeOptions)
            var halving: Int?
            // Standard input can be read once only: no half-size look that may need a second decode.
            if decodeOptions.jpegScale == 1 && source.canDecodeAgain {
                // With add-ons asked for, only big photos get a half-size look (the small EAN-5 is
                // often lost at half size, and the full decode would follow anyway).
                halving = decoder.scanner.options.addOns ? policy.halfSizeAbovePixels : policy.previewAbovePixels
            }
            let preview = try source.decode(halvingJPEGAbovePixels: halving)
            if preview.pageCount > 1 { return scanPages(path: path, first: preview) }
            if preview.scale == 1 {
                return FileScanResult(path: path.description, report: decoder.decode(preview.image, region: region),
                                      error: nil, imageSize: preview.fullSize, warning: preview.warning)
            }
            let big = preview.fullSize.width * preview.fullSize.height > policy.halfSizeAbovePixels
            let first = decoder.look(preview.image, region: region, scale: preview.scale, everyLine: big)
            let symbols = first.symbols
            if let symbols, Arbiter.isConfirmed(symbols) {
                return FileScanResult(path: path.description, report: ScanReport(symbols: symbols), error: nil,
                                      imageSize: preview.fullSize, warning: preview.warning)
            }
            // Nothing read: where may a barcode be? A photo where nothing looks like one ends here,
            // without the full-size decode (the cost of a photo without a barcode).
            var candidates: [Candidate]?
            let rect = region.pixelRect(imageWidth: preview.image.width, imageHeight: preview.image.height)
            if symbols == nil, CandidateMap.canMap(rect) {
                let found = first.candidates ?? CandidateMap.find(in: preview.image, within: rect, scale: preview.scale)
                if found.isEmpty {
                    return FileScanResult(path: path.description, report: ScanReport(symbols: []), error: nil,
                                          imageSize: preview.fullSize, warning: preview.warning)
                }
                candidates = found
            }
            // Something barcode-like, or a reading the fit could not confirm at half size: decode
            // at full size, where what the preview read is measured again.
            let decoded = try source.decode()
            return FileScanResult(path: path.description,
                                  report: decoder.decode(decoded.image, region: region, firstLookDone: big,
                                                         earlier: symbols ?? [], candidates: candidates),
                                  error: nil, imageSize: decoded.fullSize, warning: decoded.warning)
        } catch {
            return FileScanResult(path: path.description, report: nil, error: error, imageSize: nil)
        }
    }
}
