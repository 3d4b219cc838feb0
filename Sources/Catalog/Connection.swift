// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
internal import CSQLite

/// One SQLite connection; the only owner of its `sqlite3` handle, closed in `deinit`
/// (sqlite3_close_v2, which waits for statements still alive).
final class Connection {
    let handle: OpaquePointer
    let path: String
    /// SQLite's functions (``SQLiteLibrary``), for this connection's statements too.
    let sqlite: UnsafePointer<isc_sqlite3_api>

    /// How long one statement waits for another connection's lock before it returns
    /// SQLITE_BUSY, in milliseconds (sqlite3_busy_timeout). Short on purpose: ``Catalog`` retries
    /// whole transactions with backoff and counts each wait, so a writer never holds half a
    /// transaction while it waits, and a wait shows in the figures.
    static let busyMilliseconds: Int32 = 50

    /// Opens the database file `path` (sqlite3_open_v2, URI file names allowed so that `ATTACH`
    /// can open a catalogue read-only).
    ///
    /// - `readOnly`: SQLITE_OPEN_READONLY (never creates or changes the file);
    /// - else SQLITE_OPEN_READWRITE, and with `create` SQLITE_OPEN_CREATE.
    /// - Throws: ``CatalogError`` (``CatalogError/cantOpen`` when the file or folder is missing, or
    ///   libsqlite3 cannot be opened).
    /// - `uri`: an SQLite URI (`file:…?mode=ro`) to open instead of `path`, which errors still name.
    init(path: String, create: Bool = true, readOnly: Bool = false, uri: String? = nil) throws(CatalogError) {
        let sqlite = try SQLiteLibrary.api(opening: path)
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)))
            | SQLITE_OPEN_URI
        // A plain path, not a URI, even when it starts with "file:" (SQLITE_OPEN_URI would read it as one).
        let name = uri ?? (path.hasPrefix("file:") ? "./" + path : path)
        let code = sqlite.pointee.open_v2(name, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite.pointee.errmsg($0) }.map { String(cString: $0) } ?? "out of memory"
            _ = sqlite.pointee.close_v2(db)
            throw CatalogError(code: code, message: message, sql: nil, path: path)
        }
        self.handle = db
        self.path = path
        self.sqlite = sqlite
        _ = sqlite.pointee.extended_result_codes(db, 1)
        _ = sqlite.pointee.busy_timeout(db, Self.busyMilliseconds)
    }

    deinit { _ = sqlite.pointee.close_v2(handle) }

    /// Runs one or more statements without parameters (sqlite3_exec).
    /// - Throws: ``CatalogError`` with the SQL.
    func execute(_ sql: String) throws(CatalogError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite.pointee.exec(handle, sql, nil, nil, &message)
        defer { sqlite.pointee.free(message) }
        guard code == SQLITE_OK else {
            throw CatalogError(code: code, message: message.map { String(cString: $0) } ?? errorMessage, sql: sql, path: path)
        }
    }

    /// A ``CatalogError`` for `code` with the connection's current message.
    func error(_ code: Int32, sql: String?) -> CatalogError {
        CatalogError(code: code, message: errorMessage, sql: sql, path: path)
    }

    /// sqlite3_errmsg: the message of the connection's last failed call (SQLite's "out of
    /// memory" when it has none to give).
    private var errorMessage: String { sqlite.pointee.errmsg(handle).map { String(cString: $0) } ?? "out of memory" }

    /// Whether a transaction is open (sqlite3_get_autocommit == 0).
    var inTransaction: Bool { sqlite.pointee.get_autocommit(handle) == 0 }

    /// Whether the main database was opened read-only, asked for or because the file is not
    /// writable (sqlite3_db_readonly).
    var isReadOnly: Bool { sqlite.pointee.db_readonly(handle, "main") == 1 }
}
