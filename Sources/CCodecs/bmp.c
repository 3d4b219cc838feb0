// SPDX-License-Identifier: Apache-2.0
/* Windows bitmap (BMP) → luminance. A small strict reader: every offset and length is checked
 * against the buffer before it is read. Layout from Microsoft's BITMAPFILEHEADER,
 * BITMAPCOREHEADER, BITMAPINFOHEADER and BITMAPV4/V5HEADER documentation. */
#include "ccodecs.h"
#include "luma.h"
#include <stdlib.h>
#include <string.h>
#include "source.h"

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

/* The value of the bits of `mask` in `pixel`, scaled to 0…255 (255 when the mask is empty). */
static unsigned masked(uint32_t pixel, uint32_t mask) {
    if (mask == 0) return 255;
    unsigned shift = 0;
    while (!(mask & 1u)) { mask >>= 1; shift++; }
    unsigned bits = 0;
    while (bits < 32 && (mask & (1u << bits))) bits++;
    uint64_t max = (bits >= 32) ? 0xFFFFFFFFu : ((1ull << bits) - 1);
    uint64_t v = (pixel >> shift) & max;
    return (unsigned)((v * 255 + max / 2) / max);
}

isc_status isc_bmp_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                               isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    out->page_count = 1;
    if (size < 14 + 12) {
        isc_set_message(message, message_size, "file ends inside the header");
        return ISC_ERR_TRUNCATED;
    }
    if (data[0] != 'B' || data[1] != 'M') {
        isc_set_message(message, message_size, "no BM signature");
        return ISC_ERR_CORRUPT;
    }
    const uint32_t pixel_offset = le32(data + 10);
    const uint32_t header = le32(data + 14);
    if (header != 12 && header != 40 && header != 52 && header != 56 && header != 64 && header != 108 && header != 124) {
        isc_set_message(message, message_size, "unknown DIB header size %u", header);
        return ISC_ERR_UNSUPPORTED;
    }
    if (size < 14 + (size_t)header) {
        isc_set_message(message, message_size, "file ends inside the header");
        return ISC_ERR_TRUNCATED;
    }
    const uint8_t *h = data + 14;
    int64_t width, height;
    unsigned bits, compression = 0;
    uint32_t colours_used = 0;
    size_t palette_entry = 4;
    if (header == 12) {
        width = (int16_t)le16(h + 4);
        height = (int16_t)le16(h + 6);
        if (le16(h + 8) != 1) { isc_set_message(message, message_size, "planes is not 1"); return ISC_ERR_CORRUPT; }
        bits = le16(h + 10);
        palette_entry = 3;
    } else {
        width = (int32_t)le32(h + 4);
        height = (int32_t)le32(h + 8);
        if (le16(h + 12) != 1) { isc_set_message(message, message_size, "planes is not 1"); return ISC_ERR_CORRUPT; }
        bits = le16(h + 14);
        compression = le32(h + 16);
        colours_used = le32(h + 32);
    }
    const int top_down = height < 0;
    if (height < 0) height = -height;
    if (width <= 0 || height <= 0) {
        isc_set_message(message, message_size, "image is %lldx%lld pixels", (long long)width, (long long)height);
        return ISC_ERR_CORRUPT;
    }
    out->source_width = (uint32_t)(width < 0xFFFFFFFF ? width : 0xFFFFFFFF);
    out->source_height = (uint32_t)(height < 0xFFFFFFFF ? height : 0xFFFFFFFF);
    if ((uint64_t)width * (uint64_t)height > max_pixels || width > ISC_MAX_SIDE || height > ISC_MAX_SIDE) {
        isc_set_message(message, message_size, "image is %lldx%lld pixels, over the limit of %llu pixels",
                        (long long)width, (long long)height, (unsigned long long)max_pixels);
        return ISC_ERR_TOO_LARGE;
    }
    /* Bit masks: BI_BITFIELDS (3) or BI_ALPHABITFIELDS (6), after a 40-byte header or inside a larger one. */
    uint32_t masks[4] = {0, 0, 0, 0};
    if (compression == 3 || compression == 6) {
        if (bits != 16 && bits != 32) { isc_set_message(message, message_size, "bit fields with %u bits per pixel", bits); return ISC_ERR_CORRUPT; }
        size_t count = compression == 6 ? 4 : 3;
        const uint8_t *m = header >= 52 ? h + 40 : data + 14 + header;
        if ((size_t)(m - data) + 4 * count > size) { isc_set_message(message, message_size, "file ends inside the bit masks"); return ISC_ERR_TRUNCATED; }
        for (size_t i = 0; i < count; i++) masks[i] = le32(m + 4 * i);
        if (header >= 56 && compression == 3) masks[3] = le32(h + 52);
    } else if (compression == 0) {
        if (bits == 16) { masks[0] = 0x7C00; masks[1] = 0x03E0; masks[2] = 0x001F; }
        else if (bits == 32) { masks[0] = 0xFF0000; masks[1] = 0xFF00; masks[2] = 0xFF; }
    } else {
        const char *kind = compression == 1 ? "RLE8" : compression == 2 ? "RLE4" : compression == 4 ? "embedded JPEG"
                         : compression == 5 ? "embedded PNG" : "an unknown compression";
        isc_set_message(message, message_size, "BMP with %s (isbnscan reads uncompressed and bit-field BMPs)", kind);
        return ISC_ERR_UNSUPPORTED;
    }
    if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32) {
        isc_set_message(message, message_size, "%u bits per pixel", bits);
        return ISC_ERR_CORRUPT;
    }
    /* Palette: right after the header (and the masks of a 40-byte header). */
    uint8_t lut[256];
    memset(lut, 0, sizeof lut);
    if (bits <= 8) {
        size_t entries = colours_used == 0 || colours_used > (1u << bits) ? (1u << bits) : colours_used;
        size_t start = 14 + (size_t)header;
        if (start + entries * palette_entry > size || start + entries * palette_entry > pixel_offset) {
            isc_set_message(message, message_size, "file ends inside the palette");
            return start + entries * palette_entry > size ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
        }
        for (size_t i = 0; i < entries; i++) {
            const uint8_t *p = data + start + i * palette_entry;
            lut[i] = isc_luma(p[2], p[1], p[0]);
        }
    }
    const size_t stride = (((size_t)width * bits + 31) / 32) * 4;
    if (pixel_offset < 14 + header || pixel_offset > size) {
        isc_set_message(message, message_size, "pixel data offset %u is outside the file", pixel_offset);
        return pixel_offset > size ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
    }
    /* Rows present in the file (a file cut short keeps its first rows, but they are the
     * bottom ones of a bottom-up bitmap). */
    if ((size - pixel_offset) / stride < (size_t)height) {
        isc_set_message(message, message_size, "file ends before the image does");
        return ISC_ERR_TRUNCATED;
    }
    uint8_t *pixels = malloc((size_t)width * (size_t)height);
    if (pixels == NULL) { isc_set_message(message, message_size, "out of memory"); return ISC_ERR_NO_MEMORY; }
    const int alpha = masks[3] != 0;
    for (int64_t y = 0; y < height; y++) {
        const uint8_t *row = data + pixel_offset + stride * (size_t)y;
        uint8_t *dst = pixels + (size_t)width * (size_t)(top_down ? y : height - 1 - y);
        for (int64_t x = 0; x < width; x++) {
            switch (bits) {
            case 1: dst[x] = lut[(row[x >> 3] >> (7 - (x & 7))) & 1]; break;
            case 4: dst[x] = lut[(row[x >> 1] >> (4 - 4 * (x & 1))) & 15]; break;
            case 8: dst[x] = lut[row[x]]; break;
            case 24: dst[x] = isc_luma(row[3 * x + 2], row[3 * x + 1], row[3 * x]); break;
            default: {
                uint32_t p = bits == 16 ? le16(row + 2 * x) : le32(row + 4 * x);
                uint8_t l = isc_luma(masked(p, masks[0]), masked(p, masks[1]), masked(p, masks[2]));
                dst[x] = alpha ? isc_over_white(l, masked(p, masks[3])) : l;
            }
            }
        }
    }
    out->pixels = pixels;
    out->width = (uint32_t)width;
    out->height = (uint32_t)height;
    return ISC_OK;
}

