// SPDX-License-Identifier: Apache-2.0
/*
 * CJSON — json-c for the lookup's response parsing, opened on first use (see cloader.h): only
 * the book lookup reads JSON, so a scan never maps it.
 *
 * json-c's headers (Debian libjson-c-dev) give the types, constants and prototypes; the
 * functions are called through the table isc_json_load returns, never directly (the binary does
 * not link json-c).
 */
#ifndef ISBNSCAN_CJSON_H
#define ISBNSCAN_CJSON_H

#include <json-c/json.h>
#include <stddef.h>

/* The json-c functions the lookup calls, each as json_<name>. */
#define ISC_JSON_FUNCTIONS(X) \
    X(object_array_get_idx) X(object_array_length) X(object_get_boolean) X(object_get_double) \
    X(object_get_int64) X(object_get_string) X(object_get_string_len) X(object_get_type) \
    X(object_iter_begin) X(object_iter_end) X(object_iter_equal) X(object_iter_next) \
    X(object_iter_peek_name) X(object_iter_peek_value) X(object_put) X(tokener_error_desc) \
    X(tokener_free) X(tokener_get_error) X(tokener_get_parse_end) X(tokener_new) \
    X(tokener_parse_ex) X(tokener_set_flags)

/** json-c's functions, `tokener_new` for json_tokener_new and so on, with json-c's own signatures. */
typedef struct isc_json_api {
#define ISC_JSON_POINTER(name) __typeof__(json_##name) *_Nonnull name;
    ISC_JSON_FUNCTIONS(ISC_JSON_POINTER)
#undef ISC_JSON_POINTER
} isc_json_api;

/** The file opened (dlopen): json-c's soname, from Debian's libjson-c5. */
#define ISC_JSON_SONAME "libjson-c.so.5"

/** Opens json-c the first time (any thread) and returns its functions; NULL with dlerror(3)'s
 *  text (or the missing function) in `message` when it cannot. The answer stays for the whole run. */
const isc_json_api *_Nullable isc_json_load(char *_Nonnull message, size_t message_size);
#endif
