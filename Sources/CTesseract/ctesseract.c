// SPDX-License-Identifier: Apache-2.0
/* Tesseract opened on first use (see ctesseract.h). */
#include "ctesseract.h"
#include "cloader.h"

#include <leptonica/environ.h>

static isc_tess_api tess;
#define ISC_TESS_NAME(name) "Tess" #name,
static const char *const tess_names[] = { ISC_TESS_FUNCTIONS(ISC_TESS_NAME) };
static isc_library libtess = ISC_LIBRARY(ISC_TESS_SONAME, tess_names, tess);

/* Leptonica, which libtesseract brings along, prints its own errors to stderr ("Error in
 * boxClipToRectangle: box outside rectangle" on some photos, with no effect on the reading):
 * isbnscan's stderr holds isbnscan's diagnostics only, so its threshold is set to none. */
typedef struct isc_lept_api {
    l_int32 (*_Nonnull setMsgSeverity)(l_int32);
} isc_lept_api;
static isc_lept_api lept;
static const char *const lept_names[] = { "setMsgSeverity" };
static isc_library liblept = ISC_LIBRARY(ISC_LEPT_SONAME, lept_names, lept);

const isc_tess_api *isc_tess_load(char *message, size_t message_size) {
    if (!isc_library_load(&libtess, message, message_size)) return NULL;
    if (isc_library_load(&liblept, NULL, 0)) lept.setMsgSeverity(L_SEVERITY_NONE);
    return &tess;
}
