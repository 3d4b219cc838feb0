// SPDX-License-Identifier: Apache-2.0
/// What a provider says about a book, as `lookup --json` and the catalogue report it.
///
/// Every field is what the provider gave (HTML entities decoded, blank values dropped), `nil`
/// when it gave nothing: nothing is invented. The JSON keys, in order: `title`, `title_reading`,
/// `subtitle`, `authors`, `by_statement`, `publisher`, `published`, `year`, `pages`, `language`,
/// `subjects`, `cover`, `source`, `url`.
public struct BookMetadata: Sendable, Equatable {
    public var title: String?
    /// The title's reading (NDL's `dcndl:titleTranscription`, katakana), or `nil`.
    public var titleReading: String?
    public var subtitle: String?
    /// The authors' names in the provider's order, or `nil` when it names none.
    public var authors: [String]?
    /// The statement of responsibility as printed (Open Library's `by_statement`), or `nil`.
    public var byStatement: String?
    /// The publishers' names, joined with `"; "` when there are several.
    public var publisher: String?
    /// The date of publication as the provider writes it: `"1988"`, `"March 1988"`, `"1988-03-01"`, `"2018.7"`.
    public var published: String?
    /// The year in ``published`` (its first four-digit number from 1000 to 2999), or `nil`.
    public var year: Int?
    /// The number of pages, or `nil`.
    public var pages: Int?
    /// The language code as given (`en`, `jpn`), or `nil`.
    public var language: String?
    /// Subject headings, or `nil`.
    public var subjects: [String]?
    /// The URL of a cover image, or `nil`.
    public var cover: String?
    /// The provider's name: `openlibrary`, `google` or `ndl`.
    public var source: String
    /// The book's page at the provider, or `nil`.
    public var url: String?

    public init(source: String, title: String? = nil, titleReading: String? = nil, subtitle: String? = nil,
                authors: [String]? = nil, byStatement: String? = nil, publisher: String? = nil, published: String? = nil,
                pages: Int? = nil, language: String? = nil, subjects: [String]? = nil, cover: String? = nil, url: String? = nil) {
        self.source = source
        self.title = title
        self.titleReading = titleReading
        self.subtitle = subtitle
        self.authors = authors
        self.byStatement = byStatement
        self.publisher = publisher
        self.published = published
        self.year = published.flatMap(Self.year(in:))
        self.pages = pages
        self.language = language
        self.subjects = subjects
        self.cover = cover
        self.url = url
    }

    /// The first run of exactly four digits from 1000 to 2999 in `text` (`"c1988"`, `"2018.7"`,
    /// `"March 1988"`), or `nil`.
    public static func year(in text: String) -> Int? {
        var run = ""
        for character in text + " " {
            if character.isASCII && character.isNumber { run.append(character); continue }
            if run.count == 4, let value = Int(run), (1000...2999).contains(value) { return value }
            run = ""
        }
        return nil
    }

    /// The members in documented order, for an object that adds its own before them.
    public var jsonMembers: [JSONValue.Member] {
        let strings: ([String]?) -> JSONValue = { $0.map { .array($0.map(JSONValue.string)) } ?? .null }
        return [.init("title", .optional(title)), .init("title_reading", .optional(titleReading)),
                .init("subtitle", .optional(subtitle)), .init("authors", strings(authors)),
                .init("by_statement", .optional(byStatement)), .init("publisher", .optional(publisher)),
                .init("published", .optional(published)), .init("year", .optional(year)), .init("pages", .optional(pages)),
                .init("language", .optional(language)), .init("subjects", strings(subjects)), .init("cover", .optional(cover)),
                .init("source", .string(source)), .init("url", .optional(url))]
    }

    /// `Title: Subtitle / A. Author, B. Author; Publisher, 1988; 352 pages`: what is known, in that order.
    public var summary: String {
        var title = self.title ?? "(no title)"
        if let subtitle { title += ": \(subtitle)" }
        var parts = [title]
        if let authors, !authors.isEmpty { parts[0] += " / " + authors.joined(separator: ", ") }
        else if let byStatement { parts[0] += " / " + byStatement }
        let imprint = [publisher, published].compactMap { $0 }.joined(separator: ", ")
        if !imprint.isEmpty { parts.append(imprint) }
        if let pages { parts.append("\(pages) pages") }
        return parts.joined(separator: "; ")
    }
}

/// The answer of `lookup` for one ISBN:
/// `{"isbn13", "found", <the BookMetadata keys>, "error"}`.
///
/// `found` is `true` with the fields filled, `false` when every provider asked answered that it
/// does not know the book (the fields are then `null`, `source` too), or `null` when some
/// provider could not be asked and none knew the book (`error` says why).
public struct LookupRecord: Sendable, Equatable, JSONRecord {
    public enum Outcome: Sendable, Equatable {
        case found(BookMetadata)
        /// Every provider asked (named) answered that it does not know the book.
        case notFound(providers: [String])
        /// No provider knew the book and at least one could not answer (the messages, one per provider).
        case failed([String])
    }
    public var isbn13: String
    public var outcome: Outcome
    /// Providers that failed for this ISBN although a later one answered (`provider: cause`).
    public var failures: [String]
    /// The found book's provider's whole answer (for Open Library the answer for the whole batch
    /// of ISBNs), kept so that a cache can parse it again later (`BookLookup.parse`); not in the JSON.
    public var response: [UInt8]?

    public init(isbn13: String, outcome: Outcome, failures: [String] = [], response: [UInt8]? = nil) {
        self.isbn13 = isbn13
        self.outcome = outcome
        self.failures = failures
        self.response = response
    }

    public var metadata: BookMetadata? {
        if case .found(let metadata) = outcome { return metadata }
        return nil
    }

    public var json: JSONValue {
        let found: JSONValue, error: JSONValue
        switch outcome {
        case .found: found = .bool(true); error = .null
        case .notFound: found = .bool(false); error = .null
        case .failed(let messages): found = .null; error = .string(messages.joined(separator: "; "))
        }
        var members = [JSONValue.Member("isbn13", .string(isbn13)), .init("found", found)]
        members += (metadata ?? BookMetadata(source: "")).jsonMembers.map { member in
            metadata == nil ? .init(member.key, .null) : member
        }
        return .object(members + [.init("error", error)])
    }

    /// `9780306406157: Title / Author; Publisher, 1988; 352 pages (openlibrary)`, `…: not known to
    /// openlibrary, google`, or `…: lookup failed: <cause>`: one line for a terminal, the
    /// provider's text with its control characters escaped (``escaped(_:json:)``).
    public var text: String {
        switch outcome {
        case .found(let metadata): return escaped("\(isbn13): \(metadata.summary) (\(metadata.source))", json: false)
        case .notFound(let providers): return "\(isbn13): not known to \(providers.joined(separator: ", "))"
        case .failed(let messages): return escaped("\(isbn13): lookup failed: \(messages.joined(separator: "; "))", json: false)
        }
    }
}
