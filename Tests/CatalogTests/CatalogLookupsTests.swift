// SPDX-License-Identifier: Apache-2.0
import Foundation
import Records
import Testing
@testable import Catalog

/// The lookup cache of schema version 4: answers, raw responses, pending lookups, migration, merge.
@Suite struct CatalogLookupsTests {
    static let tomSawyer = BookMetadata(source: "openlibrary", title: "The adventures of Tom Sawyer", authors: ["Mark Twain"],
                                        publisher: "Signet Classic", published: "1997", pages: 216,
                                        subjects: ["Sawyer, Tom (Fictitious character)"], cover: "https://covers.example/1.jpg",
                                        url: "https://openlibrary.org/books/OL1017798M")
    static let signals = BookMetadata(source: "openlibrary", title: "Signals & systems", byStatement: "edited by A. V. Oppenheim",
                                      publisher: "Plenum Press; Springer", published: "March 1988", pages: 345)

    /// A catalogue with three books seen in files a.png, b.png, c.png (in that order).
    func catalogue(_ file: TemporaryCatalog) throws -> Catalog {
        let catalog = try Catalog(path: file.path)
        for (n, isbn) in ["9780451526533", "9780306406157", "9781234567897"].enumerated() {
            try catalog.record(fileRecord("\(n).png", isbns: [isbn]), path: Array("/shelf/\(n).png".utf8), size: 1,
                               modificationNanoseconds: 1, at: "2026-12-01T10:00:0\(n).000Z")
        }
        return catalog
    }

