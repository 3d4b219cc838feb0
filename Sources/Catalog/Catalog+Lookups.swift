// SPDX-License-Identifier: Apache-2.0
import Records

/// The book lookup's cache (schema version 4): what the providers said about each ISBN, their
/// answers as received, and the lookups still pending. See ``Schema`` for the tables.
extension Catalog {
    /// What the catalogue holds from a lookup of one ISBN.
    public struct CachedLookup: Sendable, Equatable {
        public var isbn13: String
        /// The book's metadata when a provider knew it; `nil` when none of ``providers`` did.
        public var metadata: BookMetadata?
        /// The provider that knew the book, or those asked that did not (`openlibrary`, `google`, `ndl`).
        public var providers: [String]
        /// ``Timestamp`` of the answer.
        public var fetchedAt: String

        public var found: Bool { metadata != nil }

        public init(isbn13: String, metadata: BookMetadata?, providers: [String], fetchedAt: String) {
            self.isbn13 = isbn13
            self.metadata = metadata
            self.providers = providers
            self.fetchedAt = fetchedAt
        }
    }

    /// A lookup still to be done: queued, or tried and failed.
    public struct PendingLookup: Sendable, Equatable {
        public var isbn13: String
        public var queuedAt: String
        /// Lookups tried that no provider could answer.
        public var attempts: Int
        /// The last failure (`openlibrary: cannot connect to …`), or `nil` when not tried yet.
        public var error: String?
    }

    /// Whether this catalogue has the lookup tables (schema version 4 or later); a catalogue
    /// opened read-only keeps its version, and then has no cache to show.
    public var hasLookupCache: Bool { version >= 4 }

    /// Queues `isbn13s` for a lookup (rows of `pending_lookups`; one already queued keeps its
    /// row), in one transaction.
    /// - Throws: ``CatalogError``; then none is queued.
    public func queueLookups(_ isbn13s: [String], at time: String = Timestamp.now()) throws(CatalogError) {
        guard !isbn13s.isEmpty else { return }
        try writing { () throws(CatalogError) in
            let queue = try statement("INSERT OR IGNORE INTO pending_lookups (isbn13, queued_at) VALUES (?, ?)")
            for isbn13 in isbn13s { try queue.run([.text(isbn13), .text(time)]) }
        }
    }

    /// Stores the answers in `records`, in one transaction: a book found or known to no provider
    /// replaces the ISBN's earlier answer and leaves the pending lookups; a lookup that failed
    /// (``LookupRecord/Outcome/failed(_:)``) keeps the earlier answer, and the ISBN stays
    /// pending with its attempt counted and the failure kept.
    /// - Throws: ``CatalogError``; then nothing of `records` is stored.
    public func store(_ records: [LookupRecord], at time: String = Timestamp.now()) throws(CatalogError) {
        guard !records.isEmpty else { return }
        try writing { () throws(CatalogError) in
            // One batch's Open Library answer is the same bytes for each of its ISBNs: kept once.
            var responseIDs: [(provider: String, body: [UInt8], id: Int64)] = []
            for record in records {
                switch record.outcome {
                case .failed(let messages):
                    try statement("""
                        INSERT INTO pending_lookups (isbn13, queued_at, attempts, tried_at, error) VALUES (?, ?, 1, ?, ?)
                        ON CONFLICT (isbn13) DO UPDATE SET attempts = attempts + 1, tried_at = excluded.tried_at, error = excluded.error
                        """).run([.text(record.isbn13), .text(time), .text(time), .text(messages.joined(separator: "; "))])
                case .notFound(let providers):
                    try writeLookup(isbn13: record.isbn13, metadata: nil, providers: providers, fetchedAt: time, responseID: nil)
                case .found(let metadata):
                    var responseID: Int64?
                    if let body = record.response {
                        if let known = responseIDs.first(where: { $0.provider == metadata.source && $0.body == body }) {
                            responseID = known.id
                        } else {
                            try statement("INSERT INTO lookup_responses (provider, body, fetched_at) VALUES (?, ?, ?) RETURNING id")
                                .run([.text(metadata.source), .blob(body), .text(time)]) { row in responseID = row.int(0) }
                            if let responseID { responseIDs.append((metadata.source, body, responseID)) }
                        }
                    }
                    try writeLookup(isbn13: record.isbn13, metadata: metadata, providers: [metadata.source], fetchedAt: time,
                                    responseID: responseID)
                }
            }
            // Answers replaced by newer ones.
            try statement("""
                DELETE FROM lookup_responses WHERE id NOT IN (SELECT response_id FROM lookups WHERE response_id IS NOT NULL)
                """).run()
        }
    }

