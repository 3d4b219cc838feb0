// SPDX-License-Identifier: Apache-2.0
/* Between mjpeg.c (libjpeg) and mjpeg_cut.c (the rows above a camera's band, walked without it). */
#ifndef ISBNSCAN_MJPEG_CUT_H
#define ISBNSCAN_MJPEG_CUT_H
#include <stddef.h>
#include <stdint.h>

/* A baseline JPEG equal to a frame from one of its iMCU rows down, in two parts: `head` (SOI,
 * the frame's tables and headers with a smaller height, one made-up iMCU row that leaves the DC
 * predictors where the frame has them, and the byte where the two bit streams meet) and `tail`,
 * the frame's own bytes from there to its end (not copied). The made-up row is `synthetic_rows`
 * pixel rows; frame row y (y >= first_kept_row) is row y - first_kept_row + synthetic_rows of
 * the cut JPEG, decoded from the same coefficients as in the frame. */
typedef struct {
    uint8_t *head;          /* malloc'd; owned by the cut, released by isc_mjpeg_cut_free */
    size_t head_size;
    const uint8_t *tail;    /* inside the frame's bytes */
    size_t tail_size;
    uint32_t first_kept_row;
    uint32_t synthetic_rows;
    uint32_t frame_width, frame_height;
    int inserted_dht;       /* 1: the frame had no DHT; the head carries the standard one */
} isc_mjpeg_cut;

/* Cuts `data` above the iMCU row holding `first_row`: the Huffman codes of the rows above are
 * walked here (their bits skipped, their DC differences summed), not by libjpeg. Returns 1 with
 * `cut` filled, or 0 with `cut` zeroed and nothing allocated when the frame is not of the kind
 * this handles (anything but an 8-bit baseline/extended Huffman frame of three components in
 * one interleaved scan, Y at full resolution, no restart markers; a missing table; an invalid
 * code or the end of the data above the cut; a marker anywhere in the scan but the closing EOI,
 * as libjpeg's reading of a damaged scan depends on how its source buffers the bytes;
 * `first_row` in the first iMCU row), or malloc failed: the caller then lets libjpeg skip the
 * rows, with the same pixels.
 * Frames without a DHT segment are walked with the standard tables (T.81 K.3), which the cut's
 * head then carries. `max_pixels`: frames declaring more are declined before any allocation. */
int isc_mjpeg_cut_above(const uint8_t *data, size_t size, uint32_t first_row, uint64_t max_pixels,
                        isc_mjpeg_cut *cut);
void isc_mjpeg_cut_free(isc_mjpeg_cut *cut);

/* The standard DHT segment (mjpeg.c); its length, 0 if it could not be built. */
size_t isc_mjpeg_standard_dht(const uint8_t **segment);
#endif
