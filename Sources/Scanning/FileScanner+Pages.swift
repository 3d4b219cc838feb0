// SPDX-License-Identifier: Apache-2.0
import Imaging

extension FileScanner {
    /// Scans every page of a multi-page file (a TIFF of several directories, as a scanner's
    /// document feeder writes), up to ``DecodeOptions/maxPages``, `first` being what page 1
    /// gave. The result's report holds the codes of all pages in page order,
    /// ``FileScanResult/codePages`` the page of each, and ``FileScanResult/imageSize`` the size
    /// of page 1; pages past the limit are left out and said in ``FileScanResult/warning``
    /// (`pages 10001-10500 left out: 500 of 10500 pages past --max-pages 10000`).
    ///
    /// - Throws: ``ImageError`` when a page cannot be decoded: the whole file is an error (its
    ///   cause names the page).
    func scanPages(_ source: ImageSource, first: SourceReport) throws(ImageError) -> FileScanResult {
        var report = first.report
        var pages = Array(repeating: 1, count: report.codes.count)
        let count = min(first.pageCount, max(1, decodeOptions.maxPages))
        for page in 1..<count {
            let codes = try withPrintedISBNs(decoder.decode(source, page: page, region: region).report, source: source, page: page).codes
            report.codes += codes
            pages += Array(repeating: page + 1, count: codes.count)
        }
        let leftOut = first.pageCount > count
            ? "pages \(count + 1)-\(first.pageCount) left out: \(first.pageCount - count) of \(first.pageCount) pages past --max-pages \(count)"
            : nil
        var result = FileScanResult(path: source.path.description, report: report, error: nil, imageSize: first.imageSize,
                                    warning: [first.warning, leftOut].compactMap { $0 }.joined(separator: "; ").nilIfEmpty)
        result.pageCount = first.pageCount
        result.codePages = pages
        return result
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
