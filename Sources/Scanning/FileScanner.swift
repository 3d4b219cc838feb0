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

    public init(path: String, report: ScanReport? = nil, error: ImageError? = nil, imageSize: (width: Int, height: Int)? = nil) {
        self.path = path
        self.report = report
        self.error = error
        self.imageSize = imageSize
    }
}

/// Reads image files and scans them: the per-file job of `isbnscan scan`.
///
/// Owns one ``MultiPassDecoder`` (and so one ``BarcodeScanner``), so it is not thread-safe: one per worker.
public final class FileScanner {
    public let decodeOptions: DecodeOptions
    public let region: RegionOfInterest
    public let decoder: MultiPassDecoder

    public init(decodeOptions: DecodeOptions = DecodeOptions(), scannerOptions: ScannerOptions = ScannerOptions(),
                region: RegionOfInterest = .full, effort: Effort = .normal) {
        self.decodeOptions = decodeOptions
        self.region = region
        self.decoder = MultiPassDecoder(scanner: BarcodeScanner(options: scannerOptions), effort: effort)
    }

    /// Decodes the file at `path` (upright, EXIF orientation applied), scans ``region`` of it
    /// and judges every code. Never throws: a bad file comes back with ``FileScanResult/error``.
    public func scanFile(path: String) -> FileScanResult { scanFile(path: RawPath(path)) }

    /// As ``scanFile(path:)-(String)`` for a path given as bytes (not necessarily UTF-8);
    /// the result's ``FileScanResult/path`` is `path.description`.
    public func scanFile(path: RawPath) -> FileScanResult {
        do {
            let decoded = try ImageLoader.load(path: path, options: decodeOptions)
            return FileScanResult(path: path.description, report: decoder.decode(decoded.image, region: region),
                                  error: nil, imageSize: (decoded.image.width, decoded.image.height))
        } catch {
            return FileScanResult(path: path.description, report: nil, error: error, imageSize: nil)
        }
    }
}
