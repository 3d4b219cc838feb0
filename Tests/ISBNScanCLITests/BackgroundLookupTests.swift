// SPDX-License-Identifier: Apache-2.0
import Catalog
import Foundation
import Testing
import TestSupport

/// `scan --lookup` and `camera --lookup` against the local provider server: books looked up
/// after they are printed and recorded, the network down costing no scan.
@Suite struct BackgroundLookupTests {
    static let gray8 = testImages + "/isbn/png-gray8.png"     // 9780306406157, known to Open Library
    static let addOn = testImages + "/isbn/addon-ean5.png"    // 9780553293357, known to no provider
    static let signals = CatalogLookupTests.signals

    static func down() -> [String: String] {
        CatalogLookupTests.environment("http://127.0.0.1:\(ProviderServer.closedPort())")
    }

    @Test func textLinesFollowTheScanWithoutACatalogue() throws {
        let server = try ProviderServer()
        let run = try isbnscan(["scan", "--lookup", Self.gray8, Self.addOn], environment: CatalogLookupTests.environment(server.base))
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // A book's line comes once it is known: after its file's line, in the order asked.
        #expect(lines.filter { $0.hasPrefix("/") } == ["\(Self.gray8): 9780306406157", "\(Self.addOn): 9780553293357"])
        #expect(lines.filter { !$0.hasPrefix("/") } == [Self.signals, "9780553293357: not known to openlibrary, google, ndl"])
        #expect(lines.firstIndex(of: Self.signals)! > lines.firstIndex(of: "\(Self.gray8): 9780306406157")!)
        #expect(run.stderr.hasSuffix("lookup: 2 books looked up: 1 found, 1 known to no provider, 0 failed\n"))
    }

    @Test func jsonGetsABookObject() throws {
        let server = try ProviderServer()
        let run = try isbnscan(["scan", "--json", "--lookup", "--provider", "openlibrary", Self.gray8],
                               environment: CatalogLookupTests.environment(server.base))
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"file": "#))
        #expect(lines[1].hasPrefix(#"{"book": {"isbn13": "9780306406157", "found": true, "title": "Signals & systems", "#))
        #expect(lines[1].hasSuffix(#""source": "openlibrary", "url": "https://openlibrary.org/books/OL2281010M/Signals_systems", "error": null}}"#))
    }

    /// The network down: every file recorded and printed, one line saying the lookups are
    /// pending, the exit status of the scan; `catalog lookup` then goes on with them.
    @Test func networkDownRecordsEverythingAndLeavesTheLookupsPending() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "isbn/addon-ean5.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let run = try isbnscan(["scan", "--lookup", "--db", db, shelf.path], environment: Self.down())
        #expect(run.status == 0)
        #expect(run.stdout == "\(shelf.path)/a.png: 9780306406157\n\(shelf.path)/b.png: 9780553293357\n")
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning: ") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("Warning: 2 book lookups pending (openlibrary: cannot connect to 127.0.0.1:") == true)
        #expect(warnings.first?.hasSuffix("; 'isbnscan catalog lookup --db \(db)' goes on with them") == true)
        #expect(!run.stderr.contains("Error:"))
        try Self.expectBothPendingThenLookedUp(db)
    }

