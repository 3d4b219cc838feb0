// SPDX-License-Identifier: Apache-2.0
/* Motion-JPEG frames from webcams → luminance. setjmp stays in C (see jpeg.c). */
#include "ccodecs.h"
#include "luma.h"
#include "mjpeg_cut.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>

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

/* `c` and `err` are the caller's (build_std_dht's), so they keep their values after a longjmp
 * (C11 7.13.2.1; see decode_rows). */
static void build_std_dht_with(struct jpeg_compress_struct *c, build_error *err) {
    c->err = jpeg_std_error(&err->pub);
    err->pub.error_exit = build_error_exit;
    if (setjmp(err->jump)) {
        jpeg_destroy_compress(c);
        std_dht_size = 0;
        return;
    }
    jpeg_create_compress(c);
    c->in_color_space = JCS_YCbCr;
    c->input_components = 3;
    jpeg_set_defaults(c);
    size_t n = 4;   /* FF C4 Lh Ll */
    n += append_table(std_dht + n, 0x00, c->dc_huff_tbl_ptrs[0]);   /* Tc 0 (DC), Th 0 */
    n += append_table(std_dht + n, 0x10, c->ac_huff_tbl_ptrs[0]);   /* Tc 1 (AC), Th 0 */
    n += append_table(std_dht + n, 0x01, c->dc_huff_tbl_ptrs[1]);
    n += append_table(std_dht + n, 0x11, c->ac_huff_tbl_ptrs[1]);
    jpeg_destroy_compress(c);
    std_dht[0] = 0xFF;
    std_dht[1] = 0xC4;
    std_dht[2] = (uint8_t)((n - 2) >> 8);
    std_dht[3] = (uint8_t)((n - 2) & 0xFF);
    std_dht_size = n;
}

