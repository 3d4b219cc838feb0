// SPDX-License-Identifier: Apache-2.0
/* TIFF → luminance with libtiff. libtiff reports errors through handlers (no longjmp). */
#include "ccodecs.h"
#include "luma.h"
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include "source.h"
#include "cloader.h"

/* libtiff is opened on the first TIFF file (see cloader.h): with libLerc and libjbig it is three
 * libraries a run of photos never needs. */
#define TIFF_FUNCTIONS(X) \
    X(ClientOpenExt) \
    X(Close) \
    X(GetField) \
    X(GetFieldDefaulted) \
    X(IsTiled) \
    X(NumberOfDirectories) \
    X(OpenOptionsAlloc) \
    X(OpenOptionsFree) \
    X(OpenOptionsSetErrorHandlerExtR) \
    X(OpenOptionsSetMaxSingleMemAlloc) \
    X(OpenOptionsSetWarningHandlerExtR) \
    X(RGBAImageBegin) \
    X(RGBAImageEnd) \
    X(RGBAImageGet) \
    X(RGBAImageOK) \
    X(ReadScanline) \
    X(ScanlineSize) \
    X(SetDirectory)

#define TIFF_POINTER(name) __typeof__(TIFF##name) *name;
#define TIFF_NAME(name) "TIFF" #name,
static struct { TIFF_FUNCTIONS(TIFF_POINTER) } tiff;
static const char *const tiff_names[] = { TIFF_FUNCTIONS(TIFF_NAME) };
static isc_library libtiff = ISC_LIBRARY("libtiff.so.6", tiff_names, tiff);

typedef struct {
    isc_source in;
    char message[200];
} tiff_source;

static tmsize_t src_read(thandle_t handle, void *buffer, tmsize_t length) {
    tiff_source *src = (tiff_source *)handle;
    if (length < 0) return -1;
    size_t got = isc_source_read(&src->in, buffer, (size_t)length);
    if (src->in.error != 0) return -1;
    return (tmsize_t)got;
}

static tmsize_t src_write(thandle_t handle, void *buffer, tmsize_t length) {
    (void)handle; (void)buffer; (void)length;
    return -1;
}

static toff_t src_seek(thandle_t handle, toff_t offset, int whence) {
    tiff_source *src = (tiff_source *)handle;
    toff_t base = whence == SEEK_CUR ? src->in.pos : whence == SEEK_END ? src->in.size : 0;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    src->in.pos = base + offset;
    if (src->in.pos > src->in.size) src->in.short_read = 1;
    return src->in.pos;
}

static int src_close(thandle_t handle) { (void)handle; return 0; }
static toff_t src_size(thandle_t handle) { return ((tiff_source *)handle)->in.size; }
/* Memory: libtiff reads the buffer in place. A file is never mapped (strips are read with
 * pread as libtiff needs them). */
static int src_map(thandle_t handle, void **base, toff_t *size) {
    tiff_source *src = (tiff_source *)handle;
    if (src->in.data == NULL) return 0;
    *base = (void *)src->in.data;
    *size = src->in.size;
    return 1;
}
static void src_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    tiff_source *src = (tiff_source *)user;
    if (src->message[0] == 0) vsnprintf(src->message, sizeof src->message, fmt, ap);
    return 1;
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;  /* handled: nothing printed */
}

/* A 16-bit ColorMap entry → 8 bits (the high byte; some writers use 0…255 and are handled by the caller). */
static uint8_t cmap_luma(const uint16_t *r, const uint16_t *g, const uint16_t *b, unsigned i, int shift) {
    return isc_luma(r[i] >> shift, g[i] >> shift, b[i] >> shift);
}

/* Sample `x` of a row with `bits` bits per sample, most significant bits first (FillOrder is
 * handled by libtiff). */
static unsigned sample_at(const uint8_t *row, uint32_t x, unsigned bits) {
    switch (bits) {
    case 1: return (row[x >> 3] >> (7 - (x & 7))) & 1;
    case 2: return (row[x >> 2] >> (6 - 2 * (x & 3))) & 3;
    case 4: return (row[x >> 1] >> (4 - 4 * (x & 1))) & 15;
    default: return row[x];
    }
}

/* Reads the current directory as luminance through TIFFRGBAImageGet in bands of rows (stored
 * order: the requested orientation is the file's own, so libtiff flips nothing). */
