// SPDX-License-Identifier: Apache-2.0
internal import CSQLite

/// A catalogue operation failed: the SQLite result code, SQLite's message and the SQL that
/// was running (or what was being done, for errors outside a statement).
///
/// `description`: `books.db: database is locked (SQLite 5) in: INSERT INTO files …` for SQLite's
/// messages; isbnscan's own sentences (``sqliteMessage`` false) are shown alone:
/// `notes.db: not an isbnscan catalogue (not an SQLite database)`.
public struct CatalogError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The (extended) SQLite result code, e.g. ``busy`` or ``notADatabase``; ``misuse`` for
    /// errors found by isbnscan itself (a catalogue newer than this program).
    public let code: Int32
    /// `sqlite3_errmsg` at the time, or isbnscan's sentence.
    public let message: String
    /// The SQL statement, or `nil`.
    public let sql: String?
    /// The catalogue file.
    public let path: String
    /// Whether ``message`` is SQLite's (shown with the code and the SQL), or a sentence of
    /// isbnscan's for people (shown alone).
    public let sqliteMessage: Bool

    public init(code: Int32, message: String, sql: String?, path: String, sqliteMessage: Bool = true) {
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
        self.sqliteMessage = sqliteMessage
    }

    /// SQLITE_ERROR: SQL error or a schema check failed.
    public static let error: Int32 = 1
    /// SQLITE_BUSY: another process holds the lock past the busy timeout.
    public static let busy: Int32 = 5
    /// SQLITE_READONLY.
    public static let readOnly: Int32 = 8
    /// SQLITE_CANTOPEN: the file or its folder cannot be opened.
    public static let cantOpen: Int32 = 14
    /// SQLITE_CONSTRAINT.
    public static let constraint: Int32 = 19
    /// SQLITE_MISUSE, used here for a catalogue this version cannot use.
    public static let misuse: Int32 = 21
    /// SQLITE_NOTADB: the file is not an SQLite database.
    public static let notADatabase: Int32 = 26

    public var description: String {
        guard sqliteMessage else { return "\(path): \(message)" }
        return "\(path): \(message) (SQLite \(code & 0xFF))" + (sql.map { " in: \($0)" } ?? "")
    }
}
