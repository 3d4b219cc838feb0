// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISBN
import Records
import Testing
import TestSupport
@testable import Lookup

/// An accepted ISBN from its 13 digits.
func isbn(_ digits: String) throws -> ISBN { try #require(ISBN.judge(typed: digits, accepting: .with979).isbn) }

/// A lookup against `server` for every provider, fast retries, short timeout, `providers` in order.
func lookup(_ server: ProviderServer?, providers: [Provider] = Provider.defaultOrder, retries: Int = 2,
            timeout: Double = 5, contact: String? = "tests@example.org", base: String? = nil) throws -> BookLookup {
    var options = LookupOptions()
    options.providers = providers
    options.retries = retries
    options.timeout = timeout
    options.backoff = .milliseconds(50)
    options.contact = contact
    for provider in Provider.allCases { options.bases[provider] = base ?? server!.base }
    return try BookLookup(options: options, version: "0.0-test")
}

func records(_ lookup: BookLookup, _ digits: [String]) throws -> [LookupRecord] {
    var out: [LookupRecord] = []
    lookup.lookUp(try digits.map(isbn)) { out.append($0) }
    return out
}

@Suite struct BookLookupTests {
    @Test func openLibraryEntryGivesEveryField() throws {
        let server = try ProviderServer()
        let record = try #require(try records(lookup(server), ["9780451526533"]).first)
        #expect(record.outcome == .found(BookMetadata(
            source: "openlibrary", title: "The adventures of Tom Sawyer", authors: ["Mark Twain"], publisher: "Signet Classic",
            published: "1997", pages: 216, subjects: ["Sawyer, Tom (Fictitious character)", "Mississippi River Valley"],
            cover: "https://covers.openlibrary.org/b/id/295577-L.jpg",
            url: "https://openlibrary.org/books/OL1017798M/The_adventures_of_Tom_Sawyer")))
        #expect(record.metadata?.year == 1997)
        #expect(record.json.encoded == """
            {"isbn13": "9780451526533", "found": true, "title": "The adventures of Tom Sawyer", "title_reading": null, \
            "subtitle": null, "authors": ["Mark Twain"], "by_statement": null, "publisher": "Signet Classic", \
            "published": "1997", "year": 1997, "pages": 216, "language": null, "subjects": ["Sawyer, Tom (Fictitious character)", \
            "Mississippi River Valley"], "cover": "https://covers.openlibrary.org/b/id/295577-L.jpg", "source": "openlibrary", \
            "url": "https://openlibrary.org/books/OL1017798M/The_adventures_of_Tom_Sawyer", "error": null}
            """)
    }

    @Test func untidyOpenLibraryEntry() throws {
        // HTML entities, a blank subtitle, no authors but a by_statement, two publishers, pages only in the pagination.
        let server = try ProviderServer()
        let book = try #require(try records(lookup(server), ["9780306406157"]).first?.metadata)
        #expect(book.title == "Signals & systems")
        #expect(book.subtitle == nil)
        #expect(book.authors == nil)
        #expect(book.byStatement == "edited by A. V. Oppenheim & A. S. Willsky.")
        #expect(book.publisher == "Plenum Press; Springer")
        #expect(book.published == "March 1988")
        #expect(book.year == 1988)
        #expect(book.pages == 345)
    }

    @Test func severalISBNsInOneOpenLibraryRequest() throws {
        let server = try ProviderServer()
        let found = try records(lookup(server, providers: [.openLibrary]), ["9780451526533", "9780306406157", "9781234567897"])
        #expect(found.map(\.isbn13) == ["9780451526533", "9780306406157", "9781234567897"])
        #expect(found[2].outcome == .notFound(providers: ["openlibrary"]))
        let paths = try server.log().map(\.path)
        #expect(paths == ["/api/books?bibkeys=ISBN:9780451526533,ISBN:9780306406157,ISBN:9781234567897&format=json&jscmd=data"])
    }

    @Test func googleBooksIsTheFallbackAndPicksTheVolumeOfTheISBN() throws {
        let server = try ProviderServer()
        let record = try #require(try records(lookup(server), ["9780140328721"]).first)
        #expect(record.outcome == .found(BookMetadata(
            source: "google", title: "Fantastic Mr. Fox", authors: ["Roald Dahl"], publisher: "Puffin", published: "1988-10-01",
            pages: 96, language: "en", subjects: ["Juvenile Fiction"],
            cover: "http://books.google.com/books/content?id=xZ0HAQAAMAAJ&printsec=frontcover&img=1&zoom=1",
            url: "http://books.google.com/books?id=xZ0HAQAAMAAJ&dq=isbn:9780140328721")))
        #expect(try server.log().map(\.path) == ["/api/books?bibkeys=ISBN:9780140328721&format=json&jscmd=data",
                                                 "/books/v1/volumes?q=isbn:9780140328721"])
    }

    @Test func ndlIsAskedFirstForJapaneseISBNs() throws {
        let server = try ProviderServer()
        let record = try #require(try records(lookup(server), ["9784048930659"]).first)
        let book = try #require(record.metadata)
        #expect(book.source == "ndl")
        #expect(book.title == "Clean Architecture : 達人に学ぶソフトウェアの構造と設計")
        #expect(book.titleReading == "クリーン アーキテクチャ : タツジン ニ マナブ ソフトウェア ノ コウゾウ ト セッケイ")
        #expect(book.authors == ["Martin, Robert C", "角, 征典", "高木, 正弘"])
        #expect(book.publisher == "ドワンゴ; KADOKAWA (発売)")
        #expect(book.published == "2018.7")
        #expect(book.year == 2018)
        #expect(book.pages == 349)
        #expect(book.subjects == ["システム設計"])
        #expect(book.cover == nil)
        #expect(book.url == "https://ndlsearch.ndl.go.jp/books/R100000002-I029096886")
        #expect(try server.log().map(\.path) == ["/api/opensearch?isbn=9784048930659"])
    }

    @Test func ndlListingOnlyAnotherBookIsNotFoundAndTheNextProviderIsAsked() throws {
        // NDL's only record for 9784101010014 is 978-4-06-000000-2: its title must not be stored for this ISBN.
        let server = try ProviderServer()
        let record = try #require(try records(lookup(server, providers: [.ndl, .googleBooks]), ["9784101010014"]).first)
        #expect(record.outcome == .notFound(providers: ["ndl", "google"]))
        #expect(record.metadata == nil)
        #expect(try server.log().map(\.path) == ["/api/opensearch?isbn=9784101010014", "/books/v1/volumes?q=isbn:9784101010014"])
    }

    @Test func aBookNobodyKnowsIsAResult() throws {
        let server = try ProviderServer()
        let record = try #require(try records(lookup(server), ["9781234567897"]).first)
        #expect(record.outcome == .notFound(providers: ["openlibrary", "google", "ndl"]))
        #expect(record.text == "9781234567897: not known to openlibrary, google, ndl")
        #expect(record.json.encoded.hasPrefix(#"{"isbn13": "9781234567897", "found": false, "title": null,"#))
        #expect(record.json.encoded.hasSuffix(#""source": null, "url": null, "error": null}"#))
    }

    @Test func userAgentNamesTheContact() throws {
        let server = try ProviderServer()
        _ = try records(lookup(server, providers: [.openLibrary]), ["9780451526533"])
        #expect(try server.log().map(\.userAgent) == ["isbnscan/0.0-test (tests@example.org)"])
        #expect(BookLookup.userAgent(version: "1.2", contact: nil) == "isbnscan/1.2")
    }

    @Test func openLibraryRateIsKept() throws {
        // 3 requests/s with a contact: each request starts at least 1/3 s after the one before.
        let server = try ProviderServer("status", "404")
        let lookup = try lookup(server, providers: [.openLibrary], retries: 0)
        for digits in ["9780451526533", "9780306406157", "9780140328721", "9781234567897"] {
            _ = try records(lookup, [digits])
        }
        let times = try server.log().map(\.time)
        #expect(times.count == 4)
        // Measured where the server logs arrivals: a reused connection can arrive a few ms early.
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= 0.25) }
    }
}

@Suite struct ProviderFaultTests {
    /// The failure message of looking up 9780306406157 at Open Library alone.
    func failure(_ server: ProviderServer?, base: String? = nil, retries: Int = 2, timeout: Double = 5) throws -> String {
        let record = try #require(try records(lookup(server, providers: [.openLibrary], retries: retries, timeout: timeout, base: base),
                                              ["9780306406157"]).first)
        guard case .failed(let messages) = record.outcome else { Issue.record("not a failure: \(record)"); return "" }
        #expect(record.json.encoded.contains(#""found": null"#))
        return messages.joined(separator: "; ")
    }

    @Test func providerDown() throws {
        let port = ProviderServer.closedPort()
        let message = try failure(nil, base: "http://127.0.0.1:\(port)")
        #expect(message.hasPrefix("openlibrary: cannot connect to 127.0.0.1:\(port) ("))
    }

    @Test func dnsFailure() throws {
        let message = try failure(nil, base: "http://provider.invalid")
        #expect(message.hasPrefix("openlibrary: cannot resolve provider.invalid ("))
    }

    @Test func unreachableProviderIsNotAskedAgain() throws {
        let port = ProviderServer.closedPort()
        var options = LookupOptions()
        options.providers = [.openLibrary]
        options.bases = [.openLibrary: "http://127.0.0.1:\(port)"]
        let lookup = try BookLookup(options: options, version: "0")
        var found: [LookupRecord] = []
        // Two batches of Open Library's 20: the second is not sent.
        lookup.lookUp(try (0..<21).map { _ in try isbn("9780140328721") }) { found.append($0) }
        #expect(lookup.requests[.openLibrary] == 1)
        #expect(found.count == 21)
        guard case .failed(let messages) = found.last?.outcome else { Issue.record("not a failure"); return }
        #expect(messages.count == 1)
        #expect(messages[0].hasPrefix("openlibrary: cannot connect to 127.0.0.1:\(port)"))
    }

    /// Past its rate limit (403, or 429 after the retries) a provider is not asked again in the run.
    @Test(arguments: [("403", 1), ("429", 2)])
    func refusingProviderIsNotAskedAgain(argument: String, requests: Int) throws {
        let server = try ProviderServer("status", argument)
        let lookup = try lookup(server, providers: [.openLibrary, .googleBooks], retries: 1)
        var found: [LookupRecord] = []
        lookup.lookUp(try (0..<21).map { _ in try isbn("9780140328721") }) { found.append($0) }
        #expect(lookup.requests[.openLibrary] == requests)
        #expect(lookup.requests[.googleBooks] == requests)
        #expect(found.count == 21)
        guard case .failed(let messages) = found.last?.outcome else { Issue.record("not a failure"); return }
        #expect(messages.map { $0.prefix(while: { $0 != ":" }) } == ["openlibrary", "google"])
    }

    @Test func timeoutOnASlowDrip() throws {
        let server = try ProviderServer("drip")
        let message = try failure(server, timeout: 1)
        #expect(message.hasPrefix("openlibrary: no complete answer from 127.0.0.1:\(server.port) in time ("))
    }

    @Test(arguments: [("status", "429", "HTTP 429 Too Many Requests from %@ after 3 attempts", 3),
                      ("status", "503:1", "HTTP 503 Service Unavailable from %@ after 3 attempts, Retry-After 1 s", 3),
                      ("status", "500", "HTTP 500 Internal Server Error from %@ after 3 attempts", 3),
                      ("status", "403", "HTTP 403 Forbidden from %@ (refused; Open Library answers 403 past its rate limit)", 1),
                      ("status", "403:1", "HTTP 403 Forbidden from %@ after 3 attempts, Retry-After 1 s", 3),
                      ("status", "429:3600", "HTTP 429 Too Many Requests from %@, Retry-After 3600 s is longer than 60 s", 1),
                      ("status", "404", "HTTP 404 Not Found from %@", 1)])
    func httpStatus(mode: String, argument: String, expected: String, requests: Int) throws {
        let server = try ProviderServer(mode, argument)
        let message = try failure(server)
        #expect(message == "openlibrary: " + expected.replacingOccurrences(of: "%@", with: "127.0.0.1:\(server.port)"))
        #expect(try server.log().count == requests)
    }

    @Test(arguments: ["429:1", "429", "503"])
    func retriedUntilAnswered(argument: String) throws {
        let server = try ProviderServer("flaky", argument)
        let record = try #require(try records(lookup(server, providers: [.openLibrary]), ["9780451526533"]).first)
        #expect(record.metadata?.title == "The adventures of Tom Sawyer")
        let log = try server.log()
        #expect(log.count == 2)
        if argument == "429:1" { #expect(log[1].time - log[0].time >= 0.9) }
    }

    @Test func selfSignedCertificateIsRefused() throws {
        let server = try ProviderServer("tls")
        let message = try failure(server, base: "https://127.0.0.1:\(server.port)")
        #expect(message.hasPrefix("openlibrary: TLS with 127.0.0.1:\(server.port) failed ("))
        #expect(message.contains("certificate"))
    }

    @Test func redirectLoop() throws {
        let server = try ProviderServer("redirect-loop")
        #expect(try failure(server).hasPrefix("openlibrary: more than 5 redirects from 127.0.0.1:\(server.port) ("))
        #expect(try server.log().count == 6)
    }

    @Test func redirectToAFileIsNotFollowed() throws {
        let server = try ProviderServer("redirect-file")
        #expect(try failure(server).hasPrefix("openlibrary: only http and https URLs are followed ("))
    }

    @Test func bodyCutShort() throws {
        let server = try ProviderServer("truncated")
        #expect(try failure(server).hasPrefix("openlibrary: answer from 127.0.0.1:\(server.port) cut short ("))
    }

    @Test(arguments: ["oversized", "oversized-stream"])
    func oversizedBody(mode: String) throws {
        let server = try ProviderServer(mode)
        #expect(try failure(server).hasPrefix("openlibrary: answer from 127.0.0.1:\(server.port) over the 4 MiB cap"))
    }

    @Test func malformedJSON() throws {
        let server = try ProviderServer("malformed")
        #expect(try failure(server) == "openlibrary: malformed JSON (JSON text ends early (38 bytes))")
    }

    @Test func malformedXML() throws {
        let server = try ProviderServer("malformed")
        let record = try #require(try records(lookup(server, providers: [.ndl]), ["9784048930659"]).first)
        guard case .failed(let messages) = record.outcome else { Issue.record("not a failure"); return }
        #expect(messages.count == 1)
        #expect(messages[0].hasPrefix("ndl: malformed XML ("))
    }

    @Test func wrongContentType() throws {
        let server = try ProviderServer("wrong-type")
        #expect(try failure(server) == "openlibrary: answered text/html, expected JSON (HTTP 200 from 127.0.0.1:\(server.port))")
    }
}

@Suite struct ResponseParserTests {
    /// An NDL Search RSS whose only item is "本" with the `dc:identifier` of type `dcndl:ISBN` `identifier`.
    func ndlAnswer(identifier: String) -> [UInt8] {
        Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="2.0">
            <channel><title>t</title><item><dc:title>本</dc:title>
            <dc:identifier xsi:type="dcndl:ISBN">\(identifier)</dc:identifier></item></channel></rss>
            """.utf8)
    }

    @Test(arguments: [("9784048930659", "978-4-04-893065-9", "本"), ("9784048930659", "9784048930659", "本"),
                      ("9784048930659", "4-04-893065-6", "本"), ("9784000000086", "4-00-000008-x", "本"),
                      ("9784048930659", "978-4-06-000000-2", nil), ("9784048930659", "4-06-000000-0", nil),
                      ("9784048930659", "", nil)])
    func ndlTakesOnlyTheItemOfTheISBNAsked(asked: String, identifier: String, title: String?) throws {
        let book = try BookLookup.parse(ndlAnswer(identifier: identifier), from: .ndl, isbn: isbn(asked)).get()
        #expect(book?.title == title)
    }

    /// A volume without identifiers may be any book: Google Books knows the ISBN only when a
    /// volume names it.
    @Test(arguments: [(#"{"kind":"books#volumes","totalItems":1,"items":[{"volumeInfo":{"title":"Another Book"}}]}"#, nil as String?),
                      (#"{"kind":"books#volumes","totalItems":2,"items":[{"volumeInfo":{"title":"Another Book","industryIdentifiers":[{"type":"ISBN_13","identifier":"9780306406157"}]}},{"volumeInfo":{"title":"Fantastic Mr. Fox","industryIdentifiers":[{"type":"ISBN_10","identifier":"0140328726"}]}}]}"#, "Fantastic Mr. Fox")])
    func googleBooksTakesOnlyTheVolumeOfTheISBNAsked(body: String, title: String?) throws {
        let book = try BookLookup.parse(Array(body.utf8), from: .googleBooks, isbn: isbn("9780140328721")).get()
        #expect(book?.title == title)
    }

    @Test(arguments: [("349p", 349), ("xii, 345 p. :", 345), ("239 pages", 239), ("19cm", nil), ("", nil), ("1 v.", nil)])
    func pages(text: String, expected: Int?) {
        #expect(ResponseParser.pages(in: text) == expected)
    }

    @Test(arguments: [("1988", 1988), ("March 1988", 1988), ("1988-03-01", 1988), ("c1988.", 1988), ("2018.7", 2018),
                      ("19th century", nil), ("12345", nil), ("", nil)])
    func year(text: String, expected: Int?) {
        #expect(BookMetadata.year(in: text) == expected)
    }

    @Test(arguments: [("Signals &amp; systems", "Signals & systems"), ("Don&#39;t", "Don't"), ("caf&eacute;", "café"),
                      ("a &#x2014; b", "a — b"), ("AT&T", "AT&T"), ("&unknown; x", "&unknown; x"), ("&amp;amp;", "&amp;")])
    func htmlEntities(text: String, expected: String) {
        #expect(HTMLEntities.decode(text) == expected)
    }

    @Test(arguments: [("http://127.0.0.1:8080", "http://127.0.0.1:8080"), ("https://mirror.example/", "https://mirror.example")])
    func base(text: String, expected: String) throws {
        #expect(try Provider.base(from: text).get() == expected)
    }

    @Test func baseWithAPathIsRefused() {
        #expect(Provider.base(from: "http://127.0.0.1:8080/api") == .failure(.init(
            message: "'http://127.0.0.1:8080/api' has a path; give scheme, host and port only (the path is the provider's)")))
        #expect(Provider.base(from: "file:///etc") == .failure(.init(message: "'file:///etc' is not an http:// or https:// URL")))
    }

    @Test func jsonNode() throws {
        #expect(try JSONNode.parse(Array(#"{"a": [1, 2.5, "x", null, true]}"#.utf8))
                == .object([("a", .array([.number(1), .number(2.5), .string("x"), .null, .bool(true)]))]))
        #expect(throws: JSONNode.ParseError.self) { try JSONNode.parse(Array(#"{"a": }"#.utf8)) }
        #expect(throws: JSONNode.ParseError.self) { try JSONNode.parse(Array("{} x".utf8)) }
    }
}

@Suite struct KeptResponseTests {
    @Test func theAnswerIsKeptAndParsesAgain() throws {
        let server = try ProviderServer()
        let record = try #require(try records(lookup(server), ["9784048930659"]).first)
        let body = try #require(record.response)
        #expect(String(decoding: body, as: UTF8.self).contains("<dcndl:titleTranscription>"))
        #expect(try BookLookup.parse(body, from: .ndl, isbn: isbn("9784048930659")).get() == record.metadata)
        #expect(BookLookup.parse(Array("{".utf8), from: .openLibrary, isbn: try isbn("9784048930659"))
                == .failure(.init(message: "malformed JSON (JSON text ends early (1 bytes))")))
    }
}
