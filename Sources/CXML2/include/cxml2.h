// SPDX-License-Identifier: Apache-2.0
/*
 * CXML2 — libxml2 for the book lookup (NDL Search's RSS, read with the streaming xmlTextReader;
 * the HTML entity table for providers' text), opened on first use (see cloader.h): libxml2 brings ICU and liblzma, which a scan of
 * barcodes should not spend its start-up mapping.
 *
 * libxml2's headers (Debian libxml2-dev, in /usr/include/libxml2) give the types, constants and
 * prototypes; the functions are called through the table isc_xml_load returns, never directly
 * (the binary does not link libxml2).
 */
#ifndef ISBNSCAN_CXML2_H
#define ISBNSCAN_CXML2_H

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlmemory.h>
#include <libxml/xmlreader.h>
#include <stddef.h>

/* The libxml2 functions the lookup calls, each under its own name. */
#define ISC_XML_FUNCTIONS(X) \
    X(xmlReaderForMemory) X(xmlTextReaderRead) X(xmlTextReaderNodeType) X(xmlTextReaderIsEmptyElement) \
    X(xmlTextReaderConstLocalName) X(xmlTextReaderConstName) X(xmlTextReaderConstNamespaceUri) X(xmlTextReaderConstPrefix) \
    X(xmlTextReaderConstValue) X(xmlTextReaderMoveToNextAttribute) X(xmlTextReaderMoveToElement) X(xmlFreeTextReader) \
    X(xmlGetLastError) X(xmlResetLastError) X(htmlEntityLookup)

/** libxml2's functions, `xmlReadMemory` for xmlReadMemory and so on, with libxml2's own signatures. */
typedef struct isc_xml_api {
#define ISC_XML_POINTER(name) __typeof__(name) *_Nonnull name;
    ISC_XML_FUNCTIONS(ISC_XML_POINTER)
#undef ISC_XML_POINTER
} isc_xml_api;

/** The file opened (dlopen): libxml2's soname, from Debian's libxml2. */
#define ISC_XML_SONAME "libxml2.so.2"

/** Opens libxml2 the first time (any thread) and returns its functions; NULL with dlerror(3)'s
 *  text (or the missing function) in `message` when it cannot. The answer stays for the whole run. */
const isc_xml_api *_Nullable isc_xml_load(char *_Nonnull message, size_t message_size);

#endif
