/* Motion-JPEG frames from webcams → luminance. setjmp stays in C (see jpeg.c). */
#include "ccodecs.h"
#include "luma.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

/* The DHT segment with the four tables of ITU-T T.81 Annex K.3 (luminance/chrominance ×
 * DC/AC), built once from libjpeg's own copy of them: jpeg_set_defaults() installs exactly
 * these tables in a compressor (jcparam.c → std_huff_tables), so nothing is retyped here. */
static uint8_t std_dht[4 + 4 * (1 + 16 + 256)];
static size_t std_dht_size;
static pthread_once_t std_dht_once = PTHREAD_ONCE_INIT;

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} build_error;

static void build_error_exit(j_common_ptr cinfo) { longjmp(((build_error *)cinfo->err)->jump, 1); }

static size_t append_table(uint8_t *out, int tc_th, const JHUFF_TBL *t) {
    size_t n = 0, count = 0;
    out[n++] = (uint8_t)tc_th;
    for (int i = 1; i <= 16; i++) { out[n++] = t->bits[i]; count += t->bits[i]; }
    for (size_t i = 0; i < count; i++) out[n++] = t->huffval[i];
    return n;
}

static void build_std_dht(void) {
    struct jpeg_compress_struct c;
    build_error err;
    c.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = build_error_exit;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&c);
        std_dht_size = 0;
        return;
    }
    jpeg_create_compress(&c);
    c.in_color_space = JCS_YCbCr;
    c.input_components = 3;
    jpeg_set_defaults(&c);
    size_t n = 4;   /* FF C4 Lh Ll */
    n += append_table(std_dht + n, 0x00, c.dc_huff_tbl_ptrs[0]);   /* Tc 0 (DC), Th 0 */
    n += append_table(std_dht + n, 0x10, c.ac_huff_tbl_ptrs[0]);   /* Tc 1 (AC), Th 0 */
    n += append_table(std_dht + n, 0x01, c.dc_huff_tbl_ptrs[1]);
    n += append_table(std_dht + n, 0x11, c.ac_huff_tbl_ptrs[1]);
    jpeg_destroy_compress(&c);
    std_dht[0] = 0xFF;
    std_dht[1] = 0xC4;
    std_dht[2] = (uint8_t)((n - 2) >> 8);
    std_dht[3] = (uint8_t)((n - 2) & 0xFF);
    std_dht_size = n;
}

/* Offset of the SOS marker, or 0 when the markers before it are malformed. *has_dht is set
 * when a DHT segment comes first. */
static size_t find_sos(const uint8_t *data, size_t size, int *has_dht) {
    *has_dht = 0;
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return 0;
    size_t at = 2;
    while (at + 4 <= size) {
        if (data[at] != 0xFF) return 0;
        uint8_t marker = data[at + 1];
        if (marker == 0xFF) { at++; continue; }   /* fill byte */
        if (marker == 0xDA) return at;
        if (marker == 0xC4) *has_dht = 1;
        size_t length = (size_t)data[at + 2] << 8 | data[at + 3];
        if (length < 2) return 0;
        at += 2 + length;
    }
    return 0;
}

/* `data` with the standard DHT inserted before SOS when the frame has none: *patched is then
 * a malloc'd copy (size in *patched_size, *inserted_dht = 1), else NULL (use `data` as it is:
 * it has its tables, or its markers are malformed and libjpeg will say what is wrong). */
static isc_status with_tables(const uint8_t *data, size_t size, uint8_t **patched, size_t *patched_size,
                              int *inserted_dht, char *message, size_t message_size) {
    *patched = NULL;
    *inserted_dht = 0;
    int has_dht = 0;
    size_t sos = find_sos(data, size, &has_dht);
    if (sos == 0 || has_dht) return ISC_OK;
    pthread_once(&std_dht_once, build_std_dht);
    if (std_dht_size == 0) {
        isc_set_message(message, message_size, "could not build the standard Huffman tables");
        return ISC_ERR_CORRUPT;
    }
    uint8_t *copy = malloc(size + std_dht_size);
    if (copy == NULL) {
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    memcpy(copy, data, sos);
    memcpy(copy + sos, std_dht, std_dht_size);
    memcpy(copy + sos + std_dht_size, data + sos, size - sos);
    *patched = copy;
    *patched_size = size + std_dht_size;
    *inserted_dht = 1;
    return ISC_OK;
}

/* Inserts the standard Huffman tables when the frame has none, then decodes it whole
 * (`rows_only` 0) or only rows first_row ..< first_row + row_count. */
static isc_status decode_frame(const uint8_t *data, size_t size, uint64_t max_pixels, int rows_only,
                               uint32_t first_row, uint32_t row_count, isc_luma_image *out,
                               int *inserted_dht, char *message, size_t message_size);

isc_status isc_mjpeg_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                 isc_luma_image *out, int *inserted_dht,
                                 char *message, size_t message_size) {
    return decode_frame(data, size, max_pixels, 0, 0, 0, out, inserted_dht, message, message_size);
}

/* ---- rows only ------------------------------------------------------------------------- */

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    isc_status status;
    char message[JMSG_LENGTH_MAX + 64];
} rows_error;

