// SPDX-License-Identifier: Apache-2.0
/* SQLite opened on the first catalogue (see csqlite.h). */
#include "csqlite.h"
#include "cloader.h"

static isc_sqlite3_api sqlite;
#define ISC_SQLITE3_NAME(name) "sqlite3_" #name,
static const char *const sqlite_names[] = { ISC_SQLITE3_FUNCTIONS(ISC_SQLITE3_NAME) };
static isc_library libsqlite = ISC_LIBRARY(ISC_SQLITE3_SONAME, sqlite_names, sqlite);

const isc_sqlite3_api *isc_sqlite3_load(char *message, size_t message_size) {
    return isc_library_load(&libsqlite, message, message_size) ? &sqlite : NULL;
}
