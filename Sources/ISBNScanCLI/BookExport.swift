// SPDX-License-Identifier: Apache-2.0
import Records

/// `catalog export --format goodreads|libib|bibtex|ris|csl-json`: the books in the formats the
/// cataloguing and reference programs import. A book not looked up (or known to no provider)
/// is written with what is known: its ISBNs, and for Goodreads and Libib the date it was first
/// seen; nothing is invented.
///
/// Text from the providers in the CSV formats goes through ``CSV/text(_:)`` (a leading `=`,
/// `+`, `-`, `@`, tab or CR neutralised), as everywhere isbnscan writes CSV.
enum BookExport {
    static let formats = ["csv", "jsonl", "isbn-list", "goodreads", "libib", "bibtex", "ris", "csl-json"]

    /// What comes before the first book.
    static func header(_ format: String) -> String {
        switch format {
        case "goodreads": return CSV.row(goodreadsColumns)
        case "libib": return CSV.row(libibColumns)
        case "csl-json": return "["
        default: return ""
        }
    }

    /// What comes after the last book (`count` books written).
    static func footer(_ format: String, count: Int) -> String {
        format == "csl-json" ? (count == 0 ? "]\n" : "\n]\n") : ""
    }

    /// Goodreads' CSV (the columns of its own export that its import reads, in that order);
    /// the ISBNs as `="…"`, as Goodreads writes them, so that a spreadsheet keeps them as text.
    static let goodreadsColumns = ["Title", "Author", "Additional Authors", "ISBN", "ISBN13", "Publisher", "Number of Pages",
                                   "Year Published", "Date Added", "Bookshelves", "Exclusive Shelf"]

    /// Libib's CSV import fields (support.libib.com, "Import a CSV file").
    static let libibColumns = ["item_type", "title", "creators", "ean_isbn13", "upc_isbn10", "description", "publisher",
                               "publish_date", "tags", "length", "added", "copies"]

    /// One book in `format` (one of the formats above other than csv, jsonl, isbn-list); `index`
    /// counts from 0 (CSL-JSON puts a comma between items).
    static func entry(_ record: BookRecord, format: String, index: Int) -> String {
        switch format {
        case "goodreads": return goodreads(record)
        case "libib": return libib(record)
        case "bibtex": return bibtex(record)
        case "ris": return ris(record)
        default: return (index == 0 ? "\n" : ",\n") + cslJSON(record).encoded
        }
    }

    /// `Title: Subtitle`, or `nil`.
    static func fullTitle(_ m: BookMetadata?) -> String? {
        guard let title = m?.title else { return nil }
        return m?.subtitle.map { "\(title): \($0)" } ?? title
    }

    /// The day of an ISO 8601 time (`2026-11-30T14:03:07.215Z` → `2026-11-30`).
    static func day(_ time: String) -> String { String(time.prefix(10)) }