static void rows_error_exit(j_common_ptr cinfo) {
    rows_error *err = (rows_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    err->status = ISC_ERR_CORRUPT;
    longjmp(err->jump, 1);
}

/* Warnings (corrupt entropy data: libjpeg resynchronises and goes on) are not fatal, as in a
 * whole decode, where the rows come out all the same. */
static void rows_emit_message(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }

static isc_status decode_rows(const uint8_t *data, size_t size, uint64_t max_pixels, uint32_t first_row,
                              uint32_t row_count, isc_luma_image *out, char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    rows_error err;
    uint8_t *volatile pixels = NULL;
    memset(out, 0, sizeof *out);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = rows_error_exit;
    err.pub.emit_message = rows_emit_message;
    err.status = ISC_OK;
    err.message[0] = 0;
    if (setjmp(err.jump)) {
        free(pixels);
        jpeg_destroy_decompress(&cinfo);
        memset(out, 0, sizeof *out);
        isc_set_message(message, message_size, "%s", err.message);
        return err.status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    out->source_width = cinfo.image_width;
    out->source_height = cinfo.image_height;
    if ((uint64_t)cinfo.image_width * cinfo.image_height > max_pixels) {
        err.status = ISC_ERR_TOO_LARGE;
        snprintf(err.message, sizeof err.message, "image is %ux%u pixels, over the limit of %llu pixels",
                 (unsigned)cinfo.image_width, (unsigned)cinfo.image_height, (unsigned long long)max_pixels);
        longjmp(err.jump, 1);
    }
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_YCbCr: case JCS_RGB:
        cinfo.out_color_space = JCS_GRAYSCALE;   /* Y only: the chroma is entropy-decoded, never transformed */
        break;
    default:
        err.status = ISC_ERR_UNSUPPORTED;
        snprintf(err.message, sizeof err.message, "unsupported Motion-JPEG colour space %d", (int)cinfo.jpeg_color_space);
        longjmp(err.jump, 1);
    }
    jpeg_start_decompress(&cinfo);
    const JDIMENSION width = cinfo.output_width, height = cinfo.output_height;
    if (first_row >= height) first_row = height - 1;
    if (row_count > height - first_row) row_count = height - first_row;
    if (row_count == 0) row_count = 1;
    pixels = malloc((size_t)width * row_count);
    if (pixels == NULL) {
        err.status = ISC_ERR_NO_MEMORY;
        snprintf(err.message, sizeof err.message, "out of memory for %ux%u pixels", (unsigned)width, (unsigned)row_count);
        longjmp(err.jump, 1);
    }
    /* Rows above the band: entropy-decoded (the bit stream has no other way through) but no
     * IDCT, no output. libjpeg-turbo skips whole iMCU rows and reads the rest of a partial one. */
    if (first_row > 0) jpeg_skip_scanlines(&cinfo, first_row);
    const JDIMENSION end = first_row + row_count;
    while (cinfo.output_scanline < end) {
        JSAMPROW rows[16];
        JDIMENSION at = cinfo.output_scanline, n = end - at < 16 ? end - at : 16;
        for (JDIMENSION i = 0; i < n; i++) rows[i] = pixels + (size_t)width * (at - first_row + i);
        if (jpeg_read_scanlines(&cinfo, rows, n) == 0) break;   /* suspended: cannot happen with a memory source */
    }
    /* Rows below the band are never read: the decompressor is dropped as it stands. */
    jpeg_abort_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    out->pixels = pixels;
    out->width = width;
    out->height = row_count;
    out->page_count = 1;
    out->rows_decoded = row_count;
    return ISC_OK;
}

isc_status isc_mjpeg_decode_luma_rows(const uint8_t *data, size_t size, uint64_t max_pixels,
                                      uint32_t first_row, uint32_t row_count,
                                      isc_luma_image *out, int *inserted_dht,
                                      char *message, size_t message_size) {
    return decode_frame(data, size, max_pixels, 1, first_row, row_count, out, inserted_dht, message, message_size);
}

static isc_status decode_frame(const uint8_t *data, size_t size, uint64_t max_pixels, int rows_only,
                               uint32_t first_row, uint32_t row_count, isc_luma_image *out,
                               int *inserted_dht, char *message, size_t message_size) {
    uint8_t *patched;
    size_t patched_size = 0;
    isc_status status = with_tables(data, size, &patched, &patched_size, inserted_dht, message, message_size);
    if (status != ISC_OK) {
        memset(out, 0, sizeof *out);
        return status;
    }
    const uint8_t *frame = patched != NULL ? patched : data;
    size_t frame_size = patched != NULL ? patched_size : size;
    status = rows_only ? decode_rows(frame, frame_size, max_pixels, first_row, row_count, out, message, message_size)
                       : isc_jpeg_decode_luma(frame, frame_size, max_pixels, 1, 0, out, message, message_size);
    free(patched);
    return status;
}

size_t isc_mjpeg_standard_dht(const uint8_t **segment) {
    pthread_once(&std_dht_once, build_std_dht);
    *segment = std_dht;
    return std_dht_size;
}
