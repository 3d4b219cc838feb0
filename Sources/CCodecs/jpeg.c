// SPDX-License-Identifier: Apache-2.0
/* JPEG → luminance with libjpeg-turbo. All setjmp/longjmp stays in this file. */
#include "ccodecs.h"
#include "luma.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>
#include <errno.h>
#include <unistd.h>

typedef struct {
    struct jpeg_error_mgr pub;  /* must be first: libjpeg casts cinfo->err to this */
    jmp_buf jump;
    isc_status status;
    int pixels_done;            /* every scanline is in: later faults (missing EOI) are ignored */
    isc_status damage;          /* first damage seen while decoding (ISC_ERR_TRUNCATED / _CORRUPT) */
    JDIMENSION damage_row;      /* output rows complete before it */
    char message[JMSG_LENGTH_MAX + 32];
} error_manager;

static void on_error_exit(j_common_ptr cinfo) {
    error_manager *err = (error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (err->message[0] == 0) snprintf(err->message, sizeof err->message, "%s", text);
    /* A valid file in a variant libjpeg-turbo's 8-bit API does not decode (12-bit samples,
     * lossless, an odd sampling) is unsupported, not corrupt. */
    int code = cinfo->err->msg_code;
    if (code == JERR_BAD_PRECISION || code == JERR_NOT_COMPILED || code == JERR_CCIR601_NOTIMPL)
        err->status = ISC_ERR_UNSUPPORTED;
    /* The file ended first (a premature end was seen, e.g. inside the header, and the fake end
     * marker libjpeg then reads makes the header invalid): truncated, as the message says. */
    else if (err->damage == ISC_ERR_TRUNCATED && err->status == ISC_ERR_CORRUPT)
        err->status = ISC_ERR_TRUNCATED;
    longjmp(err->jump, 1);
}

/* Warnings are not printed. Premature end of the file (truncated) or corrupt entropy-coded
 * data (a bad Huffman code, a marker inside a segment, a lost restart marker) are remembered
 * with the output row reached: libjpeg-turbo goes on (it fills what is missing, or resyncs at
 * the next restart marker), and the rows before the damage are kept. Other warnings (e.g.
 * extraneous bytes before a marker) are common in camera files and harmless. */
static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    error_manager *err = (error_manager *)cinfo->err;
    err->pub.num_warnings++;
    if (err->pixels_done || err->damage != ISC_OK) return;
    const int code = err->pub.msg_code;
    const int eof = code == JWRN_JPEG_EOF;
    if (!eof && code != JWRN_HIT_MARKER && code != JWRN_HUFF_BAD_CODE && code != JWRN_MUST_RESYNC
        && code != JWRN_NOT_SEQUENTIAL && code != JWRN_BOGUS_PROGRESSION) return;
    err->damage = eof ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
    /* Before output starts (a progressive file is read whole by jpeg_start_decompress) no row
     * is complete yet: damage_row 0, and the caller decides from the scans read. */
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    err->damage_row = cinfo->is_decompressor && d->global_state >= 205 /* DSTATE_SCANNING */ ? d->output_scanline : 0;
    if (eof) snprintf(err->message, sizeof err->message, "file ends before the image does");
    else (*cinfo->err->format_message)(cinfo, err->message);
}

/* A progressive JPEG may hold any number of scans, and each one costs a pass over the whole
 * coefficient buffer: thousands of tiny scans make a small file cost minutes. Real encoders
 * write about 10 (cjpeg's default script 10, Photoshop and browsers up to a dozen or so). */
static void on_progress(j_common_ptr cinfo) {
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (cinfo->is_decompressor && d->progressive_mode && d->input_scan_number > ISC_JPEG_MAX_SCANS) {
        error_manager *err = (error_manager *)cinfo->err;
        err->status = ISC_ERR_CORRUPT;
        snprintf(err->message, sizeof err->message,
                 "more than %d progressive scans (a normal file has about 10; refused to bound the cost)",
                 ISC_JPEG_MAX_SCANS);
        longjmp(err->jump, 1);
    }
}

static int exif_orientation_from_markers(j_decompress_ptr cinfo) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6
            && memcmp(m->data, "Exif\0\0", 6) == 0)
            return isc_exif_orientation(m->data, m->data_length);
    }
    return 0;
}

/* A source manager reading a file descriptor with read(2) in 64 KiB steps (libjpeg's stdio
 * source reads 4 KiB through fread: measurably slower on a 12-megapixel photo). At the end of
 * the file it does what jpeg_mem_src does: warn JWRN_JPEG_EOF and insert a fake EOI. */
typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    JOCTET buffer[65536];
} fd_source;

static void fd_init_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean fd_fill_input_buffer(j_decompress_ptr cinfo) {
    fd_source *src = (fd_source *)cinfo->src;
    ssize_t got;
    do { got = read(src->fd, src->buffer, sizeof src->buffer); } while (got < 0 && errno == EINTR);
    if (got <= 0) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->buffer[0] = (JOCTET)0xFF;
        src->buffer[1] = (JOCTET)JPEG_EOI;
        got = 2;
    }
    src->pub.next_input_byte = src->buffer;
    src->pub.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void fd_skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    while (count > (long)src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        (void)(*src->fill_input_buffer)(cinfo);
    }
    src->next_input_byte += count;
    src->bytes_in_buffer -= (size_t)count;
}

static void fd_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

/* malloc(size), or the decode ends with ISC_ERR_NO_MEMORY (longjmp to decode_with's setjmp). */
static uint8_t *allocate_or_fail(error_manager *err, size_t size) {
    uint8_t *p = malloc(size);
    if (p == NULL) {
        err->status = ISC_ERR_NO_MEMORY;
        snprintf(err->message, sizeof err->message, "out of memory");
        longjmp(err->jump, 1);
    }
    return p;
}

/* Reads rows, one at a time into `row`, until `cinfo->output_scanline` is `to`. */
static void read_over(j_decompress_ptr cinfo, JSAMPROW row, JDIMENSION to) {
    while (cinfo->output_scanline < to) {
        if (jpeg_read_scanlines(cinfo, &row, 1) == 0) return;
    }
}

/* Goes on to output row `to`: libjpeg skips whole iMCU rows (entropy decoding only), from an iMCU
 * row's start; the rows before the first such start and after the last are read into `row` and
 * dropped. libjpeg-turbo 2.1.5's jpeg_skip_scanlines, asked to skip a few rows inside an iMCU row
 * that reading had stopped in the middle of, returns an earlier row next (4:2:0, rows 179 -> 183
 * gave row 179 again): it is only asked to skip from an iMCU row's start to another's. */
static void pass_over(j_decompress_ptr cinfo, JSAMPROW row, JDIMENSION to) {
    const JDIMENSION imcu = (JDIMENSION)cinfo->max_v_samp_factor * DCTSIZE;  /* output rows per iMCU row at full size */
    JDIMENSION at = cinfo->output_scanline;
    if (to <= at) return;
    JDIMENSION start = (at + imcu - 1) / imcu * imcu, stop = to / imcu * imcu;
    if (stop > start) {
        read_over(cinfo, row, start);
        if (cinfo->output_scanline == start) jpeg_skip_scanlines(cinfo, stop - start);
    }
    read_over(cinfo, row, to);
}

/* The decoding, with setjmp. `cinfo` and `err` belong to the caller: libjpeg and the handlers
 * above change them between setjmp and longjmp, and C11 7.13.2.1 leaves such objects
 * indeterminate after longjmp only when they are automatic objects of the function that
 * called setjmp (and not volatile). Through pointers set before setjmp and never changed,
 * they are read safely after it. */
