// SPDX-License-Identifier: Apache-2.0
internal import CSQLite

/// SQLite's functions, opened with the first catalogue (isc_sqlite3_load: dlopen of
/// libsqlite3.so.0), so that runs without a catalogue never map libsqlite3.
enum SQLiteLibrary {
    /// The loader's table (written once, under the loader's lock, before it is returned; read-only
    /// after), or the reason from dlerror(3).
    nonisolated(unsafe) private static let loaded: (api: UnsafePointer<isc_sqlite3_api>?, reason: String) = {
        var message = [CChar](repeating: 0, count: 256)
        let api = isc_sqlite3_load(&message, message.count)
        return (api, api == nil ? String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "")
    }()

    /// SQLite's functions.
    /// - Throws: ``CatalogError`` (``CatalogError/cantOpen``, naming `path` and the Debian package)
    ///   when libsqlite3 cannot be opened.
    static func api(opening path: String) throws(CatalogError) -> UnsafePointer<isc_sqlite3_api> {
        guard let api = loaded.api else {
            throw CatalogError(code: CatalogError.cantOpen,
                               message: "the catalogue needs libsqlite3 (apt install libsqlite3-0): \(loaded.reason)",
                               sql: nil, path: path, sqliteMessage: false)
        }
        return api
    }
}
