// SPDX-License-Identifier: Apache-2.0
import Catalog
import Foundation
import Testing
import TestSupport

/// `isbnscan catalog lookup` against the local provider server: the cache filled, faults that
/// leave the catalogue as it was and the lookups pending, the next run going on with them.
@Suite struct CatalogLookupTests {
    /// Every provider's base URL at `base`, and a contact.
    static func environment(_ base: String) -> [String: String] {
        ["ISBNSCAN_OPENLIBRARY_URL": base, "ISBNSCAN_GOOGLE_BOOKS_URL": base, "ISBNSCAN_NDL_URL": base,
         "ISBNSCAN_CONTACT": "tests@example.org"]
    }

    /// A shelf whose catalogue `books.db` holds 9780306406157 (Open Library knows it) and
    /// 9780553293357 (no provider does), seen in that order.
    static func catalogued() throws -> (shelf: Shelf, db: String) {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "isbn/addon-ean5.png"])
        let db = shelf.path + "/books.db"
        let scan = try isbnscan(["scan", "--db", db, shelf.path + "/a.png", shelf.path + "/b.png"])
        #expect(scan.status == 0)
        return (shelf, db)
    }

    static let signals = "9780306406157: Signals & systems / edited by A. V. Oppenheim & A. S. Willsky.; Plenum Press; Springer, "
        + "March 1988; 345 pages (openlibrary)"

    @Test func fillsInTheBooksWithoutAnswerOnce() throws {
        let (shelf, db) = try Self.catalogued()
        defer { shelf.remove() }
        let server = try ProviderServer()
        let first = try isbnscan(["catalog", "lookup", "--db", db], environment: Self.environment(server.base))
        #expect(first.status == 4)
        #expect(first.stdout == Self.signals + "\n9780553293357: not known to openlibrary, google, ndl\n")
        #expect(first.stderr == "catalog lookup: 2 books looked up: 1 found, 1 known to no provider, 0 failed\n")
        // Both answers are in the catalogue: nothing is asked again.
        let requests = try server.log().count
        let second = try isbnscan(["catalog", "lookup", "--db", db], environment: Self.environment(server.base))
        #expect(second.status == 0)
        #expect(second.stdout == "")
        #expect(second.stderr == "catalog lookup: nothing to look up: every book (2) has its answer in the catalogue "
                                + "(--refresh looks them up again)\n")
        #expect(try server.log().count == requests)
        let cache = try Catalog(path: db, access: .read).cachedLookups()
        #expect(cache["9780306406157"]?.metadata?.publisher == "Plenum Press; Springer")
        #expect(cache["9780553293357"]?.providers == ["openlibrary", "google", "ndl"])
        // --refresh asks again for every book; --json prints lookup's objects.
        let refresh = try isbnscan(["catalog", "lookup", "--db", db, "--refresh", "--json", "--provider", "openlibrary"],
                                   environment: Self.environment(server.base))
        #expect(refresh.status == 4)
        let lines = refresh.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"isbn13": "9780306406157", "found": true, "title": "Signals & systems", "#))
        #expect(lines[1].hasPrefix(#"{"isbn13": "9780553293357", "found": false, "#))
        #expect(try server.log().count == requests + 1)
    }

    /// `catalog merge` takes the other catalogue's answers with its books, and says how many.
    @Test func mergeSaysHowManyLookupsItTook() throws {
        let (shelf, db) = try Self.catalogued()
        defer { shelf.remove() }
        let server = try ProviderServer()
        #expect(try isbnscan(["catalog", "lookup", "--db", db], environment: Self.environment(server.base)).status == 4)
        let target = shelf.path + "/target.db"
        let merge = try isbnscan(["catalog", "merge", "--db", target, db])
        #expect(merge.status == 0)
        #expect(merge.stderr == "\(db): added 2 files, 2 sightings, 0 refused codes, 2 book lookups\n")
        #expect(try isbnscan(["catalog", "list", "--db", target]).stdout.contains("/a.png | Signals & systems / "))
        let again = try isbnscan(["catalog", "merge", "--db", target, db])
        #expect(again.stderr == "\(db): added 0 files, 0 sightings, 0 refused codes, 0 book lookups\n")
    }

    /// Each fault: one `Error:` line naming the provider and the cause, exit 1, the files and
    /// sightings as they were, both books pending; the next run with the provider back fills them in.
    @Test(arguments: [
        ("down", "", "cannot connect to 127.0.0.1:"),
        ("dns", "", "cannot resolve provider.invalid ("),
        ("status", "429", "HTTP 429 Too Many Requests from 127.0.0.1:%@ after 1 attempt"),
        ("status", "429:3600", "HTTP 429 Too Many Requests from 127.0.0.1:%@, Retry-After 3600 s is longer than 60 s"),
        ("status", "403", "HTTP 403 Forbidden from 127.0.0.1:%@ (refused; Open Library answers 403 past its rate limit)"),
        ("status", "403:1", "HTTP 403 Forbidden from 127.0.0.1:%@ after 1 attempt, Retry-After 1 s"),
        ("status", "500", "HTTP 500 Internal Server Error from 127.0.0.1:%@ after 1 attempt"),
        ("redirect-loop", "", "more than 5 redirects from 127.0.0.1:%@ ("),
        ("truncated", "", "answer from 127.0.0.1:%@ cut short ("),
        ("oversized", "", "answer from 127.0.0.1:%@ over the 4 MiB cap"),
        ("malformed", "", "malformed JSON (JSON text ends early (38 bytes))"),
        ("wrong-type", "", "answered text/html, expected JSON (HTTP 200 from 127.0.0.1:%@)"),
        ("drip", "", "no complete answer from 127.0.0.1:%@ in time ("),
    ])
    func aFaultLeavesTheCatalogueAndTheNextRunGoesOn(mode: String, argument: String, cause: String) throws {
        let (shelf, db) = try Self.catalogued()
        defer { shelf.remove() }
        let listed = try isbnscan(["catalog", "list", "--db", db]).stdout
        let server = ["down", "dns"].contains(mode) ? nil : try ProviderServer(mode, argument.isEmpty ? nil : argument)
        let base = mode == "down" ? "http://127.0.0.1:\(ProviderServer.closedPort())" : mode == "dns" ? "http://provider.invalid"
            : server!.base
        let failed = try isbnscan(["catalog", "lookup", "--db", db, "--provider", "openlibrary", "--retries", "0", "--timeout", "1"],
                                  environment: Self.environment(base))
        #expect(failed.status == 1)
        let stderr = failed.stderr.split(separator: "\n").map(String.init)
        #expect(stderr.count == 2)
        let expected = "Error: openlibrary: " + cause.replacingOccurrences(of: "%@", with: server.map { String($0.port) } ?? "")
        #expect(stderr.first?.hasPrefix(expected) == true, "\(stderr)")
        #expect(stderr.last == "catalog lookup: 2 books looked up: 0 found, 0 known to no provider, 2 failed; 2 pending in \(db) "
                               + "(no provider could answer: 'isbnscan catalog lookup --db \(db)' again goes on with them)")
        // The books left pending have no answer to print.
        #expect(failed.stdout == "")
        do {
            let catalog = try Catalog(path: db, access: .read)
            #expect(try catalog.pendingLookups().map(\.isbn13) == ["9780306406157", "9780553293357"])
            #expect(try catalog.pendingLookups().map(\.attempts) == [1, 1])
            #expect(try catalog.cachedLookups().isEmpty)
        }
        #expect(try isbnscan(["catalog", "list", "--db", db]).stdout == listed)

        let back = try ProviderServer()
        let resumed = try isbnscan(["catalog", "lookup", "--db", db, "--provider", "openlibrary"], environment: Self.environment(back.base))
        #expect(resumed.status == 4)
        #expect(resumed.stdout == Self.signals + "\n9780553293357: not known to openlibrary\n")
        #expect(try Catalog(path: db, access: .read).pendingLookups().isEmpty)
    }

    /// Every provider unreachable: each said once on stderr, then how many books stay pending;
    /// nothing on stdout (no line per book, text or JSON), exit 1; the books pending.
    @Test(arguments: [[], ["--json"]])
    func everyProviderDownIsSaidOnceNotOncePerBook(options: [String]) throws {
        let (shelf, db) = try Self.catalogued()
        defer { shelf.remove() }
        let port = ProviderServer.closedPort()
        let run = try isbnscan(["catalog", "lookup", "--db", db] + options, environment: Self.environment("http://127.0.0.1:\(port)"))
        #expect(run.status == 1)
        #expect(run.stdout == "")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        for (line, provider) in zip(lines, ["openlibrary", "google", "ndl"]) {
            #expect(line.hasPrefix("Error: \(provider): cannot connect to 127.0.0.1:\(port) ("), "\(line)")
        }
        #expect(lines.last == "catalog lookup: 2 books looked up: 0 found, 0 known to no provider, 2 failed; 2 pending in \(db) "
                              + "(no provider could answer: 'isbnscan catalog lookup --db \(db)' again goes on with them)")
        #expect(try Catalog(path: db, access: .read).pendingLookups().map(\.isbn13) == ["9780306406157", "9780553293357"])
    }

    /// A refresh that fails keeps the answers the catalogue had.
    @Test func aFailedRefreshKeepsTheEarlierAnswers() throws {
        let (shelf, db) = try Self.catalogued()
        defer { shelf.remove() }
        let server = try ProviderServer()
        _ = try isbnscan(["catalog", "lookup", "--db", db], environment: Self.environment(server.base))
        let down = try isbnscan(["catalog", "lookup", "--db", db, "--refresh"],
                                environment: Self.environment("http://127.0.0.1:\(ProviderServer.closedPort())"))
        #expect(down.status == 1)
        #expect(down.stdout == "")
        // One line per provider that failed, not one per book.
        let errors = down.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }.map { String($0.prefix(while: { $0 != ":" })) }
        #expect(errors == ["Error", "Error", "Error"])
        #expect(down.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }.map { $0.split(separator: " ")[1] }
                == ["openlibrary:", "google:", "ndl:"])
        let catalog = try Catalog(path: db, access: .read)
        #expect(try catalog.cachedLookups()["9780306406157"]?.metadata?.title == "Signals & systems")
        #expect(try catalog.pendingLookups().count == 2)
    }

    @Test(arguments: [
        (["catalog", "list", "--refresh"], "Error: --refresh goes with lookup"),
        (["catalog", "export", "--provider", "google"], "Error: --provider goes with lookup"),
        (["catalog", "lookup", "--provider", "amazon"], "Error: --provider 'amazon' is not one of openlibrary, google, ndl"),
        (["catalog", "merge", "--json", "x.db"], "Error: --json goes with list, stats and lookup"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try isbnscan(arguments + ["--db", "/nonexistent/books.db"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(message + "\n"))
    }

    @Test func anEmptyCatalogueHasNothingToLookUp() throws {
        let shelf = try Shelf(["a.png": "negative/blank.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        _ = try isbnscan(["scan", "--db", db, shelf.path + "/a.png"])
        let run = try isbnscan(["catalog", "lookup", "--db", db], environment: Self.environment("http://127.0.0.1:1"))
        #expect(run.status == 4)
        #expect(run.stderr == "catalog lookup: \(db) holds no book\n")
    }
}
