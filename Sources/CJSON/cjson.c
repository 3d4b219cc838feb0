// SPDX-License-Identifier: Apache-2.0
/* json-c opened on the first JSON answer (see cjson.h). */
#include "cjson.h"
#include "cloader.h"

static isc_json_api json;
#define ISC_JSON_NAME(name) "json_" #name,
static const char *const json_names[] = { ISC_JSON_FUNCTIONS(ISC_JSON_NAME) };
static isc_library libjson = ISC_LIBRARY(ISC_JSON_SONAME, json_names, json);

const isc_json_api *isc_json_load(char *message, size_t message_size) {
    return isc_library_load(&libjson, message, message_size) ? &json : NULL;
}
