// SPDX-License-Identifier: Apache-2.0
/* WebP → luminance with libwebp (no longjmp: every call returns a status). */
#include "ccodecs.h"
#include "luma.h"
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include "source.h"

static const char *vp8_status_text(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "file ends before the image does";
    default: return "decoder failed";
    }
}

isc_status isc_webp_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    out->page_count = 1;
    WebPData whole = {data, size};
    WebPDemuxState state;
    WebPDemuxer *demux = WebPDemuxPartial(&whole, &state);
    if (demux == NULL || state != WEBP_DEMUX_DONE) {
        if (demux != NULL) WebPDemuxDelete(demux);
        int truncated = state == WEBP_DEMUX_PARSING_HEADER || state == WEBP_DEMUX_PARSED_HEADER;
        isc_set_message(message, message_size, truncated ? "file ends before the image does" : "bad RIFF/WebP container");
        return truncated ? ISC_ERR_TRUNCATED : ISC_ERR_CORRUPT;
    }
    WebPChunkIterator chunk;
    if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
        out->orientation = isc_exif_orientation(chunk.chunk.bytes, chunk.chunk.size);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPIterator frame;
    if (!WebPDemuxGetFrame(demux, 1, &frame)) {
        WebPDemuxDelete(demux);
        isc_set_message(message, message_size, "no image in the file");
        return ISC_ERR_CORRUPT;
    }
    const uint32_t width = (uint32_t)WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    const uint32_t height = (uint32_t)WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    out->source_width = width;
    out->source_height = height;
    if ((uint64_t)width * height > max_pixels) {
        WebPDemuxReleaseIterator(&frame);
        WebPDemuxDelete(demux);
        isc_set_message(message, message_size, "image is %ux%u pixels, over the limit of %llu pixels",
                        width, height, (unsigned long long)max_pixels);
        return ISC_ERR_TOO_LARGE;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        WebPDemuxReleaseIterator(&frame);
        WebPDemuxDelete(demux);
        isc_set_message(message, message_size, "libwebp version mismatch");
        return ISC_ERR_UNSUPPORTED;
    }
    config.output.colorspace = MODE_YUVA;
    VP8StatusCode code = WebPDecode(frame.fragment.bytes, frame.fragment.size, &config);
    const int x_offset = frame.x_offset, y_offset = frame.y_offset;
    WebPDemuxReleaseIterator(&frame);
    WebPDemuxDelete(demux);
    if (code != VP8_STATUS_OK) {
        WebPFreeDecBuffer(&config.output);
        isc_set_message(message, message_size, "%s", vp8_status_text(code));
        return code == VP8_STATUS_NOT_ENOUGH_DATA ? ISC_ERR_TRUNCATED
             : code == VP8_STATUS_OUT_OF_MEMORY ? ISC_ERR_NO_MEMORY
             : code == VP8_STATUS_UNSUPPORTED_FEATURE ? ISC_ERR_UNSUPPORTED : ISC_ERR_CORRUPT;
    }
    /* The canvas is white; the first frame sits at its offset (clipped to the canvas). */
    uint8_t *pixels = malloc((size_t)width * height);
    if (pixels == NULL) {
        WebPFreeDecBuffer(&config.output);
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    memset(pixels, 255, (size_t)width * height);
    const WebPYUVABuffer *yuva = &config.output.u.YUVA;
    const int fw = config.output.width, fh = config.output.height;
    for (int y = 0; y < fh && y + y_offset < (int)height; y++) {
        const uint8_t *luma = yuva->y + (size_t)yuva->y_stride * y;
        const uint8_t *alpha = yuva->a != NULL ? yuva->a + (size_t)yuva->a_stride * y : NULL;
        uint8_t *dst = pixels + (size_t)width * (y + y_offset) + x_offset;
        for (int x = 0; x < fw && x + x_offset < (int)width; x++) {
            /* WebP's Y is limited range (16…235, ITU-R BT.601): stretch to 0…255. */
            int v = ((int)luma[x] - 16) * 255 / 219;
            unsigned full = v < 0 ? 0 : v > 255 ? 255 : (unsigned)v;
            dst[x] = alpha != NULL ? isc_over_white(full, alpha[x]) : (uint8_t)full;
        }
    }
    WebPFreeDecBuffer(&config.output);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return ISC_OK;
}

isc_status isc_webp_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    isc_source src;
    isc_status opened = isc_source_file(&src, fd, out, message, message_size);
    if (opened != ISC_OK) return opened;
    /* The RIFF header declares the file's length; the image's header gives the canvas size. */
    uint8_t head[4096];
    size_t got = isc_source_read(&src, head, sizeof head);
    if (src.error != 0) {
        isc_set_message(message, message_size, "read: %s", strerror(src.error));
        return ISC_ERR_TRUNCATED;
    }
    uint64_t length = got;
    if (got >= 12) {
        length = ((uint64_t)head[4] | (uint64_t)head[5] << 8 | (uint64_t)head[6] << 16 | (uint64_t)head[7] << 24) + 8;
        int width = 0, height = 0;
        if (WebPGetInfo(head, got, &width, &height)) {
            if ((uint64_t)width * (uint64_t)height > max_pixels) {
                out->source_width = (uint32_t)width;
                out->source_height = (uint32_t)height;
                isc_set_message(message, message_size, "image is %dx%d pixels, over the limit of %llu pixels",
                                width, height, (unsigned long long)max_pixels);
                return ISC_ERR_TOO_LARGE;
            }
            /* A RIFF length that claims more than any image of this size needs (4 bytes a pixel
             * and 16 MiB of metadata) is not believed: the data past that is not read. */
            uint64_t most = (uint64_t)width * (uint64_t)height * 4 + ((uint64_t)16 << 20);
            if (length > most) length = most;
        }
    }
    if (length > src.size) length = src.size;
    if (length <= got) return isc_webp_decode_luma(head, (size_t)length, max_pixels, out, message, message_size);
    uint8_t *data = malloc((size_t)length);
    if (data == NULL) {
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    memcpy(data, head, got);
    size_t rest = isc_source_read(&src, data + got, (size_t)length - got);
    isc_status status = isc_webp_decode_luma(data, got + rest, max_pixels, out, message, message_size);
    free(data);
    return status;
}
