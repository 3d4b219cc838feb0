// SPDX-License-Identifier: Apache-2.0
/* HEIF/HEIC and AVIF → luminance with libheif (no longjmp: every call returns a heif_error). */
#include "ccodecs.h"
#include "luma.h"
#include <libheif/heif.h>
#include <stdlib.h>
#include <string.h>
#include "source.h"
#include "cloader.h"

/* libheif is opened on the first HEIF/AVIF file (see cloader.h): it brings libde265, x265, dav1d
 * and libaom, which a run without such a file should not spend its start-up mapping. */
#define HEIF_FUNCTIONS(X) \
    X(context_alloc) \
    X(context_free) \
    X(context_get_primary_image_handle) \
    X(context_read_from_reader) \
    X(decode_image) \
    X(image_get_bits_per_pixel_range) \
    X(image_get_colorspace) \
    X(image_get_height) \
    X(image_get_nclx_color_profile) \
    X(image_get_plane_readonly) \
    X(image_get_primary_height) \
    X(image_get_primary_width) \
    X(image_get_width) \
    X(image_handle_get_height) \
    X(image_handle_get_width) \
    X(image_handle_release) \
    X(image_release) \
    X(nclx_color_profile_free)

#define HEIF_POINTER(name) __typeof__(heif_##name) *name;
#define HEIF_NAME(name) "heif_" #name,
static struct { HEIF_FUNCTIONS(HEIF_POINTER) } heif;
static const char *const heif_names[] = { HEIF_FUNCTIONS(HEIF_NAME) };
static isc_library libheif = ISC_LIBRARY("libheif.so.1", heif_names, heif);

/* libheif's reader over an isc_source: it reads boxes as it parses them and the coded image
 * when it decodes, so bytes after the last box it needs are never read. */
static int64_t reader_position(void *user) { return (int64_t)((isc_source *)user)->pos; }

static int reader_read(void *data, size_t size, void *user) {
    isc_source *src = (isc_source *)user;
    return isc_source_read(src, data, size) == size && src->error == 0 ? 0 : 1;
}

static int reader_seek(int64_t position, void *user) {
    isc_source *src = (isc_source *)user;
    if (position < 0 || (uint64_t)position > src->size) return 1;
    src->pos = (uint64_t)position;
    return 0;
}

static enum heif_reader_grow_status reader_wait(int64_t target, void *user) {
    isc_source *src = (isc_source *)user;
    if (target >= 0 && (uint64_t)target <= src->size) return heif_reader_grow_status_size_reached;
    src->short_read = 1;
    return heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader source_reader = {
    .reader_api_version = 1,
    .get_position = reader_position,
    .read = reader_read,
    .seek = reader_seek,
    .wait_for_file_size = reader_wait,
};

static isc_status status_of(struct heif_error error) {
    switch (error.code) {
    case heif_error_Ok: return ISC_OK;
    case heif_error_Memory_allocation_error: return ISC_ERR_NO_MEMORY;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature: return ISC_ERR_UNSUPPORTED;
    default: return error.subcode == heif_suberror_End_of_data ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
    }
}

static isc_status fail(struct heif_error error, char *message, size_t message_size) {
    isc_status status = status_of(error);
    if (status == ISC_ERR_TRUNCATED) isc_set_message(message, message_size, "file ends before the image does");
    else isc_set_message(message, message_size, "%s", error.message != NULL ? error.message : "decoder failed");
    return status == ISC_OK ? ISC_ERR_CORRUPT : status;
}

/* Copies the Y plane (8…16 bits per sample; limited range stretched to 0…255). */
static int copy_luma(const struct heif_image *image, uint8_t *pixels, uint32_t width, uint32_t height) {
    int stride = 0;
    const uint8_t *plane = heif.image_get_plane_readonly(image, heif_channel_Y, &stride);
    int bits = heif.image_get_bits_per_pixel_range(image, heif_channel_Y);
    if (plane == NULL || bits < 8 || bits > 16
        || heif.image_get_width(image, heif_channel_Y) < (int)width
        || heif.image_get_height(image, heif_channel_Y) < (int)height) return 0;
    int full_range = 1;
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif.image_get_nclx_color_profile(image, &nclx).code == heif_error_Ok && nclx != NULL) {
        full_range = nclx->full_range_flag;
        heif.nclx_color_profile_free(nclx);
    }
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = plane + (size_t)stride * y;
        uint8_t *dst = pixels + (size_t)width * y;
        for (uint32_t x = 0; x < width; x++) {
            unsigned v = bits == 8 ? row[x] : (unsigned)(row[2 * x] | (row[2 * x + 1] << 8)) >> (bits - 8);
            if (!full_range) {
                int s = ((int)v - 16) * 255 / 219;
                v = s < 0 ? 0 : s > 255 ? 255 : (unsigned)s;
            }
            dst[x] = (uint8_t)v;
        }
    }
    return 1;
}

