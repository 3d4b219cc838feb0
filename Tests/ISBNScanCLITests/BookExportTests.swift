// SPDX-License-Identifier: Apache-2.0
import Catalog
import Foundation
import Records
@testable import ISBNScanCLI
import Testing
import TestSupport

/// `catalog list` and `catalog export` with the lookup cache: titles and authors, the formats
/// cataloguing and reference programs import, books not looked up written with what is known.
@Suite struct BookExportTests {
    /// A catalogue of 9780306406157 (looked up: an untidy book) then 9780553293357 (not looked up).
    static func catalogue() throws -> (shelf: Shelf, db: String, day: String) {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "isbn/addon-ean5.png"])
        let db = shelf.path + "/books.db"
        #expect(try isbnscan(["scan", "--db", db, shelf.path + "/a.png", shelf.path + "/b.png"]).status == 0)
        let catalog = try Catalog(path: db)
        let book = BookMetadata(source: "google", title: "=HYPERLINK(\"x\") & 100% {sure}", subtitle: "a_b #1",
                                authors: ["Ann Author", "Bo Other"], publisher: "@Press, Ltd", published: "1988-03-01", pages: 345,
                                language: "en", subjects: ["Signals", "Systems"], url: "https://example.org/b?id=1&x=%20")
        try catalog.store([LookupRecord(isbn13: "9780306406157", outcome: .found(book))], at: "2026-12-01T11:00:00.000Z")
        let day = String(try catalog.books()[0].firstSeen.prefix(10))
        return (shelf, db, day)
    }

    @Test func listShowsTheTitleAndAuthors() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let list = try isbnscan(["catalog", "list", "--db", db])
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix("/a.png | =HYPERLINK(\"x\") & 100% {sure}: a_b #1 / Ann Author, Bo Other"))
        #expect(lines[1].hasSuffix("/b.png"))
        let json = try isbnscan(["catalog", "list", "--db", db, "--json"]).stdout.split(separator: "\n")
        #expect(json[0].hasSuffix(#""book": {"found": true, "title": "=HYPERLINK(\"x\") & 100% {sure}", "title_reading": null, "subtitle": "a_b #1", "authors": ["Ann Author", "Bo Other"], "by_statement": null, "publisher": "@Press, Ltd", "published": "1988-03-01", "year": 1988, "pages": 345, "language": "en", "subjects": ["Signals", "Systems"], "cover": null, "source": "google", "url": "https://example.org/b?id=1&x=%20", "fetched_at": "2026-12-01T11:00:00.000Z"}}"#))
        #expect(json[1].hasSuffix(#""book": null}"#))
    }

    @Test func csvGainsTheBooksColumnsNeutralised() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let rows = try isbnscan(["catalog", "export", "--db", db]).stdout.components(separatedBy: "\r\n")
        #expect(rows[0] == "isbn13,isbn10,hyphenated,group,agency,count,first_seen,last_seen,first_source,addon,price,title,authors,publisher,year,c_code")
        #expect(rows[1].hasSuffix(#","'=HYPERLINK(""x"") & 100% {sure}: a_b #1",Ann Author; Bo Other,"'@Press, Ltd",1988,"#))
        #expect(rows[2].hasSuffix(",,,,,,,"))
    }

    @Test func goodreads() throws {
        let (shelf, db, day) = try Self.catalogue()
        defer { shelf.remove() }
        let run = try isbnscan(["catalog", "export", "--db", db, "--format", "goodreads"])
        #expect(run.status == 0)
        let added = day.replacingOccurrences(of: "-", with: "/")
        #expect(run.stdout == [
            "Title,Author,Additional Authors,ISBN,ISBN13,Publisher,Number of Pages,Year Published,Date Added,Bookshelves,Exclusive Shelf",
            #""'=HYPERLINK(""x"") & 100% {sure}: a_b #1",Ann Author,Bo Other,"=""0306406152""","=""9780306406157""","'@Press, Ltd",345,1988,"#
                + added + ",,",
            #",,,"=""0553293354""","=""9780553293357""",,,,"# + added + ",,", "",
        ].joined(separator: "\r\n"))
    }

    @Test func libib() throws {
        let (shelf, db, day) = try Self.catalogue()
        defer { shelf.remove() }
        let run = try isbnscan(["catalog", "export", "--db", db, "--format", "libib"])
        #expect(run.stdout == [
            "item_type,title,creators,ean_isbn13,upc_isbn10,description,publisher,publish_date,tags,length,added,copies",
            #"book,"'=HYPERLINK(""x"") & 100% {sure}: a_b #1","Ann Author, Bo Other",9780306406157,0306406152,,"'@Press, Ltd",1988-03-01,"Signals, Systems",345,"#
                + day + ",1",
            "book,,,9780553293357,0553293354,,,,,,\(day),1", "",
        ].joined(separator: "\r\n"))
    }

    @Test func bibtex() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let run = try isbnscan(["catalog", "export", "--db", db, "--format", "bibtex"])
        #expect(run.stdout == """
            @book{isbn9780306406157,
              title = {=HYPERLINK("x") \\& 100\\% {\\textbraceleft}sure{\\textbraceright}: a\\_b \\#1},
              author = {Ann Author and Bo Other},
              publisher = {@Press, Ltd},
              year = {1988},
              pagetotal = {345},
              isbn = {978-0-306-40615-7},
              language = {en},
              url = {https://example.org/b?id=1&x=\\%20}
            }

            @book{isbn9780553293357,
              isbn = {978-0-553-29335-7}
            }


            """)
    }

    @Test func ris() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let run = try isbnscan(["catalog", "export", "--db", db, "--format", "ris"])
        #expect(run.stdout == [
            "TY  - BOOK", "TI  - =HYPERLINK(\"x\") & 100% {sure}: a_b #1", "AU  - Ann Author", "AU  - Bo Other", "PB  - @Press, Ltd",
            "PY  - 1988", "DA  - 1988/03/01/", "SN  - 9780306406157", "LA  - en", "KW  - Signals", "KW  - Systems",
            "UR  - https://example.org/b?id=1&x=%20", "ER  - ", "TY  - BOOK", "SN  - 9780553293357", "ER  - ", "",
        ].joined(separator: "\r\n"))
    }

    @Test func cslJSON() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let run = try isbnscan(["catalog", "export", "--db", db, "--format", "csl-json"])
        #expect(run.stdout == """
            [
            {"id": "isbn9780306406157", "type": "book", "title": "=HYPERLINK(\\"x\\") & 100% {sure}: a_b #1", \
            "author": [{"literal": "Ann Author"}, {"literal": "Bo Other"}], "publisher": "@Press, Ltd", \
            "issued": {"date-parts": [[1988, 3, 1]]}, "number-of-pages": "345", "language": "en", "ISBN": "9780306406157", \
            "URL": "https://example.org/b?id=1&x=%20"},
            {"id": "isbn9780553293357", "type": "book", "ISBN": "9780553293357"}
            ]

            """)
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 2)
    }

    @Test func anUnknownFormatNamesTheFormats() throws {
        let run = try isbnscan(["catalog", "export", "--db", "x.db", "--format", "marc"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --format 'marc' is not one of csv, jsonl, isbn-list, goodreads, libib, bibtex, ris, csl-json\n"))
    }

    /// `export -o FILE`: the bytes standard output would have had, in FILE, nothing on stdout
    /// or stderr, no temporary file left; an existing FILE is replaced whole, keeping its mode.
    @Test func outputWritesTheExportToAFile() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let expected = try isbnscan(["catalog", "export", "--db", db, "--format", "goodreads"]).stdout
        #expect(expected.hasPrefix("Title,Author,"))
        let file = shelf.path + "/goodreads.csv"
        let run = try isbnscan(["catalog", "export", "--db", db, "--format", "goodreads", "-o", file])
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == expected)
        // Over an older file: replaced, its mode kept; --output=FILE is the same option.
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        let again = try isbnscan(["catalog", "export", "--db", db, "--format", "isbn-list", "--output=\(file)"])
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "9780306406157\n9780553293357\n")
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.path).filter { $0.contains(".isbnscan-") } == [])
        // '-' is standard output.
        let dash = try isbnscan(["catalog", "export", "--db", db, "--format", "isbn-list", "-o", "-"])
        #expect(dash.stdout == "9780306406157\n9780553293357\n")
    }

    /// `export -o` naming the catalogue itself would replace every book with the export: a
    /// usage error under any spelling of its path, and the catalogue left byte for byte.
    @Test func outputCannotBeTheCatalogue() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        for spelling in [db, shelf.path + "/./books.db", shelf.path + "//books.db"] {
            let run = try isbnscan(["catalog", "export", "--db", db, "-o", spelling])
            #expect(run.status == 2, "\(spelling)")
            #expect(run.stdout == "")
            #expect(run.stderr == """
                Error: --output \(spelling) is the --db catalogue \(db); refusing to overwrite it
                Usage: \(CatalogCommand.spec.usage)
                  See 'isbnscan catalog --help'.

                """, "\(spelling)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(try isbnscan(["catalog", "export", "--db", db, "--format", "isbn-list"]).stdout == "9780306406157\n9780553293357\n")
    }

    /// `export -o` naming one of the catalogue's journal files would lose the writes it holds
    /// or corrupt the catalogue: a usage error whether the journal exists or not, under any
    /// spelling, through a symbolic link (to the file or to its folder) or a hard link.
    @Test func outputCannotBeAJournalOfTheCatalogue() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        #expect(symlink(db + "-wal", shelf.path + "/link.csv") == 0)
        #expect(symlink(shelf.path, shelf.path + "/here") == 0)
        let cases = [(shelf.path + "/books.db-wal", "-wal"), (shelf.path + "//./books.db-shm", "-shm"),
                     (shelf.path + "/books.db-journal", "-journal"), (shelf.path + "/link.csv", "-wal"),
                     (shelf.path + "/here/books.db-wal", "-wal")]
        for (spelling, suffix) in cases {
            let run = try isbnscan(["catalog", "export", "--db", db, "-o", spelling])
            #expect(run.status == 2, "\(spelling)")
            #expect(run.stdout == "")
            #expect(run.stderr == """
                Error: --output \(spelling) is \(db)\(suffix), a journal file of the --db catalogue \(db); refusing to overwrite it
                Usage: \(CatalogCommand.spec.usage)
                  See 'isbnscan catalog --help'.

                """, "\(spelling)")
        }
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: db + "-journal"))
        // A -wal file that exists (a writer has the catalogue open), named by a hard link.
        let writer = try Catalog(path: db)
        _ = try writer.books()
        try #require(FileManager.default.fileExists(atPath: db + "-wal"))
        #expect(link(db + "-wal", shelf.path + "/other.csv") == 0)
        let hard = try isbnscan(["catalog", "export", "--db", db, "-o", shelf.path + "/other.csv"])
        #expect(hard.status == 2)
        #expect(hard.stderr.hasPrefix("Error: --output \(shelf.path)/other.csv is \(db)-wal, a journal file of the --db catalogue \(db); refusing to overwrite it\n"))
        withExtendedLifetime(writer) {}
        #expect(try isbnscan(["catalog", "export", "--db", db, "--format", "isbn-list"]).stdout == "9780306406157\n9780553293357\n")
    }

    @Test func outputThatCannotBeWrittenExitsThree() throws {
        let (shelf, db, _) = try Self.catalogue()
        defer { shelf.remove() }
        let missing = try isbnscan(["catalog", "export", "--db", db, "-o", shelf.path + "/no/such/folder/books.csv"])
        #expect(missing.status == 3)
        #expect(missing.stderr == "Error: \(shelf.path)/no/such/folder/books.csv: cannot write the output file: No such file or directory\n")
        let full = try isbnscan(["catalog", "export", "--db", db, "-o", "/dev/full"])
        #expect(full.status == 3)
        #expect(full.stderr == "Error: /dev/full: cannot write the output file: write failed: No space left on device\n")
        // A catalogue that cannot be read leaves the file as it was.
        let file = shelf.path + "/books.csv", notCatalogue = shelf.path + "/notes.db"
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: file))
        try Data("not a database, just text that is long enough to be looked at\n".utf8).write(to: URL(fileURLWithPath: notCatalogue))
        let unreadable = try isbnscan(["catalog", "export", "--db", notCatalogue, "-o", file])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.hasPrefix("Error: \(notCatalogue): not an isbnscan catalogue"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.path).filter { $0.contains(".isbnscan-") } == [])
    }

    @Test(arguments: [
        (["catalog", "list", "-o", "books.txt"], "Error: --output goes with export"),
        (["catalog", "stats", "--output=stats.txt"], "Error: --output goes with export"),
        (["catalog", "export", "-o", ""], "Error: --output needs a file name"),
    ])
    func outputUsageErrors(arguments: [String], message: String) throws {
        let run = try isbnscan(arguments + ["--db", "/nonexistent/books.db"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(message + "\n"))
    }
}
