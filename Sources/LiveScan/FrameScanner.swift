import Capture
import Imaging
import Scanning

/// Scans the region of interest of frames: the same decoding and ISBN layer as `scan`
/// (``MultiPassDecoder`` over ``BarcodeScanner``, judged by ``ScanReport``).
///
/// Owns one zbar scanner, kept across frames: not thread-safe, one per capture loop.
public final class FrameScanner {
    public let region: RegionOfInterest
    public let decoder: MultiPassDecoder

    /// - Parameters:
    ///   - region: the part of the frame to scan (fractions, origin top-left).
    ///   - effort: ``Effort/fast`` (default) is one zbar pass per frame; the next frame is
    ///     the next chance, and ``FrameConfirmer`` guards against misreads.
    public init(region: RegionOfInterest, scannerOptions: ScannerOptions = ScannerOptions(), effort: Effort = .fast) {
        self.region = region
        self.decoder = MultiPassDecoder(scanner: BarcodeScanner(options: scannerOptions), effort: effort)
    }

    /// Scans `pixels` and judges every code. Polygons are in pixels of the whole frame.
    public func scan(_ pixels: RegionPixels) -> ScanReport {
        var report = decoder.decode(pixels.image)
        for index in report.codes.indices {
            report.codes[index].symbol.polygon = report.codes[index].symbol.polygon.map {
                Point(x: $0.x + pixels.rect.x, y: $0.y + pixels.rect.y)
            }
        }
        return report
    }
}
