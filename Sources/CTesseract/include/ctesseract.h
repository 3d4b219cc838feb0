// SPDX-License-Identifier: Apache-2.0
/*
 * CTesseract — Tesseract OCR (its C API, tesseract/capi.h) for `scan --text`, opened on first use
 * (see cloader.h): libtesseract brings Leptonica, libarchive, libcurl and OpenMP, which a scan of
 * barcodes should not spend its start-up mapping, and a machine without libtesseract5 still
 * scans barcodes.
 *
 * The header of Debian's libtesseract-dev gives the types and prototypes; the functions are
 * called through the table isc_tess_load returns, never directly (the binary does not link
 * Tesseract). The language data comes from tesseract-ocr-eng.
 */
#ifndef ISBNSCAN_CTESSERACT_H
#define ISBNSCAN_CTESSERACT_H

#include <tesseract/capi.h>
#include <stddef.h>

/* The Tesseract functions isbnscan calls, each as Tess<name>. */
#define ISC_TESS_FUNCTIONS(X) \
    X(Version) X(DeleteText) X(BaseAPICreate) X(BaseAPIDelete) X(BaseAPIEnd) X(BaseAPIInit3) \
    X(BaseAPISetVariable) X(BaseAPISetPageSegMode) X(BaseAPISetImage) X(BaseAPISetSourceResolution) \
    X(BaseAPIRecognize) X(BaseAPIGetIterator) X(BaseAPIClear) X(ResultIteratorDelete) X(ResultIteratorNext) \
    X(ResultIteratorGetUTF8Text) X(ResultIteratorConfidence) X(ResultIteratorGetPageIteratorConst) \
    X(PageIteratorBoundingBox) X(PageIteratorBaseline)

/** Tesseract's functions, `BaseAPICreate` for TessBaseAPICreate and so on, with its own signatures. */
typedef struct isc_tess_api {
#define ISC_TESS_POINTER(name) __typeof__(Tess##name) *_Nonnull name;
    ISC_TESS_FUNCTIONS(ISC_TESS_POINTER)
#undef ISC_TESS_POINTER
} isc_tess_api;

/** The file opened (dlopen): Tesseract's soname, from Debian's libtesseract5. */
#define ISC_TESS_SONAME "libtesseract.so.5"

/** Leptonica's soname (liblept5, a dependency of libtesseract5, so already mapped with it): only
 *  its message threshold is set, to keep its messages off stderr. */
#define ISC_LEPT_SONAME "liblept.so.5"

/** Opens Tesseract the first time (any thread) and returns its functions; NULL with dlerror(3)'s
 *  text (or the missing function) in `message` when it cannot. The answer stays for the whole run.
 *  Leptonica's messages are silenced (its threshold set to L_SEVERITY_NONE). */
const isc_tess_api *_Nullable isc_tess_load(char *_Nonnull message, size_t message_size);

/** RIL_TEXTLINE and RIL_WORD, the result levels isbnscan walks (the enum's names are C's only). */
static inline TessPageIteratorLevel isc_tess_level_line(void) { return RIL_TEXTLINE; }
static inline TessPageIteratorLevel isc_tess_level_word(void) { return RIL_WORD; }

/** PSM_AUTO (page layout analysis, no orientation detection), PSM_SINGLE_BLOCK and PSM_SINGLE_LINE. */
static inline TessPageSegMode isc_tess_psm_auto(void) { return PSM_AUTO; }
static inline TessPageSegMode isc_tess_psm_single_block(void) { return PSM_SINGLE_BLOCK; }
static inline TessPageSegMode isc_tess_psm_single_line(void) { return PSM_SINGLE_LINE; }
#endif