static isc_status read_rgba(TIFF *tif, tiff_source *src, uint32_t width, uint32_t height, uint8_t *pixels) {
    char emsg[1024] = "";
    TIFFRGBAImage img;
    if (!tiff.RGBAImageOK(tif, emsg) || !tiff.RGBAImageBegin(&img, tif, 0, emsg)) {
        if (src->message[0] == 0) snprintf(src->message, sizeof src->message, "%s", emsg);
        return ISC_ERR_UNSUPPORTED;
    }
    img.req_orientation = img.orientation;
    const uint32_t band = 64;
    uint32_t *raster = malloc((size_t)width * band * sizeof(uint32_t));
    if (raster == NULL) {
        tiff.RGBAImageEnd(&img);
        snprintf(src->message, sizeof src->message, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    isc_status status = ISC_OK;
    for (uint32_t y = 0; y < height; y += band) {
        uint32_t rows = height - y < band ? height - y : band;
        img.row_offset = (int)y;
        if (!tiff.RGBAImageGet(&img, raster, width, rows)) { status = ISC_ERR_CORRUPT; break; }
        for (uint32_t r = 0; r < rows; r++) {
            const uint32_t *in = raster + (size_t)width * r;
            uint8_t *dst = pixels + (size_t)width * (y + r);
            for (uint32_t x = 0; x < width; x++) {
                uint32_t p = in[x];
                dst[x] = isc_over_white(isc_luma(TIFFGetR(p), TIFFGetG(p), TIFFGetB(p)), TIFFGetA(p));
            }
        }
    }
    free(raster);
    tiff.RGBAImageEnd(&img);
    return status;
}

static isc_status decode(tiff_source src, uint64_t max_pixels, uint32_t page,
                         isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    char reason[256];
    if (!isc_library_load(&libtiff, reason, sizeof reason)) {
        isc_set_message(message, message_size, "TIFF images need libtiff (apt install libtiff6): %s", reason);
        return ISC_ERR_UNSUPPORTED;
    }
    TIFFOpenOptions *opts = tiff.OpenOptionsAlloc();
    if (opts == NULL) { isc_set_message(message, message_size, "out of memory"); return ISC_ERR_NO_MEMORY; }
    tiff.OpenOptionsSetErrorHandlerExtR(opts, on_error, &src);
    tiff.OpenOptionsSetWarningHandlerExtR(opts, on_warning, &src);
    /* No single libtiff allocation (a strip buffer, a tag array) over 256 MiB. */
    tiff.OpenOptionsSetMaxSingleMemAlloc(opts, (tmsize_t)256 << 20);
    /* "rm": read, never mapped: strips are read through src_read as they are needed. */
    TIFF *tif = tiff.ClientOpenExt("tiff", "rm", (thandle_t)&src, src_read, src_write, src_seek,
                                  src_close, src_size, src_map, src_unmap, opts);
    tiff.OpenOptionsFree(opts);
    if (tif == NULL) {
        isc_set_message(message, message_size, "%s", src.message[0] ? src.message : "not a readable TIFF");
        return src.in.short_read || src.in.error ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
    }
    isc_status status = ISC_OK;
    uint8_t *pixels = NULL;
    uint8_t *row = NULL;
    /* Counting directories walks the IFD chain; libtiff stops at a loop. At most 10000 pages. */
    tdir_t pages = tiff.NumberOfDirectories(tif);
    out->page_count = pages == 0 ? 1 : pages;
    if (page > 0 && (page >= pages || !tiff.SetDirectory(tif, (tdir_t)page))) {
        snprintf(src.message, sizeof src.message, "cannot be read");
        status = ISC_ERR_CORRUPT;
        goto fail;
    }
    uint32_t width = 0, height = 0;
    uint16_t bits = 1, spp = 1, photometric = PHOTOMETRIC_MINISWHITE, planar = PLANARCONFIG_CONTIG, orientation = 1;
    tiff.GetField(tif, TIFFTAG_IMAGEWIDTH, &width);
    tiff.GetField(tif, TIFFTAG_IMAGELENGTH, &height);
    tiff.GetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    tiff.GetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    tiff.GetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    tiff.GetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &orientation);
    if (!tiff.GetField(tif, TIFFTAG_PHOTOMETRIC, &photometric))
        photometric = spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    out->source_width = width;
    out->source_height = height;
    out->orientation = orientation >= 1 && orientation <= 8 ? orientation : 0;
    if (width == 0 || height == 0) {
        snprintf(src.message, sizeof src.message, "image is %ux%u pixels", (unsigned)width, (unsigned)height);
        status = ISC_ERR_CORRUPT;
        goto fail;
    }
    if ((uint64_t)width * height > max_pixels || width > ISC_MAX_SIDE || height > ISC_MAX_SIDE) {
        snprintf(src.message, sizeof src.message, "image is %ux%u pixels, over the limit of %llu pixels",
                 (unsigned)width, (unsigned)height, (unsigned long long)max_pixels);
        status = ISC_ERR_TOO_LARGE;
        goto fail;
    }
    pixels = malloc((size_t)width * height);
    if (pixels == NULL) { snprintf(src.message, sizeof src.message, "out of memory"); status = ISC_ERR_NO_MEMORY; goto fail; }

    uint16_t compression = COMPRESSION_NONE;
    tiff.GetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    const int gray = (photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) && spp == 1
                     && (bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16);
    const int palette = photometric == PHOTOMETRIC_PALETTE && spp == 1 && (bits == 1 || bits == 2 || bits == 4 || bits == 8);
    const int rgb = photometric == PHOTOMETRIC_RGB && (spp == 3 || spp == 4) && planar == PLANARCONFIG_CONTIG
                    && (bits == 8 || bits == 16) && compression != COMPRESSION_OJPEG && compression != COMPRESSION_JPEG;
    if (tiff.IsTiled(tif) || !(gray || palette || rgb)) {
        status = read_rgba(tif, &src, width, height, pixels);
        if (status != ISC_OK) goto fail;
        goto done;
    }
    tmsize_t scanline = tiff.ScanlineSize(tif);
    if (scanline <= 0) { status = ISC_ERR_CORRUPT; goto fail; }
    row = malloc((size_t)scanline);
    if (row == NULL) { snprintf(src.message, sizeof src.message, "out of memory"); status = ISC_ERR_NO_MEMORY; goto fail; }
    /* Palette: 16-bit ColorMap entries, but some writers store 0…255. */
    uint16_t *cr = NULL, *cg = NULL, *cb = NULL;
    int shift = 8;
    unsigned colours = 1u << bits;
    if (palette) {
        if (!tiff.GetField(tif, TIFFTAG_COLORMAP, &cr, &cg, &cb)) {
            snprintf(src.message, sizeof src.message, "palette image without a ColorMap");
            status = ISC_ERR_CORRUPT;
            goto fail;
        }
        int wide = 0;
        for (unsigned i = 0; i < colours; i++) if (cr[i] > 255 || cg[i] > 255 || cb[i] > 255) wide = 1;
        shift = wide ? 8 : 0;
    }
    const int white_is_zero = photometric == PHOTOMETRIC_MINISWHITE;
    const unsigned maxval = bits == 16 ? 255 : (1u << bits) - 1;
    for (uint32_t y = 0; y < height; y++) {
        if (tiff.ReadScanline(tif, row, y, 0) < 0) {
            status = src.in.short_read || src.in.error || strstr(src.message, "Read error") ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
            if (src.message[0] == 0) snprintf(src.message, sizeof src.message, "row %u cannot be decoded", (unsigned)y);
            goto fail;
        }
        uint8_t *dst = pixels + (size_t)width * y;
        if (gray) {
            for (uint32_t x = 0; x < width; x++) {
                unsigned v;
                if (bits == 16) {
                    uint16_t s;
                    memcpy(&s, row + 2 * x, 2);   /* libtiff gives native byte order */
                    v = s >> 8;
                } else {
                    v = sample_at(row, x, bits);
                }
                unsigned l = maxval == 255 ? v : (v * 255 + maxval / 2) / maxval;
                dst[x] = (uint8_t)(white_is_zero ? 255 - l : l);
            }
        } else if (palette) {
            for (uint32_t x = 0; x < width; x++) dst[x] = cmap_luma(cr, cg, cb, sample_at(row, x, bits), shift);
        } else {
            for (uint32_t x = 0; x < width; x++) {
                unsigned r, g, b, a = 255;
                if (bits == 8) {
                    const uint8_t *p = row + (size_t)spp * x;
                    r = p[0]; g = p[1]; b = p[2];
                    if (spp == 4) a = p[3];
                } else {
                    uint16_t p[4];
                    memcpy(p, row + (size_t)2 * spp * x, 2 * spp);
                    r = p[0] >> 8; g = p[1] >> 8; b = p[2] >> 8;
                    if (spp == 4) a = p[3] >> 8;
                }
                dst[x] = spp == 4 ? isc_over_white(isc_luma(r, g, b), a) : isc_luma(r, g, b);
            }
        }
    }
done:
    free(row);
    tiff.Close(tif);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return ISC_OK;
fail:
    if (page > 0 && status != ISC_ERR_TOO_LARGE)
        isc_set_message(message, message_size, "page %u: %s", page + 1, src.message[0] ? src.message : "decoder failed");
    else
        isc_set_message(message, message_size, "%s", src.message[0] ? src.message : "decoder failed");
    free(row);
    free(pixels);
    tiff.Close(tif);
    return status;
}

isc_status isc_tiff_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels, uint32_t page,
                                isc_luma_image *out, char *message, size_t message_size) {
    tiff_source src = {.in = isc_source_memory(data, size)};
    return decode(src, max_pixels, page, out, message, message_size);
}

isc_status isc_tiff_decode_luma_fd(int fd, uint64_t max_pixels, uint32_t page,
                                   isc_luma_image *out, char *message, size_t message_size) {
    tiff_source src = {.message = ""};
    isc_status opened = isc_source_file(&src.in, fd, out, message, message_size);
    if (opened != ISC_OK) return opened;
    return decode(src, max_pixels, page, out, message, message_size);
}
