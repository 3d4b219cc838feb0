// SPDX-License-Identifier: Apache-2.0
import ISBN
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

extension FileRecord {
    /// The record whose ``json`` is `json` (a line `scan --json` wrote, as catalogues before
    /// schema version 5 keep it), shown as `file`; hyphenation and groups are worked out again
    /// with `options`' range message. A candidate's strength is not in the JSON: every one comes
    /// back as not strong. `nil` when `json` is not a file record.
    ///
    /// An accepted symbol's ISBN is its digits, add-on, page and qualifier (as
    /// ``SymbolRecord/init(_:options:)`` builds it); the Japanese book code given to it is the one
    /// whose nearest accepted symbol it is (the pairing rule of ``FileRecord/init(_:options:)``).
    public init?(json: JSONValue, file: String, options: RecordOptions = RecordOptions()) {
        func string(_ value: JSONValue?) -> String? { if case .string(let s)? = value { return s } else { return nil } }
        func int(_ value: JSONValue?) -> Int? { if case .int(let n)? = value { return n } else { return nil } }
        func array(_ value: JSONValue?) -> [JSONValue] { if case .array(let items)? = value { return items } else { return [] } }
        func jpBookCode(_ value: JSONValue?) -> JapaneseBookCode? { string(value?["code"]).flatMap(JapaneseBookCode.init(ean:)) }
        guard string(json["file"]) != nil else { return nil }
        let rejected = array(json["rejected"]).compactMap { item -> RefusalRecord? in
            guard let type = string(item["type"]), let data = string(item["data"]), let reason = string(item["reason"]),
                  let detail = string(item["detail"]) else { return nil }
            return RefusalRecord(type: type, data: data, reason: reason, detail: detail, misreadOf: string(item["misread_of"]))
        }
        let isbns = array(json["isbns"]).compactMap { item -> ISBNRecord? in
            guard let isbn13 = string(item["isbn13"]) else { return nil }
            var record = ISBNRecord(isbn13: isbn13, isbn10: string(item["isbn10"]), addOn: string(item["addon"]))
            if let ranges = options.ranges { record.hyphenate(with: ranges) }
            record.qualifier = string(item["qualifier"])
            record.page = int(item["page"])
            record.jpBookCode = jpBookCode(item["jp_book_code"])
            return record
        }
        var symbols = array(json["symbols"]).compactMap { item -> SymbolRecord? in
            guard let type = string(item["type"]), let data = string(item["data"]), let quality = int(item["quality"]),
                  let pass = string(item["pass"]) else { return nil }
            let page = int(item["page"]), addOn = string(item["addon"]), verdict = string(item["verdict"])
            let code = jpBookCode(item["jp_book_code"])
            var isbnRecord: ISBNRecord?
            if verdict == "accepted" {
                let isbn10 = isbns.first { $0.isbn13 == data }?.isbn10 ?? ISBN.judge(ean: data, accepting: .with979).isbn?.isbn10
                isbnRecord = ISBNRecord(isbn13: data, isbn10: isbn10, addOn: addOn)
                if let ranges = options.ranges { isbnRecord?.hyphenate(with: ranges) }
                isbnRecord?.qualifier = string(item["qualifier"])
                isbnRecord?.page = page
            }
            var refusal: RefusalRecord?
            if verdict != "accepted" && verdict != "jp-book-code" {
                let reason = string(item["reason"]) ?? ""
                // A Japanese book code's refusal says what it is, whether or not the list kept it.
                refusal = rejected.first { $0.type == type && $0.data == data && $0.reason == reason }
                    ?? RefusalRecord(type: type, data: data, reason: reason, detail: reason == "jp-book-code" ? code?.refusalDetail ?? "" : "")
            }
            var symbol = SymbolRecord(type: type, data: data, addOn: addOn, quality: quality, orientation: int(item["orientation"]),
                                      polygon: item["polygon"]?.polygon ?? [], pass: pass, isbn: isbnRecord, refusal: refusal)
            symbol.page = page
            symbol.jpBookCode = code
            symbol.pairedISBN = verdict == "jp-book-code" ? string(item["isbn13"]) : nil
            symbol.printedLine = string(item["text"])
            symbol.qualifier = string(item["qualifier"])
            symbol.printedDigits = string(item["printed_digits"])
            return symbol
        }
        for index in symbols.indices where symbols[index].pairedISBN != nil {
            let code = symbols[index].jpBookCode
            if let partner = JapaneseBookCode.partner(of: index, in: symbols) { symbols[partner].isbn?.jpBookCode = code }
        }
        self.init(file: file, width: int(json["width"]), height: int(json["height"]), symbols: symbols, isbns: isbns,
                  rejected: rejected, error: string(json["error"]))
        warning = string(json["warning"])
        pages = int(json["pages"])
        candidates = array(json["candidates"]).compactMap { item in
            guard let angle = int(item["angle"]), case .bool(let inverted)? = item["inverted"] else { return nil }
            return CandidateRecord(polygon: item["polygon"]?.polygon ?? [], angle: angle, inverted: inverted, isStrong: false)
        }
    }
}
