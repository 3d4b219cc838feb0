// SPDX-License-Identifier: Apache-2.0
/* PNG → luminance for the common layout (8-bit samples, not interlaced) with libdeflate.
 *
 * zlib's streaming inflate and its Adler-32 were over half of the CPU time of `scan --effort
 * fast` on PNG photos. libdeflate inflates a whole zlib stream in one call, about 2.4× faster;
 * it needs the compressed data in memory and the output size in advance, which a PNG gives
 * (PNG specification, ISO/IEC 15948 §11.2.2 IHDR, §10 compression, §9 filtering).
 *
 * This path reads the chunks itself, checks the CRC of every critical chunk, gathers IDAT,
 * inflates it into the filtered rows, reverses the filters (§9.2) and converts each row to
 * luminance exactly as png.c does after libpng's expansion (the same row_to_luma), so the
 * pixels are identical. Anything else — interlacing, 1/2/4/16-bit samples, tRNS on gray or
 * RGB, a bad CRC, a truncated or corrupt stream, unknown critical chunks, IDAT larger than
 * the image could need — returns 0 (declined) with no output, and png.c decodes the
 * file with libpng from the start (which reports damage and keeps the rows it can).
 *
 * Memory: the compressed IDAT (capped relative to the image size) plus the filtered rows;
 * never the file size. Nothing here longjmps. */
#include "ccodecs.h"
#include "luma.h"
#include "png_internal.h"
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size, offset;
    FILE *file;
} reader;

static int read_exact(reader *r, void *out, size_t n) {
    if (n == 0) return 1;   /* a zero-length IDAT before any other: `out` may be NULL */
    if (r->file != NULL) return fread(out, 1, n, r->file) == n;
    if (n > r->size - r->offset) return 0;
    memcpy(out, r->data + r->offset, n);
    r->offset += n;
    return 1;
}

static int skip(reader *r, size_t n) {
    if (r->file != NULL) return fseek(r->file, (long)n, SEEK_CUR) == 0;
    if (n > r->size - r->offset) return 0;
    r->offset += n;
    return 1;
}

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/* Reverses the filter of one row in place (§9.2); `prev` is the previous unfiltered row or
 * NULL for the first. Returns 0 for an unknown filter type. */
static int unfilter(uint8_t type, uint8_t *row, const uint8_t *prev, size_t length, unsigned bpp) {
    switch (type) {
    case 0: return 1;
    case 1:
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        return 1;
    case 2:
        if (prev != NULL) for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        return 1;
    case 3:
        for (size_t i = 0; i < length; i++) {
            unsigned left = i >= bpp ? row[i - bpp] : 0, up = prev != NULL ? prev[i] : 0;
            row[i] = (uint8_t)(row[i] + ((left + up) >> 1));
        }
        return 1;
    case 4:
        for (size_t i = 0; i < length; i++) {
            uint8_t left = i >= bpp ? row[i - bpp] : 0, up = prev != NULL ? prev[i] : 0;
            uint8_t corner = (i >= bpp && prev != NULL) ? prev[i - bpp] : 0;
            row[i] = (uint8_t)(row[i] + paeth(left, up, corner));
        }
        return 1;
    default: return 0;
    }
}

