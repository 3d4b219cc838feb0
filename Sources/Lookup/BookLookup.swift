// SPDX-License-Identifier: Apache-2.0
import ISBN
import Records

/// How ``BookLookup`` asks: providers, identification, patience.
public struct LookupOptions: Sendable {
    /// Providers in the order asked (default ``Provider/defaultOrder``, with NDL Search moved
    /// first for 978-4 ISBNs when ``japaneseFirst`` is set).
    public var providers: [Provider] = Provider.defaultOrder
    /// Moves NDL Search (when in ``providers``) first for 978-4 ISBNs (default on; off when the
    /// user gave an order).
    public var japaneseFirst = true
    /// A contact (e-mail or URL) for the User-Agent, as Open Library asks, or `nil` (then Open
    /// Library gets 1 request/s instead of 3).
    public var contact: String?
    /// Seconds for one whole request (connect, redirects, body; default 15).
    public var timeout: Double = 15
    /// Repeats after an HTTP 429, 5xx, or 403 with `Retry-After` (default 2).
    public var retries = 2
    /// The first wait before a repeat when the server gives no `Retry-After`, doubled at each
    /// repeat (default 1 s).
    public var backoff: Duration = .seconds(1)
    /// The longest `Retry-After` waited for (default 60 s); a longer one fails the request at once.
    public var longestWait: Duration = .seconds(60)
    /// The most time waited on one provider's `Retry-After` and backoff in one run, all its
    /// requests together (default 120 s); a wait that would pass it gives the provider up for the
    /// rest of the run instead, said in one message.
    public var longestTotalWait: Duration = .seconds(120)
    /// A PEM file of certificates trusted besides the system's (CURLOPT_CAINFO): the tests'
    /// local https server only.
    var certificateAuthorities: String?
    /// `scheme://host[:port]` per provider, replacing ``Provider/defaultBase``.
    public var bases: [Provider: String] = [:]

    public init() {}
}

/// Looks up books by ISBN at the providers, politely: each provider's rate kept, retries with
/// backoff, `Retry-After` honoured, one failing provider never stopping the others.
///
/// Not `Sendable` (it owns an ``HTTPClient``): one per thread.
public final class BookLookup {
    public let options: LookupOptions
    private let client: HTTPClient
    private var limiters: [Provider: RateLimiter] = [:]
    /// A provider that could not be reached (DNS, connection, timeout, TLS) or that refuses
    /// (HTTP 403, or 429 still after its retries: past its rate limit) is not asked again in
    /// this run: its failure stands for the rest, and a long run does not keep knocking.
    private var unreachable: [Provider: String] = [:]
    /// Time waited before repeats, per provider, in this run (against ``LookupOptions/longestTotalWait``).
    private var waited: [Provider: Duration] = [:]
    /// Requests sent per provider (retries included), for the summary and the benchmark.
    public private(set) var requests: [Provider: Int] = [:]
    /// Answers parsed per provider: one per answer, however many ISBNs it holds.
    private(set) var parses: [Provider: Int] = [:]

    /// `isbnscan/<version> (<contact>)`, or `isbnscan/<version>` without a contact.
    public static func userAgent(version: String, contact: String?) -> String {
        contact.map { "isbnscan/\(version) (\($0))" } ?? "isbnscan/\(version)"
    }

    /// - Throws: ``HTTPError`` when libcurl, json-c or libxml2 cannot be opened (the message names
    ///   the Debian package) or libcurl cannot be initialised.
    public init(options: LookupOptions, version: String) throws(HTTPError) {
        self.options = options
        client = try HTTPClient(userAgent: Self.userAgent(version: version, contact: options.contact),
                                certificateAuthorities: options.certificateAuthorities)
        // Every provider but NDL answers in JSON: say now, not after the first answer, that it cannot be read.
        if case .failure(let error) = LookupLibraries.json() { throw HTTPError(kind: .other, message: error.message) }
        // NDL answers in XML, and every provider's text may hold HTML entities.
        if case .failure(let error) = LookupLibraries.xml() { throw HTTPError(kind: .other, message: error.message) }
        for provider in Provider.allCases {
            limiters[provider] = RateLimiter(requestsPerSecond: provider.requestsPerSecond(withContact: options.contact != nil))
        }
    }