static void build_std_dht(void) {
    struct jpeg_compress_struct c;
    build_error err;
    build_std_dht_with(&c, &err);
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
 * (`rows_only` 0) or only rows first_row ..< first_row + row_count, the rows above walked
 * (isc_mjpeg_cut_above) or skipped by libjpeg as `path` says (isc_mjpeg_rows_path). */
static isc_status decode_frame(const uint8_t *data, size_t size, uint64_t max_pixels, int rows_only,
                               isc_mjpeg_rows_path path, uint32_t first_row, uint32_t row_count,
                               isc_luma_image *out, int *inserted_dht, char *message, size_t message_size);

isc_status isc_mjpeg_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                 isc_luma_image *out, int *inserted_dht,
                                 char *message, size_t message_size) {
    return decode_frame(data, size, max_pixels, 0, ISC_MJPEG_ROWS_AUTO, 0, 0, out, inserted_dht, message, message_size);
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

/* A cut frame (mjpeg_cut.h) as libjpeg's source: the head, then the frame's bytes in place, then
 * an EOI, as jpeg_mem_src does at the end of its buffer. */
typedef struct {
    struct jpeg_source_mgr pub;
    const isc_mjpeg_cut *cut;
    int in_tail;
} cut_source;

static void cut_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void cut_term(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean cut_fill(j_decompress_ptr cinfo) {
    static const JOCTET eoi[2] = { 0xFF, JPEG_EOI };
    cut_source *src = (cut_source *)cinfo->src;
    if (!src->in_tail && src->cut->tail_size > 0) {
        src->in_tail = 1;
        src->pub.next_input_byte = src->cut->tail;
        src->pub.bytes_in_buffer = src->cut->tail_size;
        return TRUE;
    }
    WARNMS(cinfo, JWRN_JPEG_EOF);
    src->pub.next_input_byte = eoi;
    src->pub.bytes_in_buffer = 2;
    return TRUE;
}

static void cut_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    while (count > (long)src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        (void)cut_fill(cinfo);
    }
    if (count > 0) {
        src->next_input_byte += count;
        src->bytes_in_buffer -= (size_t)count;
    }
}

/* Rows first_row ..< first_row + row_count of the frame in `data`, or of the frame `cut` was cut
 * from (then `data` is NULL and first_row counts in the frame). With a cut, a colour space other
 * than YCbCr (grayscale output would then mix in chroma upsampled across the cut) sets *declined
 * and returns ISC_ERR_UNSUPPORTED: the caller decodes the whole frame's way instead. */
static isc_status decode_rows_with(struct jpeg_decompress_struct *cinfo, rows_error *err, cut_source *source,
                                   const uint8_t *data, size_t size, const isc_mjpeg_cut *cut, uint64_t max_pixels,
                                   uint32_t first_row, uint32_t row_count, isc_luma_image *out, int *declined,
                                   char *message, size_t message_size) {
    /* Written after setjmp and read after longjmp: volatile, per C11 7.13.2.1. */
    uint8_t *volatile pixels = NULL;
    cinfo->err = jpeg_std_error(&err->pub);
    err->pub.error_exit = rows_error_exit;
    err->pub.emit_message = rows_emit_message;
    err->status = ISC_OK;
    err->message[0] = 0;
    if (setjmp(err->jump)) {
        free(pixels);
        jpeg_destroy_decompress(cinfo);
        memset(out, 0, sizeof *out);
        isc_set_message(message, message_size, "%s", err->message);
        return err->status;
    }
    jpeg_create_decompress(cinfo);
    if (cut != NULL) {
        source->pub.init_source = cut_init;
        source->pub.fill_input_buffer = cut_fill;
        source->pub.skip_input_data = cut_skip;
        source->pub.resync_to_restart = jpeg_resync_to_restart;
        source->pub.term_source = cut_term;
        source->pub.next_input_byte = cut->head;
        source->pub.bytes_in_buffer = cut->head_size;
        source->cut = cut;
        source->in_tail = 0;
        cinfo->src = &source->pub;
    } else {
        jpeg_mem_src(cinfo, data, (unsigned long)size);
    }
    jpeg_read_header(cinfo, TRUE);
    out->source_width = cut ? cut->frame_width : cinfo->image_width;
    out->source_height = cut ? cut->frame_height : cinfo->image_height;
    if (cut != NULL) {
        if (cinfo->jpeg_color_space != JCS_YCbCr) {
            *declined = 1;
            err->status = ISC_ERR_UNSUPPORTED;
            snprintf(err->message, sizeof err->message, "cut frame of colour space %d", (int)cinfo->jpeg_color_space);
            longjmp(err->jump, 1);
        }
        /* The same rows in the cut JPEG (the frame's rows from first_kept_row on, below the made-up row). */
        first_row = first_row - cut->first_kept_row + cut->synthetic_rows;
    }
    if ((uint64_t)out->source_width * out->source_height > max_pixels) {
        err->status = ISC_ERR_TOO_LARGE;
        snprintf(err->message, sizeof err->message, "image is %ux%u pixels, over the limit of %llu pixels",
                 (unsigned)out->source_width, (unsigned)out->source_height, (unsigned long long)max_pixels);
        longjmp(err->jump, 1);
    }
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_YCbCr: case JCS_RGB:
        cinfo->out_color_space = JCS_GRAYSCALE;   /* Y only: the chroma is entropy-decoded, never transformed */
        break;
    default:
        err->status = ISC_ERR_UNSUPPORTED;
        snprintf(err->message, sizeof err->message, "unsupported Motion-JPEG colour space %d", (int)cinfo->jpeg_color_space);
        longjmp(err->jump, 1);
    }
    jpeg_start_decompress(cinfo);
    const JDIMENSION width = cinfo->output_width, height = cinfo->output_height;
    if (first_row >= height) first_row = height - 1;
    if (row_count > height - first_row) row_count = height - first_row;
    if (row_count == 0) row_count = 1;
    pixels = malloc((size_t)width * row_count);
    if (pixels == NULL) {
        err->status = ISC_ERR_NO_MEMORY;
        snprintf(err->message, sizeof err->message, "out of memory for %ux%u pixels", (unsigned)width, (unsigned)row_count);
        longjmp(err->jump, 1);
    }
    /* Rows above the band: entropy-decoded (the bit stream has no other way through) but no
     * IDCT, no output. libjpeg-turbo skips whole iMCU rows and reads the rest of a partial one. */
    if (first_row > 0) jpeg_skip_scanlines(cinfo, first_row);
    const JDIMENSION end = first_row + row_count;
    while (cinfo->output_scanline < end) {
        JSAMPROW rows[16];
        JDIMENSION at = cinfo->output_scanline, n = end - at < 16 ? end - at : 16;
        for (JDIMENSION i = 0; i < n; i++) rows[i] = pixels + (size_t)width * (at - first_row + i);
        if (jpeg_read_scanlines(cinfo, rows, n) == 0) break;   /* suspended: cannot happen with a memory source */
    }
    /* Rows below the band are never read: the decompressor is dropped as it stands. */
    jpeg_abort_decompress(cinfo);
    jpeg_destroy_decompress(cinfo);
    out->pixels = pixels;
    out->width = width;
    out->height = row_count;
    out->page_count = 1;
    out->rows_decoded = row_count;
    return ISC_OK;
}