/* From a file: the headers, masks and palette (the first bytes, up to the pixel data and at
 * most 2 KiB: a 124-byte header, 16 bytes of masks and 256 palette entries fit), then the rows
 * the header declares, read into one buffer whose pixel data offset is patched to follow the
 * palette. Whatever lies between the palette and the rows, or after the rows, is never read. */
isc_status isc_bmp_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    isc_source src;
    isc_status opened = isc_source_file(&src, fd, out, message, message_size);
    if (opened != ISC_OK) return opened;
    uint8_t head[2048];
    size_t got = isc_source_read(&src, head, sizeof head);
    if (src.error != 0) {
        isc_set_message(message, message_size, "read: %s", strerror(src.error));
        return ISC_ERR_TRUNCATED;
    }
    /* Anything the reader will refuse from the headers alone is refused from them. */
    if (got < 14 + 12) return isc_bmp_decode_luma(head, got, max_pixels, out, message, message_size);
    const uint32_t pixel_offset = le32(head + 10), header = le32(head + 14);
    if (header > 124 || got < 14 + (size_t)header || pixel_offset < 14 + header || pixel_offset > src.size
        || (pixel_offset > got && got < sizeof head))
        return isc_bmp_decode_luma(head, got, max_pixels, out, message, message_size);
    const uint8_t *h = head + 14;
    int64_t width = header == 12 ? (int16_t)le16(h + 4) : (int32_t)le32(h + 4);
    int64_t height = header == 12 ? (int16_t)le16(h + 6) : (int32_t)le32(h + 8);
    const unsigned bits = header == 12 ? le16(h + 10) : le16(h + 14);
    if (height < 0) height = -height;
    if (width <= 0 || height <= 0 || (uint64_t)width * (uint64_t)height > max_pixels || width > ISC_MAX_SIDE
        || height > ISC_MAX_SIDE || bits == 0 || bits > 32)
        return isc_bmp_decode_luma(head, got, max_pixels, out, message, message_size);
    const uint64_t stride = (((uint64_t)width * bits + 31) / 32) * 4;
    uint64_t rows = stride * (uint64_t)height;
    if (rows > src.size - pixel_offset) rows = src.size - pixel_offset;
    const size_t keep = pixel_offset < sizeof head ? pixel_offset : sizeof head;
    uint8_t *data = malloc(keep + (size_t)rows);
    if (data == NULL) {
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    memcpy(data, head, keep);
    src.pos = pixel_offset;
    size_t read_rows = isc_source_read(&src, data + keep, (size_t)rows);
    data[10] = (uint8_t)keep;
    data[11] = (uint8_t)(keep >> 8);
    data[12] = 0;
    data[13] = 0;
    isc_status status = isc_bmp_decode_luma(data, keep + read_rows, max_pixels, out, message, message_size);
    free(data);
    return status;
}
