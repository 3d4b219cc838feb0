import Imaging

extension FileScanner {
    /// Pages of a multi-page file scanned at most; later pages are left out.
    public static let maxPages = 1000

    /// Scans every page of a multi-page file (a TIFF of several directories, as a scanner's
    /// document feeder writes), `first` being page 1 already decoded. The result's report holds
    /// the codes of all pages in page order, ``FileScanResult/codePages`` the page of each, and
    /// ``FileScanResult/imageSize`` the size of page 1. A page that cannot be decoded makes the
    /// whole file an error (its cause names the page).
    func scanPages(path: RawPath, first: DecodedImage) -> FileScanResult {
        var report = decoder.decode(first.image, region: region)
        var pages = Array(repeating: 1, count: report.codes.count)
        let count = min(first.pageCount, Self.maxPages)
        for page in 1..<count {
            var options = decodeOptions
            options.page = page
            do {
                let decoded = try ImageLoader.load(path: path, options: options)
                let codes = decoder.decode(decoded.image, region: region).codes
                report.codes += codes
                pages += Array(repeating: page + 1, count: codes.count)
            } catch {
                return FileScanResult(path: path.description, report: nil, error: error, imageSize: nil)
            }
        }
        var result = FileScanResult(path: path.description, report: report, error: nil, imageSize: first.fullSize,
                                    warning: first.warning)
        result.pageCount = first.pageCount
        result.codePages = pages
        return result
    }
}