    private func writeLookup(isbn13: String, metadata: BookMetadata?, providers: [String], fetchedAt: String,
                             responseID: Int64?) throws(CatalogError) {
        func text(_ s: String?) -> Statement.Value { s.map { .text($0) } ?? .null }
        func int(_ n: Int?) -> Statement.Value { n.map { .int(Int64($0)) } ?? .null }
        func list(_ items: [String]?) -> Statement.Value { items.map { .text(JSONValue.array($0.map(JSONValue.string)).encoded) } ?? .null }
        let m = metadata
        try statement("""
            INSERT OR REPLACE INTO lookups (isbn13, found, provider, fetched_at, title, title_reading, subtitle, authors, by_statement,
                                            publisher, published, year, pages, language, subjects, cover, url, response_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run([.text(isbn13), .int(m == nil ? 0 : 1), .text(providers.joined(separator: ",")), .text(fetchedAt),
                      text(m?.title), text(m?.titleReading), text(m?.subtitle), list(m?.authors), text(m?.byStatement),
                      text(m?.publisher), text(m?.published), int(m?.year), int(m?.pages), text(m?.language), list(m?.subjects),
                      text(m?.cover), text(m?.url), responseID.map { .int($0) } ?? .null])
        try statement("DELETE FROM pending_lookups WHERE isbn13 = ?").run([.text(isbn13)])
    }

    /// The ISBNs a `catalog lookup` asks for, in order of first sighting: with `refresh`, every
    /// book of the catalogue; else the books without an answer in the cache, and those pending
    /// (queued, or failed before: a refresh that was cut short goes on).
    public func isbnsToLookUp(refresh: Bool) throws(CatalogError) -> [String] {
        var isbns: [String] = []
        let condition = refresh ? "" : hasLookupCache ? """
            HAVING s.isbn13 NOT IN (SELECT isbn13 FROM lookups) OR s.isbn13 IN (SELECT isbn13 FROM pending_lookups)
            """ : ""
        try statement("SELECT s.isbn13 FROM sightings s GROUP BY s.isbn13 \(condition) ORDER BY MIN(s.seen_at), MIN(s.id)")
            .run { row in isbns.append(row.text(0) ?? "") }
        return isbns
    }

    /// The lookups still pending, in the order queued.
    public func pendingLookups() throws(CatalogError) -> [PendingLookup] {
        guard hasLookupCache else { return [] }
        var pending: [PendingLookup] = []
        try statement("SELECT isbn13, queued_at, attempts, error FROM pending_lookups ORDER BY queued_at, isbn13").run { row in
            pending.append(PendingLookup(isbn13: row.text(0) ?? "", queuedAt: row.text(1) ?? "", attempts: Int(row.int(2)),
                                         error: row.text(3)))
        }
        return pending
    }

    /// Every answer in the cache, by ISBN-13 (empty before schema version 4).
    public func cachedLookups() throws(CatalogError) -> [String: CachedLookup] {
        guard hasLookupCache else { return [:] }
        var found: [String: CachedLookup] = [:]
        try statement("""
            SELECT isbn13, found, provider, fetched_at, title, title_reading, subtitle, authors, by_statement, publisher, published,
                   pages, language, subjects, cover, url FROM lookups
            """).run { row in
            let lookup = Self.cachedLookup(row)
            found[lookup.isbn13] = lookup
        }
        return found
    }

    /// The cache's answer for `isbn13`, or `nil`.
    public func cachedLookup(of isbn13: String) throws(CatalogError) -> CachedLookup? {
        guard hasLookupCache else { return nil }
        var found: CachedLookup?
        try statement("""
            SELECT isbn13, found, provider, fetched_at, title, title_reading, subtitle, authors, by_statement, publisher, published,
                   pages, language, subjects, cover, url FROM lookups WHERE isbn13 = ?
            """).run([.text(isbn13)]) { row in found = Self.cachedLookup(row) }
        return found
    }

    /// The provider's whole answer that the cached metadata of `isbn13` was read from (to parse
    /// it again), or `nil`.
    public func cachedResponse(of isbn13: String) throws(CatalogError) -> (provider: String, body: [UInt8])? {
        guard hasLookupCache else { return nil }
        var found: (String, [UInt8])?
        try statement("""
            SELECT r.provider, r.body FROM lookups l JOIN lookup_responses r ON r.id = l.response_id WHERE l.isbn13 = ?
            """).run([.text(isbn13)]) { row in found = (row.text(0) ?? "", row.blob(1)) }
        return found
    }

    private static func cachedLookup(_ row: Row) -> CachedLookup {
        func list(_ column: Int32) -> [String]? {
            guard let text = row.text(column), case .array(let items)? = JSONValue(parsing: text) else { return nil }
            return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        }
        let providers = (row.text(2) ?? "").split(separator: ",").map(String.init)
        var metadata: BookMetadata?
        if row.int(1) == 1 {
            metadata = BookMetadata(source: providers.first ?? "", title: row.text(4), titleReading: row.text(5), subtitle: row.text(6),
                                    authors: list(7), byStatement: row.text(8), publisher: row.text(9), published: row.text(10),
                                    pages: row.optionalInt(11).map { Int($0) }, language: row.text(12), subjects: list(13),
                                    cover: row.text(14), url: row.text(15))
        }
        return CachedLookup(isbn13: row.text(0) ?? "", metadata: metadata, providers: providers, fetchedAt: row.text(3) ?? "")
    }
}