static isc_status decode_with(struct jpeg_decompress_struct *cinfo, error_manager *err,
                              const uint8_t *data, size_t size, fd_source *source, uint64_t max_pixels,
                              unsigned scale_denom, uint64_t halve_above,
                              const isc_row_band *bands, size_t band_count,
                              isc_luma_image *out, char *message, size_t message_size) {
    /* Written after setjmp and read after longjmp: volatile, per C11 7.13.2.1. */
    uint8_t *volatile pixels = NULL;
    uint8_t *volatile row = NULL;
    volatile int some_rows = 0;  /* only the rows of `bands` are decoded */

    struct jpeg_progress_mgr progress = {.progress_monitor = on_progress};

    cinfo->err = jpeg_std_error(&err->pub);
    err->pub.error_exit = on_error_exit;
    err->pub.emit_message = on_emit_message;
    err->status = ISC_ERR_CORRUPT;

    if (setjmp(err->jump)) {
        if (err->pixels_done) goto finished;
        isc_set_message(message, message_size, "%s", err->message);
        free(row);
        free(pixels);
        jpeg_destroy_decompress(cinfo);
        return err->status;
    }
    jpeg_create_decompress(cinfo);
    cinfo->progress = &progress;
    if (source != NULL) {
        source->pub.init_source = fd_init_source;
        source->pub.fill_input_buffer = fd_fill_input_buffer;
        source->pub.skip_input_data = fd_skip_input_data;
        source->pub.resync_to_restart = jpeg_resync_to_restart;
        source->pub.term_source = fd_term_source;
        source->pub.bytes_in_buffer = 0;
        source->pub.next_input_byte = NULL;
        cinfo->src = &source->pub;
    } else {
        jpeg_mem_src(cinfo, data, (unsigned long)size);
    }
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xffff);
    jpeg_read_header(cinfo, TRUE);

    out->source_width = cinfo->image_width;
    out->source_height = cinfo->image_height;
    out->orientation = exif_orientation_from_markers(cinfo);
    if ((uint64_t)cinfo->image_width * cinfo->image_height > max_pixels) {
        err->status = ISC_ERR_TOO_LARGE;
        snprintf(err->message, sizeof err->message,
                 "image is %ux%u pixels, over the limit of %llu pixels",
                 (unsigned)cinfo->image_width, (unsigned)cinfo->image_height,
                 (unsigned long long)max_pixels);
        longjmp(err->jump, 1);
    }

    int cmyk = 0;
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo->out_color_space = JCS_GRAYSCALE;   /* Y only: no chroma decoding at all */
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;        /* libjpeg turns YCCK into CMYK */
        cmyk = 1;
        break;
    default:
        err->status = ISC_ERR_UNSUPPORTED;
        snprintf(err->message, sizeof err->message, "unsupported JPEG colour space %d",
                 (int)cinfo->jpeg_color_space);
        longjmp(err->jump, 1);
    }
    if (scale_denom == 0) {
        scale_denom = (uint64_t)cinfo->image_width * cinfo->image_height > halve_above ? 2 : 1;
    }
    if (scale_denom == 2 || scale_denom == 4 || scale_denom == 8) {
        cinfo->scale_num = 1;
        cinfo->scale_denom = scale_denom;
    }
    jpeg_start_decompress(cinfo);

    const JDIMENSION width = cinfo->output_width, height = cinfo->output_height;
    out->width = width;
    out->height = height;
    /* Only some rows: the others stay zero pages of calloc's fresh mapping, never touched. */
    const int banded = bands != NULL && !cmyk && width == cinfo->image_width;
    some_rows = banded;
    pixels = banded ? calloc((size_t)width, height) : malloc((size_t)width * height);
    if (pixels == NULL) {
        err->status = ISC_ERR_NO_MEMORY;
        snprintf(err->message, sizeof err->message, "out of memory for %ux%u pixels",
                 (unsigned)width, (unsigned)height);
        longjmp(err->jump, 1);
    }
    if (!cmyk) {
        /* The rows wanted: `bands`, or every row. */
        const isc_row_band every = {0, height};
        const isc_row_band *wanted = banded ? bands : &every;
        const size_t wanted_count = banded ? band_count : 1;
        /* Rows passed over that are not worth skipping go through this one row. */
        if (banded) row = allocate_or_fail(err, width);
        for (size_t b = 0; b < wanted_count; b++) {
            JDIMENSION first = wanted[b].first < height ? wanted[b].first : height;
            JDIMENSION end = wanted[b].count < height - first ? first + wanted[b].count : height;
            if (first < cinfo->output_scanline) first = cinfo->output_scanline;
            if (first >= end) continue;
            pass_over(cinfo, row, first);
            while (cinfo->output_scanline < end) {
                JSAMPROW rows[4];
                JDIMENSION n = end - cinfo->output_scanline < 4 ? end - cinfo->output_scanline : 4;
                for (JDIMENSION i = 0; i < n; i++) rows[i] = pixels + (size_t)width * (cinfo->output_scanline + i);
                if (jpeg_read_scanlines(cinfo, rows, n) == 0) break;
            }
        }
        if (cinfo->output_scanline < height) {
            /* The rows below the last band are not wanted: stop without reading the rest. */
            err->pixels_done = 1;
            jpeg_abort_decompress(cinfo);
            goto finished;
        }
    } else {
        /* Adobe writes CMYK inverted (stored = 255 - ink); Photoshop, ImageMagick and
         * cameras follow it. Without an Adobe marker, samples are plain ink amounts. */
        const int inverted = cinfo->saw_Adobe_marker;
        row = allocate_or_fail(err, (size_t)width * 4);
        while (cinfo->output_scanline < height) {
            uint8_t *dst = pixels + (size_t)width * cinfo->output_scanline;
            JSAMPROW rows[1] = {row};
            jpeg_read_scanlines(cinfo, rows, 1);
            for (JDIMENSION x = 0; x < width; x++) {
                unsigned c = row[4 * x], m = row[4 * x + 1], y = row[4 * x + 2], k = row[4 * x + 3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                /* now each value is 255 - ink: R = (1-C)(1-K) etc. */
                dst[x] = isc_luma(c * k / 255, m * k / 255, y * k / 255);
            }
        }
    }
    err->pixels_done = 1;
    jpeg_finish_decompress(cinfo);
finished:
    free(row);
    if (err->damage != ISC_OK) {
        /* out->: written through a pointer, so still valid after a longjmp. */
        const JDIMENSION width = out->width, height = out->height;
        JDIMENSION good = err->damage_row;
        /* A progressive file is read whole before the first row comes out: every row has the
         * scans that arrived (coarser, not missing). */
        if (good == 0 && cinfo->progressive_mode) good = height;
        /* Rows skipped, not read: damage among them leaves no row before it, and the rows asked
         * for after it are what a whole decode gives there (white after the end of a cut file). */
        if (good == 0 && !some_rows) {
            isc_set_message(message, message_size, "%s", err->message);
            free(pixels);
            jpeg_destroy_decompress(cinfo);
            return err->damage;
        }
        if (good > height) good = height;
        /* What libjpeg made up after the end of the file is dropped. */
        if (err->damage == ISC_ERR_TRUNCATED && good < height)
            memset(pixels + (size_t)width * good, 255, (size_t)width * (height - good));
        out->damage = err->damage;
        out->rows_decoded = good;
        isc_set_message(message, message_size, "%s", err->message);
    }
    jpeg_destroy_decompress(cinfo);
    out->pixels = pixels;
    return ISC_OK;
}

