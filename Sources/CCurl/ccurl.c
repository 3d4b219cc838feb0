// SPDX-License-Identifier: Apache-2.0
/* libcurl opened on the first lookup (see ccurl.h). */
#include "ccurl.h"
#include "cloader.h"

static isc_curl_api curl;
#define ISC_CURL_NAME(name) "curl_" #name,
static const char *const curl_names[] = { ISC_CURL_FUNCTIONS(ISC_CURL_NAME) };
static isc_library libcurl = ISC_LIBRARY(ISC_CURL_SONAME, curl_names, curl);

const isc_curl_api *isc_curl_load(char *message, size_t message_size) {
    return isc_library_load(&libcurl, message, message_size) ? &curl : NULL;
}
