// SPDX-License-Identifier: Apache-2.0
/* Tesseract opened on first use (see ctesseract.h). */
#include "ctesseract.h"
#include "cloader.h"

static isc_tess_api tess;
#define ISC_TESS_NAME(name) "Tess" #name,
static const char *const tess_names[] = { ISC_TESS_FUNCTIONS(ISC_TESS_NAME) };
static isc_library libtess = ISC_LIBRARY(ISC_TESS_SONAME, tess_names, tess);

const isc_tess_api *isc_tess_load(char *message, size_t message_size) {
    return isc_library_load(&libtess, message, message_size) ? &tess : NULL;
}
