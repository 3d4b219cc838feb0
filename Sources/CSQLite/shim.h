// SQLite 3 (libsqlite3-dev) for Swift: the C API plus fixed-argument wrappers for what Swift
// cannot import (SQLITE_TRANSIENT is a macro casting -1 to a function pointer).
#ifndef ISBNSCAN_CSQLITE_SHIM_H
#define ISBNSCAN_CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the `n` bytes before returning.
static inline int isc_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int n) {
    return sqlite3_bind_text(statement, index, text, n, SQLITE_TRANSIENT);
}

/// sqlite3_bind_blob with SQLITE_TRANSIENT: SQLite copies the `n` bytes before returning.
static inline int isc_sqlite3_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int n) {
    return sqlite3_bind_blob(statement, index, bytes, n, SQLITE_TRANSIENT);
}
#endif
