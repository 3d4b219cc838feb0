// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target for one CCodecs decoder, chosen at compile time with -DFUZZ_<NAME>
 * (PNG, JPEG, MJPEG, EXIF, TIFF, WEBP, GIF, HEIF, BMP). `make fuzz` builds one binary per
 * decoder with clang -fsanitize=fuzzer,address,undefined and runs it. TIFF, WebP, GIF, HEIF and
 * BMP are decoded twice: from memory (standard input through a pipe) and from a file descriptor
 * (a memfd holding the input), the path files take.
 */
#define _GNU_SOURCE
#include "ccodecs.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Small enough that a fuzzed header cannot make a run allocate gigabytes (ASan's limit is 2 GB). */
#define LIMIT 4000000u

/* The input as a file: one memfd, rewritten for every input. */
static int as_file(const uint8_t *data, size_t size) {
    static int fd = -1;
    if (fd < 0) fd = memfd_create("fuzz-input", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, 0) != 0) abort();
    size_t done = 0;
    while (done < size) {
        ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
        if (n <= 0) abort();
        done += (size_t)n;
    }
    return fd;
}

/* Frees a decoded image after touching every pixel: ASan sees a buffer shorter than width x height. */
static void check(isc_status status, isc_luma_image *out) {
    if (status != ISC_OK) return;
    volatile unsigned sum = 0;
    for (size_t i = 0; i < (size_t)out->width * out->height; i++) sum += out->pixels[i];
    free(out->pixels);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    isc_luma_image out;
    char message[256];
    isc_status status = ISC_OK;
#if defined(FUZZ_PNG)
    status = isc_png_decode_luma(data, size, LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_JPEG)
    /* Half size when over 1 megapixel, as the first look of a big photo. */
    status = isc_jpeg_decode_luma(data, size, LIMIT, 0, 1000000u, &out, message, sizeof message);
    /* Some rows only (the full-size decode around barcode-like regions), from memory and from a
     * file, two bands from bytes of the input: on an undamaged image, the same rows as a whole
     * full-size decode, and 0 elsewhere up to the last band. */
    if (size >= 4) {
        check(status, &out);
        isc_row_band bands[2] = {{(uint32_t)data[size / 2] * 3, (uint32_t)data[size / 3] + 1},
                                 {(uint32_t)data[size / 2] * 3 + (uint32_t)data[size / 4] * 2, (uint32_t)data[size / 5] + 1}};
        isc_luma_image whole;
        isc_status whole_status = isc_jpeg_decode_luma(data, size, LIMIT, 1, 0, &whole, message, sizeof message);
        for (int from_file = 0; from_file <= 1; from_file++) {
            status = from_file ? isc_jpeg_decode_luma_rows(NULL, 0, as_file(data, size), LIMIT, bands, 2, &out, message, sizeof message)
                               : isc_jpeg_decode_luma_rows(data, size, -1, LIMIT, bands, 2, &out, message, sizeof message);
            if (status == ISC_OK && whole_status == ISC_OK && out.damage == ISC_OK && whole.damage == ISC_OK) {
                if (out.width != whole.width || out.height != whole.height) abort();
                for (int b = 0; b < 2; b++) {
                    size_t first = bands[b].first < out.height ? bands[b].first : out.height;
                    size_t end = bands[b].count < out.height - first ? first + bands[b].count : out.height;
                    if (memcmp(out.pixels + first * out.width, whole.pixels + first * out.width, (end - first) * out.width) != 0)
                        abort();
                }
            }
            if (from_file == 0) check(status, &out);
        }
        if (whole_status == ISC_OK) free(whole.pixels);
    }
#elif defined(FUZZ_MJPEG)
    int inserted = 0;
    status = isc_mjpeg_decode_luma(data, size, LIMIT, &out, &inserted, message, sizeof message);
    /* The camera's band: rows only, from a row and a count taken from two bytes in the middle of
     * the input (in a frame's entropy data: they vary; the band may start or end anywhere, past
     * the end too); the rows above walked by isbnscan where it can (the default) must give exactly
     * what libjpeg's skipping gives. */
    if (size >= 2) {
        check(status, &out);
        uint32_t first = (uint32_t)data[size / 2] * 4, count = (uint32_t)data[size / 3] + 1;
        status = isc_mjpeg_decode_luma_rows(data, size, LIMIT, first, count, &out, &inserted, message, sizeof message);
        isc_luma_image skipped;
        int skipped_inserted = 0;
        isc_status skipped_status = isc_mjpeg_decode_luma_rows_by(data, size, LIMIT, first, count, ISC_MJPEG_ROWS_SKIP,
                                                                  &skipped, &skipped_inserted, message, sizeof message);
        if (skipped_status != status) abort();
        if (status == ISC_OK) {
            if (skipped.width != out.width || skipped.height != out.height ||
                skipped.source_height != out.source_height ||
                memcmp(skipped.pixels, out.pixels, (size_t)out.width * out.height) != 0) abort();
            free(skipped.pixels);
        }
    }
#elif defined(FUZZ_EXIF)
    (void)isc_exif_orientation(data, size);
    return 0;
#elif defined(FUZZ_TIFF)
    /* Page 1, then page 2 when there is one. */
    status = isc_tiff_decode_luma(data, size, LIMIT, 0, &out, message, sizeof message);
    if (status == ISC_OK && out.page_count > 1) {
        free(out.pixels);
        status = isc_tiff_decode_luma(data, size, LIMIT, 1, &out, message, sizeof message);
    }
    check(status, &out);
    status = isc_tiff_decode_luma_fd(as_file(data, size), LIMIT, 0, &out, message, sizeof message);
#elif defined(FUZZ_WEBP)
    status = isc_webp_decode_luma(data, size, LIMIT, &out, message, sizeof message);
    check(status, &out);
    status = isc_webp_decode_luma_fd(as_file(data, size), LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_GIF)
    status = isc_gif_decode_luma(data, size, LIMIT, &out, message, sizeof message);
    check(status, &out);
    status = isc_gif_decode_luma_fd(as_file(data, size), LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_HEIF)
    status = isc_heif_decode_luma(data, size, LIMIT, &out, message, sizeof message);
    check(status, &out);
    status = isc_heif_decode_luma_fd(as_file(data, size), LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_BMP)
    status = isc_bmp_decode_luma(data, size, LIMIT, &out, message, sizeof message);
    check(status, &out);
    status = isc_bmp_decode_luma_fd(as_file(data, size), LIMIT, &out, message, sizeof message);
#else
#error "define one of FUZZ_PNG, FUZZ_JPEG, FUZZ_MJPEG, FUZZ_EXIF, FUZZ_TIFF, FUZZ_WEBP, FUZZ_GIF, FUZZ_HEIF, FUZZ_BMP"
#endif
    check(status, &out);
    return 0;
}