    @Test func answersAreStoredAndReadBackWithTheirResponse() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let catalog = try catalogue(file)
        #expect(try catalog.isbnsToLookUp(refresh: false) == ["9780451526533", "9780306406157", "9781234567897"])
        let batch = Array(#"{"ISBN:9780451526533": {}, "ISBN:9780306406157": {}}"#.utf8)
        try catalog.store([
            LookupRecord(isbn13: "9780451526533", outcome: .found(Self.tomSawyer), response: batch),
            LookupRecord(isbn13: "9780306406157", outcome: .found(Self.signals), response: batch),
            LookupRecord(isbn13: "9781234567897", outcome: .notFound(providers: ["openlibrary", "google"])),
        ], at: "2026-12-01T11:00:00.000Z")
        let cache = try catalog.cachedLookups()
        #expect(cache["9780451526533"] == Catalog.CachedLookup(isbn13: "9780451526533", metadata: Self.tomSawyer,
                                                               providers: ["openlibrary"], fetchedAt: "2026-12-01T11:00:00.000Z"))
        #expect(cache["9780306406157"]?.metadata == Self.signals)
        #expect(cache["9780306406157"]?.metadata?.year == 1988)
        #expect(cache["9781234567897"] == Catalog.CachedLookup(isbn13: "9781234567897", metadata: nil,
                                                               providers: ["openlibrary", "google"], fetchedAt: "2026-12-01T11:00:00.000Z"))
        #expect(try catalog.cachedResponse(of: "9780306406157")?.body == batch)
        #expect(try catalog.cachedResponse(of: "9780306406157")?.provider == "openlibrary")
        // One batch's answer is kept once for its ISBNs.
        let connection = try Connection(path: file.path)
        #expect(try Statement(connection, "SELECT COUNT(*) FROM lookup_responses").scalar() == 1)
        // A book known to no provider is an answer too: nothing is left to look up.
        #expect(try catalog.isbnsToLookUp(refresh: false) == [])
        #expect(try catalog.isbnsToLookUp(refresh: true) == ["9780451526533", "9780306406157", "9781234567897"])
        // A newer answer replaces the older one and its response, which is then dropped.
        try catalog.store([LookupRecord(isbn13: "9780451526533", outcome: .found(Self.tomSawyer), response: Array("{}".utf8)),
                           LookupRecord(isbn13: "9780306406157", outcome: .found(Self.signals), response: Array("[]".utf8))],
                          at: "2026-12-02T11:00:00.000Z")
        #expect(try Statement(connection, "SELECT COUNT(*) FROM lookup_responses").scalar() == 2)
        #expect(try catalog.cachedLookup(of: "9780451526533")?.fetchedAt == "2026-12-02T11:00:00.000Z")
    }

    @Test func aFailedLookupStaysPendingAndKeepsTheOlderAnswer() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        let catalog = try catalogue(file)
        try catalog.store([LookupRecord(isbn13: "9780451526533", outcome: .found(Self.tomSawyer))], at: "2026-12-01T11:00:00.000Z")
        try catalog.queueLookups(["9780451526533", "9780306406157"], at: "2026-12-01T12:00:00.000Z")
        #expect(try catalog.isbnsToLookUp(refresh: false) == ["9780451526533", "9780306406157", "9781234567897"])
        let down = LookupRecord.Outcome.failed(["openlibrary: cannot connect to 127.0.0.1:9"])
        try catalog.store([LookupRecord(isbn13: "9780451526533", outcome: down), LookupRecord(isbn13: "9780306406157", outcome: down)],
                          at: "2026-12-01T12:00:01.000Z")
        try catalog.store([LookupRecord(isbn13: "9780306406157", outcome: down)], at: "2026-12-01T12:00:02.000Z")
        #expect(try catalog.pendingLookups() == [
            .init(isbn13: "9780306406157", queuedAt: "2026-12-01T12:00:00.000Z", attempts: 2, error: "openlibrary: cannot connect to 127.0.0.1:9"),
            .init(isbn13: "9780451526533", queuedAt: "2026-12-01T12:00:00.000Z", attempts: 1, error: "openlibrary: cannot connect to 127.0.0.1:9"),
        ])
        // The failure left the earlier answer as it was.
        #expect(try catalog.cachedLookup(of: "9780451526533")?.metadata == Self.tomSawyer)
        #expect(try catalog.cachedLookup(of: "9780306406157") == nil)
        // Answered: no longer pending.
        try catalog.store([LookupRecord(isbn13: "9780306406157", outcome: .found(Self.signals))], at: "2026-12-01T13:00:00.000Z")
        #expect(try catalog.pendingLookups().map(\.isbn13) == ["9780451526533"])
        #expect(try catalog.isbnsToLookUp(refresh: false) == ["9780451526533", "9781234567897"])
    }

    @Test func aVersion3CatalogueGainsTheTablesOnceAndKeepsItsData() throws {
        let file = TemporaryCatalog()
        defer { file.remove() }
        do {
            _ = try Catalog(path: file.path, upTo: 3)
            // As isbnscan wrote version 3: the record as its JSON line.
            let line = fileRecord("/a.png", isbns: ["9780306406157"]).json.encoded
            try Connection(path: file.path).execute("""
                INSERT INTO files (path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, record, scanned_at)
                VALUES (CAST('/a.png' AS BLOB), '/a.png', 1, 1, 'isbn', 1, 0, 1, '\(line)', '2026-11-30T10:00:00.000Z');
                INSERT INTO sightings (isbn13, isbn10, file_id, source, polygon, seen_at)
                VALUES ('9780306406157', 'X', 1, '/a.png', '[]', '2026-11-30T10:00:00.000Z');
                """)
        }
        // Read-only, a version-3 catalogue has no cache and is not changed.
        let reader = try Catalog(path: file.path, access: .read)
        #expect(reader.hasLookupCache == false)
        #expect(try reader.cachedLookups().isEmpty)
        #expect(try reader.pendingLookups().isEmpty)
        #expect(try reader.isbnsToLookUp(refresh: false) == ["9780306406157"])
        #expect(try reader.userVersion() == 3)
        // Read-only, the record is read from its JSON line.
        let expected = fileRecord("/a.png", isbns: ["9780306406157"])
        let stored = try #require(try reader.storedFile(path: Array("/a.png".utf8)))
        #expect(try reader.fileRecord(of: stored, named: "/a.png") == expected)
        let catalog = try Catalog(path: file.path)
        #expect(catalog.openedVersion == 3)
        #expect(try catalog.userVersion() == 6)
        try catalog.store([LookupRecord(isbn13: "9780306406157", outcome: .found(Self.signals))], at: "2026-12-01T11:00:00.000Z")
        // The version set back by hand: the migration runs again over the tables it made, which keep their rows.
        try Connection(path: file.path).execute("PRAGMA user_version = 3")
        let again = try Catalog(path: file.path)
        #expect(again.openedVersion == 3)
        #expect(try again.userVersion() == 6)
        // Its record, moved into rows once, is read from them.
        #expect(try again.fileRecord(of: stored, named: "/a.png") == expected)
        #expect(try again.cachedLookup(of: "9780306406157")?.metadata == Self.signals)
        #expect(try again.books().map(\.isbn13) == ["9780306406157"])
    }

    @Test func mergeTakesTheNewerAnswer() throws {
        let mine = TemporaryCatalog(), theirs = TemporaryCatalog()
        defer { mine.remove(); theirs.remove() }
        let target = try catalogue(mine)
        try target.store([LookupRecord(isbn13: "9780451526533", outcome: .notFound(providers: ["google"]))], at: "2026-12-01T11:00:00.000Z")
        try target.store([LookupRecord(isbn13: "9780306406157", outcome: .found(Self.signals))], at: "2026-12-03T11:00:00.000Z")
        do {
            let other = try catalogue(theirs)
            try other.store([LookupRecord(isbn13: "9780451526533", outcome: .found(Self.tomSawyer), response: Array("{}".utf8)),
                             LookupRecord(isbn13: "9780306406157", outcome: .notFound(providers: ["ndl"]))],
                            at: "2026-12-02T11:00:00.000Z")
        }
        // One answer taken (the other's newer one); the older one not, and counted neither.
        #expect(try target.merge(from: theirs.path).lookups == 1)
        let cache = try target.cachedLookups()
        #expect(cache["9780451526533"]?.metadata == Self.tomSawyer)
        #expect(cache["9780451526533"]?.fetchedAt == "2026-12-02T11:00:00.000Z")
        #expect(try target.cachedResponse(of: "9780451526533")?.body == Array("{}".utf8))
        #expect(cache["9780306406157"]?.metadata == Self.signals)
        #expect(cache["9781234567897"] == nil)
        #expect(try target.merge(from: theirs.path).lookups == 0)
    }
}