/* From `data`/`size`, or from `source` when it is not NULL (read in 64 KiB steps, so memory
 * follows the image, not the file). */
static isc_status decode(const uint8_t *data, size_t size, fd_source *source, uint64_t max_pixels,
                         unsigned scale_denom, uint64_t halve_above, const isc_row_band *bands, size_t band_count,
                         isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    struct jpeg_decompress_struct cinfo;
    error_manager err;
    memset(&err, 0, sizeof err);
    return decode_with(&cinfo, &err, data, size, source, max_pixels, scale_denom, halve_above, bands, band_count,
                       out, message, message_size);
}

/* decode() reading the open regular file `fd` from its start. */
static isc_status decode_fd(int fd, uint64_t max_pixels, unsigned scale_denom, uint64_t halve_above,
                            const isc_row_band *bands, size_t band_count,
                            isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    fd_source *source = malloc(sizeof *source);
    if (source == NULL) { isc_set_message(message, message_size, "out of memory"); return ISC_ERR_NO_MEMORY; }
    if (lseek(fd, 0, SEEK_SET) != 0) {
        isc_set_message(message, message_size, "cannot read the file: %s", strerror(errno));
        free(source);
        return ISC_ERR_CORRUPT;
    }
    source->fd = fd;
    isc_status status = decode(NULL, 0, source, max_pixels, scale_denom, halve_above, bands, band_count, out,
                               message, message_size);
    free(source);
    return status;
}

isc_status isc_jpeg_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                unsigned scale_denom, uint64_t halve_above,
                                isc_luma_image *out, char *message, size_t message_size) {
    return decode(data, size, NULL, max_pixels, scale_denom, halve_above, NULL, 0, out, message, message_size);
}

isc_status isc_jpeg_decode_luma_fd(int fd, uint64_t max_pixels, unsigned scale_denom, uint64_t halve_above,
                                   isc_luma_image *out, char *message, size_t message_size) {
    return decode_fd(fd, max_pixels, scale_denom, halve_above, NULL, 0, out, message, message_size);
}

isc_status isc_jpeg_decode_luma_rows(const uint8_t *data, size_t size, int fd, uint64_t max_pixels,
                                     const isc_row_band *bands, size_t band_count,
                                     isc_luma_image *out, char *message, size_t message_size) {
    static const isc_row_band none = {0, 0};
    if (bands == NULL || band_count == 0) { bands = &none; band_count = 1; }  /* no row wanted: none decoded */
    if (data == NULL) return decode_fd(fd, max_pixels, 1, UINT64_MAX, bands, band_count, out, message, message_size);
    return decode(data, size, NULL, max_pixels, 1, UINT64_MAX, bands, band_count, out, message, message_size);
}
