// SPDX-License-Identifier: Apache-2.0
/* Shared between png.c (libpng) and png_deflate.c (the libdeflate path for common PNGs). */
#ifndef ISBNSCAN_PNG_INTERNAL_H
#define ISBNSCAN_PNG_INTERNAL_H
#include "ccodecs.h"
#include <stdio.h>

/* Converts one 8-bit row with `channels` samples per pixel (gray, gray+alpha, RGB, RGBA) to
 * luminance, alpha composited over white. */
void isc_png_row_to_luma(const uint8_t *src, int channels, uint8_t *dst, uint32_t width);

/* Decodes an 8-bit, non-interlaced PNG from `data`/`size` or, when `file` is not NULL, from
 * `file` at its current position. Returns 1 with `out` filled (pixels owned by the caller),
 * or 0 — with nothing allocated and `out` zeroed — when the file is of another layout or
 * anything about it is wrong; the caller then decodes it with libpng from the start. */
int isc_png_decode_fast(const uint8_t *data, size_t size, FILE *file, uint64_t max_pixels, isc_luma_image *out);
#endif
