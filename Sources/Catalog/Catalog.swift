#if canImport(Glibc)
import Glibc
#endif
import Records

/// A catalogue of scanned books in an SQLite file: every file scanned, every ISBN accepted
/// (with its file or device and frame), every code refused.
///
/// Opening sets WAL journalling (readers never block the writer; a process killed with SIGKILL
/// loses only an uncommitted transaction) with `synchronous = NORMAL`, turns on foreign keys and
/// migrates the schema to ``schemaVersion`` (`PRAGMA user_version`). Statements are prepared
/// once, when first used. Not thread-safe: one `Catalog` per thread.
///
/// Writes go into the open transaction when ``begin()`` was called (commit with ``commit()``),
/// else each is its own transaction.
public final class Catalog {
    /// The schema version this build writes (see README, "The catalogue").
    public static var schemaVersion: Int { Schema.version }

    /// The file, as given.
    public let path: String
    private let db: Connection
    private var statements: [String: Statement] = [:]

    /// Opens or creates the catalogue at `path` and brings its schema up to date.
    ///
    /// - Throws: ``CatalogError``: ``CatalogError/cantOpen``, ``CatalogError/notADatabase`` (not
    ///   an SQLite file: `not an isbnscan catalogue (not an SQLite database)`),
    ///   ``CatalogError/misuse`` (written by a newer isbnscan), or any error of a migration (which
    ///   is then rolled back).
    public convenience init(path: String) throws(CatalogError) {
        try self.init(path: path, upTo: Schema.version)
    }

    /// Opens `path` and migrates it to `version` at most (tests build older catalogues with it).
    init(path: String, upTo version: Int) throws(CatalogError) {
        self.path = path
        db = try Connection(path: path)
        do {
            // The first statement reads the file's header: where a file that is no database shows.
            try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
        } catch {
            guard error.code & 0xFF == CatalogError.notADatabase else { throw error }
            throw CatalogError(code: CatalogError.notADatabase, message: "not an isbnscan catalogue (not an SQLite database)",
                               sql: nil, path: path, sqliteMessage: false)
        }
        try migrate(upTo: version)
    }

    /// The schema version of the file (`PRAGMA user_version`).
    public func userVersion() throws(CatalogError) -> Int {
        Int(try statement("PRAGMA user_version").scalar() ?? 0)
    }

