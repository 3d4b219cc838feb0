// SPDX-License-Identifier: Apache-2.0
/* PNG → luminance with libpng. All setjmp/longjmp stays in this file. */
#include "ccodecs.h"
#include "luma.h"
#include "png_internal.h"
#include <png.h>
#include <setjmp.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    FILE *file;             /* read from here instead of `data` when not NULL */
    int truncated;          /* the reader ran past the end of the data */
    size_t consumed;        /* bytes handed to libpng so far */
    size_t limit;           /* from the last row on: bytes libpng may still read (SIZE_MAX: any) */
    int over_limit;         /* libpng asked for more than `limit` */
    char message[200];
} png_source;

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    png_source *src = (png_source *)png_get_io_ptr(png);
    /* After the last row only chunks after the image are wanted (an eXIf): a stream that goes on
     * inflating past the image (a few MB can expand to GBs) is not followed. */
    if (length > src->limit - src->consumed) {
        src->over_limit = 1;
        png_error(png, "data after the image");
    }
    src->consumed += length;
    if (src->file != NULL) {
        size_t got = fread(out, 1, length, src->file);
        if (got == length) return;
        src->truncated = 1;
        if (got == 0 || src->offset == SIZE_MAX) png_error(png, "file ends before the image does");
        memset(out + got, 0, length - got);   /* as below: let zlib inflate what arrived */
        src->offset = SIZE_MAX;               /* the next short read is the end */
        return;
    }
    if (length > src->size - src->offset) {
        src->truncated = 1;
        size_t left = src->size - src->offset;
        if (left == 0) png_error(png, "file ends before the image does");
        /* The last bytes of a file cut inside IDAT: hand them over padded with zeros (an
         * invalid deflate block), so zlib inflates the rows they hold before it fails. */
        memcpy(out, src->data + src->offset, left);
        memset(out + left, 0, length - left);
        src->offset = src->size;
        return;
    }
    memcpy(out, src->data + src->offset, length);
    src->offset += length;
}

/* Before the last row of a non-interlaced image: libpng may read that row's data (at most the row
 * plus deflate's overhead and chunk headers, and what it buffers: 16 rows and 256 KiB are
 * plenty) and no more; `*last_row` remembers where the
 * row goes. */
static void limit_last_row(png_source *src, size_t rowbytes, volatile size_t *last_row, size_t offset) {
    src->limit = src->consumed + 16 * rowbytes + 262144;
    *last_row = offset;
}

