// json-c (libjson-c-dev) for Swift: the tokenizer and the object accessors the lookup's
// response parsing needs.
#ifndef ISBNSCAN_CJSON_SHIM_H
#define ISBNSCAN_CJSON_SHIM_H
#include <json-c/json.h>
#endif
