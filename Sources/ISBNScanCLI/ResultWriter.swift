import ISBN
import Scanning

/// Writes a scan's results, file by file, as text, JSON Lines or CSV (or, with `--unique`,
/// one entry per ISBN at the end); reports errors, refused codes and empty files on stderr.
final class ResultWriter {
    let settings: ScanCommand.Settings
    /// Prefix text lines with the file name (several files or a folder given).
    let showNames: Bool
    private let out: TextSink
    private let diagnostics: TextSink
    /// `--unique`: ISBNs in order of first sight, with their count and first file.
    private var unique: [(isbn: ISBN, file: String, count: Int)] = []
    private var uniqueIndex: [String: Int] = [:]

    init(settings: ScanCommand.Settings, showNames: Bool, out: TextSink, diagnostics: TextSink) {
        self.settings = settings
        self.showNames = showNames
        self.out = out
        self.diagnostics = diagnostics
    }

    /// The CSV header, when writing CSV.
    func begin() {
        guard settings.format == .csv else { return }
        out.write(settings.unique ? CSV.row(["isbn13", "isbn10", "count", "file"])
                                  : CSV.row(["file", "isbn13", "isbn10", "type", "data", "addon", "status", "error"]))
    }

    /// One file's result: its records on the output, its diagnostics on stderr.
    func write(_ result: FileScanResult) {
        writeDiagnostics(result)
        if settings.unique {
            for code in result.report?.accepted ?? [] {
                let isbn = code.verdict.isbn!
                if let index = uniqueIndex[isbn.isbn13] {
                    unique[index].count += 1
                } else {
                    uniqueIndex[isbn.isbn13] = unique.count
                    unique.append((isbn, result.path, 1))
                }
            }
            return
        }
        switch settings.format {
        case .json: out.write(Self.json(result) + "\n")
        case .csv: out.write(Self.csv(result))
        case .text: writeText(result)
        }
    }

    /// The `--unique` list, if asked for.
    func finish() {
        guard settings.unique else { return }
        for entry in unique {
            switch settings.format {
            case .text: out.write("\(entry.isbn.isbn13) \(entry.count) \(escaped(entry.file, json: false))\n")
            case .json:
                out.write(JSON.object(["isbn13": JSON.string(entry.isbn.isbn13), "isbn10": JSON.string(entry.isbn.isbn10),
                                       "count": String(entry.count), "file": JSON.string(entry.file)]) + "\n")
            case .csv: out.write(CSV.row([entry.isbn.isbn13, entry.isbn.isbn10, String(entry.count), entry.file]))
            }
        }
    }

    private func writeText(_ result: FileScanResult) {
        guard let report = result.report else { return }
        let prefix = showNames ? "\(escaped(result.path, json: false)): " : ""
        if settings.all {
            for (index, code) in report.codes.enumerated() {
                out.write(prefix + Self.describe(code) + Self.pageNote(result, index) + "\n")
            }
        } else {
            for (index, code) in report.codes.enumerated() {
                guard let isbn = code.verdict.isbn else { continue }
                let addOn = settings.addOns ? code.symbol.addOn.map { " \($0)" } ?? "" : ""
                out.write("\(prefix)\(isbn.isbn13)\(addOn)\(Self.pageNote(result, index))\n")
            }
        }
    }

    private func writeDiagnostics(_ result: FileScanResult) {
        let path = escaped(result.path, json: false)
        if let error = result.error { diagnostics.write("Error: \(path): \(error.cause)\n") }
        guard !settings.quiet, let report = result.report else { return }
        if let warning = result.warning { diagnostics.write("Warning: \(path): \(escaped(warning, json: false))\n") }
        if !settings.all || settings.format != .text {
            for code in report.rejected {
                diagnostics.write("Warning: \(path): \(code.symbol.symbology.rawValue) \(code.symbol.data) refused, \(code.verdict.rejection!)\n")
            }
        }
        if report.codes.isEmpty {
            let place = settings.region.isFull ? "" : " in the region of interest"
            diagnostics.write("Warning: \(path): no barcode found\(place)\n")
        }
    }

    /// ` (page 2)` after a code read on a page of a multi-page file; else nothing.
    static func pageNote(_ result: FileScanResult, _ index: Int) -> String {
        result.codePages.indices.contains(index) ? " (page \(result.codePages[index]))" : ""
    }

    static func describe(_ code: ReadCode) -> String {
        let symbol = code.symbol
        var line = "\(symbol.symbology.rawValue) \(symbol.data)"
        switch code.verdict {
        case .accepted(let isbn): line += " accepted ISBN-10 \(isbn.isbn10)"
        case .rejected(let rejection): line += " rejected \(rejection)"
        }
        if let addOn = symbol.addOn { line += " add-on \(addOn)" }
        return line
    }

