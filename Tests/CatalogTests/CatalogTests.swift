// SPDX-License-Identifier: Apache-2.0
import Foundation
import Records
import Testing
@testable import Catalog

/// A fresh catalogue path in the temporary folder; removed (with its -wal/-shm) by `remove`.
struct TemporaryCatalog {
    let path = NSTemporaryDirectory() + "isbnscan-catalog-\(UUID().uuidString).db"
    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

func fileRecord(_ name: String, isbns: [String], refused: [String] = [], error: String? = nil) -> FileRecord {
    let accepted = isbns.map { isbn in
        SymbolRecord(type: "EAN-13", data: isbn, addOn: nil, quality: 5, orientation: 0,
                     polygon: [.init(x: 1, y: 2), .init(x: 3, y: 2), .init(x: 3, y: 4), .init(x: 1, y: 4)], pass: "full",
                     isbn: ISBNRecord(isbn13: isbn, isbn10: "X", addOn: nil), refusal: nil)
    }
    let refusals = refused.map { RefusalRecord(type: "EAN-13", data: $0, reason: "prefix", detail: "prefix 490 is not 978") }
    let rejected = refusals.map {
        SymbolRecord(type: "EAN-13", data: $0.data, addOn: nil, quality: 1, orientation: nil, polygon: [], pass: "full",
                     isbn: nil, refusal: $0)
    }
    return FileRecord(file: name, width: error == nil ? 10 : nil, height: error == nil ? 10 : nil,
                      symbols: error == nil ? accepted + rejected : [], isbns: error == nil ? accepted.compactMap(\.isbn) : [],
                      rejected: error == nil ? refusals : [], error: error)
}

@Suite struct CatalogTests {
    @Test func newCatalogueHasTheLatestSchemaInWALMode() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let catalog = try Catalog(path: file.path)
        #expect(try catalog.userVersion() == 6)
        #expect(Catalog.schemaVersion == 6)
        let connection = try Connection(path: file.path)
        var mode = ""
        try Statement(connection, "PRAGMA journal_mode").run { mode = $0.text(0) ?? "" }
        #expect(mode == "wal")
    }

