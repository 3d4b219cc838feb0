import Scanning

/// What `scan` reports for one file:
/// `{"file", "width", "height", "symbols", "isbns", "rejected", "error"}`, and where they apply
/// `"pages"`, `"warning"` and `"candidates"`.
///
/// For a file that cannot be read, `error` holds the cause, the size is `nil` and the lists
/// are empty.
public struct FileRecord: Sendable, Equatable, JSONRecord {
    /// The path as given (non-UTF-8 bytes shown as `\xNN`).
    public var file: String
    /// Upright image size in pixels, when decoded.
    public var width: Int?
    public var height: Int?
    /// Every EAN symbol read, in reading order (top to bottom, then left to right).
    public var symbols: [SymbolRecord]
    /// The accepted ISBNs, each once, in reading order.
    public var isbns: [ISBNRecord]
    /// The refused codes.
    public var rejected: [RefusalRecord]
    /// Why the file could not be read, or `nil`.
    public var error: String?
    /// A file read only in part (`truncated: decoded 2400 of 3000 rows`), else `nil` (then not
    /// in the JSON).
    public var warning: String?
    /// The number of pages of a multi-page file (TIFF) when over 1, else `nil` (not in the JSON).
    public var pages: Int?
    /// Barcode-like regions where no code was read (not in the JSON when there are none).
    public var candidates: [CandidateRecord] = []

    public init(file: String, width: Int?, height: Int?, symbols: [SymbolRecord], isbns: [ISBNRecord],
                rejected: [RefusalRecord], error: String?) {
        self.file = file
        self.width = width
        self.height = height
        self.symbols = symbols
        self.isbns = isbns
        self.rejected = rejected
        self.error = error
    }

    /// The record of one scanned file (judged by the scan's ``DecodingPolicy``); `options` say how
    /// to hyphenate.
    public init(_ result: FileScanResult, options: RecordOptions = RecordOptions()) {
        guard let report = result.report else {
            self.init(file: result.path, width: nil, height: nil, symbols: [], isbns: [], rejected: [],
                      error: result.error?.cause)
            return
        }
        func page(_ code: ReadCode) -> Int? {
            report.codes.firstIndex(of: code).flatMap { result.codePages.indices.contains($0) ? result.codePages[$0] : nil }
        }
        self.init(file: result.path, width: result.imageSize?.width, height: result.imageSize?.height,
                  symbols: report.codes.map { code in
                      var symbol = SymbolRecord(code, options: options)
                      symbol.page = page(code)
                      symbol.isbn?.page = symbol.page
                      return symbol
                  },
                  isbns: report.accepted.compactMap { code in
                      var isbn = SymbolRecord(code, options: options).isbn
                      isbn?.page = page(code)
                      return isbn
                  },
                  rejected: report.rejected.map { RefusalRecord($0, $0.verdict.rejection!) }, error: nil)
        warning = result.warning
        pages = result.pageCount > 1 ? result.pageCount : nil
        pairJapaneseBookCodes()
        candidates = report.candidates.map(CandidateRecord.init)
    }

    /// Whether the file was read (it may still hold no barcode).
    public var wasRead: Bool { error == nil }

    public var json: JSONValue {
        .object(["file": .string(file), "width": .optional(width), "height": .optional(height),
                 "symbols": .array(symbols.map(\.json)), "isbns": .array(isbns.map(\.json)),
                 "rejected": .array(rejected.map(\.json)), "error": .optional(error)])
            .adding("pages", pages.map(JSONValue.int)).adding("warning", warning.map(JSONValue.string))
            .adding("candidates", candidates.isEmpty ? nil : .array(candidates.map(\.json)))
    }
}