    /// The providers asked for `isbn`, in order.
    public func order(for isbn: ISBN) -> [Provider] {
        guard options.japaneseFirst, isbn.isbn13.hasPrefix("9784"), options.providers.contains(.ndl) else { return options.providers }
        return [.ndl] + options.providers.filter { $0 != .ndl }
    }

    /// Looks up `isbns`, in order, calling `report` with each one's record as soon as it is
    /// known (a batch at a time).
    public func lookUp(_ isbns: [ISBN], report: (LookupRecord) -> Void) {
        let batch = Provider.openLibrary.batchSize
        var start = 0
        while start < isbns.count {
            let chunk = Array(isbns[start..<min(start + batch, isbns.count)])
            for record in lookUpBatch(chunk) { report(record) }
            start += batch
        }
    }

    /// Each ISBN of `isbns` through its providers in turn, a round at a time, so that Open
    /// Library gets the round's ISBNs in one request.
    private func lookUpBatch(_ isbns: [ISBN]) -> [LookupRecord] {
        var found: [String: BookMetadata] = [:]
        var notFound: [String: [String]] = [:]
        var failures: [String: [String]] = [:]
        var responses: [String: [UInt8]] = [:]
        let orders = isbns.map(order(for:))
        for round in 0..<(orders.map(\.count).max() ?? 0) {
            var asked: [Provider: [ISBN]] = [:]
            for (isbn, providers) in zip(isbns, orders) where found[isbn.isbn13] == nil && round < providers.count {
                asked[providers[round], default: []].append(isbn)
            }
            for provider in Provider.allCases {
                guard let group = asked[provider] else { continue }
                let groups = provider.batchSize > 1 ? stride(from: 0, to: group.count, by: provider.batchSize).map {
                    Array(group[$0..<min($0 + provider.batchSize, group.count)])
                } : group.map { [$0] }
                for isbns in groups {
                    switch ask(provider, isbns) {
                    case .success(let answer):
                        for isbn in isbns {
                            if let book = answer.books[isbn.isbn13] {
                                found[isbn.isbn13] = book
                                responses[isbn.isbn13] = answer.body
                            }
                            else { notFound[isbn.isbn13, default: []].append(provider.rawValue) }
                        }
                    case .failure(let failure):
                        for isbn in isbns { failures[isbn.isbn13, default: []].append("\(provider.rawValue): \(failure.message)") }
                    }
                }
            }
        }
        return isbns.map { isbn in
            let failed = failures[isbn.isbn13] ?? []
            if let book = found[isbn.isbn13] {
                return LookupRecord(isbn13: isbn.isbn13, outcome: .found(book), failures: failed, response: responses[isbn.isbn13])
            }
            if failed.isEmpty { return LookupRecord(isbn13: isbn.isbn13, outcome: .notFound(providers: notFound[isbn.isbn13] ?? [])) }
            return LookupRecord(isbn13: isbn.isbn13, outcome: .failed(failed))
        }
    }

    /// A provider's answer: the books it knows among those asked (by 13 digits), and its body.
    struct Answer {
        var books: [String: BookMetadata]
        var body: [UInt8]
    }

    /// Why a provider gave no usable answer: one line without the provider's name.
    public struct Failure: Error, Sendable, Equatable { public var message: String }

    /// One request to `provider` for `isbns` (retried as the options say), parsed.
    func ask(_ provider: Provider, _ isbns: [ISBN]) -> Result<Answer, Failure> {
        if let message = unreachable[provider] { return .failure(Failure(message: message)) }
        let url = provider.url(base: options.bases[provider] ?? provider.defaultBase, isbns: isbns.map(\.isbn13))
        let response: HTTPResponse
        switch fetch(provider, url) {
        case .success(let answer): response = answer
        case .failure(let failure): return .failure(failure)
        }
        let expected = provider == .ndl ? "XML" : "JSON"
        guard let type = response.mediaType, Self.isMediaType(type, of: expected) else {
            let given = response.mediaType.map { "answered \($0)" } ?? "answered without a content type"
            return .failure(Failure(message: "\(given), expected \(expected) (HTTP \(response.status) from \(HTTPClient.host(of: url)))"))
        }
        parses[provider, default: 0] += 1
        let books: [String: BookMetadata]
        do { books = try ResponseParser.books(response.body, from: provider, isbns: isbns) } catch {
            return .failure(Failure(message: error.message))
        }
        return .success(Answer(books: books, body: response.body))
    }

