// SPDX-License-Identifier: Apache-2.0
/* Internal helpers shared by the decoders: colour → Rec. 601 luminance, message copying. */
#ifndef ISBNSCAN_LUMA_H
#define ISBNSCAN_LUMA_H
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

/* Rec. 601 luma with integer weights 77/150/29 (sum 256): white stays 255, black 0. */
static inline uint8_t isc_luma(unsigned r, unsigned g, unsigned b) {
    return (uint8_t)((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

/* Composites luminance `y` with alpha `a` over a white background. */
static inline uint8_t isc_over_white(unsigned y, unsigned a) {
    return (uint8_t)((y * a + 255u * (255u - a) + 127u) / 255u);
}

static inline void isc_set_message(char *message, size_t size, const char *fmt, ...) {
    if (message == NULL || size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
}
#endif
