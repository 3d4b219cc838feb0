/*
 * libFuzzer target for one CCodecs decoder, chosen at compile time with -DFUZZ_<NAME>
 * (PNG, JPEG, MJPEG, EXIF, TIFF, WEBP, GIF, HEIF, BMP). `make fuzz` builds one binary per
 * decoder with clang -fsanitize=fuzzer,address,undefined and runs it.
 */
#include "ccodecs.h"
#include <stdlib.h>

/* Small enough that a fuzzed header cannot make a run allocate gigabytes (ASan's limit is 2 GB). */
#define LIMIT 4000000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    isc_luma_image out;
    char message[256];
    isc_status status = ISC_OK;
#if defined(FUZZ_PNG)
    status = isc_png_decode_luma(data, size, LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_JPEG)
    /* Half size when over 1 megapixel, as the first look of a big photo. */
    status = isc_jpeg_decode_luma(data, size, LIMIT, 0, 1000000u, &out, message, sizeof message);
#elif defined(FUZZ_MJPEG)
    int inserted = 0;
    status = isc_mjpeg_decode_luma(data, size, LIMIT, &out, &inserted, message, sizeof message);
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
#elif defined(FUZZ_WEBP)
    status = isc_webp_decode_luma(data, size, LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_GIF)
    status = isc_gif_decode_luma(data, size, LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_HEIF)
    status = isc_heif_decode_luma(data, size, LIMIT, &out, message, sizeof message);
#elif defined(FUZZ_BMP)
    status = isc_bmp_decode_luma(data, size, LIMIT, &out, message, sizeof message);
#else
#error "define one of FUZZ_PNG, FUZZ_JPEG, FUZZ_MJPEG, FUZZ_EXIF, FUZZ_TIFF, FUZZ_WEBP, FUZZ_GIF, FUZZ_HEIF, FUZZ_BMP"
#endif
    if (status == ISC_OK) {
        /* Touch every pixel: ASan sees a buffer shorter than width x height. */
        volatile unsigned sum = 0;
        for (size_t i = 0; i < (size_t)out.width * out.height; i++) sum += out.pixels[i];
        free(out.pixels);
    }
    return 0;
}
