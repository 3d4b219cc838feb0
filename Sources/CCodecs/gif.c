// SPDX-License-Identifier: Apache-2.0
/* GIF (first frame) → luminance with giflib (no longjmp: every call returns a status). */
#include "ccodecs.h"
#include "luma.h"
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>
#include "source.h"

typedef isc_source gif_source;

/* giflib asks for a few bytes at a time (a sub-block at most 255): no buffer of our own. */
static int read_source(GifFileType *gif, GifByteType *buffer, int length) {
    gif_source *src = (gif_source *)gif->UserData;
    if (length < 0) return 0;
    return (int)isc_source_read(src, buffer, (size_t)length);
}

static isc_status fail(GifFileType *gif, gif_source *src, uint8_t *pixels, GifPixelType *line,
                       char *message, size_t message_size) {
    int code = gif != NULL ? gif->Error : 0;
    isc_status status = src->short_read || src->error || code == D_GIF_ERR_EOF_TOO_SOON || code == D_GIF_ERR_READ_FAILED
                        ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
    if (status == ISC_ERR_TRUNCATED) isc_set_message(message, message_size, "file ends before the image does");
    else {
        const char *text = GifErrorString(code);
        isc_set_message(message, message_size, "%s", text != NULL ? text : "decoder failed");
    }
    free(line);
    free(pixels);
    if (gif != NULL) DGifCloseFile(gif, NULL);
    return status;
}

static isc_status decode(gif_source src, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    out->page_count = 1;
    int error = 0;
    GifFileType *gif = DGifOpen(&src, read_source, &error);
    if (gif == NULL) {
        isc_status status = src.short_read || src.error ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
        const char *text = GifErrorString(error);
        isc_set_message(message, message_size, "%s", status == ISC_ERR_TRUNCATED ? "file ends before the image does"
                                                     : text != NULL ? text : "not a GIF");
        return status;
    }
    const uint32_t width = gif->SWidth > 0 ? (uint32_t)gif->SWidth : 0;
    const uint32_t height = gif->SHeight > 0 ? (uint32_t)gif->SHeight : 0;
    out->source_width = width;
    out->source_height = height;
    if ((uint64_t)width * height > max_pixels) {
        DGifCloseFile(gif, NULL);
        isc_set_message(message, message_size, "image is %ux%u pixels, over the limit of %llu pixels",
                        width, height, (unsigned long long)max_pixels);
        return ISC_ERR_TOO_LARGE;
    }
    if (width == 0 || height == 0) {
        DGifCloseFile(gif, NULL);
        isc_set_message(message, message_size, "logical screen is %ux%u pixels", width, height);
        return ISC_ERR_CORRUPT;
    }
    uint8_t *pixels = malloc((size_t)width * height);
    if (pixels == NULL) {
        DGifCloseFile(gif, NULL);
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    memset(pixels, 255, (size_t)width * height);
    GifPixelType *line = NULL;
    int transparent = -1;
    for (;;) {
        GifRecordType record;
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) return fail(gif, &src, pixels, line, message, message_size);
        if (record == TERMINATE_RECORD_TYPE) {
            free(pixels);
            DGifCloseFile(gif, NULL);
            isc_set_message(message, message_size, "no image in the file");
            return ISC_ERR_CORRUPT;
        }
        if (record == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return fail(gif, &src, pixels, line, message, message_size);
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL) {
                GraphicsControlBlock gcb;
                if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK) transparent = gcb.TransparentColor;
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return fail(gif, &src, pixels, line, message, message_size);
            }
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) return fail(gif, &src, pixels, line, message, message_size);
        const GifImageDesc *desc = &gif->Image;
        const ColorMapObject *map = desc->ColorMap != NULL ? desc->ColorMap : gif->SColorMap;
        if (map == NULL || map->Colors == NULL || desc->Width <= 0 || desc->Height <= 0 || desc->Left < 0 || desc->Top < 0
            || desc->Width > 65535 || desc->Height > 65535) {
            free(pixels);
            DGifCloseFile(gif, NULL);
            isc_set_message(message, message_size, map == NULL ? "no colour map" : "bad frame geometry");
            return ISC_ERR_CORRUPT;
        }
        uint8_t lut[256];
        for (int i = 0; i < 256; i++) {
            if (i == transparent || i >= map->ColorCount) { lut[i] = 255; continue; }
            lut[i] = isc_luma(map->Colors[i].Red, map->Colors[i].Green, map->Colors[i].Blue);
        }
        line = malloc((size_t)desc->Width);
        if (line == NULL) { gif->Error = D_GIF_ERR_NOT_ENOUGH_MEM; return fail(gif, &src, pixels, line, message, message_size); }
        /* Interlaced frames come in four passes (GIF89a Appendix E). */
        static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
        const int passes = desc->Interlace ? 4 : 1;
        for (int pass = 0; pass < passes; pass++) {
            for (int y = desc->Interlace ? start[pass] : 0; y < desc->Height; y += desc->Interlace ? step[pass] : 1) {
                if (DGifGetLine(gif, line, desc->Width) == GIF_ERROR) return fail(gif, &src, pixels, line, message, message_size);
                uint32_t row = (uint32_t)desc->Top + (uint32_t)y;
                if (row >= height) continue;
                uint8_t *dst = pixels + (size_t)width * row;
                for (int x = 0; x < desc->Width; x++) {
                    uint32_t col = (uint32_t)desc->Left + (uint32_t)x;
                    if (col < width) dst[col] = lut[line[x]];
                }
            }
        }
        break;  /* the first frame only */
    }
    free(line);
    DGifCloseFile(gif, NULL);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return ISC_OK;
}

isc_status isc_gif_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                               isc_luma_image *out, char *message, size_t message_size) {
    return decode(isc_source_memory(data, size), max_pixels, out, message, message_size);
}

isc_status isc_gif_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size) {
    gif_source src;
    isc_status opened = isc_source_file(&src, fd, out, message, message_size);
    if (opened != ISC_OK) return opened;
    return decode(src, max_pixels, out, message, message_size);
}