int isc_png_decode_fast(const uint8_t *data, size_t size, FILE *file, uint64_t max_pixels,
                               isc_luma_image *out) {
    memset(out, 0, sizeof *out);
    reader r = {.data = data, .size = size, .file = file};
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    uint8_t head[8];
    if (!read_exact(&r, head, 8) || memcmp(head, signature, 8) != 0) return 0;

    uint32_t width = 0, height = 0;
    unsigned channels = 0, colour = 0;
    int have_header = 0, have_palette = 0, have_exif = 0, idat_done = 0, orientation = 0;
    uint8_t palette_luma[256];
    unsigned palette_size = 0;
    uint8_t palette_rgb[256][3];
    uint8_t palette_alpha[256];
    int palette_has_alpha = 0;
    memset(palette_alpha, 255, sizeof palette_alpha);
    uint8_t *compressed = NULL;
    size_t compressed_size = 0, compressed_capacity = 0, compressed_limit = 0;

    for (;;) {
        uint8_t chunk[8];
        if (!read_exact(&r, chunk, 8)) {
            /* No IEND: libpng keeps an image whose rows all arrived; so does this path. */
            if (idat_done) break;
            goto declined;
        }
        uint32_t length = be32(chunk);
        const uint8_t *type = chunk + 4;
        if (length > 0x7fffffffu) goto declined;
        int critical = (type[0] & 0x20) == 0;
        int is_idat = memcmp(type, "IDAT", 4) == 0;
        if (!have_header && memcmp(type, "IHDR", 4) != 0) goto declined;
        if (compressed_size > 0 && !is_idat) idat_done = 1;
        if (is_idat) {
            if (idat_done || !have_header || (colour == 3 && !have_palette)) goto declined;
            if (length > compressed_limit - compressed_size) goto declined;   /* more than the image needs */
            if (compressed_size + length > compressed_capacity) {
                size_t capacity = compressed_capacity ? compressed_capacity : 1u << 16;
                while (capacity < compressed_size + length) capacity *= 2;
                if (capacity > compressed_limit) capacity = compressed_limit;
                uint8_t *grown = realloc(compressed, capacity);
                if (grown == NULL) goto declined;
                compressed = grown;
                compressed_capacity = capacity;
            }
            uint8_t crc[4];
            if (!read_exact(&r, compressed + compressed_size, length) || !read_exact(&r, crc, 4)) goto declined;
            uint32_t sum = libdeflate_crc32(0, type, 4);
            if (libdeflate_crc32(sum, compressed + compressed_size, length) != be32(crc)) goto declined;
            compressed_size += length;
            continue;
        }
        int wanted = memcmp(type, "IHDR", 4) == 0 || memcmp(type, "PLTE", 4) == 0 || memcmp(type, "tRNS", 4) == 0
                     || memcmp(type, "eXIf", 4) == 0 || memcmp(type, "IEND", 4) == 0;
        if (!wanted) {
            if (critical) goto declined;   /* an unknown critical chunk: libpng says what is wrong */
            if (!skip(&r, (size_t)length + 4)) { if (idat_done) break; goto declined; }
            continue;
        }
        if (length > (1u << 20)) goto declined;
        uint8_t *body = malloc((size_t)length + 4);
        if (body == NULL) goto declined;
        if (!read_exact(&r, body, (size_t)length + 4)) { free(body); if (idat_done) break; goto declined; }
        uint32_t sum = libdeflate_crc32(libdeflate_crc32(0, type, 4), body, length);
        int crc_ok = sum == be32(body + length);
        if (memcmp(type, "IEND", 4) == 0) { free(body); break; }
        if (!crc_ok && critical) { free(body); goto declined; }
        if (!crc_ok) { free(body); continue; }   /* libpng ignores a damaged ancillary chunk too */
        if (memcmp(type, "IHDR", 4) == 0) {
            if (have_header || length != 13) { free(body); goto declined; }
            width = be32(body);
            height = be32(body + 4);
            unsigned depth = body[8];
            colour = body[9];
            int layout_ok = depth == 8 && body[10] == 0 && body[11] == 0 && body[12] == 0;
            switch (colour) {
            case 0: channels = 1; break;
            case 2: channels = 3; break;
            case 3: channels = 1; break;
            case 4: channels = 2; break;
            case 6: channels = 4; break;
            default: layout_ok = 0;
            }
            free(body);
            if (!layout_ok || width == 0 || height == 0 || width > ISC_MAX_SIDE || height > ISC_MAX_SIDE
                || (uint64_t)width * height > max_pixels) goto declined;
            have_header = 1;
            uint64_t raw = (uint64_t)height * ((uint64_t)width * channels + 1);
            /* Deflate cannot take more than about 1032:1 the other way, but it can inflate
             * the input: stored blocks add 5 bytes per 64 KiB. A stream a quarter longer than
             * the rows plus 1 MiB is not one this image needs. */
            compressed_limit = (size_t)(raw + raw / 4 + (1u << 20));
            /* The filtered rows of a very big image (over 128 MiB: 32 megapixels of RGBA) would
             * sit in memory with the compressed data and the output; libpng's row-by-row
             * decoding needs one row. */
            if (raw > ((uint64_t)128 << 20)) goto declined;
        } else if (memcmp(type, "PLTE", 4) == 0) {
            if (colour == 3) {
                if (length % 3 != 0 || length == 0 || length > 768 || have_palette) { free(body); goto declined; }
                palette_size = length / 3;
                for (unsigned i = 0; i < palette_size; i++) {
                    palette_rgb[i][0] = body[3 * i]; palette_rgb[i][1] = body[3 * i + 1]; palette_rgb[i][2] = body[3 * i + 2];
                }
                have_palette = 1;
            }
            free(body);
        } else if (memcmp(type, "tRNS", 4) == 0) {
            /* One transparent colour on gray or RGB: libpng turns it into an alpha channel. */
            if (colour != 3 || !have_palette || length > palette_size) { free(body); goto declined; }
            for (unsigned i = 0; i < length; i++) palette_alpha[i] = body[i];
            palette_has_alpha = 1;
            free(body);
        } else {   /* eXIf: the first one counts, as in libpng */
            if (!have_exif) orientation = isc_exif_orientation(body, length);
            have_exif = 1;
            free(body);
        }
    }
    if (compressed_size == 0) goto declined;

    size_t rowbytes = (size_t)width * channels;
    size_t raw_size = (size_t)height * (rowbytes + 1);
    uint8_t *raw = malloc(raw_size);
    uint8_t *pixels = malloc((size_t)width * height);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    int ok = raw != NULL && pixels != NULL && inflater != NULL;
    if (ok) {
        size_t produced = 0;
        ok = libdeflate_zlib_decompress(inflater, compressed, compressed_size, raw, raw_size, &produced)
                 == LIBDEFLATE_SUCCESS && produced == raw_size;
    }
    if (colour == 3) {
        for (unsigned i = 0; i < palette_size; i++) {
            uint8_t y = isc_luma(palette_rgb[i][0], palette_rgb[i][1], palette_rgb[i][2]);
            palette_luma[i] = palette_has_alpha ? isc_over_white(y, palette_alpha[i]) : y;
        }
    }
    for (uint32_t y = 0; ok && y < height; y++) {
        uint8_t *row = raw + (size_t)y * (rowbytes + 1);
        const uint8_t *prev = y > 0 ? row - rowbytes : NULL;   /* the previous row's samples */
        uint8_t filter = row[0];
        row += 1;
        if (!unfilter(filter, row, prev, rowbytes, channels)) { ok = 0; break; }
        uint8_t *line = pixels + (size_t)width * y;
        if (colour == 3) {
            for (uint32_t x = 0; x < width; x++) {
                if (row[x] >= palette_size) { ok = 0; break; }   /* libpng decides what that means */
                line[x] = palette_luma[row[x]];
            }
        } else {
            isc_png_row_to_luma(row, (int)channels, line, width);
        }
    }
    libdeflate_free_decompressor(inflater);
    free(raw);
    free(compressed);
    if (!ok) {
        free(pixels);
        return 0;
    }
    out->pixels = pixels;
    out->width = out->source_width = width;
    out->height = out->source_height = height;
    out->orientation = orientation;
    return 1;

declined:
    free(compressed);
    return 0;
}
