// SPDX-License-Identifier: Apache-2.0
internal import CSQLite

/// One prepared SQLite statement; the only owner of its `sqlite3_stmt`, finalized in `deinit`.
///
/// Keeps its ``Connection`` alive (a statement must be finalized before its connection closes).
/// Parameters are numbered from 1, columns from 0, as in the C API.
final class Statement {
    let connection: Connection
    let sql: String
    private let handle: OpaquePointer

    /// Compiles `sql` (sqlite3_prepare_v2).
    /// - Throws: ``CatalogError`` with SQLite's code and message.
    init(_ connection: Connection, _ sql: String) throws(CatalogError) {
        var statement: OpaquePointer?
        let sqlite = connection.sqlite
        let code = sqlite.pointee.prepare_v2(connection.handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            _ = sqlite.pointee.finalize(statement)
            throw connection.error(code, sql: sql)
        }
        self.connection = connection
        self.sql = sql
        self.handle = statement
    }

    deinit { _ = connection.sqlite.pointee.finalize(handle) }

    /// A value bound to a parameter.
    enum Value {
        case null, int(Int64), text(String), blob([UInt8])

        /// `.text(s)`, or `.null` when `s` is `nil`.
        static func optional(_ s: String?) -> Value { s.map(Value.text) ?? .null }
        /// `.int(n)`, or `.null` when `n` is `nil`.
        static func optional(_ n: Int64?) -> Value { n.map(Value.int) ?? .null }
        /// `.int(n)`, or `.null` when `n` is `nil`.
        static func optional(_ n: Int?) -> Value { n.map { .int(Int64($0)) } ?? .null }
        /// `.int(1)` or `.int(0)`.
        static func bool(_ b: Bool) -> Value { .int(b ? 1 : 0) }
    }

    /// Resets the statement, binds `values` to parameters 1…n, steps it to the end
    /// (sqlite3_reset, sqlite3_bind_*, sqlite3_step) and returns every row via `row`.
    /// - Throws: ``CatalogError`` from binding or stepping.
    func run(_ values: [Value] = [], row: (Row) throws(CatalogError) -> Void = { _ in }) throws(CatalogError) {
        let sqlite = connection.sqlite
        _ = sqlite.pointee.reset(handle)
        _ = sqlite.pointee.clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite.pointee.bind_null(handle, index)
            case .int(let n): code = sqlite.pointee.bind_int64(handle, index, n)
            case .text(let s):
                let bytes = Array(s.utf8) + [0]
                code = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { isc_sqlite3_bind_text(sqlite, handle, index, $0.baseAddress, Int32(bytes.count - 1)) }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { isc_sqlite3_bind_blob(sqlite, handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count)) }
            }
            guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
        }
        defer { _ = sqlite.pointee.reset(handle) }
        while true {
            let code = sqlite.pointee.step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            try row(Row(handle: handle, sqlite: sqlite))
        }
    }

    /// The first column of the first row as an integer, or `nil` when there is no row.
    func scalar(_ values: [Value] = []) throws(CatalogError) -> Int64? {
        var result: Int64?
        try run(values) { row in if result == nil { result = row.isNull(0) ? nil : row.int(0) } }
        return result
    }
}

/// The current row of a stepping statement; valid only inside ``Statement/run(_:row:)``.
struct Row {
    fileprivate let handle: OpaquePointer
    fileprivate let sqlite: UnsafePointer<isc_sqlite3_api>

    /// sqlite3_column_int64.
    func int(_ column: Int32) -> Int64 { sqlite.pointee.column_int64(handle, column) }
    /// sqlite3_column_type == SQLITE_NULL.
    func isNull(_ column: Int32) -> Bool { sqlite.pointee.column_type(handle, column) == SQLITE_NULL }
    /// The column as an integer, or `nil` when NULL.
    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    /// sqlite3_column_text, copied into a String (`nil` for NULL).
    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite.pointee.column_text(handle, column) else { return nil }
        let count = Int(sqlite.pointee.column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
    /// sqlite3_column_blob, copied into bytes (empty for NULL).
    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite.pointee.column_bytes(handle, column))
        guard count > 0, let pointer = sqlite.pointee.column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
