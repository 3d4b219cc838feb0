// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// `lookup`, `catalog lookup` and `scan --lookup` against hostile answers from the local provider
/// server: every line printed is one line without controls, and memory stays bounded.
@Suite struct HostileLookupTests {
    /// What the `control` answer's book prints as: ESC, BEL, the newline, U+202E, U+2028 and
    /// U+0085 escaped as in file names.
    static func controlLine(_ isbn13: String) -> String {
        #"\#(isbn13): Evil\x1b]0;pwned\x07 title\n9784000000000: forged (ndl) / A\u202eB\u2028C\u0085D (openlibrary)"#
    }

    @Test func lookupPrintsProviderTextEscaped() throws {
        let server = try ProviderServer("hostile", "control")
        let run = try isbnscan(["lookup", "--provider", "openlibrary", "0-451-52653-8"],
                               environment: CatalogLookupTests.environment(server.base))
        #expect(run.status == 0)
        #expect(run.stdout == Self.controlLine("9780451526533") + "\n")
        #expect(run.stderr == "")
        // JSON escapes as RFC 8259 says, and keeps the text as sent.
        let json = try isbnscan(["lookup", "--json", "--provider", "openlibrary", "0-451-52653-8"],
                                environment: CatalogLookupTests.environment(server.base))
        #expect(json.stdout.hasPrefix(#"{"isbn13": "9780451526533", "found": true, "title": "Evil\u001b]0;pwned\u0007 title\n9784000000000: forged (ndl)", "#))
    }

    @Test func catalogLookupPrintsProviderTextEscaped() throws {
        let (shelf, db) = try CatalogLookupTests.catalogued()
        defer { shelf.remove() }
        let server = try ProviderServer("hostile", "control")
        let run = try isbnscan(["catalog", "lookup", "--db", db, "--provider", "openlibrary"],
                               environment: CatalogLookupTests.environment(server.base))
        #expect(run.status == 0)
        #expect(run.stdout == Self.controlLine("9780306406157") + "\n" + Self.controlLine("9780553293357") + "\n")
    }

    @Test func scanLookupPrintsProviderTextEscaped() throws {
        let server = try ProviderServer("hostile", "control")
        let run = try isbnscan(["scan", "--lookup", "--provider", "openlibrary", BackgroundLookupTests.gray8],
                               environment: CatalogLookupTests.environment(server.base))
        #expect(run.status == 0)
        #expect(run.stdout == "9780306406157\n" + Self.controlLine("9780306406157") + "\n")
    }

    /// The hostile NDL answers (an entity of 10,000 characters used 10,000 times; 3.9 MB in 250
    /// nested elements; a 3 MB title) and Open Library's 4 MB batch, each through a whole
    /// `lookup`: the process peaks under 100 MB, and what it prints is bounded by the field limits.
    @Test(arguments: [("ndl-entities", "ndl", 1), ("ndl-nested", "ndl", 0), ("long", "ndl", 0),
                      ("long", "openlibrary", 0), ("openlibrary-batch", "openlibrary", 0)])
    func memoryPerParseIsBounded(answer: String, provider: String, status: Int32) throws {
        let server = try ProviderServer("hostile", answer)
        let measured = try isbnscanMeasured(["lookup", "--provider", provider, "978-4-04-893065-9"],
                                            environment: CatalogLookupTests.environment(server.base))
        #expect(measured.run.status == status, "\(measured.run.stderr)")
        #expect(measured.run.stdout.split(separator: "\n").count == 1)
        #expect(measured.run.stdout.utf8.count < 2_000 * 3 + 3 * 10_000 + 100)
        #expect(measured.peak(isUnder: 100_000), "peak \(measured.peakKiB) KiB")
    }
}
