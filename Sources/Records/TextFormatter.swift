// SPDX-License-Identifier: Apache-2.0
import Scanning
/// The plain-text output of every command, one line per result.
///
/// Reasons are printed by name as the records carry them, so a new ``RejectionReason`` case
/// needs no change here.
public struct TextFormatter: Sendable {
    public struct Options: Sendable {
        /// Prefix each line of a file's results with `<file>: ` (several files or a folder given).
        public var showNames = false
        /// One line per EAN symbol read with its verdict (`--all`), not accepted ISBNs only.
        public var all = false
        /// Print the add-on after the ISBN (`--addons`).
        public var addOns = false
        public init(showNames: Bool = false, all: Bool = false, addOns: Bool = false) {
            self.showNames = showNames
            self.all = all
            self.addOns = addOns
        }
    }

    public var options: Options
    public init(options: Options) { self.options = options }

    /// One file's lines: `<isbn13>[ <add-on>]` per accepted code, or with `--all` ``describe(_:)``
    /// per symbol; nothing for a file that could not be read. Without `--all`, an ISBN read from
    /// its printed line (`ISBN text`) on a page where a barcode of the same ISBN was read is not
    /// listed again: the line printed beside a barcode is evidence about that barcode, not a
    /// second book (`--all`, `--json` and `--csv` keep both readings).
    public func format(_ record: FileRecord) -> String {
        guard record.wasRead else { return "" }
        let prefix = options.showNames ? "\(escaped(record.file, json: false)): " : ""
        struct Place: Hashable { let isbn13: String, page: Int? }
        let barcodes = Set(record.symbols.compactMap { symbol in
            symbol.type == Symbology.isbnText.rawValue ? nil : symbol.isbn.map { Place(isbn13: $0.isbn13, page: symbol.page) }
        })
        var out = ""
        for symbol in record.symbols {
            let page = symbol.page.map { " (page \($0))" } ?? ""
            if options.all {
                out += prefix + Self.describe(symbol) + page + "\n"
            } else if let isbn = symbol.isbn {
                if symbol.type == Symbology.isbnText.rawValue, barcodes.contains(Place(isbn13: isbn.isbn13, page: symbol.page)) {
                    continue
                }
                out += prefix + isbnLine(isbn) + page + "\n"
            }
        }
        return out
    }

    /// The lines of the ISBNs a camera frame confirmed: ``isbnLine(_:)``, then for a Japanese
    /// book whose second row was read ` C-code 3055 専門/単行本/電子通信 (Specialist/…), 3200 yen before tax`.
    public func format(_ event: FrameEventRecord) -> String {
        event.isbns.map { isbn in isbnLine(isbn) + (isbn.jpBookCode.map { " \($0)" } ?? "") + "\n" }.joined()
    }

    /// `<isbn13> <count> <first file>`.
    public func format(_ record: UniqueRecord) -> String {
        "\(record.isbn13) \(record.count) \(escaped(record.file, json: false))\n"
    }

    /// `<input>: valid ISBN-13 … (ISBN-10 …), <hyphenated> (<group> <agency>)`, or
    /// `<input>: invalid|refused, <reason>: <detail>` (refused for a well-formed code outside the
    /// accepted prefixes, reasons `prefix` and `ismn`).
    public func format(_ record: ValidationRecord) -> String {
        if let isbn = record.isbn {
            return "\(escaped(record.input, json: false)): valid ISBN-13 \(isbn.isbn13) "
                + (isbn.isbn10.map { "(ISBN-10 \($0))" } ?? "(979: no ISBN-10)")
                + (isbn.hyphenationText.map { ", \($0)" } ?? "") + "\n"
        }
        let reason = record.reason ?? ""
        // A well-formed code outside the accepted prefixes (979, an ISMN) is refused by policy, not invalid.
        let line = "\(record.input): \(reason == "prefix" || reason == "ismn" ? "refused" : "invalid"), \(reason): \(record.detail ?? "")"
        return escaped(line, json: false) + "\n"
    }

    /// A device line and one line per format; nothing for a device that could not be opened.
    public func format(_ record: DeviceRecord) -> String {
        guard record.error == nil else { return "" }
        var line = "\(escaped(record.device, json: false)): '\(escaped(record.card ?? "", json: false))' (driver \(escaped(record.driver ?? "", json: false)), bus \(escaped(record.bus ?? "", json: false)))"
        if record.capture {
            line += ", capture"
            if record.streaming { line += ", streaming" }
            if record.read { line += ", read()" }
        } else {
            line += ", not a capture device"
        }
        var out = line + "\n"
        for f in record.formats {
            let pad = String(repeating: " ", count: max(1, 6 - f.fourcc.count))
            let sizes = f.sizes.joined(separator: " ")
            out += "  \(f.fourcc)\(pad)\(escaped(f.description, json: false))\(f.compressed ? " (compressed)" : ""): \(sizes.isEmpty ? "no sizes listed" : sizes)\n"
        }
        return out
    }

    /// `<isbn13>`, with ` <add-on>` when add-ons are shown and one was read.
    public func isbnLine(_ isbn: ISBNRecord) -> String {
        let addOn = options.addOns ? isbn.addOn.map { " \($0)" } ?? "" : ""
        return isbn.isbn13 + addOn
    }

    /// `EAN-13 <digits> accepted ISBN-10 <isbn10> <hyphenated> (<group> <agency>)` (a printed
    /// ISBN: `ISBN text <isbn13> accepted …`, then ` qualifier <qualifier>` when printed) or
    /// `… rejected <reason>: <detail>`, then ` add-on <digits> (<price>)` when one was read, and
    /// for an accepted code ` printed digits <digits>` when the digits under the barcode were read
    /// at its place.
    public static func describe(_ symbol: SymbolRecord) -> String {
        var line = "\(symbol.type) \(symbol.data)"
        if let isbn = symbol.isbn {
            line += " accepted" + (isbn.isbn10.map { " ISBN-10 \($0)" } ?? "")
            if let hyphenation = isbn.hyphenationText { line += " " + hyphenation }
            if let qualifier = symbol.qualifier { line += " qualifier \(qualifier)" }
        } else if let paired = symbol.pairedISBN, let code = symbol.jpBookCode {
            line += " Japanese book code of \(paired): \(code)"
        } else if let refusal = symbol.refusal {
            line += " rejected \(refusal.explanation)"
        }
        if let addOn = symbol.addOn {
            line += " add-on \(addOn)"
            if let price = symbol.isbn?.price { line += " (\(price))" }
        }
        // A refusal's detail names the printed digits already.
        if let printed = symbol.printedDigits, symbol.isbn != nil { line += " printed digits \(printed)" }
        return line
    }
}
