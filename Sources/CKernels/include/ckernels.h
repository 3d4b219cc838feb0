// SPDX-License-Identifier: Apache-2.0
/*
 * CKernels — the hot pixel loops of isbnscan's barcode map, in C so that they run on SSE2
 * vectors (every x86-64 has them; other machines get the same arithmetic one pixel at a time).
 * The Swift callers own every buffer; nothing here allocates or keeps a pointer.
 */
#ifndef ISBNSCAN_CKERNELS_H
#define ISBNSCAN_CKERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Sums of one block of the barcode map (CandidateMap.swift), over the gradients of its cells. */
typedef struct {
    int32_t sxx, syy, sxy; /* Σgx², Σgy², Σgx·gy */
    int32_t sum_abs;       /* Σ(|gx| + |gy|) */
    int32_t n;             /* cells summed */
    int32_t luminance;     /* Σ luminance of each cell's top-left pixel */
} isc_block_sums;

/**
 * The gradient sums of `columns`×`rows` blocks of `block`×`block` pixels (at most 16), the first
 * with its top-left pixel at (`x0`, `y0`), in the 8-bit luminance image `pixels` (`width`×`height`,
 * rows `width` bytes apart, origin top-left), written row by row to `out` (`columns`·`rows`
 * entries). Only every other row of a block is read: each cell is the 2×2 square at (x, y),
 * (x+1, y), (x, y+1), (x+1, y+1) for the block's even rows y, with the gradient at its centre
 * gx = (right + diagonal − here − below) / 2, gy = (below + diagonal − here − right) / 2
 * (integer division truncating toward zero). Cells whose square would leave the image are not
 * counted (`n` says how many were). Blocks must lie within the image's columns from `x0` on
 * (x0 + columns·block ≤ width) and rows (y0 + rows·block ≤ height).
 */
void isc_block_gradient_sums(const uint8_t *pixels, int width, int height, int x0, int y0, int columns,
                             int rows, int block, isc_block_sums *out);

/**
 * The profile across the bars that the barcode map's bar-length walk compares (CandidateMap.swift,
 * `barLength`), into `out` (`count` values): the sum of the 5 lines at `offset` − 2 … `offset` + 2
 * pixels along the bars, each `count` bilinear samples of `pixels` (`width`×`height`, rows
 * `width` bytes apart, origin top-left) at (cx − dy·o + t·dx, cy + dx·o + t·dy) for
 * t = i − `half`, i = 0 ..< `count` (128 where the 2×2 neighbourhood leaves the image), less the
 * mean of those sums within `window` samples either side. Sampled in single precision, 4 samples
 * at a time on SSE2: differences from double precision are well under a thousandth of a level,
 * but a sample that lies on the last row or column within rounding is inside in one precision
 * and outside (128) in the other. Any size of image (under 2×2 every sample is 128).
 * `scratch` holds `count` + 1 doubles.
 */
void isc_bar_profile(const uint8_t *pixels, int width, int height, double cx, double cy, double dx, double dy,
                     double half, int count, double offset, int window, double *scratch, double *out);

#ifdef __cplusplus
}
#endif

#endif
