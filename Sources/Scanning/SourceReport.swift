// SPDX-License-Identifier: Apache-2.0
import Imaging

/// What ``MultiPassDecoder/decode(_:page:region:)`` read from an image file: the report, and what
/// decoding the file told about it.
public struct SourceReport: Sendable {
    /// Codes read in the region, polygons in pixels of the full-size, upright image.
    public var report: ScanReport
    /// Upright size of the image (the page decoded) in the file, in pixels: the full size, also
    /// when the image was looked at at half size only.
    public var imageSize: (width: Int, height: Int)
    /// Pages in the file: TIFF directories (a multi-page scan); 1 for every other format.
    public var pageCount: Int
    /// Set when the file was damaged and only part of it decoded (``DecodedImage/warning``),
    /// e.g. `"truncated: decoded 2400 of 3000 rows"`.
    public var warning: String?

    public init(report: ScanReport, imageSize: (width: Int, height: Int), pageCount: Int = 1, warning: String? = nil) {
        self.report = report
        self.imageSize = imageSize
        self.pageCount = pageCount
        self.warning = warning
    }

    /// `report`, with what the decode of `decoded` told about the file.
    init(_ report: ScanReport, of decoded: DecodedImage) {
        self.init(report: report, imageSize: decoded.fullSize, pageCount: decoded.pageCount, warning: decoded.warning)
    }
}
