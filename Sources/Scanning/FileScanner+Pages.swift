// SPDX-License-Identifier: Apache-2.0
import Imaging

extension FileScanner {
    /// Pages of a multi-page file scanned at most; later pages are left out.
    public static let maxPages = 1000

    /// Scans every page of a multi-page file (a TIFF of several directories, as a scanner's
    /// document feeder writes), `first` being what page 1 gave. The result's report holds
    /// the codes of all pages in page order, ``FileScanResult/codePages`` the page of each, and
    /// ``FileScanResult/imageSize`` the size of page 1.
    ///
    /// - Throws: ``ImageError`` when a page cannot be decoded: the whole file is an error (its
    ///   cause names the page).
    func scanPages(_ source: ImageSource, first: SourceReport) throws(ImageError) -> FileScanResult {
        var report = first.report
        var pages = Array(repeating: 1, count: report.codes.count)
        let count = min(first.pageCount, Self.maxPages)
        for page in 1..<count {
            let codes = try withPrintedISBNs(decoder.decode(source, page: page, region: region).report, source: source, page: page).codes
            report.codes += codes
            pages += Array(repeating: page + 1, count: codes.count)
        }
        var result = FileScanResult(path: source.path.description, report: report, error: nil, imageSize: first.imageSize,
                                    warning: first.warning)
        result.pageCount = first.pageCount
        result.codePages = pages
        return result
    }
}
