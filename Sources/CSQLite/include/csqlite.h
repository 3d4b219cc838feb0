// SPDX-License-Identifier: Apache-2.0
/*
 * CSQLite — SQLite 3 for the catalogue, opened on first use (see cloader.h): only `--db` and the
 * `catalog` commands use it, so a scan of one photo does not spend its start-up binding
 * libsqlite3's symbols, and a machine without libsqlite3-0 still scans.
 *
 * SQLite's header (Debian libsqlite3-dev) gives the types, constants and prototypes; the
 * functions are called through the table isc_sqlite3_load returns, never directly (the binary
 * does not link libsqlite3). Fixed-argument wrappers stand in for what Swift cannot import
 * (SQLITE_TRANSIENT is a macro casting -1 to a function pointer).
 */
#ifndef ISBNSCAN_CSQLITE_H
#define ISBNSCAN_CSQLITE_H

#include <sqlite3.h>
#include <stddef.h>

/* The SQLite functions the catalogue calls, each as sqlite3_<name>. */
#define ISC_SQLITE3_FUNCTIONS(X) \
    X(bind_blob) X(bind_int64) X(bind_null) X(bind_text) X(busy_timeout) X(clear_bindings) \
    X(close_v2) X(column_blob) X(column_bytes) X(column_int64) X(column_text) X(column_type) \
    X(db_readonly) X(errmsg) X(exec) X(extended_result_codes) X(finalize) X(free) \
    X(get_autocommit) X(open_v2) X(prepare_v2) X(reset) X(step)

/** SQLite's functions, `open_v2` for sqlite3_open_v2 and so on, with SQLite's own signatures. */
typedef struct isc_sqlite3_api {
#define ISC_SQLITE3_POINTER(name) __typeof__(sqlite3_##name) *_Nonnull name;
    ISC_SQLITE3_FUNCTIONS(ISC_SQLITE3_POINTER)
#undef ISC_SQLITE3_POINTER
} isc_sqlite3_api;

/** The file opened (dlopen): SQLite's soname, from Debian's libsqlite3-0. */
#define ISC_SQLITE3_SONAME "libsqlite3.so.0"

/** Opens SQLite the first time (any thread) and returns its functions; NULL with dlerror(3)'s
 *  text (or the missing function) in `message` when it cannot. The answer stays for the whole run. */
const isc_sqlite3_api *_Nullable isc_sqlite3_load(char *_Nonnull message, size_t message_size);

/** sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the `n` bytes before returning. */
static inline int isc_sqlite3_bind_text(const isc_sqlite3_api *_Nonnull api, sqlite3_stmt *_Nonnull statement, int index,
                                        const char *_Nullable text, int n) {
    return api->bind_text(statement, index, text, n, SQLITE_TRANSIENT);
}

/** sqlite3_bind_blob with SQLITE_TRANSIENT: SQLite copies the `n` bytes before returning. */
static inline int isc_sqlite3_bind_blob(const isc_sqlite3_api *_Nonnull api, sqlite3_stmt *_Nonnull statement, int index,
                                        const void *_Nullable bytes, int n) {
    return api->bind_blob(statement, index, bytes, n, SQLITE_TRANSIENT);
}
#endif