static isc_status decode(isc_source *src, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    out->page_count = 1;
    char reason[256];
    if (!isc_library_load(&libheif, reason, sizeof reason)) {
        isc_set_message(message, message_size, "HEIF/AVIF images need libheif (apt install libheif1): %s", reason);
        return ISC_ERR_UNSUPPORTED;
    }
    struct heif_context *context = heif.context_alloc();
    if (context == NULL) { isc_set_message(message, message_size, "out of memory"); return ISC_ERR_NO_MEMORY; }
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    uint8_t *pixels = NULL;
    isc_status status = ISC_OK;
    struct heif_error error = heif.context_read_from_reader(context, &source_reader, src, NULL);
    if (error.code != heif_error_Ok) { status = fail(error, message, message_size); goto done; }
    error = heif.context_get_primary_image_handle(context, &handle);
    if (error.code != heif_error_Ok) { status = fail(error, message, message_size); goto done; }
    /* The size after the transforms (a 90° irot swaps the sides). */
    const int w = heif.image_handle_get_width(handle), h = heif.image_handle_get_height(handle);
    out->source_width = w > 0 ? (uint32_t)w : 0;
    out->source_height = h > 0 ? (uint32_t)h : 0;
    if (w <= 0 || h <= 0) {
        isc_set_message(message, message_size, "image is %dx%d pixels", w, h);
        status = ISC_ERR_CORRUPT;
        goto done;
    }
    if ((uint64_t)w * (uint64_t)h > max_pixels || w > (int)ISC_MAX_SIDE || h > (int)ISC_MAX_SIDE) {
        isc_set_message(message, message_size, "image is %dx%d pixels, over the limit of %llu pixels",
                        w, h, (unsigned long long)max_pixels);
        status = ISC_ERR_TOO_LARGE;
        goto done;
    }
    /* The coded colour space as it is (YCbCr or monochrome: the Y plane is the luminance). */
    error = heif.decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, NULL);
    if (error.code != heif_error_Ok) { status = fail(error, message, message_size); goto done; }
    const uint32_t width = (uint32_t)heif.image_get_primary_width(image);
    const uint32_t height = (uint32_t)heif.image_get_primary_height(image);
    if (width == 0 || height == 0 || (uint64_t)width * height > max_pixels) {
        isc_set_message(message, message_size, "decoded image is %ux%u pixels", width, height);
        status = ISC_ERR_CORRUPT;
        goto done;
    }
    pixels = malloc((size_t)width * height);
    if (pixels == NULL) { isc_set_message(message, message_size, "out of memory"); status = ISC_ERR_NO_MEMORY; goto done; }
    enum heif_colorspace space = heif.image_get_colorspace(image);
    if (space == heif_colorspace_YCbCr || space == heif_colorspace_monochrome) {
        if (!copy_luma(image, pixels, width, height)) {
            isc_set_message(message, message_size, "unexpected luma plane layout");
            status = ISC_ERR_UNSUPPORTED;
            goto done;
        }
    } else {
        /* RGB-coded (e.g. an AVIF with the identity matrix): 8-bit interleaved RGB. */
        heif.image_release(image);
        image = NULL;
        error = heif.decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL);
        if (error.code != heif_error_Ok) { status = fail(error, message, message_size); goto done; }
        int stride = 0;
        const uint8_t *plane = heif.image_get_plane_readonly(image, heif_channel_interleaved, &stride);
        if (plane == NULL || heif.image_get_width(image, heif_channel_interleaved) < (int)width
            || heif.image_get_height(image, heif_channel_interleaved) < (int)height) {
            isc_set_message(message, message_size, "unexpected RGB plane layout");
            status = ISC_ERR_UNSUPPORTED;
            goto done;
        }
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *row = plane + (size_t)stride * y;
            for (uint32_t x = 0; x < width; x++)
                pixels[(size_t)width * y + x] = isc_luma(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
        }
    }
    out->pixels = pixels;
    pixels = NULL;
    out->width = width;
    out->height = height;
    out->orientation = 1;
done:
    free(pixels);
    if (image != NULL) heif.image_release(image);
    if (handle != NULL) heif.image_handle_release(handle);
    heif.context_free(context);
    return status;
}

isc_status isc_heif_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                isc_luma_image *out, char *message, size_t message_size) {
    isc_source src = isc_source_memory(data, size);
    return decode(&src, max_pixels, out, message, message_size);
}

isc_status isc_heif_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size) {
    isc_source src;
    isc_status opened = isc_source_file(&src, fd, out, message, message_size);
    if (opened != ISC_OK) return opened;
    return decode(&src, max_pixels, out, message, message_size);
}
