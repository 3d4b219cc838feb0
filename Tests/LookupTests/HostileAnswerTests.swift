// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISBN
import Records
import Testing
import TestSupport
@testable import Lookup

/// Answers written to hurt: what they become stays bounded by what they are, and nothing lowers
/// the transport's protection.
@Suite struct HostileAnswerTests {
    /// The one record of `digits` looked up at `providers` of `server`.
    func record(_ server: ProviderServer, _ providers: [Provider], _ digits: String = "9784048930659") throws -> LookupRecord {
        try #require(try records(lookup(server, providers: providers), [digits]).first)
    }

    /// An NDL RSS whose item (for 9784048930659) holds `inside` after its identifier, after `prolog`.
    func ndlAnswer(prolog: String = "", _ inside: String) -> [UInt8] {
        Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            \(prolog)<rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            version="2.0"><channel><item><dc:identifier xsi:type="dcndl:ISBN">9784048930659</dc:identifier>\(inside)</item>\
            </channel></rss>
            """.utf8)
    }

    static let refusal = "XML with a document type declaration (<!DOCTYPE>) refused: entities are not expanded"

    @Test func internalEntitiesAreNotExpanded() throws {
        // 1,000 characters used 1,000 times: 4 KB that would become a 1 MB title.
        let body = ndlAnswer(prolog: "<!DOCTYPE rss [<!ENTITY e \"\(String(repeating: "x", count: 1000))\">]>",
                             "<dc:title>\(String(repeating: "&e;", count: 1000))</dc:title>")
        #expect(BookLookup.parse(body, from: .ndl, isbn: try isbn("9784048930659")) == .failure(.init(message: Self.refusal)))
        // Nor in an element no field reads, nor in an attribute.
        let unread = ndlAnswer(prolog: "<!DOCTYPE rss [<!ENTITY e \"x\">]>", "<dc:title>T</dc:title><z a=\"&e;\">&e;</z>")
        #expect(BookLookup.parse(unread, from: .ndl, isbn: try isbn("9784048930659")) == .failure(.init(message: Self.refusal)))
    }

    @Test func aHostileNDLAnswerIsRefusedAtTheProvider() throws {
        let server = try ProviderServer("hostile", "ndl-entities")
        let found = try record(server, [.ndl])
        #expect(found.outcome == .failed(["ndl: " + Self.refusal]))
        #expect(found.text == "9784048930659: lookup failed: ndl: " + Self.refusal)
    }

    @Test func characterReferencesAndThePredefinedEntitiesStillResolve() throws {
        let body = ndlAnswer("<dc:title>Signals &amp; systems &#x2014; &lt;2&gt; <![CDATA[& more]]></dc:title>")
        let book = try BookLookup.parse(body, from: .ndl, isbn: try isbn("9784048930659")).get()
        #expect(book?.title == "Signals & systems — <2> & more")
    }

    /// Each element keeps its own text only: 250 nested elements of 4,000 characters each give
    /// 1,000,000 characters in all, not each element all the text below it (125 million).
    @Test func nestedTextIsCopiedOnce() throws {
        let text = String(repeating: "y", count: 4000)
        let body = ndlAnswer("<dc:title>Nested</dc:title>" + String(repeating: "<x>" + text, count: 250)
                             + String(repeating: "</x>", count: 250))
        let root = try XMLElement.parse(body)
        var total = 0, elements = 0
        var stack = [root]
        while let element = stack.popLast() {
            total += element.text.count
            elements += 1
            stack += element.children
        }
        #expect(total == 1_000_000 + "9784048930659".count + "Nested".count)
        #expect(elements == 3 + 2 + 250)
        #expect(try BookLookup.parse(body, from: .ndl, isbn: isbn("9784048930659")).get()?.title == "Nested")
    }

    @Test func nestedAnswerAtTheProviderIsRead() throws {
        let server = try ProviderServer("hostile", "ndl-nested")
        #expect(try record(server, [.ndl]).metadata?.title == "Nested")
    }

    /// Title and subtitle keep 2,000 Unicode scalars, other fields 10,000, the last one `…`: at
    /// every provider alike.
    @Test(arguments: [Provider.ndl, .openLibrary, .googleBooks])
    func longFieldsAreCut(provider: Provider) throws {
        let server = try ProviderServer("hostile", "long")
        let book = try #require(try record(server, [provider]).metadata)
        #expect(book.title == String(repeating: "本", count: 1999) + "…")
        #expect(book.title?.unicodeScalars.count == 2000)
        #expect(book.publisher == String(repeating: "p", count: 9999) + "…")
        #expect(book.authors == [String(repeating: "a", count: 9999) + "…"])
        #expect(book.subtitle == (provider == .ndl ? nil : String(repeating: "s", count: 1999) + "…"))
    }

    @Test func fieldsAtTheLimitAreKeptWhole() {
        let book = ResponseParser.bounded(BookMetadata(source: "x", title: String(repeating: "t", count: 2000),
                                                       publisher: String(repeating: "p", count: 10000)))
        #expect(book.title == String(repeating: "t", count: 2000))
        #expect(book.publisher == String(repeating: "p", count: 10000))
    }

    /// Open Library answers 20 ISBNs in one body: it is parsed once, not once per ISBN.
    @Test func openLibraryBatchIsParsedOnce() throws {
        let server = try ProviderServer("hostile", "openlibrary-batch")
        let lookup = try lookup(server, providers: [.openLibrary])
        let digits = (0..<20).map { n -> String in
            let twelve = "978000000" + String(format: "%03d", n)
            let sum = twelve.enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 0 ? 1 : 3) }
            return twelve + String((10 - sum % 10) % 10)
        }
        let found = try records(lookup, digits)
        #expect(found.map { $0.metadata?.title } == digits.map { "Padded ISBN:\($0)" })
        #expect(lookup.requests[.openLibrary] == 1)
        #expect(lookup.parses[.openLibrary] == 1)
    }

    /// A lookup that trusts the tests' self-signed certificate, asking only Open Library at `base`.
    func secureLookup(_ base: String) throws -> BookLookup {
        var options = LookupOptions()
        options.providers = [.openLibrary]
        options.bases = [.openLibrary: base]
        options.certificateAuthorities = ProviderServer.folder + "/self-signed.crt"
        return try BookLookup(options: options, version: "0.0-test")
    }

    @Test func anHTTPSRedirectToPlainHTTPIsRefused() throws {
        let plain = try ProviderServer()
        let secure = try ProviderServer("tls-redirect", plain.base)
        let found = try #require(try records(secureLookup("https://127.0.0.1:\(secure.port)"), ["9780451526533"]).first)
        #expect(found.outcome == .failed(["openlibrary: 127.0.0.1:\(secure.port) redirected an https request to http "
                                          + "(127.0.0.1:\(plain.port)); refused: a redirect may not lower https to http"]))
        #expect(try plain.log().isEmpty)
    }

    @Test func anHTTPSRedirectToHTTPSIsFollowed() throws {
        let target = try ProviderServer("tls")
        let secure = try ProviderServer("tls-redirect", "https://127.0.0.1:\(target.port)")
        let found = try #require(try records(secureLookup("https://127.0.0.1:\(secure.port)"), ["9780451526533"]).first)
        #expect(found.metadata?.title == "The adventures of Tom Sawyer")
        #expect(try target.log().count == 1)
    }

    /// A provider answering `Retry-After` to every request is waited on up to the run's limit
    /// (here 1.5 s), then given up for the run: the second ISBN is not asked.
    @Test func waitingOnOneProviderIsBoundedPerRun() throws {
        let server = try ProviderServer("status", "503:1")
        var options = LookupOptions()
        options.providers = [.googleBooks]
        options.bases = [.googleBooks: server.base]
        options.longestTotalWait = .milliseconds(1500)
        let lookup = try BookLookup(options: options, version: "0.0-test")
        let found = try records(lookup, ["9780451526533", "9780306406157"])
        let message = "google: HTTP 503 Service Unavailable from 127.0.0.1:\(server.port), Retry-After 1 s: waiting again "
            + "would pass the 1.5 s a run waits on one provider; not asked again in this run"
        #expect(found.map(\.outcome) == [.failed([message]), .failed([message])])
        #expect(lookup.requests[.googleBooks] == 2)
    }

    @Test func providerTextPrintsOnOneLineWithoutControls() throws {
        let server = try ProviderServer("hostile", "control")
        let found = try record(server, [.openLibrary], "9780451526533")
        #expect(found.metadata?.title == "Evil\u{1B}]0;pwned\u{07} title\n9784000000000: forged (ndl)")
        #expect(found.text == #"9780451526533: Evil\x1b]0;pwned\x07 title\n9784000000000: forged (ndl) / A\u202eB\u2028C\u0085D (openlibrary)"#)
    }
}
