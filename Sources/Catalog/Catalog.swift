// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ISBN
import Records

/// A catalogue of scanned books in an SQLite file: every file scanned, every ISBN accepted
/// (with its file or device and frame), every code refused.
///
/// Opened for writing (``Access/write``): WAL journalling (readers never block the writer; a
/// process killed with SIGKILL loses only an uncommitted transaction), `synchronous = NORMAL`,
/// foreign keys on, and the schema brought to ``schemaVersion`` (`PRAGMA user_version`) in one
/// transaction. Opened for reading (``Access/read``): SQLITE_OPEN_READONLY, nothing changed,
/// not even the journal mode. Either way a file that is not an isbnscan catalogue is refused
/// before anything is written to it: an existing file is judged through a read-only connection
/// before one that may write is opened, so another program's database (a WAL one with its
/// `-wal` file too) is left byte for byte as it was.
///
/// Several processes may write one catalogue: every write is one short `BEGIN IMMEDIATE`
/// transaction, and a transaction that finds the catalogue locked is rolled back and tried
/// again after a growing, randomised pause (2 ms doubling to 100 ms) until ``lockTimeout``
/// has passed; ``lockWaits``, ``retries`` and ``waitedSeconds`` count what that cost.
/// Statements are prepared once, when first used. Not thread-safe: one `Catalog` per thread.
public final class Catalog {
    /// The schema version this build writes (see Documentation/catalog.md).
    public static var schemaVersion: Int { Schema.version }

    /// What a command does with the catalogue.
    public enum Access: Sendable {
        /// `scan --db`, `camera --db`, `catalog merge|remove`: created if missing, migrated.
        case write
        /// `catalog list|export|stats` and the catalogues merged in: read-only.
        case read
    }