/* `cinfo`, `err` and `source` belong to this caller, not to the function that calls setjmp:
 * libjpeg and the handlers change them before a longjmp, after which decode_rows_with reads
 * them through its pointers (C11 7.13.2.1 makes only that function's own non-volatile
 * automatic objects indeterminate). See jpeg.c. */
static isc_status decode_rows(const uint8_t *data, size_t size, const isc_mjpeg_cut *cut, uint64_t max_pixels,
                              uint32_t first_row, uint32_t row_count, isc_luma_image *out, int *declined,
                              char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    rows_error err;
    cut_source source;
    memset(out, 0, sizeof *out);
    return decode_rows_with(&cinfo, &err, &source, data, size, cut, max_pixels, first_row, row_count, out, declined,
                            message, message_size);
}

isc_status isc_mjpeg_decode_luma_rows(const uint8_t *data, size_t size, uint64_t max_pixels,
                                      uint32_t first_row, uint32_t row_count,
                                      isc_luma_image *out, int *inserted_dht,
                                      char *message, size_t message_size) {
    return decode_frame(data, size, max_pixels, 1, ISC_MJPEG_ROWS_AUTO, first_row, row_count, out, inserted_dht,
                        message, message_size);
}

isc_status isc_mjpeg_decode_luma_rows_by(const uint8_t *data, size_t size, uint64_t max_pixels,
                                         uint32_t first_row, uint32_t row_count, isc_mjpeg_rows_path path,
                                         isc_luma_image *out, int *inserted_dht,
                                         char *message, size_t message_size) {
    return decode_frame(data, size, max_pixels, 1, path, first_row, row_count, out, inserted_dht, message, message_size);
}

static isc_status decode_frame(const uint8_t *data, size_t size, uint64_t max_pixels, int rows_only,
                               isc_mjpeg_rows_path path, uint32_t first_row, uint32_t row_count,
                               isc_luma_image *out, int *inserted_dht, char *message, size_t message_size) {
    if (rows_only && path != ISC_MJPEG_ROWS_SKIP) {
        /* The rows above walked here, the frame's bytes read in place (no copy with tables). */
        isc_mjpeg_cut cut;
        if (isc_mjpeg_cut_above(data, size, first_row, max_pixels, &cut)) {
            int declined = 0;
            *inserted_dht = cut.inserted_dht;
            isc_status status = decode_rows(NULL, 0, &cut, max_pixels, first_row, row_count, out, &declined,
                                            message, message_size);
            isc_mjpeg_cut_free(&cut);
            if (!declined) return status;
        }
        if (path == ISC_MJPEG_ROWS_CUT) {
            memset(out, 0, sizeof *out);
            *inserted_dht = 0;
            isc_set_message(message, message_size, "the frame cannot be cut above row %u", (unsigned)first_row);
            return ISC_ERR_UNSUPPORTED;
        }
    }
    uint8_t *patched;
    size_t patched_size = 0;
    isc_status status = with_tables(data, size, &patched, &patched_size, inserted_dht, message, message_size);
    if (status != ISC_OK) {
        memset(out, 0, sizeof *out);
        return status;
    }
    const uint8_t *frame = patched != NULL ? patched : data;
    size_t frame_size = patched != NULL ? patched_size : size;
    int declined = 0;
    status = rows_only ? decode_rows(frame, frame_size, NULL, max_pixels, first_row, row_count, out, &declined,
                                     message, message_size)
                       : isc_jpeg_decode_luma(frame, frame_size, max_pixels, 1, 0, out, message, message_size);
    free(patched);
    return status;
}

size_t isc_mjpeg_standard_dht(const uint8_t **segment) {
    pthread_once(&std_dht_once, build_std_dht);
    *segment = std_dht;
    return std_dht_size;
}