    /// The CSV rows of one file: one per code, or one saying `no-barcode` / `error`.
    static func csv(_ result: FileScanResult) -> String {
        guard let report = result.report else {
            return CSV.row([result.path, "", "", "", "", "", "error", result.error?.cause ?? ""])
        }
        guard !report.codes.isEmpty else { return CSV.row([result.path, "", "", "", "", "", "no-barcode", ""]) }
        return report.codes.map { code in
            let symbol = code.symbol
            switch code.verdict {
            case .accepted(let isbn):
                return CSV.row([result.path, isbn.isbn13, isbn.isbn10, symbol.symbology.rawValue, symbol.data,
                                symbol.addOn ?? "", "accepted", ""])
            case .rejected(let rejection):
                return CSV.row([result.path, "", "", symbol.symbology.rawValue, symbol.data, symbol.addOn ?? "",
                                "rejected", rejection.description])
            }
        }.joined()
    }

    static func json(_ result: FileScanResult) -> String {
        guard let report = result.report else {
            return JSON.object(["file": JSON.string(result.path), "width": "null", "height": "null", "symbols": "[]",
                                "isbns": "[]", "rejected": "[]", "error": JSON.optional(result.error?.cause)])
        }
        var line = JSON.object(["file": JSON.string(result.path),
                                "width": result.imageSize.map { String($0.width) } ?? "null",
                                "height": result.imageSize.map { String($0.height) } ?? "null",
                                "symbols": symbolsJSON(report, pages: result.codePages),
                                "isbns": isbnsJSON(report.accepted, pages: result.codePages.isEmpty ? [] : report.accepted.map { code in
                                    result.codePages[report.codes.firstIndex(of: code)!] }),
                                "rejected": rejectedJSON(report), "error": "null"])
        // Extra keys only where they apply, so existing readers see the same objects.
        if result.pageCount > 1 { line.insert(contentsOf: ", \"pages\": \(result.pageCount)", at: line.index(before: line.endIndex)) }
        if let warning = result.warning {
            line.insert(contentsOf: ", \"warning\": " + JSON.string(warning), at: line.index(before: line.endIndex))
        }
        return line
    }

    /// The `symbols` array: every EAN symbol with position, pass and verdict.
    /// `pages`: the page (from 1) of each code of a multi-page file, added as `"page"`; or empty.
    static func symbolsJSON(_ report: ScanReport, pages: [Int] = []) -> String {
        JSON.array(report.codes.enumerated().map { index, code -> String in
            let s = code.symbol
            let polygon = JSON.array(s.polygon.map { "[\($0.x), \($0.y)]" })
            let page = pages.indices.contains(index) ? ", \"page\": \(pages[index])" : ""
            return JSON.object(["type": JSON.string(s.symbology.rawValue), "data": JSON.string(s.data),
                                "addon": JSON.optional(s.addOn), "quality": String(s.quality),
                                "orientation": s.orientation.map(String.init) ?? "null", "polygon": polygon,
                                "pass": JSON.string(s.pass),
                                "verdict": JSON.string(code.verdict.isbn == nil ? "rejected" : "accepted"),
                                "reason": JSON.optional(code.verdict.rejection?.reason.rawValue)]).dropLast() + page + "}"
        })
    }

    /// The `isbns` array for accepted codes.
    static func isbnsJSON(_ accepted: [ReadCode], pages: [Int] = []) -> String {
        JSON.array(accepted.enumerated().compactMap { index, code -> String? in
            guard let isbn = code.verdict.isbn else { return nil }
            let page = pages.indices.contains(index) ? ", \"page\": \(pages[index])" : ""
            return JSON.object(["isbn13": JSON.string(isbn.isbn13), "isbn10": JSON.string(isbn.isbn10),
                                "addon": JSON.optional(code.symbol.addOn)]).dropLast() + page + "}"
        })
    }

    /// The `rejected` array: refused codes with reason and detail.
    static func rejectedJSON(_ report: ScanReport) -> String {
        JSON.array(report.rejected.map { code in
            JSON.object(["type": JSON.string(code.symbol.symbology.rawValue), "data": JSON.string(code.symbol.data),
                         "reason": JSON.string(code.verdict.rejection!.reason.rawValue),
                         "detail": JSON.string(code.verdict.rejection!.detail)])
        })
    }
}

/// CSV as RFC 4180 defines it: fields with a comma, quote, CR or LF are quoted, quotes
/// doubled; records end in CRLF.
enum CSV {
    static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return value }
        var quoted = "\""
        for character in value {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}
