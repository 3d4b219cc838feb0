// SPDX-License-Identifier: Apache-2.0
@testable import Catalog
import Foundation
import Records
@testable import ISBNScanCLI
import Testing
import TestSupport

/// `catalog export` of books whose provider answers are hostile (braces that close a BibTeX
/// field early, `@` entries inside titles, line separators, control characters, formulas),
/// each format read back by the parser of the programs it is meant for: pybtex (BibTeX's brace
/// rules), rispy (on the lines `str.splitlines()` finds) and Python's csv. Every book comes out
/// as one record, with its text.
@Suite(.enabled(if: ExportReader.available, "needs pybtex and rispy in .build/test-venv: run make test-deps"))
struct HostileExportTests {
    static let titles = [
        #"x} @misc(evil, title = "Injected")"#, "Unbalanced {", "}}} @book{three,", "{{{ open", "ends in a backslash \\",
        "\\} escaped close", "@misc{inner, title = {x}}", "100% & $5 #1 _a ~b ^c", "line\nbreak @misc{n,", "carriage\r@misc{r,",
        "sep\u{2028}@misc{ls,", "para\u{2029}x", "nel\u{85}@misc{nel,", "vt\u{0B}ff\u{0C}end", "nul\u{0}esc\u{1B}[31m red",
        "tab\there", "} , author = {Mallory}", "{\\textbraceright}", "\\textbraceleft{} literal", "%} comment",
        "quote \" and }", "}\n@misc{evil2, title={I}}\n", "unicode ✓ 書名 }", "{}{}{}", "=HYPERLINK(\"http://x\")",
    ]
    static let corporate = "National Institute of Standards and Technology (U.S.)"

