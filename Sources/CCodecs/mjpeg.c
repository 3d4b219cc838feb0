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

isc_status isc_mjpeg_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                 isc_luma_image *out, int *inserted_dht,
                                 char *message, size_t message_size) {
    *inserted_dht = 0;
    int has_dht = 0;
    size_t sos = find_sos(data, size, &has_dht);
    if (sos == 0 || has_dht)   /* malformed: let libjpeg say what is wrong */
        return isc_jpeg_decode_luma(data, size, max_pixels, 1, 0, out, message, message_size);
    pthread_once(&std_dht_once, build_std_dht);
    if (std_dht_size == 0) {
        memset(out, 0, sizeof *out);
        isc_set_message(message, message_size, "could not build the standard Huffman tables");
        return ISC_ERR_CORRUPT;
    }
    uint8_t *patched = malloc(size + std_dht_size);
    if (patched == NULL) {
        memset(out, 0, sizeof *out);
        isc_set_message(message, message_size, "out of memory");
        return ISC_ERR_NO_MEMORY;
    }
    memcpy(patched, data, sos);
    memcpy(patched + sos, std_dht, std_dht_size);
    memcpy(patched + sos + std_dht_size, data + sos, size - sos);
    *inserted_dht = 1;
    isc_status status = isc_jpeg_decode_luma(patched, size + std_dht_size, max_pixels, 1, 0, out,
                                             message, message_size);
    free(patched);
    return status;
}

size_t isc_mjpeg_standard_dht(const uint8_t **segment) {
    pthread_once(&std_dht_once, build_std_dht);
    *segment = std_dht;
    return std_dht_size;
}