    /// A date the provider gave in full, ISO 8601's `YYYY-MM-DD` (`1988-03-01`: ASCII digits
    /// only, no sign), as its year, month and day; else `nil`.
    static func fullDate(_ published: String?) -> (Int, Int, Int)? {
        guard let published, published.utf8.count == 10 else { return nil }
        let parts = published.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.utf8.count) == [4, 2, 2], parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        return (y, m, d)
    }

    static func goodreads(_ record: BookRecord) -> String {
        let m = record.metadata, authors = m?.authors ?? []
        let text: (String?) -> String = { CSV.text($0 ?? "") }
        return CSV.row([text(fullTitle(m)), text(authors.first), text(authors.dropFirst().joined(separator: ", ")),
                        record.book.isbn10.map(CatalogCommand.spreadsheetText) ?? "", CatalogCommand.spreadsheetText(record.book.isbn13),
                        text(m?.publisher), m?.pages.map(String.init) ?? "", m?.year.map(String.init) ?? "",
                        day(record.book.firstSeen).replacingAll("-", with: "/"), "", ""])
    }

    static func libib(_ record: BookRecord) -> String {
        let m = record.metadata
        let text: (String?) -> String = { CSV.text($0 ?? "") }
        let date = CSV.text(fullDate(m?.published).map { _ in m!.published! } ?? m?.year.map(String.init) ?? "")
        return CSV.row(["book", text(fullTitle(m)), text(m?.authors?.joined(separator: ", ")), record.book.isbn13,
                        record.book.isbn10 ?? "", "", text(m?.publisher), date, text(m?.subjects?.joined(separator: ", ")),
                        m?.pages.map(String.init) ?? "", day(record.book.firstSeen), "1"])
    }

    /// `@book{isbn9780306406157, …}`, each field braced and its braces balanced whatever the
    /// provider sent (see ``bibtexEscaped(_:verbatim:)``); a corporate author (`National Institute
    /// of Standards and Technology (U.S.)`) braced whole (``bibtexName(_:)``).
    static func bibtex(_ record: BookRecord) -> String {
        let m = record.metadata
        var fields: [(String, String)] = []
        if let title = fullTitle(m) { fields.append(("title", bibtexEscaped(title, verbatim: false))) }
        if let authors = m?.authors, !authors.isEmpty {
            fields.append(("author", authors.map(bibtexName).joined(separator: " and ")))
        }
        if let publisher = m?.publisher { fields.append(("publisher", bibtexEscaped(publisher, verbatim: false))) }
        if let year = m?.year { fields.append(("year", String(year))) }
        if let pages = m?.pages { fields.append(("pagetotal", String(pages))) }
        fields.append(("isbn", bibtexEscaped(record.isbn.hyphenated ?? record.book.isbn13, verbatim: false)))
        if let language = m?.language { fields.append(("language", bibtexEscaped(language, verbatim: false))) }
        if let url = m?.url { fields.append(("url", bibtexEscaped(url, verbatim: true))) }
        let body = fields.map { "  \($0.0) = {\($0.1)}" }.joined(separator: ",\n")
        // The key from the ISBN's digits only: a catalogue written by another program may hold
        // anything there, and a key ends at the first comma or brace.
        let key = record.book.isbn13.filter { $0.isASCII && $0.isNumber }
        return "@book{isbn\(key),\n\(body)\n}\n\n"
    }

    /// One name of an `author` field: escaped, and braced whole when BibTeX's name parser
    /// would not read it as one person: it holds the word `and` (in any case, as BibTeX matches
    /// it), where the list would be split, or more than two commas (`Last, Jr, First` at most).
    static func bibtexName(_ name: String) -> String {
        let escaped = bibtexEscaped(name, verbatim: false)
        let hasAnd = name.split(whereSeparator: { $0.isWhitespace }).contains { $0.lowercased() == "and" }
        return hasAnd || name.filter({ $0 == "," }).count > 2 ? "{\(escaped)}" : escaped
    }

    /// `text` as the inside of a braced BibTeX field: `\ & % $ # _ ~ ^` escaped for LaTeX, and
    /// every `{` and `}` written `{\textbraceleft}` and `{\textbraceright}` (in a URL `%7B` and
    /// `%7D`, RFC 3986's encoding, and only `%` escaped besides). BibTeX counts every brace,
    /// escaped with a backslash or not, to find where a field ends, so the provider's braces
    /// never reach the file as braces: each field closes where it was opened, and an `@` in it
    /// is text (a line break becomes a space, so nothing the provider sent starts a line).
    static func bibtexEscaped(_ text: String, verbatim: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "{": out += verbatim ? "%7B" : "{\\textbraceleft}"
            case "}": out += verbatim ? "%7D" : "{\\textbraceright}"
            case "\\": out += verbatim ? "\\" : "\\textbackslash{}"
            case "%": out += "\\%"
            case "&", "$", "#", "_": out += verbatim ? String(scalar) : "\\" + String(scalar)
            case "~": out += verbatim ? "~" : "\\textasciitilde{}"
            case "^": out += verbatim ? "^" : "\\textasciicircum{}"
            default:
                if isLineBreakOrControl(scalar) { out += " " } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// C0 controls (tab, CR and LF included), DEL, C1 controls (NEL among them) and Unicode's
    /// line and paragraph separators: what a line-based reader (RIS; Python's `splitlines`, which
    /// also breaks at VT, FF and U+001C–U+001E) may take for the end of a line, or a terminal
    /// for a command. The exports write a space instead.
    static func isLineBreakOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// RIS (`TY  - BOOK` … `ER  - `), one tag a line, lines ending in CRLF; in the provider's
    /// text every control character and line separator (``isLineBreakOrControl(_:)``) is a space,
    /// so that each value stays on its tag's line.
    static func ris(_ record: BookRecord) -> String {
        let m = record.metadata
        var lines = [("TY", "BOOK")]
        if let title = fullTitle(m) { lines.append(("TI", title)) }
        for author in m?.authors ?? [] { lines.append(("AU", author)) }
        if let publisher = m?.publisher { lines.append(("PB", publisher)) }
        if let year = m?.year { lines.append(("PY", String(year))) }
        if let (y, mo, d) = fullDate(m?.published) {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
            lines.append(("DA", "\(y)/\(two(mo))/\(two(d))/"))
        }
        lines.append(("SN", record.book.isbn13))
        if let language = m?.language { lines.append(("LA", language)) }
        for subject in m?.subjects ?? [] { lines.append(("KW", subject)) }
        if let url = m?.url { lines.append(("UR", url)) }
        let flat: (String) -> String = { value in
            var out = String.UnicodeScalarView()
            for scalar in value.unicodeScalars { out.append(isLineBreakOrControl(scalar) ? " " : scalar) }
            return String(out)
        }
        return lines.map { "\($0.0)  - \(flat($0.1))\r\n" }.joined() + "ER  - \r\n"
    }

    /// One CSL-JSON item: `{"id", "type": "book", "title", "author": [{"literal"}], "publisher",
    /// "issued": {"date-parts"}, "number-of-pages", "language", "ISBN", "URL"}`, members only where known.
    static func cslJSON(_ record: BookRecord) -> JSONValue {
        let m = record.metadata
        var members: [JSONValue.Member] = [.init("id", .string("isbn\(record.book.isbn13)")), .init("type", .string("book"))]
        if let title = fullTitle(m) { members.append(.init("title", .string(title))) }
        if let authors = m?.authors, !authors.isEmpty {
            members.append(.init("author", .array(authors.map { .object(["literal": .string($0)]) })))
        }
        if let publisher = m?.publisher { members.append(.init("publisher", .string(publisher))) }
        if let (y, mo, d) = fullDate(m?.published) {
            members.append(.init("issued", .object(["date-parts": .array([.array([.int(y), .int(mo), .int(d)])])])))
        } else if let year = m?.year {
            members.append(.init("issued", .object(["date-parts": .array([.array([.int(year)])])])))
        }
        if let pages = m?.pages { members.append(.init("number-of-pages", .string(String(pages)))) }
        if let language = m?.language { members.append(.init("language", .string(language))) }
        members.append(.init("ISBN", .string(record.book.isbn13)))
        if let url = m?.url { members.append(.init("URL", .string(url))) }
        return .object(members)
    }
}
