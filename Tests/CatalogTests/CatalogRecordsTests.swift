// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISBN
import Scanning
import Testing
@testable import Catalog
@testable import Records

/// A file's record as rows (schema version 5): read back as the scan printed it, migrated from
/// the JSON line of version 4, the migration undone by a failure half-way, merged.
@Suite struct CatalogRecordsTests {
    static let options = RecordOptions(ranges: .bundled)

    /// A symbol judged as the scanner judges it (978 and 979 accepted), its ISBN hyphenated.
    static func symbol(_ data: String, type: String = "EAN-13", addOn: String? = nil, quality: Int, x: Int, y: Int, page: Int,
                       pass: String = "full") -> SymbolRecord {
        let verdict = ISBN.judge(ean: data, accepting: .with979)
        var symbol = SymbolRecord(type: type, data: data, addOn: addOn, quality: quality, orientation: 0,
                                  polygon: [.init(x: x, y: y), .init(x: x + 380, y: y), .init(x: x + 380, y: y + 192), .init(x: x, y: y + 192)],
                                  pass: pass, isbn: verdict.isbn.map { ISBNRecord($0, addOn: addOn, ranges: .bundled) },
                                  refusal: verdict.rejection.map {
                                      RefusalRecord(type: type, data: data, reason: $0.reason.rawValue,
                                                    detail: $0.detail + ($0.remedy.map { ": " + $0.words } ?? ""))
                                  })
        symbol.page = page
        symbol.isbn?.page = page
        return symbol
    }

    /// Page 1 is TestImages/jpbook/shelf.png as `scan --addons` reads it: a Japanese book's two
    /// rows, an ISBN with its add-on, a JAN product code refused. Page 2: a printed ISBN line with
    /// its qualifier, an ISBN whose printed digits were read, a misread of it; page 3: a second
    /// row alone. Paired as ``FileRecord/init(_:options:)`` pairs them.
    static func shelf(file: String = "shelf.tiff") -> FileRecord {
        var printed = symbol("9780306406157", type: "ISBN text", quality: 91, x: 40, y: 900, page: 2, pass: "text")
        printed.printedLine = "ISBN 0-306-40615-7 (pbk.)"
        printed.qualifier = "pbk."
        printed.isbn?.qualifier = "pbk."
        var witnessed = symbol("9780131103627", quality: 12, x: 600, y: 40, page: 2)
        witnessed.printedDigits = "9780131103627"
        var misread = symbol("9780131103628", quality: 3, x: 602, y: 41, page: 2)
        misread.refusal?.misreadOf = "9780131103627"
        let symbols = [symbol("9784048930659", quality: 49, x: 81, y: 45, page: 1),
                       symbol("9780553293357", addOn: "51299", quality: 35, x: 662, y: 45, page: 1),
                       symbol("1923055032002", quality: 57, x: 77, y: 333, page: 1),
                       symbol("4901234567894", quality: 55, x: 662, y: 417, page: 1),
                       printed, witnessed, misread,
                       symbol("1920095015002", quality: 40, x: 10, y: 10, page: 3)]
        var record = FileRecord(file: file, width: 1298, height: 684, symbols: symbols,
                                isbns: symbols.compactMap(\.isbn),
                                rejected: symbols.compactMap(\.refusal), error: nil)
        record.pages = 3
        record.warning = "truncated: decoded 600 of 684 rows"
        record.candidates = [CandidateRecord(polygon: [.init(x: 1100, y: 500), .init(x: 1290, y: 500), .init(x: 1290, y: 680),
                                                       .init(x: 1100, y: 680)], angle: -12, inverted: true, isStrong: true),
                             CandidateRecord(polygon: [], angle: 0, inverted: false, isStrong: false)]
        record.pairJapaneseBookCodes()
        return record
    }

    /// What each output prints for `record`: the JSON line, the CSV rows, the text lines with `--all --addons` and plain.
    static func outputs(_ record: FileRecord) -> [String] {
        [JSONLinesFormatter().format(record), CSVFormatter(options: .init()).format(record),
         TextFormatter(options: .init(all: true, addOns: true)).format(record), TextFormatter(options: .init()).format(record)]
    }