    /// What `provider`'s answer `body` says about `isbn`: its metadata, `nil` when the answer does
    /// not list the book, or why the answer cannot be read (`malformed JSON (…)`). For answers kept
    /// from an earlier lookup (``BookMetadata/response``), to read them again with a newer parser.
    public static func parse(_ body: [UInt8], from provider: Provider, isbn: ISBN) -> Result<BookMetadata?, Failure> {
        do { return .success(try ResponseParser.books(body, from: provider, isbns: [isbn])[isbn.isbn13]) } catch {
            return .failure(Failure(message: error.message))
        }
    }

    /// Whether `type` (lower case, no parameters) is a JSON or XML media type.
    static func isMediaType(_ type: String, of kind: String) -> Bool {
        switch kind {
        case "JSON": return ["application/json", "text/json", "application/javascript", "text/javascript"].contains(type) || type.hasSuffix("+json")
        default: return ["application/xml", "text/xml"].contains(type) || type.hasSuffix("+xml")
        }
    }

    /// GETs `url` from `provider` at its rate; repeats after 429, 5xx and 403-with-`Retry-After`,
    /// waiting `Retry-After` or the backoff. A 2xx answer is a success; any other status a failure.
    private func fetch(_ provider: Provider, _ url: String) -> Result<HTTPResponse, Failure> {
        var attempt = 0
        while true {
            limiters[provider]!.wait()
            requests[provider, default: 0] += 1
            let response: HTTPResponse
            switch client.get(url, timeout: options.timeout) {
            case .success(let answer): response = answer
            case .failure(let error):
                if [.dns, .unreachable, .timeout, .tls].contains(error.kind) { unreachable[provider] = error.message }
                return .failure(Failure(message: error.message))
            }
            if (200..<300).contains(response.status) { return .success(response) }
            let status = "HTTP \(response.status)\(Self.reason(response.status).map { " \($0)" } ?? "") from \(HTTPClient.host(of: url))"
            let retryable = response.status == 429 || (500..<600).contains(response.status)
                || (response.status == 403 && response.retryAfter != nil)
            let refusing = response.status == 403 || response.status == 429
            func failed(_ message: String, refusing: Bool = refusing) -> Result<HTTPResponse, Failure> {
                if refusing { unreachable[provider] = message }
                return .failure(Failure(message: message))
            }
            guard retryable else {
                let hint = response.status == 403 ? " (refused; Open Library answers 403 past its rate limit)" : ""
                return failed(status + hint)
            }
            let wait = response.retryAfter.map { Duration.seconds($0) } ?? options.backoff * (1 << attempt)
            if wait > options.longestWait {
                return failed("\(status), Retry-After \(response.retryAfter!) s is longer than \(options.longestWait.components.seconds) s")
            }
            let spent = waited[provider, default: .zero]
            if attempt < options.retries && spent + wait > options.longestTotalWait {
                let (seconds, attoseconds) = options.longestTotalWait.components
                let limit = attoseconds == 0 ? "\(seconds)" : "\(Double(seconds) + Double(attoseconds) / 1e18)"
                return failed("\(status)" + (response.retryAfter.map { ", Retry-After \($0) s" } ?? "")
                              + ": waiting again would pass the \(limit) s a run waits on one provider; not asked again in this run",
                              refusing: true)
            }
            guard attempt < options.retries else {
                let tries = attempt + 1
                return failed("\(status) after \(tries) attempt\(tries == 1 ? "" : "s")"
                              + (response.retryAfter.map { ", Retry-After \($0) s" } ?? ""))
            }
            waited[provider] = spent + wait
            pause(wait)
            attempt += 1
        }
    }

    static func reason(_ status: Int) -> String? {
        switch status {
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return nil
        }
    }
}