    /// Seconds a write waits for another writer's lock before it fails: the environment's
    /// `ISBNSCAN_LOCK_TIMEOUT` (seconds, > 0), else 120.
    public static var defaultLockTimeout: Double {
        getenv("ISBNSCAN_LOCK_TIMEOUT").flatMap { Double(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil } ?? 120
    }

    /// The file, as given.
    public let path: String
    public let access: Access
    /// Seconds a transaction may wait for the write lock (see ``defaultLockTimeout``).
    public var lockTimeout: Double
    /// Transactions that waited for another writer's lock (BEGIN IMMEDIATE took over 1 ms).
    public private(set) var lockWaits = 0
    /// Attempts made again after SQLITE_BUSY (each after SQLite's own 50 ms wait).
    public private(set) var retries = 0
    /// Time transactions spent waiting for the lock, in seconds.
    public private(set) var waitedSeconds = 0.0
    /// The schema version of the file when opened (before a migration).
    public private(set) var openedVersion = 0
    /// The schema version of the file now.
    var version = 0
    var db: Connection
    private var statements: [String: Statement] = [:]

    /// Opens or creates the catalogue at `path` for writing and brings its schema up to date.
    public convenience init(path: String) throws(CatalogError) {
        try self.init(path: path, access: .write)
    }

    /// Opens the catalogue at `path`.
    ///
    /// - Parameters:
    ///   - access: ``Access/write`` creates a missing file and migrates an older schema (calling
    ///     `notice` with a sentence for stderr first); ``Access/read`` opens read-only.
    ///   - lockTimeout: see ``lockTimeout``.
    /// - Throws: ``CatalogError``: ``CatalogError/cantOpen`` with a sentence saying what cannot
    ///   be done (`cannot create the catalogue: Permission denied`), ``CatalogError/notADatabase``
    ///   (not an SQLite file, or an SQLite file of another program, or empty when reading),
    ///   ``CatalogError/misuse`` (written by a newer isbnscan), or any error of a migration
    ///   (which is then rolled back).
    public convenience init(path: String, access: Access, lockTimeout: Double = Catalog.defaultLockTimeout,
                            notice: (String) -> Void = { _ in }) throws(CatalogError) {
        try self.init(path: path, access: access, upTo: Schema.version, lockTimeout: lockTimeout, notice: notice)
    }

    /// Opens `path` for writing and migrates it to `version` at most (tests build older catalogues with it).
    convenience init(path: String, upTo version: Int) throws(CatalogError) {
        try self.init(path: path, access: .write, upTo: version, lockTimeout: Catalog.defaultLockTimeout, notice: { _ in })
    }

    private init(path: String, access: Access, upTo version: Int, lockTimeout: Double,
                 notice: (String) -> Void) throws(CatalogError) {
        self.path = path
        self.access = access
        self.lockTimeout = lockTimeout
        let existed = access == .read || Self.exists(path)
        // A file that exists is judged through a read-only connection first, and opened for
        // writing only once it is known to be a catalogue: the last read-write connection to close
        // on a WAL database checkpoints its -wal into the main file and deletes it, which would
        // change another program's database that is then refused.
        let looksFirst = access == .write && existed
        do {
            db = try Connection(path: path, create: access == .write, readOnly: access == .read || looksFirst)
        } catch {
            throw Self.diagnosed(error, path: path, existed: existed, access: looksFirst ? .read : access)
        }
        if access == .write && !looksFirst && db.isReadOnly {
            // SQLite opens a file it may not write read-only without a word: say so now, not at the first write.
            throw Self.diagnosed(CatalogError(code: CatalogError.readOnly, message: "attempt to write a readonly database", sql: nil,
                                              path: path), path: path, existed: existed, access: access)
        }
        var found: (version: Int, tables: Int, hasFiles: Bool)
        do {
            found = try kind()
        } catch {
            // A WAL catalogue in a folder this user cannot write: SQLite cannot create the -shm
            // file readers share. With no -wal file there is nothing but the main file to read, so
            // it is read as immutable (no shared memory, no locks).
            guard access == .read || looksFirst, error.code & 0xFF == CatalogError.readOnly || error.code & 0xFF == CatalogError.cantOpen,
                  !Self.exists(path + "-wal") else {
                throw Self.diagnosed(error, path: path, existed: true, access: looksFirst ? .read : access)
            }
            db = try Connection(path: path, readOnly: true, uri: Self.readOnlyURI(path, immutable: true))
            found = try kind()
        }
        // A new catalogue is an empty file until its first writer has committed the schema: a
        // reader that finds it empty while a writer holds its lock waits for that writer (as a
        // writer waits for another), and reads what it committed.
        if access == .read, found.version == 0, found.tables == 0 {
            found = try retrying { () throws(CatalogError) in
                let now = try kind()
                if now.version == 0 && now.tables == 0 && Self.writerHoldsLock(path) {
                    throw CatalogError(code: CatalogError.busy, message: "database is locked", sql: nil, path: path)
                }
                return now
            }
        }
        let (current, tables, hasFiles) = found
        openedVersion = current
        self.version = current
        if current > Schema.version {
            throw CatalogError(code: CatalogError.misuse,
                               message: "catalogue schema version \(current) is newer than this isbnscan's (\(Schema.version)); use a newer isbnscan",
                               sql: nil, path: path, sqliteMessage: false)
        }
        if (current == 0 && tables > 0) || (current > 0 && !hasFiles) {
            throw CatalogError(code: CatalogError.notADatabase,
                               message: "not an isbnscan catalogue (an SQLite database of another program); left as it is",
                               sql: nil, path: path, sqliteMessage: false)
        }
        if access == .read {
            guard current > 0 else {
                throw CatalogError(code: CatalogError.notADatabase, message: "an empty catalogue: nothing is recorded in it yet",
                                   sql: nil, path: path, sqliteMessage: false)
            }
            try db.execute("PRAGMA query_only = ON")
            return
        }
        if looksFirst {
            do {
                db = try Connection(path: path, create: false)
            } catch {
                throw Self.diagnosed(error, path: path, existed: true, access: access)
            }
            if db.isReadOnly {
                throw Self.diagnosed(CatalogError(code: CatalogError.readOnly, message: "attempt to write a readonly database", sql: nil,
                                                  path: path), path: path, existed: true, access: access)
            }
        }
        do {
            try retrying { () throws(CatalogError) in try db.execute("PRAGMA journal_mode = WAL") }
        } catch {
            throw Self.diagnosed(error, path: path, existed: true, access: access)
        }
        // Foreign keys off while migrating: a migration that rebuilds a table drops the old one,
        // which with them on would delete the rows that refer to it (SQLite's "making other kinds
        // of table schema changes"; the pragma is a no-op inside the transaction).
        try db.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF")
        if current > 0 && current < version {
            notice("\(path): upgrading the catalogue from schema version \(current) to \(version) "
                   + "(isbnscan versions before it cannot write it afterwards)")
        }
        try migrate(upTo: version)
        try db.execute("PRAGMA foreign_keys = ON")
    }

    /// The file's `user_version` and how many tables it has; a file that is no SQLite database
    /// shows here, at the first read of its header.
    /// One statement, so one snapshot: another writer creating the tables between two reads
    /// would make a new catalogue look like another program's database.
    private func kind() throws(CatalogError) -> (version: Int, tables: Int, hasFiles: Bool) {
        do {
            return try retrying { () throws(CatalogError) in
                var found = (version: 0, tables: 0, hasFiles: false)
                try Statement(db, """
                    SELECT (SELECT user_version FROM pragma_user_version), (SELECT COUNT(*) FROM sqlite_master),
                           (SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'files')
                    """).run { row in found = (Int(row.int(0)), Int(row.int(1)), row.int(2) > 0) }
                return found
            }
        } catch {
            guard error.code & 0xFF == CatalogError.notADatabase else { throw error }
            throw CatalogError(code: CatalogError.notADatabase, message: "not an isbnscan catalogue (not an SQLite database)",
                               sql: nil, path: path, sqliteMessage: false)
        }
    }

    /// Whether another process holds a write lock on the SQLite database at `path`, as SQLite's
    /// unix VFS takes it (POSIX advisory locks, fcntl(2) F_GETLK, which sees other processes'
    /// only): in WAL mode the WAL write lock, byte 120 of the `-shm` file; in rollback mode (a
    /// first writer switching the new file to WAL) the RESERVED or PENDING byte of the main file,
    /// 0x40000001 and 0x40000000 (SQLite's os_unix.c and wal.c). Nothing is changed.
    static func writerHoldsLock(_ path: String) -> Bool {
        func locked(_ file: String, at offset: Int, count: Int) -> Bool {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = offset
            lock.l_len = count
            return fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != Int16(F_UNLCK)
        }
        return locked(path + "-shm", at: 120, count: 1) || locked(path, at: 0x4000_0000, count: 2)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// SQLite's "unable to open database file" or "attempt to write a readonly database" made into
    /// what the user can act on, from the errno of the same open(2) SQLite could not do. Other
    /// errors are returned as they are.
    private static func diagnosed(_ error: CatalogError, path: String, existed: Bool, access: Access) -> CatalogError {
        let base = error.code & 0xFF
        guard base == CatalogError.cantOpen || base == CatalogError.readOnly else { return error }
        func failed(_ what: String, _ code: Int32) -> CatalogError {
            CatalogError(code: CatalogError.cantOpen, message: "\(what): \(String(cString: strerror(code)))", sql: nil, path: path,
                         sqliteMessage: false)
        }
        if access == .read {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { return failed("cannot read the catalogue", errno) }
            close(fd)
        } else if !existed {
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 { return failed("cannot create the catalogue", errno) }
            close(fd)
            unlink(path)
        } else {
            let fd = open(path, O_RDWR | O_CLOEXEC)
            if fd < 0 { return failed("cannot write the catalogue", errno) }
            close(fd)
        }
        // The file is fine: then its folder, where the -wal and -shm files go.
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if Glibc.access(folder, W_OK) != 0 {
            return failed("cannot create its journal \(path)-wal (WAL needs the folder \(folder) writable)", errno)
        }
        return error
    }

    /// The schema version of the file (`PRAGMA user_version`).
    public func userVersion() throws(CatalogError) -> Int {
        Int(try statement("PRAGMA user_version").scalar() ?? 0)
    }

    /// Brings the schema to `target` in one transaction that reads the version itself, so that
    /// writers starting together on a new file create the tables once.
    private func migrate(upTo target: Int) throws(CatalogError) {
        guard openedVersion < target else { return }
        defer { self.version = (try? userVersion()) ?? self.version }
        try transaction { () throws(CatalogError) in
            let current = Int(try Statement(db, "PRAGMA user_version").scalar() ?? 0)
            guard current < target else { return }
            for version in (current + 1)...target {
                let migration = Schema.migrations[version - 1]
                try db.execute(migration.sql)
                try migration.then?(self)
                try db.execute("PRAGMA user_version = \(version)")
            }
        }
    }

    /// The statement for `sql`, prepared on first use and kept.
    func statement(_ sql: String) throws(CatalogError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(db, sql)
        statements[sql] = statement
        return statement
    }

    // MARK: Transactions

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction and commits it; rolled back and run
    /// again while another connection holds the lock (see the type's discussion), so `body`
    /// must only touch the catalogue.
    /// - Throws: ``CatalogError``: `body`'s, or ``CatalogError/busy`` once ``lockTimeout`` has
    ///   passed (nothing of `body` is kept).
    public func transaction(_ body: () throws(CatalogError) -> Void) throws(CatalogError) {
        // The wait is what BEGIN IMMEDIATE took, SQLite's own short waits included: microseconds
        // when no one else writes.
        let asked = ContinuousClock.now
        var waited: Double?
        defer {
            if let waited, waited > 0.001 {
                lockWaits += 1
                waitedSeconds += waited
            }
        }
        try retrying { () throws(CatalogError) in
            try statement("BEGIN IMMEDIATE").run()
            if waited == nil { waited = Self.seconds(ContinuousClock.now - asked) }
            do throws(CatalogError) {
                try body()
                try statement("COMMIT").run()
            } catch {
                if db.inTransaction { try? db.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// `body`, run again after SQLITE_BUSY with a growing, randomised pause until ``lockTimeout``.
    private func retrying<T>(_ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        var pause = 0.002
        let start = ContinuousClock.now
        while true {
            do {
                return try body()
            } catch {
                guard error.code & 0xFF == CatalogError.busy else { throw error }
                let waited = Self.seconds(ContinuousClock.now - start)
                guard waited < lockTimeout else {
                    throw CatalogError(code: CatalogError.busy,
                                       message: "the catalogue stayed locked by another writer for \(Int(waited.rounded())) s "
                                           + "(ISBNSCAN_LOCK_TIMEOUT sets how long to wait)",
                                       sql: nil, path: path, sqliteMessage: false)
                }
                retries += 1
                var pauseTime = timespec()
                let jittered = pause * Double.random(in: 0.5...1.5)
                pauseTime.tv_sec = Int(jittered)
                pauseTime.tv_nsec = Int((jittered - Double(Int(jittered))) * 1e9)
                nanosleep(&pauseTime, nil)
                pause = min(pause * 2, 0.1)
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// `body` inside the open transaction, else in a transaction of its own.
    func writing(_ body: () throws(CatalogError) -> Void) throws(CatalogError) {
        if db.inTransaction { try body(); return }
        try transaction(body)
    }

    // MARK: Files

    /// What the catalogue holds about a file scanned before.
    public struct StoredFile: Sendable, Equatable {
        /// The row (`files.id`).
        public var id: Int64
        /// The path's bytes: canonical (``FileIdentity/path``), or as typed for a row written
        /// before schema version 3 (then ``device`` is `nil`).
        public var path: [UInt8]
        public var name: String
        /// Size in bytes and modification time (nanoseconds since 1970, UTC) when scanned.
        public var size: Int64?
        public var modificationNanoseconds: Int64?
        /// ``FileIdentity``'s device, inode and content hash; `nil` in rows written before version 3.
        public var device: Int64?
        public var inode: Int64?
        public var contentHash: Int64?
        /// `isbn`, `refused`, `no-barcode` or `error`.
        public var status: String
        public var isbnCount: Int
        public var refusedCount: Int
        public var symbolCount: Int
        public var scannedAt: String

        /// Whether this row is the scan of the file `identity` describes as it is now: the same
        /// device, inode, size, modification time and content hash, and read then (a failure
        /// is tried again).
        public func isUnchanged(_ identity: FileIdentity) -> Bool {
            status != "error" && device == identity.device && inode == identity.inode && size == identity.size
                && modificationNanoseconds == identity.modificationNanoseconds && contentHash == identity.contentHash
        }
    }

    private func storedFiles(where condition: String, _ values: [Statement.Value]) throws(CatalogError) -> [StoredFile] {
        var found: [StoredFile] = []
        let identity = version >= 3 ? "device, inode, content_hash" : "NULL, NULL, NULL"
        let columns = "id, path, name, size, mtime_ns, \(identity), status, isbn_count, refused_count, symbol_count, scanned_at"
        try statement("SELECT \(columns) FROM files WHERE \(condition)").run(values) { row in
            found.append(StoredFile(id: row.int(0), path: row.blob(1), name: row.text(2) ?? "", size: row.optionalInt(3),
                                    modificationNanoseconds: row.optionalInt(4), device: row.optionalInt(5), inode: row.optionalInt(6),
                                    contentHash: row.optionalInt(7), status: row.text(8) ?? "", isbnCount: Int(row.int(9)),
                                    refusedCount: Int(row.int(10)), symbolCount: Int(row.int(11)), scannedAt: row.text(12) ?? ""))
        }
        return found
    }

    /// The row whose path is exactly `path` (its bytes), or `nil`.
    public func storedFile(path: [UInt8]) throws(CatalogError) -> StoredFile? {
        try storedFiles(where: "path = ?", [.blob(path)]).first
    }

    /// The row that stands for the file `identity` describes (named `typed` on the command line
    /// or found so in a folder), and whether that row is its scan as the file is now.
    ///
    /// In order: the row at the canonical path; a row written before schema version 3 under
    /// the canonical or the typed path (never unchanged: scanned again and taken over); a row
    /// of the same device, inode, size, time and hash under another path, which is the same
    /// file by a hard link while that path still leads to it (unchanged), or a file moved
    /// (scanned again into that row). `nil`: a file new to the catalogue.
    public func lookUp(_ identity: FileIdentity, typed: [UInt8]) throws(CatalogError) -> (stored: StoredFile, unchanged: Bool)? {
        if let row = try storedFile(path: identity.path) {
            return (row, row.device != nil && row.isUnchanged(identity))
        }
        if typed != identity.path, let row = try storedFile(path: typed), row.device == nil {
            return (row, false)
        }
        let same = try storedFiles(where: "device = ? AND inode = ? AND size = ? AND mtime_ns = ? AND content_hash = ? AND status != 'error' LIMIT 1",
                                   [.int(identity.device), .int(identity.inode), .int(identity.size),
                                    .int(identity.modificationNanoseconds), .int(identity.contentHash)])
        guard let row = same.first else { return nil }
        let there = FileIdentity(path: row.path)
        return (row, there?.device == identity.device && there?.inode == identity.inode)
    }

    /// What a run with `--db` does with one input: scan it (new, changed, or asked to
    /// rescan), replacing the row it was known by, or take its earlier scan as it stands.
    public enum ScanDecision: Sendable, Equatable {
        /// Scan it; `identity` is `nil` for what has none (standard input, a path naming no
        /// file: never found unchanged), `replacing` the row the new scan replaces.
        case scan(identity: FileIdentity?, replacing: Int64?)
        /// Unchanged since it was catalogued: its row stands for it.
        case unchanged(StoredFile)
    }

    /// Whether the file at `path` (its bytes as given or walked) must be scanned: it is
    /// unchanged only when ``lookUp(_:typed:)`` finds its row and that row is its scan as the
    /// file is now, and `rescan` is off. `identify` false: an input with no identity to take
    /// (standard input, or one the walk already found unreadable).
    /// - Throws: ``CatalogError`` when the catalogue cannot be read: the run stops rather than
    ///   scan again, as new, a file the catalogue may hold.
    public func decision(for path: [UInt8], identify: Bool, rescan: Bool) throws(CatalogError) -> ScanDecision {
        let identity = identify ? FileIdentity(path: path) : nil
        var found: (stored: StoredFile, unchanged: Bool)?
        if let identity { found = try lookUp(identity, typed: path) }
        if !rescan, let found, found.unchanged { return .unchanged(found.stored) }
        return .scan(identity: identity, replacing: found?.stored.id)
    }

    /// One file's scan for ``record(_:)``.
    public struct FileEntry: Sendable {
        public var record: FileRecord
        /// The file (`nil`: standard input, recorded under `path` and never found unchanged).
        public var identity: FileIdentity?
        /// The path's bytes as given; the key when there is no identity.
        public var path: [UInt8]
        /// The row found by ``lookUp(_:typed:)``, replaced by this scan.
        public var replacing: Int64?
        /// The `Warning:` texts printed for the file.
        public var warnings: [String]
        /// ``Timestamp`` of the scan.
        public var time: String

        public init(record: FileRecord, identity: FileIdentity?, path: [UInt8], replacing: Int64? = nil,
                    warnings: [String] = [], time: String = Timestamp.now()) {
            self.record = record
            self.identity = identity
            self.path = path
            self.replacing = replacing
            self.warnings = warnings
            self.time = time
        }
    }

    /// Records scanned files in one transaction, each replacing the earlier scan of the same
    /// file (its row, with its sightings and refusals).
    /// - Throws: ``CatalogError``; then none of `entries` is recorded.
    public func record(_ entries: [FileEntry]) throws(CatalogError) {
        try writing { () throws(CatalogError) in
            for entry in entries { try write(entry) }
        }
    }

    /// Records one scanned file, keyed by `path` as given (tests; `scan` records ``FileEntry``s).
    public func record(_ record: FileRecord, path: [UInt8], size: Int64?, modificationNanoseconds: Int64?,
                       warnings: [String] = [], at time: String = Timestamp.now()) throws(CatalogError) {
        try writing { () throws(CatalogError) in
            try write(FileEntry(record: record, identity: nil, path: path, warnings: warnings, time: time),
                      size: size, modificationNanoseconds: modificationNanoseconds)
        }
    }

    private func write(_ entry: FileEntry, size: Int64? = nil, modificationNanoseconds: Int64? = nil) throws(CatalogError) {
        let record = entry.record, identity = entry.identity
        let key = identity?.path ?? entry.path
        let status = !record.wasRead ? "error" : !record.isbns.isEmpty ? "isbn" : record.symbols.isEmpty ? "no-barcode" : "refused"
        var fileID = try statement("SELECT id FROM files WHERE path = ?").scalar([.blob(key)])
        if fileID == nil, let replacing = entry.replacing,
           try statement("SELECT COUNT(*) FROM files WHERE id = ?").scalar([.int(replacing)]) == 1 {
            fileID = replacing
        }
        let values: [Statement.Value] = [
            .blob(key), .text(record.file), .optional(identity?.size ?? size),
            .optional(identity?.modificationNanoseconds ?? modificationNanoseconds), .optional(identity?.device),
            .optional(identity?.inode), .optional(identity?.contentHash), .text(status), .int(Int64(record.isbns.count)),
            .int(Int64(record.rejected.filter(\.isProblem).count)), .int(Int64(record.symbols.count)),
            .optional(record.error), entry.warnings.isEmpty ? .null : .text(entry.warnings.joined(separator: "\n")),
            .optional(record.width), .optional(record.height), .optional(record.pages), .optional(record.warning), .text(entry.time),
        ]
        if let id = fileID {
            try statement("""
                UPDATE files SET path = ?, name = ?, size = ?, mtime_ns = ?, device = ?, inode = ?, content_hash = ?, status = ?,
                    isbn_count = ?, refused_count = ?, symbol_count = ?, error = ?, warnings = ?, width = ?, height = ?, pages = ?,
                    warning = ?, scanned_at = ?
                WHERE id = ?
                """).run(values + [.int(id)])
            try deleteScan(of: id)
        } else {
            try statement("""
                INSERT INTO files (path, name, size, mtime_ns, device, inode, content_hash, status, isbn_count, refused_count,
                                   symbol_count, error, warnings, width, height, pages, warning, scanned_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """).run(values) { row in fileID = row.int(0) }
        }
        guard let fileID else { return }
        // The row this file was known by before (an older spelling) goes, with its sightings.
        if let replacing = entry.replacing, replacing != fileID {
            try deleteScan(of: replacing)
            try statement("DELETE FROM files WHERE id = ?").run([.int(replacing)])
        }
        try insertRecord(record, fileID: fileID)
        try insert(symbols: record.symbols, isbns: record.isbns, fileID: fileID, device: nil, frame: nil,
                   source: record.file, at: entry.time)
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
            INSERT OR IGNORE INTO sightings (isbn13, isbn10, addon, jp_book_code, file_id, device, frame, source, polygon, seen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for isbn in isbns {
            let polygon = symbols.first { $0.isbn?.isbn13 == isbn.isbn13 }?.json["polygon"]?.encoded ?? "[]"
            let isbn10: Statement.Value = isbn.isbn10.map { .text($0) } ?? .null
            let addOn: Statement.Value = isbn.addOn.map { .text($0) } ?? .null
            let file: Statement.Value = fileID.map { .int($0) } ?? .null
            let deviceValue: Statement.Value = device.map { .text($0) } ?? .null
            let frameValue: Statement.Value = frame.map { .int(Int64($0)) } ?? .null
            try sighting.run([.text(isbn.isbn13), isbn10, addOn, .optional(isbn.jpBookCode?.code), file, deviceValue, frameValue,
                              .text(source), .text(polygon), .text(time)])
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
        /// The 13 digits of the last Japanese book code (second row) read with it, if any.
        public var jpBookCode: String?
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
        // Before version 6 (a catalogue opened read-only) sightings keep no Japanese book code.
        let secondRow = version < 6 ? "NULL" : """
            (SELECT j.jp_book_code FROM sightings j WHERE j.isbn13 = s.isbn13 AND j.jp_book_code IS NOT NULL
             ORDER BY j.seen_at DESC, j.id DESC LIMIT 1)
            """
        try statement("""
            SELECT s.isbn13, MAX(s.isbn10), (SELECT a.addon FROM sightings a WHERE a.isbn13 = s.isbn13 AND a.addon IS NOT NULL
                                             ORDER BY a.seen_at DESC, a.id DESC LIMIT 1),
                   COUNT(*), MIN(s.seen_at), MAX(s.seen_at),
                   (SELECT f.source FROM sightings f WHERE f.isbn13 = s.isbn13 ORDER BY f.seen_at, f.id LIMIT 1),
                   \(secondRow)
            FROM sightings s GROUP BY s.isbn13 ORDER BY MIN(s.seen_at), MIN(s.id)
            """).run { row in
            books.append(Book(isbn13: row.text(0) ?? "", isbn10: row.text(1), addOn: row.text(2), jpBookCode: row.text(7),
                              count: Int(row.int(3)), firstSeen: row.text(4) ?? "", lastSeen: row.text(5) ?? "",
                              firstSource: row.text(6) ?? ""))
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
        guard version >= 2 else { return stats }  // version 1 kept no refusals
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
        /// Book lookup answers taken (the other's, where this catalogue had none or an older one).
        public var lookups = 0
        /// The other's codes that are no valid ISBN-13 (978 or 979, as ``ISBN/judge(ean:accepting:)``
        /// judges them), in code order: their sightings and lookup answers were not merged.
        public var refused: [RefusedCode] = []
    }

    /// A code of a catalogue merged in that is no ISBN: a file edited by hand or another program.
    public struct RefusedCode: Sendable, Equatable {
        /// The code as stored (any length).
        public var isbn13: String
        /// Why it is no ISBN (`non-digit`, `length`, `prefix`, `ismn`, `check-digit`).
        public var reason: String
        /// Its sightings in the other catalogue.
        public var sightings: Int
    }

    /// Adds the catalogue at `other` to this one, without duplicates: a file recorded in both
    /// keeps the later of its two scans, with that scan's sightings and refusals only (a
    /// sighting is one file's reading at one scan: the same file scanned into both catalogues
    /// counts once); camera sightings and refusals (same code, device, frame and time) are
    /// added once; a book lookup's answer is taken when this catalogue has none or an older one;
    /// a code that is no valid ISBN (``MergeCount/refused``) is not merged. `other` is only read
    /// (opened read-only, never migrated).
    /// - Throws: ``CatalogError`` (the other file missing, not a catalogue, newer, or this
    ///   catalogue's own file: ``CatalogError/misuse``); nothing is added then.
    public func merge(from other: String) throws(CatalogError) -> MergeCount {
        if Self.sameFile(path, other) {
            // Attaching it would wait on its own lock and fail with "database is locked".
            throw CatalogError(code: CatalogError.misuse, message: "is the catalogue being merged into: it cannot be merged into itself",
                               sql: nil, path: other, sqliteMessage: false)
        }
        let source = try Catalog(path: other, access: .read)
        var count = MergeCount()
        try Statement(db, "ATTACH DATABASE ? AS other").run([.text(Self.readOnlyURI(other))])
        defer { try? db.execute("DETACH DATABASE other") }
        // The row in this catalogue of the other's file `file_id`, once copied.
        let mainID = "(SELECT f.id FROM main.files f JOIN other.files o ON o.path = f.path WHERE o.id = s.file_id)"
        let newer = "s.file_id IN (SELECT other_id FROM temp.merge_newer)"
        try writing { () throws(CatalogError) in
            // The other's version in the snapshot read here: a writer may have migrated it since it was opened.
            let sourceVersion = Int(try Statement(db, "PRAGMA other.user_version").scalar() ?? 0)
            if sourceVersion > Schema.version {
                throw CatalogError(code: CatalogError.misuse,
                                   message: "catalogue schema version \(sourceVersion) is newer than this isbnscan's (\(Schema.version)); use a newer isbnscan",
                                   sql: nil, path: other, sqliteMessage: false)
            }
            // Codes that are no ISBN (what scan and camera never record) are left out, and said.
            var refused: [RefusedCode] = []
            try Statement(db, """
                SELECT isbn13, SUM(n) FROM (SELECT isbn13, 1 AS n FROM other.sightings
                \(sourceVersion >= 4 ? "UNION ALL SELECT isbn13, 0 FROM other.lookups" : "")) GROUP BY isbn13 ORDER BY isbn13
                """).run { row in
                let code = row.text(0) ?? ""
                if case .rejected(let rejection) = ISBN.judge(ean: code, accepting: .with979) {
                    refused.append(RefusedCode(isbn13: code, reason: rejection.reason.rawValue, sightings: Int(row.int(1))))
                }
            }
            try db.execute("CREATE TEMP TABLE merge_refused (isbn13 TEXT PRIMARY KEY)")
            let refuse = try Statement(db, "INSERT OR IGNORE INTO temp.merge_refused VALUES (?)")
            for code in refused { try refuse.run([.text(code.isbn13)]) }
            let identity = sourceVersion >= 3 ? "o.device, o.inode, o.content_hash" : "NULL, NULL, NULL"
            let hasRows = sourceVersion >= Schema.recordRows
            let recordColumns = hasRows ? "o.width, o.height, o.pages, o.warning" : "NULL, NULL, NULL, NULL"
            let before = try totals()
            try db.execute("""
                CREATE TEMP TABLE merge_newer AS
                    SELECT o.id AS other_id, o.path AS path FROM other.files o LEFT JOIN main.files f ON f.path = o.path
                    WHERE f.id IS NULL OR o.scanned_at > f.scanned_at;
                """ + (["sightings", "refusals"] + Schema.recordTables).map { table in
                    "DELETE FROM main.\(table) WHERE file_id IN (SELECT f.id FROM main.files f JOIN temp.merge_newer n ON n.path = f.path);\n"
                }.joined() + """
                INSERT INTO main.files (path, name, size, mtime_ns, device, inode, content_hash, status, isbn_count, refused_count,
                                        symbol_count, error, warnings, width, height, pages, warning, scanned_at)
                SELECT o.path, o.name, o.size, o.mtime_ns, \(identity), o.status, o.isbn_count, o.refused_count, o.symbol_count,
                       o.error, o.warnings, \(recordColumns), o.scanned_at
                FROM other.files o WHERE o.id IN (SELECT other_id FROM temp.merge_newer)
                ON CONFLICT (path) DO UPDATE SET name = excluded.name, size = excluded.size, mtime_ns = excluded.mtime_ns,
                    device = excluded.device, inode = excluded.inode, content_hash = excluded.content_hash,
                    status = excluded.status, isbn_count = excluded.isbn_count, refused_count = excluded.refused_count,
                    symbol_count = excluded.symbol_count, error = excluded.error, warnings = excluded.warnings,
                    width = excluded.width, height = excluded.height, pages = excluded.pages, warning = excluded.warning,
                    scanned_at = excluded.scanned_at;
                INSERT OR IGNORE INTO main.sightings (isbn13, isbn10, addon, jp_book_code, file_id, device, frame, source, polygon,
                                                      seen_at)
                SELECT s.isbn13, s.isbn10, s.addon, \(sourceVersion >= 6 ? "s.jp_book_code" : "NULL"), \(mainID), s.device, s.frame,
                       s.source, s.polygon, s.seen_at FROM other.sightings s
                WHERE (s.file_id IS NULL OR \(newer)) AND s.isbn13 NOT IN (SELECT isbn13 FROM temp.merge_refused);
                """ + (sourceVersion >= 2 ? """
                INSERT OR IGNORE INTO main.refusals (file_id, device, frame, source, type, data, reason, detail, seen_at)
                SELECT \(mainID), s.device, s.frame, s.source, s.type, s.data, s.reason, s.detail, s.seen_at FROM other.refusals s
                WHERE s.file_id IS NULL OR \(newer);
                """ : ""))
            if hasRows {
                for table in Schema.recordTables {
                    var columns: [String] = []
                    try Statement(db, "SELECT name FROM main.pragma_table_info(?) WHERE name != 'file_id'").run([.text(table)]) { row in
                        columns.append(row.text(0) ?? "")
                    }
                    try db.execute("""
                        INSERT INTO main.\(table) (file_id, \(columns.joined(separator: ", ")))
                        SELECT \(mainID), \(columns.map { "s." + $0 }.joined(separator: ", ")) FROM other.\(table) s WHERE \(newer)
                        """)
                }
            } else {
                // The other keeps its records as JSON lines: read once, into this catalogue's rows.
                try recordsFromJSON("""
                    SELECT f.id, o.record, o.id FROM temp.merge_newer n JOIN other.files o ON o.id = n.other_id
                    JOIN main.files f ON f.path = o.path WHERE o.id > ? ORDER BY o.id LIMIT 256
                    """)
            }
            try db.execute("DROP TABLE temp.merge_newer; DROP TABLE temp.merge_refused")
            // The other's lookup answers where this catalogue has none, or an older one.
            let mine = try cachedLookups()
            var lookups = 0
            let refusedCodes = Set(refused.map(\.isbn13))
            for (isbn13, theirs) in try source.cachedLookups().sorted(by: { $0.key < $1.key }) where !refusedCodes.contains(isbn13) {
                if let mine = mine[isbn13], mine.fetchedAt >= theirs.fetchedAt { continue }
                let outcome: LookupRecord.Outcome = theirs.metadata.map { .found($0) } ?? .notFound(providers: theirs.providers)
                try store([LookupRecord(isbn13: isbn13, outcome: outcome, response: try source.cachedResponse(of: isbn13)?.body)],
                          at: theirs.fetchedAt)
                lookups += 1
            }
            let after = try totals()
            count = MergeCount(files: after.0 - before.0, sightings: after.1 - before.1, refusals: after.2 - before.2, lookups: lookups,
                               refused: refused)
        }
        return count
    }

    /// `file:<path>?mode=ro`: `path` made absolute and percent-encoded, for ATTACH (SQLite's URI
    /// file names), so that the attached catalogue is opened read-only; with `immutable`,
    /// `&immutable=1` (SQLite then takes no lock and reads no -wal file).
    static func readOnlyURI(_ path: String, immutable: Bool = false) -> String {
        var full = Array(path.utf8)
        if full.first != UInt8(ascii: "/"), let cwd = getcwd(nil, 0) {
            full = Array(UnsafeRawBufferPointer(start: cwd, count: strlen(cwd))) + [UInt8(ascii: "/")] + full
            free(cwd)
        }
        var uri = "file:"
        for byte in full {
            let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "/-._~".utf8.contains(byte)
            if plain {
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                uri += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return uri + "?mode=ro" + (immutable ? "&immutable=1" : "")
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