    /// A provider that accepts the request and never answers: every file printed and recorded at
    /// once, and the answers awaited one request's timeout (15 s) after the scan, not each
    /// provider's in turn: the run ends with the scan's status, the lookups pending in the
    /// catalogue, and `catalog lookup` does them.
    @Test func aStallingProviderIsAwaitedOneTimeoutAndTheLookupsStayPending() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "isbn/addon-ean5.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let stalled = try ProviderServer("stall")
        let run = try isbnscan(["scan", "--lookup", "--db", db, shelf.path], environment: CatalogLookupTests.environment(stalled.base))
        #expect(run.status == 0)
        #expect(run.stdout == "\(shelf.path)/a.png: 9780306406157\n\(shelf.path)/b.png: 9780553293357\n")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("Warning: ") } == [
            "Warning: 2 book lookups pending (2 still unanswered 15 s after the scan ended); 'isbnscan catalog lookup --db \(db)' goes on with them"])
        #expect(lines.contains { $0.hasPrefix("scanned 2 files: 2 with an ISBN, ") })
        #expect(!run.stderr.contains("Error:"))
        // Open Library (and at most the next provider, if Open Library's timeout came first) asked; never the third.
        let asked = try stalled.log().map(\.path)
        #expect(asked.first?.hasPrefix("/api/books?bibkeys=ISBN:9780306406157") == true)
        #expect(asked.count <= 2 && !asked.contains { $0.hasPrefix("/api/opensearch") }, "\(asked)")
        try Self.expectBothPendingThenLookedUp(db)
    }

    /// The shelf's two books recorded in `db` with their lookups pending; `catalog lookup` with
    /// the providers up then does both (one known, one not: status 4) and leaves none pending.
    static func expectBothPendingThenLookedUp(_ db: String) throws {
        let catalog = try Catalog(path: db, access: .read)
        #expect(try catalog.books().map(\.isbn13) == ["9780306406157", "9780553293357"])
        #expect(try catalog.pendingLookups().map(\.isbn13).sorted() == ["9780306406157", "9780553293357"])

        let server = try ProviderServer()
        let resumed = try isbnscan(["catalog", "lookup", "--db", db], environment: CatalogLookupTests.environment(server.base))
        #expect(resumed.status == 4)
        #expect(resumed.stdout == Self.signals + "\n9780553293357: not known to openlibrary, google, ndl\n")
        #expect(try Catalog(path: db, access: .read).pendingLookups().isEmpty)
    }

    /// Without a catalogue, lookups that cannot be done are said failed in one line; the scan's
    /// results and exit status are as without --lookup.
    @Test func networkDownWithoutACatalogueSaysTheLookupsFailed() throws {
        let run = try isbnscan(["scan", "--lookup", "--provider", "openlibrary,google", Self.gray8, Self.addOn],
                               environment: Self.down())
        #expect(run.status == 0)
        #expect(run.stdout == "\(Self.gray8): 9780306406157\n\(Self.addOn): 9780553293357\n")
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning: ") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("Warning: 2 book lookups failed (openlibrary: cannot connect to 127.0.0.1:") == true)
        #expect(warnings.first?.contains("; google: cannot connect to 127.0.0.1:") == true)
        #expect(run.stderr.contains("lookup: 2 books looked up: 0 found, 0 known to no provider, 2 failed\n"))
    }

    /// With --db the answers go into the catalogue, not on stdout; a book it has an answer for
    /// is not asked again.
    @Test func withACatalogueTheAnswersAreStoredAndNotAskedAgain() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let server = try ProviderServer()
        let first = try isbnscan(["scan", "--lookup", "--db", db, shelf.path + "/a.png"],
                                 environment: CatalogLookupTests.environment(server.base))
        #expect(first.status == 0)
        #expect(first.stdout == "9780306406157\n")
        #expect(first.stderr == "lookup: 1 book looked up: 1 found, 0 known to no provider, 0 failed\n")
        #expect(try Catalog(path: db, access: .read).cachedLookup(of: "9780306406157")?.metadata?.title == "Signals & systems")
        #expect(try server.log().count == 1)
        let again = try isbnscan(["scan", "--lookup", "--rescan", "--db", db, shelf.path + "/a.png"],
                                 environment: CatalogLookupTests.environment(server.base))
        #expect(again.status == 0)
        #expect(again.stderr == "")
        #expect(try server.log().count == 1)
    }

    @Test(arguments: [
        (["scan", "--lookup", "--csv", "x.png"], "Error: --lookup with --csv needs --db: the answers go into the catalogue ('catalog export' then has them)"),
        (["scan", "--provider", "google", "x.png"], "Error: --provider goes with --lookup"),
        (["camera", "--contact", "me@example.org"], "Error: --contact goes with --lookup"),
        (["scan", "--lookup", "--timeout", "3", "x.png"], "Error: unknown option '--timeout'"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try isbnscan(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    }

    @Test func cameraPrintsTheBookAfterItsISBN() throws {
        let server = try ProviderServer()
        let fake = CameraCommandTests.Fake(["FRAMES": Self.gray8])
        let run = try fake.run(["--roi", "0,0,1,1", "--timeout", "20", "--lookup"], environment: CatalogLookupTests.environment(server.base))
        #expect(run.status == 0)
        #expect(run.stdout == "9780306406157\n" + Self.signals + "\n")
        #expect(run.stderr.contains("lookup: 1 book looked up: 1 found, 0 known to no provider, 0 failed\n"))
        let json = try fake.run(["--roi", "0,0,1,1", "--timeout", "20", "--lookup", "--json"],
                                environment: CatalogLookupTests.environment(server.base))
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"device": "/dev/video0", "#))
        #expect(lines[1].hasPrefix(#"{"book": {"isbn13": "9780306406157", "found": true, "#))
    }

    @Test func cameraWithTheNetworkDownRecordsAndSaysTheLookupIsPending() throws {
        let shelf = try Shelf(["placeholder": "text:x"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let fake = CameraCommandTests.Fake(["FRAMES": Self.gray8])
        let run = try fake.run(["--roi", "0,0,1,1", "--timeout", "20", "--lookup", "--db", db], environment: Self.down())
        #expect(run.status == 0)
        #expect(run.stdout == "9780306406157\n")
        #expect(run.stderr.contains("Warning: 1 book lookup pending (openlibrary: cannot connect to 127.0.0.1:"))
        #expect(run.stderr.contains("; 'isbnscan catalog lookup --db \(db)' goes on with them\n"))
        let catalog = try Catalog(path: db, access: .read)
        #expect(try catalog.books().map(\.isbn13) == ["9780306406157"])
        #expect(try catalog.pendingLookups().map(\.isbn13) == ["9780306406157"])
    }

    /// The preview's status strip shows the last book's title once the lookup knows it: the
    /// strip's text (white) is longer by the title's letters than when no provider can answer.
    @Test func thePreviewShowsTheTitleOfTheLastBook() throws {
        let xvfb = try CameraPreviewTests.Xvfb()
        defer { xvfb.stop() }
        func stripInk(_ environment: [String: String], waitFor line: String) throws -> (ink: Int, stdout: String) {
            let session = try CameraPreviewTests.Session(["FRAMES": Self.gray8, "SIZES": "640x480", "CHROMA": "neutral"],
                                                         arguments: ["--size", "640x480", "--roi", "0,0,1,1", "--continuous", "--lookup",
                                                                     "--provider", "openlibrary"],
                                                         display: xvfb.display, environment: environment)
            #expect(session.wait { session.stdout.contains(line) })
            usleep(600_000)   // a few redraws with the answer
            try session.key("q")
            #expect(session.finish() == 0)
            let picture = try CameraPreviewTests.Picture(path: session.snapshot)
            var ink = 0
            for y in 480..<picture.height { for x in 0..<picture.width {
                let p = picture.pixel(x, y)
                if p.r > 200 && p.g > 200 && p.b > 200 { ink += 1 }
            } }
            return (ink, session.stdout)
        }
        let server = try ProviderServer()
        let known = try stripInk(CatalogLookupTests.environment(server.base), waitFor: Self.signals)
        #expect(known.stdout == "9780306406157\n" + Self.signals + "\n")
        let unknown = try stripInk(Self.down(), waitFor: "9780306406157\n")
        // "Signals & systems" in quotes: 17 letters and signs, 5x7 each, at least 6 lit pixels apiece.
        #expect(known.ink - unknown.ink > 100, "strip ink \(known.ink) with the title, \(unknown.ink) without")
    }
}