    private func migrate(upTo target: Int) throws(CatalogError) {
        let current = try userVersion()
        guard current <= Schema.version else {
            throw CatalogError(code: CatalogError.misuse,
                               message: "catalogue schema version \(current) is newer than this isbnscan's (\(Schema.version)); use a newer isbnscan",
                               sql: nil, path: path, sqliteMessage: false)
        }
        guard current < target else { return }
        try db.execute("BEGIN IMMEDIATE")
        do {
            for version in (current + 1)...target {
                try db.execute(Schema.migrations[version - 1])
                try db.execute("PRAGMA user_version = \(version)")
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The statement for `sql`, prepared on first use and kept.
    private func statement(_ sql: String) throws(CatalogError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(db, sql)
        statements[sql] = statement
        return statement
    }

    // MARK: Transactions

    /// Starts a batch of writes (BEGIN IMMEDIATE).
    public func begin() throws(CatalogError) { try statement("BEGIN IMMEDIATE").run() }

    /// Commits the batch: what it wrote survives the process being killed.
    public func commit() throws(CatalogError) { try statement("COMMIT").run() }

    /// Whether a batch is open.
    public var inBatch: Bool { db.inTransaction }

    private func writing(_ body: () throws(CatalogError) -> Void) throws(CatalogError) {
        if db.inTransaction { try body(); return }
        try begin()
        do {
            try body()
            try commit()
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    // MARK: Files

    /// What the catalogue holds about a file scanned before.
    public struct StoredFile: Sendable, Equatable {
        public var name: String
        /// Size in bytes and modification time (nanoseconds since 1970, UTC) when scanned.
        public var size: Int64?
        public var modificationNanoseconds: Int64?
        /// `isbn`, `refused`, `no-barcode` or `error`.
        public var status: String
        public var isbnCount: Int
        public var refusedCount: Int
        public var symbolCount: Int
        public var scannedAt: String
        /// The file's JSON line as `scan --json` printed it.
        public var record: String
    }

    /// The last scan of the file at `path` (its bytes), or `nil`.
    public func storedFile(path: [UInt8]) throws(CatalogError) -> StoredFile? {
        var found: StoredFile?
        try statement("""
            SELECT name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, scanned_at, record
            FROM files WHERE path = ?
            """).run([.blob(path)]) { row in
            found = StoredFile(name: row.text(0) ?? "", size: row.optionalInt(1), modificationNanoseconds: row.optionalInt(2),
                               status: row.text(3) ?? "", isbnCount: Int(row.int(4)), refusedCount: Int(row.int(5)),
                               symbolCount: Int(row.int(6)), scannedAt: row.text(7) ?? "", record: row.text(8) ?? "")
        }
        return found
    }

    /// Records one scanned file as reported (replacing an earlier scan of the same path, with its
    /// sightings and refusals).
    ///
    /// - Parameters:
    ///   - path: the path's bytes as given (non-UTF-8 names kept exactly); `record.file` is
    ///     stored as the name shown.
    ///   - size, modificationNanoseconds: from stat(2), `nil` for standard input.
    ///   - warnings: the `Warning:` texts printed for the file.
    ///   - time: ``Timestamp`` of the scan.
    public func record(_ record: FileRecord, path: [UInt8], size: Int64?, modificationNanoseconds: Int64?,
                       warnings: [String] = [], at time: String = Timestamp.now()) throws(CatalogError) {
        let status = !record.wasRead ? "error" : !record.isbns.isEmpty ? "isbn" : record.symbols.isEmpty ? "no-barcode" : "refused"
        try writing { () throws(CatalogError) in
            var fileID: Int64?
            try statement("""
                INSERT INTO files (path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, error,
                                   warnings, record, scanned_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (path) DO UPDATE SET name = excluded.name, size = excluded.size, mtime_ns = excluded.mtime_ns,
                    status = excluded.status, isbn_count = excluded.isbn_count, refused_count = excluded.refused_count,
                    symbol_count = excluded.symbol_count, error = excluded.error, warnings = excluded.warnings,
                    record = excluded.record, scanned_at = excluded.scanned_at
                RETURNING id
                """).run([.blob(path), .text(record.file), size.map { .int($0) } ?? .null,
                          modificationNanoseconds.map { .int($0) } ?? .null, .text(status), .int(Int64(record.isbns.count)),
                          .int(Int64(record.rejected.filter(\.isProblem).count)), .int(Int64(record.symbols.count)),
                          record.error.map { .text($0) } ?? .null,
                          warnings.isEmpty ? .null : .text(warnings.joined(separator: "\n")),
                          .text(record.json.encoded), .text(time)]) { row in fileID = row.int(0) }
            guard let fileID else { return }
            try statement("DELETE FROM sightings WHERE file_id = ?").run([.int(fileID)])
            try statement("DELETE FROM refusals WHERE file_id = ?").run([.int(fileID)])
            try insert(symbols: record.symbols, isbns: record.isbns, fileID: fileID, device: nil, frame: nil,
                       source: record.file, at: time)
        }
    }

    /// Records the ISBNs a camera frame confirmed and the codes it refused.
    public func record(_ event: FrameEventRecord, at time: String = Timestamp.now()) throws(CatalogError) {
        try writing { () throws(CatalogError) in
            try insert(symbols: event.symbols, isbns: event.isbns, fileID: nil, device: event.device,
                       frame: event.frame, source: event.device, at: time)
        }
    }

    /// One sighting per ISBN in `isbns` (with the polygon of its first symbol) and one refusal
    /// per refused symbol.
    private func insert(symbols: [SymbolRecord], isbns: [ISBNRecord], fileID: Int64?, device: String?, frame: Int?,
                        source: String, at time: String) throws(CatalogError) {
        let sighting = try statement("""
            INSERT OR IGNORE INTO sightings (isbn13, isbn10, addon, file_id, device, frame, source, polygon, seen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for isbn in isbns {
            let polygon = symbols.first { $0.isbn?.isbn13 == isbn.isbn13 }?.json["polygon"]?.encoded ?? "[]"
            let isbn10: Statement.Value = isbn.isbn10.map { .text($0) } ?? .null
            let addOn: Statement.Value = isbn.addOn.map { .text($0) } ?? .null
            let file: Statement.Value = fileID.map { .int($0) } ?? .null
            let deviceValue: Statement.Value = device.map { .text($0) } ?? .null
            let frameValue: Statement.Value = frame.map { .int(Int64($0)) } ?? .null
            try sighting.run([.text(isbn.isbn13), isbn10, addOn, file, deviceValue, frameValue, .text(source), .text(polygon),
                              .text(time)])
        }
        let refusal = try statement("""
            INSERT OR IGNORE INTO refusals (file_id, device, frame, source, type, data, reason, detail, seen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for symbol in symbols {
            // A misread of a code accepted at its place is in the record, not a refusal to count.
            guard let r = symbol.refusal, r.isProblem else { continue }
            try refusal.run([fileID.map { .int($0) } ?? .null, device.map { .text($0) } ?? .null,
                             frame.map { .int(Int64($0)) } ?? .null, .text(source), .text(r.type), .text(r.data),
                             .text(r.reason), .text(r.detail), .text(time)])
        }
    }

    // MARK: Books

    /// One book of the catalogue: an ISBN with how often and when it was seen.
    public struct Book: Sendable, Equatable {
        public var isbn13: String
        public var isbn10: String?
        /// The last add-on read with it, if any.
        public var addOn: String?
        /// Sightings: files it was accepted in, plus camera confirmations.
        public var count: Int
        public var firstSeen: String
        public var lastSeen: String
        /// The file name or device of the first sighting.
        public var firstSource: String
    }

    /// Every book, in order of first sighting.
    public func books() throws(CatalogError) -> [Book] {
        var books: [Book] = []
        try statement("""
            SELECT s.isbn13, MAX(s.isbn10), (SELECT a.addon FROM sightings a WHERE a.isbn13 = s.isbn13 AND a.addon IS NOT NULL
                                             ORDER BY a.seen_at DESC, a.id DESC LIMIT 1),
                   COUNT(*), MIN(s.seen_at), MAX(s.seen_at),
                   (SELECT f.source FROM sightings f WHERE f.isbn13 = s.isbn13 ORDER BY f.seen_at, f.id LIMIT 1)
            FROM sightings s GROUP BY s.isbn13 ORDER BY MIN(s.seen_at), MIN(s.id)
            """).run { row in
            books.append(Book(isbn13: row.text(0) ?? "", isbn10: row.text(1), addOn: row.text(2), count: Int(row.int(3)),
                              firstSeen: row.text(4) ?? "", lastSeen: row.text(5) ?? "", firstSource: row.text(6) ?? ""))
        }
        return books
    }

    /// The first sighting of `isbn13`: when and from which file or device, or `nil`.
    public func firstSighting(of isbn13: String) throws(CatalogError) -> (seenAt: String, source: String)? {
        var found: (String, String)?
        try statement("SELECT seen_at, source FROM sightings WHERE isbn13 = ? ORDER BY seen_at, id LIMIT 1")
            .run([.text(isbn13)]) { row in found = (row.text(0) ?? "", row.text(1) ?? "") }
        return found
    }

    /// Removes every sighting of `isbn13` (undoing a wrong scan); returns how many there were.
    /// The files stay recorded as scanned.
    public func remove(isbn13: String) throws(CatalogError) -> Int {
        var removed = 0
        try writing { () throws(CatalogError) in
            removed = Int(try statement("SELECT COUNT(*) FROM sightings WHERE isbn13 = ?").scalar([.text(isbn13)]) ?? 0)
            try statement("DELETE FROM sightings WHERE isbn13 = ?").run([.text(isbn13)])
        }
        return removed
    }

    /// Removes the sightings of `isbn13` that one camera event recorded (``record(_:at:)``
    /// with the same `device`, `frame` and `time`): undoing one scan leaves the book's other
    /// sightings alone. Returns how many were removed (0 or 1).
    public func removeSighting(isbn13: String, device: String, frame: Int, at time: String) throws(CatalogError) -> Int {
        var removed = 0
        try writing { () throws(CatalogError) in
            let matching = "isbn13 = ? AND source = ? AND frame = ? AND seen_at = ?"
            let values: [Statement.Value] = [.text(isbn13), .text(device), .int(Int64(frame)), .text(time)]
            removed = Int(try statement("SELECT COUNT(*) FROM sightings WHERE \(matching)").scalar(values) ?? 0)
            try statement("DELETE FROM sightings WHERE \(matching)").run(values)
        }
        return removed
    }

    // MARK: Statistics

    /// Counts over the whole catalogue.
    public struct Statistics: Sendable, Equatable {
        public var books = 0
        public var sightings = 0
        /// Files by status: `isbn`, `refused`, `no-barcode`, `error`.
        public var files: [String: Int] = [:]
        /// Camera sightings (confirmed frames).
        public var cameraSightings = 0
        /// Refused codes by reason name.
        public var refusals: [String: Int] = [:]
        public var firstSeen: String?
        public var lastSeen: String?
    }

    public func statistics() throws(CatalogError) -> Statistics {
        var stats = Statistics()
        try statement("SELECT COUNT(DISTINCT isbn13), COUNT(*), COUNT(device), MIN(seen_at), MAX(seen_at) FROM sightings").run { row in
            stats.books = Int(row.int(0))
            stats.sightings = Int(row.int(1))
            stats.cameraSightings = Int(row.int(2))
            stats.firstSeen = row.text(3)
            stats.lastSeen = row.text(4)
        }
        try statement("SELECT status, COUNT(*) FROM files GROUP BY status").run { row in
            stats.files[row.text(0) ?? ""] = Int(row.int(1))
        }
        try statement("SELECT reason, COUNT(*) FROM refusals GROUP BY reason").run { row in
            stats.refusals[row.text(0) ?? ""] = Int(row.int(1))
        }
        return stats
    }

    // MARK: Merging

    /// What ``merge(from:)`` added.
    public struct MergeCount: Sendable, Equatable {
        public var files = 0
        public var sightings = 0
        public var refusals = 0
    }

    /// Adds the catalogue at `other` (migrated first if older) to this one, without duplicates:
    /// a file path already here keeps the later of the two scans; a sighting or refusal (same
    /// code, file or device, frame and time) is added once.
    /// - Throws: ``CatalogError`` (the other file missing, not a catalogue, newer, or this
    ///   catalogue's own file: ``CatalogError/misuse``); nothing is added then.
    public func merge(from other: String) throws(CatalogError) -> MergeCount {
        if Self.sameFile(path, other) {
            // Attaching it would wait on its own lock and fail with "database is locked".
            throw CatalogError(code: CatalogError.misuse, message: "is the catalogue being merged into: it cannot be merged into itself",
                               sql: nil, path: other, sqliteMessage: false)
        }
        do { _ = try Catalog(path: other) }  // checks and migrates it; closed again here
        var count = MergeCount()
        try Statement(db, "ATTACH DATABASE ? AS other").run([.text(other)])
        defer { try? db.execute("DETACH DATABASE other") }
        try writing { () throws(CatalogError) in
            let before = try totals()
            try db.execute("""
                INSERT INTO files (path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, error,
                                   warnings, record, scanned_at)
                SELECT path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, error, warnings,
                       record, scanned_at FROM other.files WHERE true
                ON CONFLICT (path) DO UPDATE SET name = excluded.name, size = excluded.size, mtime_ns = excluded.mtime_ns,
                    status = excluded.status, isbn_count = excluded.isbn_count, refused_count = excluded.refused_count,
                    symbol_count = excluded.symbol_count, error = excluded.error, warnings = excluded.warnings,
                    record = excluded.record, scanned_at = excluded.scanned_at
                WHERE excluded.scanned_at > files.scanned_at;
                INSERT OR IGNORE INTO sightings (isbn13, isbn10, addon, file_id, device, frame, source, polygon, seen_at)
                SELECT s.isbn13, s.isbn10, s.addon, (SELECT f.id FROM files f JOIN other.files o ON o.path = f.path
                                                     WHERE o.id = s.file_id),
                       s.device, s.frame, s.source, s.polygon, s.seen_at FROM other.sightings s;
                INSERT OR IGNORE INTO refusals (file_id, device, frame, source, type, data, reason, detail, seen_at)
                SELECT (SELECT f.id FROM files f JOIN other.files o ON o.path = f.path WHERE o.id = r.file_id),
                       r.device, r.frame, r.source, r.type, r.data, r.reason, r.detail, r.seen_at FROM other.refusals r;
                """)
            let after = try totals()
            count = MergeCount(files: after.0 - before.0, sightings: after.1 - before.1, refusals: after.2 - before.2)
        }
        return count
    }

    /// Whether `a` and `b` name one existing file (same device and inode, stat(2)).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    private func totals() throws(CatalogError) -> (Int, Int, Int) {
        (Int(try statement("SELECT COUNT(*) FROM files").scalar() ?? 0),
         Int(try statement("SELECT COUNT(*) FROM sightings").scalar() ?? 0),
         Int(try statement("SELECT COUNT(*) FROM refusals").scalar() ?? 0))
    }
}
