internal import CSQLite

/// One SQLite connection; the only owner of its `sqlite3` handle, closed in `deinit`
/// (sqlite3_close_v2, which waits for statements still alive).
final class Connection {
    let handle: OpaquePointer
    let path: String

    /// Opens (and with `create`, creates) the database file `path` (sqlite3_open_v2), with a
    /// 5-second busy timeout.
    /// - Throws: ``CatalogError`` (``CatalogError/cantOpen`` when the file or folder is missing
    ///   or not writable).
    init(path: String, create: Bool = true, readOnly: Bool = false) throws(CatalogError) {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw CatalogError(code: code, message: message, sql: nil, path: path)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements without parameters (sqlite3_exec).
    /// - Throws: ``CatalogError`` with the SQL.
    func execute(_ sql: String) throws(CatalogError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw CatalogError(code: code, message: message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle)),
                               sql: sql, path: path)
        }
    }

    /// A ``CatalogError`` for `code` with the connection's current message.
    func error(_ code: Int32, sql: String?) -> CatalogError {
        CatalogError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path)
    }

    /// Whether a transaction is open (sqlite3_get_autocommit == 0).
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