    /// A catalogue at version 4 as isbnscan wrote it (migrations 1-4), holding `records` by
    /// their JSON lines, with their sightings.
    static func version4(_ path: String, _ records: [FileRecord]) throws {
        _ = try Catalog(path: path, upTo: 4)
        let connection = try Connection(path: path)
        for record in records {
            try Statement(connection, """
                INSERT INTO files (path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, record, scanned_at)
                VALUES (?, ?, 100, 1, 'isbn', ?, ?, ?, ?, '2026-11-30T10:00:00.000Z')
                """).run([.blob(Array(record.file.utf8)), .text(record.file), .int(Int64(record.isbns.count)),
                          .int(Int64(record.rejected.filter(\.isProblem).count)), .int(Int64(record.symbols.count)),
                          .text(record.json.encoded)])
            for isbn in record.isbns {
                try Statement(connection, """
                    INSERT INTO sightings (isbn13, isbn10, addon, file_id, source, polygon, seen_at)
                    VALUES (?, ?, ?, (SELECT id FROM files WHERE name = ?), ?, '[]', '2026-11-30T10:00:00.000Z')
                    """).run([.text(isbn.isbn13), .optional(isbn.isbn10), .optional(isbn.addOn), .text(record.file), .text(record.file)])
            }
        }
    }

    /// A version 4 catalogue with a sighting of a file it does not hold cannot be rebuilt
    /// without foreign keys failing later: the migration stops, rolled back, and says why.
    @Test func aMigrationStopsAtRowsReferringToNoFile() throws {
        let file = TemporaryCatalog(), path = file.path
        defer { file.remove() }
        try Self.version4(path, [Self.shelf()])
        try Connection(path: path).execute("""
            INSERT INTO sightings (isbn13, isbn10, file_id, source, polygon, seen_at)
            VALUES ('9780306406157', '0306406152', 99, '/books/gone.png', '[]', '2026-11-30T10:00:00.000Z')
            """)
        do {
            _ = try Catalog(path: path)
            Issue.record("migrated")
        } catch {
            #expect(error.code == CatalogError.constraint)
            #expect(error.description == "\(path): rows refer to rows that do not exist (1 in sightings → files); not upgraded, left as it was")
        }
        let read = try Catalog(path: path, access: .read)
        #expect(read.openedVersion == 4)
        #expect(try read.books().count == 4)
    }

    static func stored(_ catalog: Catalog, _ file: String) throws -> Catalog.StoredFile {
        try #require(try catalog.storedFile(path: Array(file.utf8)))
    }