static void on_error(png_structp png, png_const_charp msg) {
    png_source *src = (png_source *)png_get_error_ptr(png);
    if (src->message[0] == 0) isc_set_message(src->message, sizeof src->message, "%s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) {
    (void)png; (void)msg; /* warnings (e.g. bad ancillary chunk CRC) are not fatal */
}

void isc_png_row_to_luma(const uint8_t *src, int channels, uint8_t *dst, uint32_t width) {
    switch (channels) {
    case 1: memcpy(dst, src, width); break;
    case 2:
        for (uint32_t x = 0; x < width; x++) dst[x] = isc_over_white(src[2 * x], src[2 * x + 1]);
        break;
    case 3:
        for (uint32_t x = 0; x < width; x++)
            dst[x] = isc_luma(src[3 * x], src[3 * x + 1], src[3 * x + 2]);
        break;
    default:
        for (uint32_t x = 0; x < width; x++) {
            const uint8_t *p = src + 4 * x;
            dst[x] = isc_over_white(isc_luma(p[0], p[1], p[2]), p[3]);
        }
        break;
    }
}

/* The decoding, with setjmp. `src` is the caller's: the read and error callbacks change it
 * between setjmp and longjmp, and C11 7.13.2.1 leaves such an object indeterminate after the
 * longjmp only when it is a non-volatile automatic object of the function that called setjmp. */
static isc_status decode_from(png_source *src, isc_luma_image *out, uint64_t max_pixels,
                              char *message, size_t message_size) {
    /* Written after setjmp and read after longjmp: volatile, per C11 7.13.2.1. */
    uint8_t *volatile pixels = NULL;
    uint8_t *volatile work = NULL;
    volatile int finished_pixels = 0;
    volatile isc_status status = ISC_ERR_CORRUPT;
    /* Rows complete in `pixels`, counted for non-interlaced images (-1: not counted): a file
     * damaged later keeps them. */
    volatile long rows_done = -1;

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, src, on_error, on_warning);
    if (png == NULL) {
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }

    /* Written after setjmp and read after longjmp, like the above. */
    volatile int last_channels = 0;
    volatile size_t last_row = 0;   /* pixel offset of the last row, set before it is read */

    if (setjmp(png_jmpbuf(png))) {
        if (finished_pixels) goto done;  /* a fault after the last row (e.g. missing IEND) */
        if (src->over_limit && last_row > 0 && pixels != NULL) {
            /* libpng finishes the zlib stream inside the last png_read_row, after the row is
             * complete: a stream that goes on inflating past the image is cut there, and the
             * image is whole (the last row is in `work` for colour, in `pixels` for gray). */
            if (last_channels > 1 && work != NULL)
                isc_png_row_to_luma(work, last_channels, pixels + last_row, out->source_width);
            goto done;
        }
        if (status == ISC_ERR_CORRUPT && src->truncated) status = ISC_ERR_TRUNCATED;
        if (status == ISC_ERR_CORRUPT || status == ISC_ERR_TRUNCATED) {
            if (rows_done > 0 && pixels != NULL) {
                /* Rows up to the damaged one are kept; the rest is white. */
                out->damage = status;
                out->rows_decoded = (uint32_t)rows_done;
                memset(pixels + (size_t)out->source_width * (size_t)rows_done, 255,
                       (size_t)out->source_width * (out->source_height - (size_t)rows_done));
                isc_set_message(message, message_size, "%s",
                                src->truncated ? "file ends before the image does" : src->message);
                goto done;
            }
        }
        isc_set_message(message, message_size, "%s",
                        src->truncated ? "file ends before the image does" : src->message);
        free(work);
        free(pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return status;
    }

    png_set_read_fn(png, src, read_from_memory);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);  /* our pixel limit is what counts */
    /* Text, ICC profiles and suggested palettes are of no use here, and libpng allocates a
     * chunk's declared length before reading it (a 404-byte file with a tEXt chunk claiming
     * 2 GB took 2 GB: a fuzz finding; libpng's length check is only a warning when reading):
     * they are skipped unread. Other chunks may take 8 MiB at most. */
    static const png_byte ignored[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ignored, 5);
    png_set_chunk_malloc_max(png, 8u << 20);
    png_read_info(png, info);

    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    out->source_width = width;
    out->source_height = height;
    if ((uint64_t)width * (uint64_t)height > max_pixels || width > ISC_MAX_SIDE || height > ISC_MAX_SIDE) {
        status = ISC_ERR_TOO_LARGE;
        isc_set_message(src->message, sizeof src->message,
                        "image is %ux%u pixels, over the limit of %llu pixels",
                        (unsigned)width, (unsigned)height, (unsigned long long)max_pixels);
        png_longjmp(png, 1);
    }

    png_set_expand(png);     /* palette → RGB, gray 1/2/4 → 8, tRNS → alpha */
    png_set_strip_16(png);   /* 16-bit samples keep their high byte */
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (png_get_bit_depth(png, info) != 8 || channels < 1 || channels > 4) {
        status = ISC_ERR_UNSUPPORTED;
        isc_set_message(src->message, sizeof src->message, "unsupported PNG sample layout");
        png_longjmp(png, 1);
    }

    pixels = malloc((size_t)width * height);
    if (pixels == NULL) {
        status = ISC_ERR_NO_MEMORY;
        isc_set_message(src->message, sizeof src->message, "out of memory for %ux%u pixels",
                        (unsigned)width, (unsigned)height);
        png_longjmp(png, 1);
    }

    if (passes > 1 && channels > 1) {
        /* Adam7 with colour: libpng needs the whole expanded image to combine passes. */
        work = malloc(rowbytes * height);
        if (work == NULL) { status = ISC_ERR_NO_MEMORY; png_error(png, "out of memory"); }
        for (int pass = 0; pass < passes; pass++)
            for (png_uint_32 y = 0; y < height; y++)
                png_read_row(png, work + rowbytes * y, NULL);
        for (png_uint_32 y = 0; y < height; y++)
            isc_png_row_to_luma(work + rowbytes * y, channels, pixels + (size_t)width * y, width);
    } else if (channels == 1) {
        /* Gray: libpng writes straight into the output, each pass combining in place. */
        if (passes == 1) rows_done = 0;
        for (int pass = 0; pass < passes; pass++)
            for (png_uint_32 y = 0; y < height; y++) {
                if (passes == 1 && y + 1 == height && y > 0) limit_last_row(src, rowbytes, &last_row, (size_t)width * y);
                png_read_row(png, pixels + (size_t)width * y, NULL);
                if (passes == 1) rows_done = (long)y + 1;
            }
    } else {
        work = malloc(rowbytes);
        if (work == NULL) { status = ISC_ERR_NO_MEMORY; png_error(png, "out of memory"); }
        rows_done = 0;
        last_channels = channels;
        for (png_uint_32 y = 0; y < height; y++) {
            if (y + 1 == height && y > 0) limit_last_row(src, rowbytes, &last_row, (size_t)width * y);
            png_read_row(png, work, NULL);
            isc_png_row_to_luma(work, channels, pixels + (size_t)width * y, width);
            rows_done = (long)y + 1;
        }
    }
    finished_pixels = 1;
    /* png_read_end picks up an eXIf chunk stored after IDAT; it may read 64 KiB more (the rest of
     * the stream and a chunk or two), not inflate whatever follows. A fault there keeps the image. */
    src->limit = src->consumed + 65536;
    png_read_end(png, info);

done:;
#ifdef PNG_eXIf_SUPPORTED
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &exif_size, &exif) != 0 && exif != NULL)
        out->orientation = isc_exif_orientation(exif, exif_size);
