// SPDX-License-Identifier: Apache-2.0
/// The `--csv` output (RFC 4180, CRLF line ends).
///
/// Per file: one row per code read (`status` `accepted` or `rejected` with `reason: detail` in
/// `error`), or one row `no-barcode`, or one row `error` with the cause. The last two columns,
/// like the JSON's `"page"` and `"warning"`: `page`, the page (from 1) of a multi-page file
/// (TIFF) the code was read on, empty for a single image; `warning`, on every row of a file read
/// only in part (`truncated: decoded 2400 of 3000 rows`), else empty; then `c_code`, the C-code
/// (分類コード, 4 digits) of a Japanese book code, on its row and on its ISBN's.
public struct CSVFormatter: Sendable {
    public struct Options: Sendable {
        /// `--unique`: the columns are `isbn13,isbn10,count,file`.
        public var unique = false
        public init(unique: Bool = false) { self.unique = unique }
    }

    public var options: Options
    public init(options: Options) { self.options = options }

    /// The header row.
    public var header: String {
        options.unique ? CSV.row(["isbn13", "isbn10", "count", "file"])
                       : CSV.row(["file", "isbn13", "isbn10", "type", "data", "addon", "status", "error", "hyphenated", "group",
                                  "agency", "price", "page", "warning", "c_code"])
    }

    /// One file's rows.
    public func format(_ record: FileRecord) -> String {
        let warning = record.warning ?? "", file = CSV.text(record.file)
        guard record.wasRead else {
            return CSV.row([file, "", "", "", "", "", "error", record.error ?? "", "", "", "", "", "", warning, ""])
        }
        guard !record.symbols.isEmpty else {
            return CSV.row([file, "", "", "", "", "", "no-barcode", "", "", "", "", "", "", warning, ""])
        }
        return record.symbols.map { symbol in
            let page = symbol.page.map(String.init) ?? ""
            if let isbn = symbol.isbn {
                return CSV.row([file, isbn.isbn13, isbn.isbn10 ?? "", symbol.type, symbol.data, symbol.addOn ?? "",
                                "accepted", "", isbn.hyphenated ?? "", isbn.group?.prefix ?? "", isbn.group?.agency ?? "",
                                isbn.price?.description ?? "", page, warning, isbn.jpBookCode?.cCode ?? ""])
            }
            if let paired = symbol.pairedISBN, let code = symbol.jpBookCode {
                // The second row of a Japanese book: the ISBN it belongs to, its price in the price column.
                return CSV.row([file, paired, "", symbol.type, symbol.data, "", "jp-book-code", "", "", "", "",
                                code.csvPrice, page, warning, code.cCode])
            }
            return CSV.row([file, "", "", symbol.type, symbol.data, symbol.addOn ?? "", "rejected",
                            symbol.refusal?.explanation ?? "", "", "", "", symbol.jpBookCode?.csvPrice ?? "", page, warning,
                            symbol.jpBookCode?.cCode ?? ""])
        }.joined()
    }

    /// One `--unique` row.
    public func format(_ record: UniqueRecord) -> String {
        CSV.row([record.isbn13, record.isbn10 ?? "", String(record.count), CSV.text(record.file)])
    }
}
