// libxml2 (libxml2-dev) for Swift: the tree parser (xmlReadMemory, the node walk) for the NDL's
// RSS and the HTML entity table (htmlEntityLookup) for provider text.
#ifndef ISBNSCAN_CXML2_SHIM_H
#define ISBNSCAN_CXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>

/// xmlFree, which libxml2 declares as a global function-pointer variable (Swift 6 refuses to
/// read mutable globals).
static inline void isc_xml_free(void *pointer) { xmlFree(pointer); }
#endif
