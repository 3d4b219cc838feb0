// SPDX-License-Identifier: Apache-2.0
/*
 * CCurl — libcurl for the book lookup, opened on first use (see cloader.h): with its TLS,
 * Kerberos, LDAP, SSH and IDN libraries libcurl is some thirty shared objects, which a scan
 * should not spend its start-up mapping and binding, and a machine without libcurl4 still scans.
 *
 * libcurl's headers (Debian libcurl4-openssl-dev) give the types, constants and prototypes; the
 * functions are called through the table isc_curl_load returns, never directly (the binary does
 * not link libcurl). Fixed-argument wrappers stand in for the variadic curl_easy_setopt and
 * curl_easy_getinfo, which Swift cannot call, and the macro CURL_GLOBAL_DEFAULT.
 */
#ifndef ISBNSCAN_CCURL_H
#define ISBNSCAN_CCURL_H

#include <curl/curl.h>
#include <stddef.h>

/* The libcurl functions the lookup calls, each as curl_<name>. */
#define ISC_CURL_FUNCTIONS(X) \
    X(easy_cleanup) X(easy_getinfo) X(easy_init) X(easy_perform) X(easy_reset) X(easy_setopt) \
    X(easy_strerror) X(global_init)

/** libcurl's functions, `easy_init` for curl_easy_init and so on, with libcurl's own signatures. */
typedef struct isc_curl_api {
#define ISC_CURL_POINTER(name) __typeof__(curl_##name) *_Nonnull name;
    ISC_CURL_FUNCTIONS(ISC_CURL_POINTER)
#undef ISC_CURL_POINTER
} isc_curl_api;

/** The file opened (dlopen): libcurl's soname, from Debian's libcurl4. */
#define ISC_CURL_SONAME "libcurl.so.4"

/** Opens libcurl the first time (any thread) and returns its functions; NULL with dlerror(3)'s
 *  text (or the missing function) in `message` when it cannot. The answer stays for the whole run. */
const isc_curl_api *_Nullable isc_curl_load(char *_Nonnull message, size_t message_size);

/** The callback libcurl calls with each piece of a body or header (CURLOPT_WRITEFUNCTION,
 *  CURLOPT_HEADERFUNCTION): returns `size * count` to go on, anything else to stop. */
typedef size_t (*isc_curl_write_callback)(char *_Nullable data, size_t size, size_t count, void *_Nullable context);

/** curl_global_init(CURL_GLOBAL_DEFAULT). */
static inline CURLcode isc_curl_global_init(const isc_curl_api *_Nonnull api) { return api->global_init(CURL_GLOBAL_DEFAULT); }

/** curl_easy_setopt with a `long` argument (CURLOPTTYPE_LONG options). */
static inline CURLcode isc_curl_setopt_long(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLoption option, long value) {
    return api->easy_setopt(handle, option, value);
}

/** curl_easy_setopt with a `curl_off_t` argument (CURLOPTTYPE_OFF_T options, `..._LARGE`). */
static inline CURLcode isc_curl_setopt_off(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLoption option, curl_off_t value) {
    return api->easy_setopt(handle, option, value);
}

/** curl_easy_setopt with a string argument (CURLOPTTYPE_STRINGPOINT: libcurl copies it). */
static inline CURLcode isc_curl_setopt_string(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLoption option, const char *_Nonnull value) {
    return api->easy_setopt(handle, option, value);
}

/** curl_easy_setopt with a pointer argument (CURLOPTTYPE_OBJECTPOINT / SLISTPOINT / CBPOINT):
 *  the pointee must outlive the transfers that use it. */
static inline CURLcode isc_curl_setopt_pointer(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLoption option, void *_Nullable value) {
    return api->easy_setopt(handle, option, value);
}

/** curl_easy_setopt with a write or header callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION). */
static inline CURLcode isc_curl_setopt_callback(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLoption option,
                                                isc_curl_write_callback _Nonnull value) {
    return api->easy_setopt(handle, option, value);
}

/** curl_easy_getinfo of a `long` (CURLINFO_RESPONSE_CODE, CURLINFO_REDIRECT_COUNT). */
static inline CURLcode isc_curl_getinfo_long(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLINFO info, long *_Nonnull value) {
    return api->easy_getinfo(handle, info, value);
}

/** curl_easy_getinfo of a `curl_off_t` (CURLINFO_RETRY_AFTER, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T). */
static inline CURLcode isc_curl_getinfo_off(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLINFO info, curl_off_t *_Nonnull value) {
    return api->easy_getinfo(handle, info, value);
}

/** curl_easy_getinfo of a string owned by the handle (CURLINFO_CONTENT_TYPE, CURLINFO_EFFECTIVE_URL):
 *  valid until the handle's next transfer or cleanup. */
static inline CURLcode isc_curl_getinfo_string(const isc_curl_api *_Nonnull api, CURL *_Nonnull handle, CURLINFO info, const char *_Nullable *_Nonnull value) {
    return api->easy_getinfo(handle, info, value);
}
#endif