    /// ISBN-13 number `n` of 978-0-00-…, with its check digit.
    static func isbn(_ n: Int) -> String {
        let twelve = "978000" + String(format: "%06d", n)
        let sum = twelve.enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 0 ? 1 : 3) }
        return twelve + String((10 - sum % 10) % 10)
    }

    /// A catalogue of 25 books seen by a camera, each looked up with one of ``titles``; every
    /// third book by the corporate author and a person, the others by `A} and {B`; URLs with braces.
    static func catalogue() throws -> (shelf: Shelf, db: String) {
        let shelf = try Shelf([:])
        let db = shelf.path + "/books.db"
        let catalog = try Catalog(path: db)
        for (n, title) in titles.enumerated() {
            try catalog.record(FrameEventRecord(device: "/dev/video0", frame: n + 1, width: 10, height: 10, symbols: [],
                                                isbns: [ISBNRecord(isbn13: isbn(n), isbn10: nil, addOn: nil)], rejected: []),
                               at: "2026-12-01T10:00:\(n < 10 ? "0" : "")\(n).000Z")
            let authors = n % 3 == 0 ? [corporate, "Ann Author"] : ["A} and {B"]
            let published = n == 0 ? "+123-+1-+1" : n == 1 ? "=1+1-01-01" : "1988-03-01"
            let book = BookMetadata(source: "google", title: title, authors: authors, publisher: "-Press}", published: published,
                                    url: "https://example.org/}?x={\(n)}&y=%20\\")
            try catalog.store([LookupRecord(isbn13: isbn(n), outcome: .found(book))], at: "2026-12-01T11:00:00.000Z")
        }
        return (shelf, db)
    }

    /// `text` as it must come out of a line-based export: every control character and line
    /// separator a space.
    static func flat(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { BookExport.isLineBreakOrControl($0) ? " " : $0 }))
    }

    /// ``flat(_:)`` with runs of spaces made one and the ends trimmed, as BibTeX reads a field.
    static func squeezed(_ text: String) -> String {
        flat(text).split(separator: " ").joined(separator: " ")
    }

    static func export(_ db: String, _ format: String, to file: String) throws {
        let run = try isbnscan(["catalog", "export", "--db", db, "--format", format, "-o", file])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func bibtexKeepsEveryBookAndItsTitleForPybtex() throws {
        let (shelf, db) = try Self.catalogue()
        defer { shelf.remove() }
        let file = shelf.path + "/books.bib"
        try Self.export(db, "bibtex", to: file)
        let entries = try #require(try ExportReader.read("bibtex", file)["entries"] as? [[String: Any]])
        #expect(entries.count == 25)
        #expect(entries.map { $0["key"] as? String } == (0..<25).map { "isbn" + Self.isbn($0) })
        #expect(Set(entries.map { $0["type"] as? String }) == ["book"])
        for (n, entry) in entries.enumerated() where n < Self.titles.count {
            #expect(entry["title"] as? String == Self.squeezed(Self.titles[n]), "book \(n)")
            #expect(entry["url"] as? String == "https://example.org/%7D?x=%7B\(n)%7D&y=\\%20\\", "book \(n)")
            let authors = entry["authors"] as? [String]
            #expect(authors == (n % 3 == 0 ? ["{\(Self.corporate)}", "Author, Ann"] : ["{A{\\textbraceright} and {\\textbraceleft}B}"]),
                    "book \(n)")
        }
    }

    /// A catalogue written by another program with a sighting whose code closes the entry's
    /// key and opens another: the key keeps the digits only, the isbn field is escaped.
    @Test func bibtexKeyAndISBNOfAHandEditedCatalogueStayInTheirEntry() throws {
        let (shelf, db) = try Self.catalogue()
        defer { shelf.remove() }
        try Statement(Connection(path: db), """
            INSERT INTO sightings (isbn13, device, frame, source, polygon, seen_at)
            VALUES ('97800,}@misc{evil, title={x}}', '/dev/video0', 99, '/dev/video0', '[]', '2026-12-02T10:00:00.000Z')
            """).run()
        let file = shelf.path + "/books.bib"
        try Self.export(db, "bibtex", to: file)
        let entries = try #require(try ExportReader.read("bibtex", file)["entries"] as? [[String: Any]])
        #expect(entries.count == 26)
        #expect(entries.last?["key"] as? String == "isbn97800")
        #expect(entries.map { $0["type"] as? String }.allSatisfy { $0 == "book" })
    }

    @Test func risKeepsEveryBookOnItsLinesForRispy() throws {
        let (shelf, db) = try Self.catalogue()
        defer { shelf.remove() }
        let file = shelf.path + "/books.ris"
        try Self.export(db, "ris", to: file)
        let entries = try #require(try ExportReader.read("ris", file)["entries"] as? [[String: Any]])
        #expect(entries.count == 25)
        for (n, entry) in entries.enumerated() where n < Self.titles.count {
            #expect(entry["isbn"] as? String == Self.isbn(n), "book \(n)")
            #expect(entry["title"] as? String == Self.flat(Self.titles[n]).trimmingCharacters(in: .whitespaces), "book \(n)")
            #expect(entry["authors"] as? [String] == (n % 3 == 0 ? [Self.corporate, "Ann Author"] : ["A} and {B"]), "book \(n)")
            #expect(entry["url"] as? String == "https://example.org/}?x={\(n)}&y=%20\\", "book \(n)")
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let controls = text.unicodeScalars.filter { BookExport.isLineBreakOrControl($0) && $0 != "\r" && $0 != "\n" }
        #expect(controls.isEmpty, "\(controls.map { String($0.value, radix: 16) })")
    }

    /// The three CSVs: one row per book with as many fields as the header, the title as given
    /// (a formula neutralised), and no field a spreadsheet takes for a formula but Goodreads'
    /// `="…"` ISBNs; Libib's `publish_date` only a date.
    @Test(arguments: [("csv", "title"), ("goodreads", "Title"), ("libib", "title")])
    func csvKeepsEveryBookInItsRowForPythonsCSV(format: String, titleColumn: String) throws {
        let (shelf, db) = try Self.catalogue()
        defer { shelf.remove() }
        let file = shelf.path + "/books.csv"
        try Self.export(db, format, to: file)
        let rows = try #require(try ExportReader.read("csv", file)["rows"] as? [[String]])
        #expect(rows.count == 26)
        let header = try #require(rows.first)
        let title = try #require(header.firstIndex(of: titleColumn))
        for (n, row) in rows.dropFirst().enumerated() {
            #expect(row.count == header.count, "book \(n)")
            guard row.count == header.count else { continue }
            let given = Self.titles[n]
            #expect(row[title] == ("=+-@".contains(given.first!) ? "'" + given : given), "book \(n)")
            for field in row {
                let isbnCell = field.hasPrefix("=\"") && field.dropFirst(2).dropLast().allSatisfy(\.isNumber) && field.hasSuffix("\"")
                #expect(isbnCell || !"=+-@\t\r".contains(field.first ?? " "), "book \(n): \(field.debugDescription)")
            }
        }
        if format == "libib", let date = header.firstIndex(of: "publish_date") {
            #expect(rows.dropFirst().map { $0[date] } == ["", ""] + Array(repeating: "1988-03-01", count: 23))
        }
    }
}
