// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// `isbnscan lookup` against the local provider server (never the internet).
@Suite struct LookupCommandTests {
    /// Every provider's base URL on `server` (or `base`), and a contact for the faster rate.
    func environment(_ server: ProviderServer?, base: String? = nil, contact: String? = "tests@example.org") -> [String: String] {
        let url = base ?? server!.base
        var environment = ["ISBNSCAN_OPENLIBRARY_URL": url, "ISBNSCAN_GOOGLE_BOOKS_URL": url, "ISBNSCAN_NDL_URL": url]
        environment["ISBNSCAN_CONTACT"] = contact
        return environment
    }

    @Test func textForFoundAndUnknownBooks() throws {
        let server = try ProviderServer()
        let run = try isbnscan(["lookup", "0-451-52653-8", "978-4-04-893065-9"], environment: environment(server))
        #expect(run.status == 0)
        #expect(run.stdout == """
            9780451526533: The adventures of Tom Sawyer / Mark Twain; Signet Classic, 1997; 216 pages (openlibrary)
            9784048930659: Clean Architecture : 達人に学ぶソフトウェアの構造と設計 / Martin, Robert C, 角, 征典, 高木, 正弘; \
            ドワンゴ; KADOKAWA (発売), 2018.7; 349 pages (ndl)

            """)
        #expect(run.stderr == "")
    }

    @Test func jsonOfABookNobodyKnowsAndExitFour() throws {
        let server = try ProviderServer()
        let run = try isbnscan(["lookup", "--json", "--provider", "google,openlibrary", "9781234567897"], environment: environment(server))
        #expect(run.status == 4)
        #expect(run.stdout == """
            {"isbn13": "9781234567897", "found": false, "title": null, "title_reading": null, "subtitle": null, \
            "authors": null, "by_statement": null, "publisher": null, "published": null, "year": null, "pages": null, \
            "language": null, "subjects": null, "cover": null, "source": null, "url": null, "error": null}

            """)
        #expect(try server.log().map(\.path) == ["/books/v1/volumes?q=isbn:9781234567897",
                                                 "/api/books?bibkeys=ISBN:9781234567897&format=json&jscmd=data"])
    }

    /// libcurl takes the proxy from the environment, as curl does: the request for a host that
    /// does not resolve goes to the proxy (here the provider server, which answers it), with
    /// the whole URL as its target; no_proxy names the hosts asked directly.
    @Test func theProxyComesFromTheEnvironment() throws {
        let server = try ProviderServer()
        var proxied = environment(nil, base: "http://books.example.invalid")
        proxied["http_proxy"] = "http://127.0.0.1:\(server.port)"
        let run = try isbnscan(["lookup", "--provider", "openlibrary", "0-451-52653-8"], environment: proxied)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("9780451526533: The adventures of Tom Sawyer / Mark Twain; "))
        #expect(try server.log().map(\.path)
                == ["http://books.example.invalid/api/books?bibkeys=ISBN:9780451526533&format=json&jscmd=data"])
        proxied["no_proxy"] = "books.example.invalid"
        let direct = try isbnscan(["lookup", "--provider", "openlibrary", "0-451-52653-8"], environment: proxied)
        #expect(direct.status == 1)
        #expect(direct.stdout.hasPrefix("9780451526533: lookup failed: openlibrary: cannot resolve books.example.invalid ("))
        #expect(try server.log().count == 1)
    }

    @Test func invalidISBNIsRefusedBeforeAnyRequest() throws {
        let server = try ProviderServer()
        let run = try isbnscan(["lookup", "9780451526534", "12345"], environment: environment(server))
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            Error: 9780451526534: not an ISBN, check-digit: check digit is 4, expected 3
            Error: 12345: not an ISBN, length: 5 digits, an ISBN has 10 or 13

            """)
        #expect(try server.log().isEmpty)
    }

    @Test func providerDownIsExitOneWithTheCause() throws {
        let port = ProviderServer.closedPort()
        let run = try isbnscan(["lookup", "--provider", "openlibrary", "9780451526533"],
                               environment: environment(nil, base: "http://127.0.0.1:\(port)"))
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("9780451526533: lookup failed: openlibrary: cannot connect to 127.0.0.1:\(port) ("))
        #expect(run.stderr.hasPrefix("Error: openlibrary: cannot connect to 127.0.0.1:\(port) ("))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func aFailingProviderIsAWarningWhenAnotherKnowsTheBook() throws {
        let server = try ProviderServer()
        var env = environment(server)
        env["ISBNSCAN_OPENLIBRARY_URL"] = "http://provider.invalid"
        let run = try isbnscan(["lookup", "9780140328721"], environment: env)
        #expect(run.status == 0)
        #expect(run.stdout == "9780140328721: Fantastic Mr. Fox / Roald Dahl; Puffin, 1988-10-01; 96 pages (google)\n")
        #expect(run.stderr.hasPrefix("Warning: openlibrary: cannot resolve provider.invalid ("))
    }

    @Test func userAgentFromTheEnvironmentOrOption() throws {
        let server = try ProviderServer()
        _ = try isbnscan(["lookup", "--provider", "openlibrary", "9780451526533"], environment: environment(server, contact: "env@example.org"))
        _ = try isbnscan(["lookup", "--provider", "openlibrary", "--contact", "https://example.org/me", "9780451526533"],
                         environment: environment(server, contact: nil))
        _ = try isbnscan(["lookup", "--provider", "openlibrary", "9780451526533"], environment: environment(server, contact: nil))
        #expect(try server.log().map(\.userAgent) == ["isbnscan/0.2.0 (env@example.org)", "isbnscan/0.2.0 (https://example.org/me)",
                                                      "isbnscan/0.2.0"])
    }

    @Test func standardInput() throws {
        let server = try ProviderServer()
        let input = NSTemporaryDirectory() + "lookup-input-\(UUID().uuidString)"
        try "9780451526533\n\n9781234567897\r\n".write(toFile: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let run = try isbnscan(["lookup", "--provider", "openlibrary", "-"], stdinFile: input, environment: environment(server))
        #expect(run.status == 4)
        #expect(run.stdout.split(separator: "\n") == ["9780451526533: The adventures of Tom Sawyer / Mark Twain; Signet Classic, 1997; 216 pages (openlibrary)",
                                                      "9781234567897: not known to openlibrary"])
        #expect(try server.log().count == 1)
    }

    @Test(arguments: [
        (["lookup", "--provider", "amazon", "9780451526533"], "Error: --provider 'amazon' is not one of openlibrary, google, ndl"),
        (["lookup", "--retries", "99", "9780451526533"], "Error: --retries 99 is outside 0...10"),
        (["lookup", "--contact", "me (x)", "9780451526533"],
         "Error: --contact 'me (x)' must be printable ASCII without parentheses (an e-mail address or URL)"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try isbnscan(arguments, environment: [:])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(message + "\nUsage: isbnscan lookup "))
    }

    @Test func baseURLWithAPathIsAUsageError() throws {
        let run = try isbnscan(["lookup", "9780451526533"], environment: ["ISBNSCAN_NDL_URL": "http://127.0.0.1:1/api/opensearch"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("""
            Error: ISBNSCAN_NDL_URL: 'http://127.0.0.1:1/api/opensearch' has a path; give scheme, host and port only (the path is the provider's)
            """))
    }
}