    @Test func version1CatalogueIsMigratedAndKeepsItsData() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        do {
            let old = try Catalog(path: file.path, upTo: 1)
            #expect(try old.userVersion() == 1)
            // Version 1 has no refusals table: record only a file with an ISBN, by hand.
            let connection = try Connection(path: file.path)
            try connection.execute("""
                INSERT INTO files (path, name, status, isbn_count, refused_count, symbol_count, record, scanned_at)
                VALUES (x'612e706e67', 'a.png', 'isbn', 1, 0, 1, '{}', '2026-11-30T10:00:00Z');
                INSERT INTO sightings (isbn13, file_id, source, polygon, seen_at)
                VALUES ('9780306406157', 1, 'a.png', '[]', '2026-11-30T10:00:00Z');
                """)
        }
        let catalog = try Catalog(path: file.path)
        #expect(try catalog.userVersion() == 6)
        #expect(try catalog.books().map(\.isbn13) == ["9780306406157"])
        #expect(try catalog.statistics().refusals == [:])
        let stored = try #require(try catalog.storedFile(path: Array("a.png".utf8)))
        #expect(stored.status == "isbn" && stored.symbolCount == 1)
        // Its JSON line is no record: none is made up, the file is to be scanned again.
        #expect(try catalog.fileRecord(of: stored, named: "a.png") == nil)
    }

    @Test func newerCatalogueIsRefusedWithItsVersion() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        try Connection(path: file.path).execute("PRAGMA user_version = 99")
        #expect(throws: CatalogError(code: CatalogError.misuse,
                                     message: "catalogue schema version 99 is newer than this isbnscan's (6); use a newer isbnscan",
                                     sql: nil, path: file.path, sqliteMessage: false)) { try Catalog(path: file.path) }
    }

    /// An isbnscan of version 4 writing a catalogue when a newer one migrates it: it waited for
    /// the migration's lock, and its next file row (which sets `record`, the JSON line) is
    /// refused with a sentence saying what happened, its statements as version 4 prepared them;
    /// a camera sighting, whose table is unchanged, is still taken. The newer writer's rows are.
    @Test func anOlderWriterStillRunningIsToldTheCatalogueWasUpgraded() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        _ = try Catalog(path: file.path, upTo: 4)
        let older = try Connection(path: file.path)
        // Version 4's statements, as its Catalog.write prepared them.
        let insert = try Statement(older, """
            INSERT INTO files (path, name, size, mtime_ns, device, inode, content_hash, status, isbn_count, refused_count,
                               symbol_count, error, warnings, record, scanned_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING id
            """)
        let update = try Statement(older, """
            UPDATE files SET path = ?, name = ?, size = ?, mtime_ns = ?, device = ?, inode = ?, content_hash = ?, status = ?,
                isbn_count = ?, refused_count = ?, symbol_count = ?, error = ?, warnings = ?, record = ?, scanned_at = ?
            WHERE id = ?
            """)
        func row(_ name: String) -> [Statement.Value] {
            [.blob(Array("/shelf/\(name)".utf8)), .text(name), .int(10), .int(1), .int(1), .int(Int64(name.utf8.count)), .int(7),
             .text("no-barcode"), .int(0), .int(0), .int(0), .null, .null, .text(#"{"file": "\#(name)"}"#),
             .text("2026-12-01T10:00:00.000Z")]
        }
        try insert.run(row("a.png"))
        var notices: [String] = []
        let newer = try Catalog(path: file.path, access: .write, notice: { notices.append($0) })
        #expect(notices == ["\(file.path): upgrading the catalogue from schema version 4 to \(Catalog.schemaVersion) "
                                  + "(isbnscan versions before it cannot write it afterwards)"])
        for (statement, values) in [(insert, row("b.png")), (update, row("a.png") + [.int(1)])] {
            do {
                try statement.run(values)
                Issue.record("an older writer's row was taken")
            } catch {
                #expect(error.message == Schema.olderWriterMessage)
                #expect(error.code & 0xFF == CatalogError.constraint)
            }
        }
        try older.execute("""
            INSERT INTO sightings (isbn13, device, frame, source, polygon, seen_at)
            VALUES ('9780306406157', '/dev/video0', 3, '/dev/video0', '[]', '2026-12-01T10:00:01.000Z')
            """)
        #expect(try newer.statistics().sightings == 1)
        // The newer writer's own rows go in, the old row stays as it was (its record read into rows).
        try newer.record([Catalog.FileEntry(record: fileRecord("c.png", isbns: ["9780306406157"]), identity: nil,
                                            path: Array("/shelf/c.png".utf8))])
        #expect(try newer.statistics().files == ["isbn": 1, "no-barcode": 1])
        #expect(try newer.storedFile(path: Array("/shelf/a.png".utf8))?.name == "a.png")
    }

    @Test func aTextFileIsNotADatabase() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: file.path))
        do {
            _ = try Catalog(path: file.path)
            Issue.record("opened a text file")
        } catch {
            #expect(error.code == CatalogError.notADatabase)
            #expect(error.message == "not an isbnscan catalogue (not an SQLite database)")
            #expect(error.sql == nil)
            #expect(error.description == "\(file.path): not an isbnscan catalogue (not an SQLite database)")
        }
    }

    @Test func aCatalogueIsNotMergedIntoItself() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let catalog = try Catalog(path: file.path)
        let link = file.path + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file.path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(throws: CatalogError(code: CatalogError.misuse, message: "is the catalogue being merged into: it cannot be merged into itself",
                                     sql: nil, path: link, sqliteMessage: false)) { try catalog.merge(from: link) }
    }

    @Test func bindingErrorsKeepTheSQL() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let connection = try Connection(path: file.path)
        #expect(throws: CatalogError(code: 1, message: "no such table: nowhere", sql: "SELECT * FROM nowhere", path: file.path)) {
            try Statement(connection, "SELECT * FROM nowhere")
        }
    }

    @Test func aRescanReplacesTheFileAndItsSightings() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let catalog = try Catalog(path: file.path)
        try catalog.record(fileRecord("a.png", isbns: ["9780306406157"], refused: ["4901234567894"]), path: Array("a.png".utf8),
                           size: 100, modificationNanoseconds: 5, at: "2026-11-30T10:00:00Z")
        try catalog.record(fileRecord("a.png", isbns: ["9780131103627"]), path: Array("a.png".utf8),
                           size: 120, modificationNanoseconds: 6, at: "2026-11-30T11:00:00Z")
        #expect(try catalog.books().map(\.isbn13) == ["9780131103627"])
        let stored = try #require(try catalog.storedFile(path: Array("a.png".utf8)))
        #expect(stored.size == 120 && stored.modificationNanoseconds == 6 && stored.status == "isbn")
        #expect(try catalog.statistics().refusals == [:])
    }

    @Test func booksCountSightingsWithFirstAndLastSeen() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let catalog = try Catalog(path: file.path)
        try catalog.record(fileRecord("a.png", isbns: ["9780306406157"]), path: [0x61, 0xE9], size: 1, modificationNanoseconds: 1,
                           at: "2026-11-30T10:00:00Z")
        try catalog.record(fileRecord("b.png", isbns: ["9780306406157", "9780131103627"]), path: Array("b.png".utf8), size: 1,
                           modificationNanoseconds: 1, at: "2026-12-01T09:00:00Z")
        try catalog.record(FrameEventRecord(device: "/dev/video0", frame: 7, width: 640, height: 480, symbols: [],
                                            isbns: [ISBNRecord(isbn13: "9780306406157", isbn10: "0306406152", addOn: "51299")],
                                            rejected: []), at: "2026-12-02T08:00:00Z")
        let books = try catalog.books()
        #expect(books.count == 2)
        #expect(books[0] == Catalog.Book(isbn13: "9780306406157", isbn10: "X", addOn: "51299", count: 3,
                                         firstSeen: "2026-11-30T10:00:00Z", lastSeen: "2026-12-02T08:00:00Z", firstSource: "a.png"))
        #expect(books[1].count == 1 && books[1].firstSource == "b.png")
        #expect(try catalog.firstSighting(of: "9780131103627")?.source == "b.png")
        #expect(try catalog.storedFile(path: [0x61, 0xE9])?.name == "a.png")
        #expect(try catalog.remove(isbn13: "9780306406157") == 3)
        #expect(try catalog.books().map(\.isbn13) == ["9780131103627"])
    }

    @Test func mergingTwoCataloguesAddsEachSightingOnce() throws {
        let a = TemporaryCatalog(), b = TemporaryCatalog()
        defer { a.remove(); b.remove() }
        let first = try Catalog(path: a.path)
        try first.record(fileRecord("x.png", isbns: ["9780306406157"]), path: Array("x.png".utf8), size: 1,
                         modificationNanoseconds: 1, at: "2026-11-30T10:00:00Z")
        do {
            let second = try Catalog(path: b.path)
            try second.record(fileRecord("x.png", isbns: ["9780306406157"]), path: Array("x.png".utf8), size: 1,
                              modificationNanoseconds: 1, at: "2026-11-30T10:00:00Z")
            try second.record(fileRecord("y.png", isbns: ["9780131103627"], refused: ["4901234567894"]), path: Array("y.png".utf8),
                              size: 2, modificationNanoseconds: 2, at: "2026-11-30T12:00:00Z")
        }
        #expect(try first.merge(from: b.path) == Catalog.MergeCount(files: 1, sightings: 1, refusals: 1))
        #expect(try first.merge(from: b.path) == Catalog.MergeCount(files: 0, sightings: 0, refusals: 0))
        let books = try first.books()
        #expect(books.map(\.isbn13) == ["9780306406157", "9780131103627"])
        #expect(books.map(\.count) == [1, 1])
        let stats = try first.statistics()
        #expect(stats.files == ["isbn": 2] && stats.refusals == ["prefix": 1] && stats.sightings == 2)
    }

    @Test func mergingAMissingFileFails() throws {
        let a = TemporaryCatalog()
        defer { a.remove() }
        let catalog = try Catalog(path: a.path)
        do {
            _ = try catalog.merge(from: "/nonexistent/folder/b.db")
            Issue.record("merged a missing file")
        } catch {
            #expect(error.code == CatalogError.cantOpen)
            #expect(error.path == "/nonexistent/folder/b.db")
        }
    }

    /// A row of version 2 (the path as typed, no identity) is taken over by the first scan of the
    /// same file after the migration: one row, its sightings once; a hard link is the same file.
    @Test func aVersion2RowIsTakenOverAndAHardLinkIsTheSameFile() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let folder = NSTemporaryDirectory() + "isbnscan-identity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: folder + "/a.png"))
        let typed = Array((folder + "/./a.png").utf8)
        do {
            // Version 2 as isbnscan wrote it: the path's bytes as typed, no identity.
            _ = try Catalog(path: file.path, upTo: 2)
            let hex = typed.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
            try Connection(path: file.path).execute("""
                INSERT INTO files (path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, record, scanned_at)
                VALUES (x'\(hex)', 'a.png', 10000, 1, 'isbn', 1, 0, 1, '{}', '2026-11-30T10:00:00.000Z');
                INSERT INTO sightings (isbn13, file_id, source, polygon, seen_at)
                VALUES ('9780306406157', 1, 'a.png', '[]', '2026-11-30T10:00:00.000Z');
                """)
        }
        let catalog = try Catalog(path: file.path)
        let identity = try #require(FileIdentity(path: typed))
        #expect(identity.path == Array((folder + "/a.png").utf8))
        #expect(identity.size == 10_000)
        let found = try #require(try catalog.lookUp(identity, typed: typed))
        #expect(found.unchanged == false)
        try catalog.record([Catalog.FileEntry(record: fileRecord("a.png", isbns: ["9780306406157"]), identity: identity, path: typed,
                                              replacing: found.stored.id, time: "2026-12-01T10:00:00.000Z")])
        let stats = try catalog.statistics()
        #expect(stats.files == ["isbn": 1] && stats.sightings == 1)
        #expect(try catalog.storedFile(path: typed) == nil)
        #expect(try catalog.lookUp(identity, typed: typed)?.unchanged == true)

        // A hard link: another path, the same device and inode: unchanged, no second row.
        try FileManager.default.linkItem(atPath: folder + "/a.png", toPath: folder + "/link.png")
        let link = try #require(FileIdentity(path: Array((folder + "/link.png").utf8)))
        let viaLink = try #require(try catalog.lookUp(link, typed: link.path))
        #expect(viaLink.unchanged && viaLink.stored.path == identity.path)
        // Other bytes at the same place, size and time: changed.
        var rewritten = identity
        rewritten.contentHash &+= 1
        #expect(try catalog.lookUp(rewritten, typed: typed)?.unchanged == false)
        // A failure is never unchanged.
        try catalog.record([Catalog.FileEntry(record: fileRecord("a.png", isbns: [], error: "permission denied"), identity: identity,
                                              path: typed)])
        #expect(try catalog.lookUp(identity, typed: typed)?.unchanged == false)
        #expect(try catalog.statistics().files == ["error": 1])
    }

    @Test func aRecordReadsBackFromItsJSONLine() throws {
        var record = fileRecord("x.png", isbns: ["9780306406157"], refused: ["4901234567894"])
        record.warning = "truncated: decoded 5 of 10 rows"
        record.pages = 2
        let line = record.json.encoded
        let parsed = try #require(JSONValue(parsing: line))
        let back = try #require(FileRecord(json: parsed, file: "x.png"))
        #expect(back.json.encoded == line)
        #expect(JSONValue(parsing: #"{"a": "\u00e9\ud83d\ude00\n"}"#) == .object(["a": .string("é😀\n")]))
        #expect(JSONValue(parsing: "{\"a\": 1} x") == nil)
        #expect(JSONValue(parsing: String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) == nil)
    }

    @Test func timestampsAreISO8601UTCWithMilliseconds() {
        #expect(Timestamp.format(secondsSince1970: 0, milliseconds: 5) == "1970-01-01T00:00:00.005Z")
        #expect(Timestamp.format(secondsSince1970: 1_764_547_200 + 3723, milliseconds: 250) == "2025-12-01T01:02:03.250Z")
        #expect(Timestamp.now().count == 24)
    }
}