#endif
    free(work);
    png_destroy_read_struct(&png, &info, NULL);
    out->pixels = pixels;
    out->width = out->source_width;
    out->height = out->source_height;
    return ISC_OK;
}

static isc_status decode(const uint8_t *data, size_t size, FILE *file, uint64_t max_pixels,
                         isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    png_source src = {.data = data, .size = size, .file = file, .limit = SIZE_MAX};
    return decode_from(&src, out, max_pixels, message, message_size);
}

isc_status isc_png_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                               isc_luma_image *out, char *message, size_t message_size) {
    if (isc_png_decode_fast(data, size, NULL, max_pixels, out)) return ISC_OK;
    return decode(data, size, NULL, max_pixels, out, message, message_size);
}

isc_status isc_png_decode_luma_libpng(const uint8_t *data, size_t size, uint64_t max_pixels,
                                      isc_luma_image *out, char *message, size_t message_size) {
    return decode(data, size, NULL, max_pixels, out, message, message_size);
}

isc_status isc_png_decode_luma_deflate(const uint8_t *data, size_t size, uint64_t max_pixels, isc_luma_image *out) {
    return isc_png_decode_fast(data, size, NULL, max_pixels, out) ? ISC_OK : ISC_ERR_UNSUPPORTED;
}

isc_status isc_png_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    int copy = dup(fd);
    if (copy >= 0) lseek(copy, 0, SEEK_SET);   /* shared with `fd`: the caller reads with pread */
    FILE *file = copy >= 0 ? fdopen(copy, "rb") : NULL;
    if (file == NULL) {
        if (copy >= 0) close(copy);
        isc_set_message(message, message_size, "cannot read the file: %s", strerror(errno));
        return ISC_ERR_CORRUPT;
    }
    setvbuf(file, NULL, _IOFBF, 65536);
    /* The libdeflate path first; what it declines, libpng reads from the start (a pipe,
     * which cannot be read twice, goes to libpng directly). */
    if (fseek(file, 0, SEEK_SET) == 0) {
        if (isc_png_decode_fast(NULL, 0, file, max_pixels, out)) { fclose(file); return ISC_OK; }
        if (fseek(file, 0, SEEK_SET) != 0) {
            fclose(file);
            isc_set_message(message, message_size, "cannot read the file: %s", strerror(errno));
            return ISC_ERR_CORRUPT;
        }
        clearerr(file);
    }
    isc_status status = decode(NULL, 0, file, max_pixels, out, message, message_size);
    fclose(file);
    return status;
}