    @Test func theShelfIsPairedAsAScanPairsIt() {
        let record = Self.shelf()
        #expect(record.symbols.map(\.verdict) == ["accepted", "accepted", "jp-book-code", "rejected", "accepted", "accepted",
                                                  "rejected", "rejected"])
        #expect(record.isbns.map(\.isbn13) == ["9784048930659", "9780553293357", "9780306406157", "9780131103627"])
        #expect(record.isbns[0].jpBookCode?.cCode == "3055")
        #expect(record.rejected.map(\.reason) == ["prefix", "check-digit", "jp-book-code"])
    }

    @Test func aRecordReadsBackFromItsRowsAsTheScanPrintedIt() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let catalog = try Catalog(path: file.path)
        let record = Self.shelf(file: "/books/shelf.tiff")
        try catalog.record(record, path: Array("/books/shelf.tiff".utf8), size: 100, modificationNanoseconds: 1)
        let stored = try Self.stored(catalog, "/books/shelf.tiff")
        // Named as the file is named now; hyphenated with the range message given.
        let back = try #require(try catalog.fileRecord(of: stored, named: "shelf.tiff", options: Self.options))
        var renamed = record
        renamed.file = "shelf.tiff"
        #expect(back == renamed)
        #expect(Self.outputs(back) == Self.outputs(renamed))
        let text = TextFormatter(options: .init(all: true, addOns: true)).format(back).split(separator: "\n")
        #expect(text[1] == "EAN-13 9780553293357 accepted ISBN-10 0553293354 978-0-553-29335-7 (978-0 English language) "
                + "add-on 51299 (USD 12.99) (page 1)")
        #expect(text[2] == "EAN-13 1923055032002 Japanese book code of 9784048930659: C-code 3055 専門/単行本/電子通信 "
                + "(Specialist/Monograph/Electronics, telecommunications), 3200 yen before tax (page 1)")
        #expect(text[3] == "EAN-13 4901234567894 rejected prefix: prefix 490 is not 978: Japanese JAN product code (page 1)")
        let csv = CSVFormatter(options: .init()).format(back).split(separator: "\r\n")
        #expect(csv[0] == "shelf.tiff,9784048930659,4048930656,EAN-13,9784048930659,,accepted,,978-4-04-893065-9,978-4,Japan,,1,"
                + "truncated: decoded 600 of 684 rows,3055")
        #expect(csv[2] == "shelf.tiff,9784048930659,,EAN-13,1923055032002,,jp-book-code,,,,,JPY 3200,1,truncated: decoded 600 of 684 rows,3055")
        // Without a range message nothing is hyphenated, as a scan without one prints.
        let plain = try #require(try catalog.fileRecord(of: stored, named: "shelf.tiff"))
        #expect(plain.isbns.map(\.hyphenated) == [nil, nil, nil, nil])
        // Rows per list, in order.
        let connection = try Connection(path: file.path)
        for (table, count) in [("symbols", 8), ("file_isbns", 4), ("file_refusals", 3), ("candidates", 2)] {
            #expect(try Statement(connection, "SELECT COUNT(*) FROM \(table)").scalar() == Int64(count), "\(table)")
        }
        // A rescan replaces them; an unreadable file keeps its error and no rows.
        try catalog.record(FileRecord(file: "/books/shelf.tiff", width: nil, height: nil, symbols: [], isbns: [], rejected: [],
                                      error: "truncated file: no image data"),
                           path: Array("/books/shelf.tiff".utf8), size: 100, modificationNanoseconds: 2)
        let error = try catalog.fileRecord(of: try Self.stored(catalog, "/books/shelf.tiff"), named: "shelf.tiff")
        #expect(error?.json.encoded == #"{"file": "shelf.tiff", "width": null, "height": null, "symbols": [], "isbns": [], "#
                + #""rejected": [], "error": "truncated file: no image data"}"#)
        for table in Schema.recordTables {
            #expect(try Statement(connection, "SELECT COUNT(*) FROM \(table)").scalar() == 0, "\(table)")
        }
    }

    /// A catalogue of version 4 migrated: each JSON line read once into rows, the lines gone,
    /// every output of the record as before.
    @Test func aVersion4CatalogueMigratesToTheSameOutput() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let record = Self.shelf(file: "/books/shelf.tiff")
        try Self.version4(file.path, [record])
        // Read-only, it stays at version 4 and its record is read from the JSON line.
        let reader = try Catalog(path: file.path, access: .read)
        let fromLine = try #require(try reader.fileRecord(of: try Self.stored(reader, "/books/shelf.tiff"), named: "/books/shelf.tiff",
                                                          options: Self.options))
        #expect(try reader.userVersion() == 4)
        var notices: [String] = []
        let catalog = try Catalog(path: file.path, access: .write, notice: { notices.append($0) })
        #expect(notices == ["\(file.path): upgrading the catalogue from schema version 4 to 6 (isbnscan versions before it cannot write it afterwards)"])
        #expect(try catalog.userVersion() == 6)
        let back = try #require(try catalog.fileRecord(of: try Self.stored(catalog, "/books/shelf.tiff"), named: "/books/shelf.tiff",
                                                       options: Self.options))
        #expect(Self.outputs(back) == Self.outputs(record))
        #expect(Self.outputs(fromLine) == Self.outputs(record))
        // Strength is not in the JSON line: what it cannot say is not made up.
        #expect(back.candidates.map(\.isStrong) == [false, false])
        var columns: [String] = []
        try Statement(try Connection(path: file.path), "SELECT name FROM pragma_table_info('files')").run { columns.append($0.text(0) ?? "") }
        #expect(columns.contains("warning"))
        // The JSON lines are gone; version 6's record column is always empty (it only traps older writers).
        #expect(try Statement(catalog.db, "SELECT COUNT(*) FROM files WHERE record IS NOT NULL").scalar() == 0)
        // The table rebuilt with foreign keys off kept its sightings; they are on again for writing.
        #expect(try Statement(catalog.db, "PRAGMA foreign_keys").scalar() == 1)
        #expect(try catalog.books().map(\.isbn13) == ["9784048930659", "9780553293357", "9780306406157", "9780131103627"])
    }

    /// A reader opened on a version 4 catalogue that a writer migrates meanwhile reads the
    /// record as the file holds it at that read: from its rows, the JSON line being gone.
    @Test func aReaderReadsTheRecordAsTheFileHoldsItNow() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let record = Self.shelf(file: "/books/shelf.tiff")
        try Self.version4(file.path, [record])
        let reader = try Catalog(path: file.path, access: .read)
        #expect(reader.openedVersion == 4)
        let stored = try Self.stored(reader, "/books/shelf.tiff")
        _ = try Catalog(path: file.path)
        let back = try #require(try reader.fileRecord(of: stored, named: "/books/shelf.tiff", options: Self.options))
        #expect(Self.outputs(back) == Self.outputs(record))
    }

    /// A migration that fails half-way (here a trigger refusing the second row's update) is
    /// rolled back: the file is version 4 with its JSON lines, as before; once the cause is gone
    /// it migrates.
    @Test func aMigrationThatFailsHalfWayLeavesTheFileAsItWas() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let first = Self.shelf(file: "/books/a.tiff"), second = Self.shelf(file: "/books/b.tiff")
        try Self.version4(file.path, [first, second])
        let connection = try Connection(path: file.path)
        try connection.execute("""
            CREATE TRIGGER fault BEFORE UPDATE ON files WHEN NEW.id = 2 BEGIN SELECT RAISE(ABORT, 'fault in the second row'); END
            """)
        do {
            _ = try Catalog(path: file.path)
            Issue.record("migrated through the fault")
        } catch {
            #expect(error.message == "fault in the second row")
            #expect(error.sql == "UPDATE main.files SET width = ?, height = ?, pages = ?, warning = ? WHERE id = ?")
        }
        #expect(try Statement(connection, "PRAGMA user_version").scalar() == 4)
        var lines: [String] = []
        try Statement(connection, "SELECT record FROM files ORDER BY id").run { lines.append($0.text(0) ?? "") }
        #expect(lines == [first.json.encoded, second.json.encoded])
        #expect(try Statement(connection, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('symbols', 'file_isbns')").scalar() == 0)
        #expect(try Statement(connection, "SELECT COUNT(*) FROM pragma_table_info('files') WHERE name = 'width'").scalar() == 0)
        try connection.execute("DROP TRIGGER fault")
        let catalog = try Catalog(path: file.path)
        #expect(try catalog.userVersion() == 6)
        for record in [first, second] {
            let back = try catalog.fileRecord(of: try Self.stored(catalog, record.file), named: record.file, options: Self.options)
            #expect(back.map(Self.outputs) == Self.outputs(record))
        }
    }

    /// Merged from catalogues of version 6 and 5 (rows) and one of version 4 (JSON lines, only
    /// read): the records as they were.
    @Test func mergeCopiesRecordsFromRowsAndFromJSONLines() throws {
        let target = TemporaryCatalog(), rows = TemporaryCatalog(), lines = TemporaryCatalog()
        defer { target.remove(); rows.remove(); lines.remove() }
        let a = Self.shelf(file: "/books/a.tiff"), b = Self.shelf(file: "/books/b.tiff")
        try Catalog(path: rows.path).record(a, path: Array(a.file.utf8), size: 100, modificationNanoseconds: 1,
                                            at: "2026-11-30T10:00:00.000Z")
        try Self.version4(lines.path, [b])
        let catalog = try Catalog(path: target.path)
        #expect(try catalog.merge(from: rows.path) == Catalog.MergeCount(files: 1, sightings: 4, refusals: 2))
        #expect(try catalog.merge(from: lines.path) == Catalog.MergeCount(files: 1, sightings: 4, refusals: 0))
        #expect(try catalog.merge(from: rows.path) == Catalog.MergeCount(files: 0, sightings: 0, refusals: 0))
        #expect(try Catalog(path: lines.path, access: .read).openedVersion == 4)
        for record in [a, b] {
            let back = try catalog.fileRecord(of: try Self.stored(catalog, record.file), named: record.file, options: Self.options)
            #expect(back.map(Self.outputs) == Self.outputs(record))
        }
        // Merging again adds nothing: each record once.
        let connection = try Connection(path: target.path)
        #expect(try Statement(connection, "SELECT COUNT(*) FROM symbols").scalar() == 16)
        // The Japanese book code read with the ISBN came with its sighting from the catalogue of rows.
        #expect(try catalog.books().first { $0.isbn13 == "9784048930659" }?.jpBookCode == "1923055032002")

        // A catalogue of version 5: rows, and sightings without the Japanese book code.
        let five = TemporaryCatalog()
        defer { five.remove() }
        let c = Self.shelf(file: "/books/c.tiff")
        try Catalog(path: five.path).record(c, path: Array(c.file.utf8), size: 100, modificationNanoseconds: 1,
                                            at: "2026-12-01T10:00:00.000Z")
        try Connection(path: five.path).execute("""
            DROP TRIGGER files_insert_by_an_older_isbnscan; DROP TRIGGER files_update_by_an_older_isbnscan;
            ALTER TABLE files DROP COLUMN record; ALTER TABLE sightings DROP COLUMN jp_book_code; PRAGMA user_version = 5;
            """)
        #expect(try catalog.merge(from: five.path) == Catalog.MergeCount(files: 1, sightings: 4, refusals: 2))
        #expect(try catalog.fileRecord(of: try Self.stored(catalog, c.file), named: c.file, options: Self.options).map(Self.outputs)
                == Self.outputs(c))
    }
}
