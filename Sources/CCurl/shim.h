// libcurl (libcurl4-openssl-dev) for Swift: the easy API plus fixed-argument wrappers for the
// variadic curl_easy_setopt and curl_easy_getinfo, which Swift cannot call, and the macro
// CURL_GLOBAL_DEFAULT as a function.
#ifndef ISBNSCAN_CCURL_SHIM_H
#define ISBNSCAN_CCURL_SHIM_H
#include <curl/curl.h>

/// The callback libcurl calls with each piece of a body or header (CURLOPT_WRITEFUNCTION,
/// CURLOPT_HEADERFUNCTION): returns `size * count` to go on, anything else to stop.
typedef size_t (*isc_curl_write_callback)(char *data, size_t size, size_t count, void *context);

/// curl_global_init(CURL_GLOBAL_DEFAULT).
static inline CURLcode isc_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

/// curl_easy_setopt with a `long` argument (CURLOPTTYPE_LONG options).
static inline CURLcode isc_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a `curl_off_t` argument (CURLOPTTYPE_OFF_T options, `..._LARGE`).
static inline CURLcode isc_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a string argument (CURLOPTTYPE_STRINGPOINT: libcurl copies it).
static inline CURLcode isc_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a pointer argument (CURLOPTTYPE_OBJECTPOINT / SLISTPOINT / CBPOINT):
/// the pointee must outlive the transfers that use it.
static inline CURLcode isc_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a write or header callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
static inline CURLcode isc_curl_setopt_callback(CURL *handle, CURLoption option, isc_curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_getinfo of a `long` (CURLINFO_RESPONSE_CODE, CURLINFO_REDIRECT_COUNT).
static inline CURLcode isc_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo of a `curl_off_t` (CURLINFO_RETRY_AFTER, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T).
static inline CURLcode isc_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo of a string owned by the handle (CURLINFO_CONTENT_TYPE, CURLINFO_EFFECTIVE_URL):
/// valid until the handle's next transfer or cleanup.
static inline CURLcode isc_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}
#endif
