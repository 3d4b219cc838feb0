// SPDX-License-Identifier: Apache-2.0
/* libxml2 opened on the first XML answer or HTML entity (see cxml2.h). */
#include "cxml2.h"
#include "cloader.h"

static isc_xml_api xml;
#define ISC_XML_NAME(name) #name,
static const char *const xml_names[] = { ISC_XML_FUNCTIONS(ISC_XML_NAME) };
static isc_library libxml2 = ISC_LIBRARY(ISC_XML_SONAME, xml_names, xml);

const isc_xml_api *isc_xml_load(char *message, size_t message_size) {
    return isc_library_load(&libxml2, message, message_size) ? &xml : NULL;
}
