// SPDX-License-Identifier: Apache-2.0
/* The rows of a Motion-JPEG frame above the camera's band, walked without libjpeg.
 *
 * A JPEG without restart markers cannot be entered in the middle: every Huffman code above the
 * band has to be read to know where the band's bits start and what its DC predictions are.
 * libjpeg-turbo's jpeg_skip_scanlines reads them with its full decoder: 1.35 ms of CPU for the
 * 27 iMCU rows above the band of a realistic 1920x1080 frame, of 2.1 ms for the whole band
 * decode. Skipping needs less: one table look-up gives up to four AC codes at once, with their
 * magnitude bits and how far they move in the block; only the DC differences are summed. That
 * walk (0.7 ms there, about twice as fast) ends at the band's iMCU row; then libjpeg decodes a
 * JPEG made of the frame's own headers (a smaller height), one made-up iMCU row whose DC
 * differences set the predictions to the frame's, and the frame's bits from there on, read in
 * place. The band's blocks get the same coefficients as in a whole decode of the frame, so the
 * same pixels (the Y component is at full resolution, so no upsampling reaches across rows, and
 * the output is Y only).
 *
 * Anything else declines (returns 0), and libjpeg skips the rows as before. */
#include "mjpeg_cut.h"
#include <stdlib.h>
#include <string.h>

/* Code bits looked up at once: codes up to this long (nearly all of them) take one look-up. */
#ifndef LOOKAHEAD
#define LOOKAHEAD 11
#endif

/* AC look-ups give up to MULTI codes at once (see huff_table.multi). */
#ifndef MULTI
#define MULTI 4
#endif
#define MULTI_N(e) ((e) & 31)              /* bits of the codes and their magnitudes */
#define MULTI_K(e) (((e) >> 5) & 127)      /* positions they move: run + 1, 16 (ZRL), 64 (end of block) */
#define MULTI_KP(e) ((e) >> 12)            /* positions all but the last move */

typedef struct {
    /* By the next LOOKAHEAD bits, for codes no longer: DC tables: length | size << 8; AC tables:
     * length + size | (positions moved: run + 1, 16 for ZRL, 64 for EOB) << 8; 0: a longer code. */
    uint16_t fast[1 << LOOKAHEAD];
    /* AC tables: the codes that start in the LOOKAHEAD bits, as many as lie there whole (the
     * last one's magnitude bits may lie beyond), up to MULTI and the first end of block; see
     * MULTI_*. They can all be taken when the ones before the last leave the block unfilled. */
    uint32_t multi[1 << LOOKAHEAD];
    /* Canonical decoding of the longer codes, as libjpeg's jpeg_make_d_derived_tbl. */
    int32_t maxcode[17];
    int32_t valoffset[17];
    uint8_t huffval[256];
    /* For writing the made-up row: each symbol's code and its length (0: the table has none). */
    uint16_t code[256];
    uint8_t length[256];
    uint8_t defined;
} huff_table;

typedef struct {
    uint32_t width, height;
    struct { uint8_t id, h, v; uint8_t dc, ac; } comp[3];
    uint32_t mcus_per_row, imcu_height;
    int blocks;
    uint8_t block_comp[10];
    size_t sof_at;      /* the SOF marker */
    size_t sos_at;      /* the SOS marker */
    size_t data_at;     /* the first entropy-coded byte */
    int has_dht;
    huff_table dc[4], ac[4];
} frame_layout;

static int build_table(huff_table *t, const uint8_t counts[16], const uint8_t *values, int is_dc) {
    uint8_t size[257];
    uint32_t code[257];
    int total = 0;
    for (int l = 1; l <= 16; l++) {
        if (total + counts[l - 1] > 256) return 0;
        for (int i = 0; i < counts[l - 1]; i++) size[total++] = (uint8_t)l;
    }
    size[total] = 0;
    uint32_t c = 0;
    int si = size[0];
    for (int p = 0; size[p];) {
        while (size[p] == si) code[p++] = c++;
        if (c >= (1u << si)) return 0;   /* more codes of a length than there are: libjpeg refuses it */
        c <<= 1;
        si++;
    }
    for (int l = 1, p = 0; l <= 16; l++) {
        if (counts[l - 1]) {
            t->valoffset[l] = p - (int32_t)code[p];
            p += counts[l - 1];
            t->maxcode[l] = (int32_t)code[p - 1];
        } else {
            t->maxcode[l] = -1;
        }
    }
    memset(t->fast, 0, sizeof t->fast);
    uint8_t code_length[1 << LOOKAHEAD];
    memset(code_length, 0, sizeof code_length);
    memset(t->length, 0, sizeof t->length);
    memset(t->huffval, 0, sizeof t->huffval);
    memcpy(t->huffval, values, (size_t)total);
    for (int p = 0; p < total; p++) {
        int l = size[p], symbol = values[p];
        if (is_dc && symbol > 15) return 0;   /* libjpeg refuses such a DC table */
        if (t->length[symbol] == 0) {
            t->code[symbol] = (uint16_t)code[p];
            t->length[symbol] = (uint8_t)l;
        }
        if (l > LOOKAHEAD) continue;
        uint16_t entry;
        if (is_dc) {
            entry = (uint16_t)(l | symbol << 8);
        } else {
            int run = symbol >> 4, s = symbol & 15;
            int moved = s ? run + 1 : (run == 15 ? 16 : 64);
            entry = (uint16_t)((l + s) | moved << 8);
        }
        uint32_t first = code[p] << (LOOKAHEAD - l), n = 1u << (LOOKAHEAD - l);
        for (uint32_t i = 0; i < n; i++) {
            t->fast[first + i] = entry;
            code_length[first + i] = (uint8_t)l;
        }
    }
    if (!is_dc) {
        const uint32_t mask = (1u << LOOKAHEAD) - 1;
        for (uint32_t i = 0; i <= mask; i++) {
            uint32_t bits = 0, moved = 0, before_last = 0, entry = 0;
            for (int count = 0; count < MULTI && bits < LOOKAHEAD; count++) {
                uint32_t j = (i << bits) & mask, e = t->fast[j];
                /* the code must lie in the bits looked up, not in the zeros shifted in */
                if (e == 0 || bits + code_length[j] > LOOKAHEAD) break;
                before_last = moved;
                moved += e >> 8;
                bits += e & 0xFF;
                entry = bits | moved << 5 | before_last << 12;
                if ((e >> 8) >= 64) break;   /* end of block: what follows is the next block's */
            }
            t->multi[i] = entry;
        }
    }
    t->defined = 1;
    return 1;
}

/* One DHT segment's body (after the length). */
static int read_dht(frame_layout *f, const uint8_t *p, size_t n) {
    while (n > 0) {
        if (n < 17) return 0;
        int index = p[0];
        int count = 0;
        for (int i = 1; i <= 16; i++) count += p[i];
        if ((index & 0x0F) > 3 || (index >> 4) > 1 || count > 256 || 17 + (size_t)count > n) return 0;
        huff_table *t = (index >> 4) ? &f->ac[index & 3] : &f->dc[index & 3];
        if (!build_table(t, p + 1, p + 17, !(index >> 4))) return 0;
        p += 17 + count;
        n -= 17 + (size_t)count;
    }
    return 1;
}

/* The markers up to SOS: the frame's layout and tables, or 0 for a frame of another kind. */
static int read_layout(const uint8_t *data, size_t size, uint64_t max_pixels, frame_layout *f) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return 0;
    int have_sof = 0;
    size_t at = 2;
    while (at + 4 <= size) {
        if (data[at] != 0xFF) return 0;
        uint8_t marker = data[at + 1];
        if (marker == 0xFF) { at++; continue; }
        size_t length = (size_t)data[at + 2] << 8 | data[at + 3];
        if (length < 2 || at + 2 + length > size) return 0;
        const uint8_t *body = data + at + 4;
        size_t n = length - 2;
        if (marker == 0xC0 || marker == 0xC1) {
            if (have_sof || n < 6 || body[0] != 8) return 0;
            f->height = (uint32_t)body[1] << 8 | body[2];
            f->width = (uint32_t)body[3] << 8 | body[4];
            if (body[5] != 3 || n < 6 + 9 || f->width == 0 || f->height == 0) return 0;
            if ((uint64_t)f->width * f->height > max_pixels) return 0;
            for (int i = 0; i < 3; i++) {
                const uint8_t *c = body + 6 + 3 * i;
                f->comp[i].id = c[0];
                f->comp[i].h = c[1] >> 4;
                f->comp[i].v = c[1] & 15;
                if (f->comp[i].h < 1 || f->comp[i].h > 4 || f->comp[i].v < 1 || f->comp[i].v > 4) return 0;
            }
            f->sof_at = at;
            have_sof = 1;
        } else if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4) {
            return 0;   /* progressive, lossless, hierarchical, arithmetic coding */
        } else if (marker == 0xC4) {
            if (!read_dht(f, body, n)) return 0;
            f->has_dht = 1;
        } else if (marker == 0xDD) {
            if (n < 2 || (body[0] | body[1]) != 0) return 0;   /* restart markers: not walked here */
        } else if (marker == 0xDA) {
            if (!have_sof || n < 1 || body[0] != 3 || n < 1 + 6 + 3) return 0;
            const uint8_t *s = body + 1;
            if (s[6] != 0 || s[7] != 63 || s[8] != 0) return 0;   /* Ss, Se, Ah/Al of a sequential scan */
            /* The scan's components in the frame's order, each once. */
            for (int i = 0; i < 3; i++) {
                if (s[2 * i] != f->comp[i].id) return 0;
                f->comp[i].dc = s[2 * i + 1] >> 4;
                f->comp[i].ac = s[2 * i + 1] & 15;
                if (f->comp[i].dc > 3 || f->comp[i].ac > 3) return 0;
            }
            if (f->comp[0].id == f->comp[1].id || f->comp[0].id == f->comp[2].id || f->comp[1].id == f->comp[2].id) return 0;
            f->sos_at = at;
            f->data_at = at + 2 + length;
            return 1;
        } else if ((marker >= 0xD0 && marker <= 0xD9) || marker == 0x01 || marker == 0xDC) {
            return 0;   /* RSTn, SOI, EOI, TEM, DNL before the scan */
        }
        at += 2 + length;
    }
    return 0;
}

/* Zero bytes after the unstuffed ones: one block's codes (at most 64 × 31 bits) and a peek. */
#define PADDING 512

/* The entropy-coded bytes without their stuffing (FF 00 → FF), made as far as the walk needs
 * them; `stuffed` holds the unstuffed index of every FF that had a 00 after it, to find the
 * frame's byte for a bit position. PADDING zero bytes always follow `length`. */
typedef struct {
    const uint8_t *src;
    size_t src_size, src_at;
    uint8_t *bytes;
    size_t length;
    size_t *stuffed;
    size_t stuffed_count, stuffed_capacity;
    int ended;   /* a marker or the end of the data came */
} unstuffed;

/* At least `want` more bytes, unless the data ends first. Returns 0 when malloc failed. */
static int unstuff_more(unstuffed *u, size_t want) {
    size_t goal = u->length + want;
    while (!u->ended && u->length < goal) {
        const uint8_t *from = u->src + u->src_at;
        size_t left = u->src_size - u->src_at;
        const uint8_t *ff = memchr(from, 0xFF, left);
        size_t run = ff ? (size_t)(ff - from) : left;
        memcpy(u->bytes + u->length, from, run);
        u->length += run;
        u->src_at += run;
        if (ff == NULL || u->src_at + 1 >= u->src_size || from[run + 1] != 0x00) {
            u->ended = 1;
            break;
        }
        if (u->stuffed_count == u->stuffed_capacity) {
            size_t capacity = u->stuffed_capacity ? 2 * u->stuffed_capacity : 256;
            size_t *grown = realloc(u->stuffed, capacity * sizeof *grown);
            if (grown == NULL) return 0;
            u->stuffed = grown;
            u->stuffed_capacity = capacity;
        }
        u->stuffed[u->stuffed_count++] = u->length;
        u->bytes[u->length++] = 0xFF;
        u->src_at += 2;
    }
    memset(u->bytes + u->length, 0, PADDING);
    return 1;
}

/* 1 when the frame's entropy-coded bytes from `at` on hold no marker but a closing EOI (or
 * none: the data ends). libjpeg-turbo's handling of a marker inside a scan (zero bits from
 * there on) depends on how its source hands it the bytes: its fast and slow Huffman decoders,
 * chosen by the bytes left in the source's buffer, reach the marker at different MCUs. The cut
 * JPEG comes in two buffers, so such a frame is left to libjpeg whole. */
static int rest_is_clean(const uint8_t *data, size_t size, size_t at) {
    /* 16 bytes at a time (GCC/Clang vector extensions: SSE2, NEON): an FF before anything but 00. */
    typedef uint8_t bytes16 __attribute__((vector_size(16)));
    while (at + 17 <= size) {
        bytes16 a, b;
        memcpy(&a, data + at, 16);
        memcpy(&b, data + at + 1, 16);
        bytes16 marker = (bytes16)((a == 0xFF) & (b != 0));
        uint64_t half[2];
        memcpy(half, &marker, 16);
        if ((half[0] | half[1]) == 0) {
            at += 16;
            continue;
        }
        for (int i = 0;; i++) {
            if (marker[i]) return data[at + i + 1] == 0xD9;
        }
    }
    for (; at < size; at++) {
        if (data[at] != 0xFF) continue;
        if (at + 1 >= size) return 0;
        if (data[at + 1] != 0x00) return data[at + 1] == 0xD9;
        at++;
    }
    return 1;
}

static inline uint64_t peek(const uint8_t *bytes, size_t bit) {
    uint64_t w;
    memcpy(&w, bytes + (bit >> 3), 8);
    return __builtin_bswap64(w) << (bit & 7);
}

/* A code longer than LOOKAHEAD at the top of `w`: its symbol and length, or 0 if none. */
static int long_code(const huff_table *t, uint64_t w, int *symbol, int *length) {
    for (int l = LOOKAHEAD + 1; l <= 16; l++) {
        int32_t c = (int32_t)(w >> (64 - l));
        if (c <= t->maxcode[l]) {
            *symbol = t->huffval[(c + t->valoffset[l]) & 0xFF];
            *length = l;
            return 1;
        }
    }
    return 0;
}

/* One AC look-up (one or two codes) from the top of `w`; leaves the block when it is full. */
#define AC_STEP                                                                                   \
    {                                                                                             \
        uint32_t e_ = ac->multi[w >> (64 - LOOKAHEAD)];                                           \
        unsigned n_, moved_;                                                                      \
        if (e_ == 0) {                                                                            \
            int symbol_, length_;                                                                 \
            if (!long_code(ac, w, &symbol_, &length_)) return 0;                                  \
            int run_ = symbol_ >> 4, size_ = symbol_ & 15;                                        \
            n_ = (unsigned)(length_ + size_);                                                     \
            moved_ = (unsigned)(size_ ? run_ + 1 : (run_ == 15 ? 16 : 64));                       \
        } else if (k + (int)MULTI_KP(e_) < 64) {                                                  \
            n_ = MULTI_N(e_); /* all the codes: none but the last fills the block */              \
            moved_ = MULTI_K(e_);                                                                 \
        } else {                                                                                  \
            e_ = ac->fast[w >> (64 - LOOKAHEAD)]; /* the first code alone */                      \
            n_ = e_ & 0xFF;                                                                       \
            moved_ = e_ >> 8;                                                                     \
        }                                                                                         \
        w <<= n_;                                                                                 \
        at += n_;                                                                                 \
        k += (int)moved_;                                                                         \
        if (k >= 64) goto next_block;                                                             \
    }

/* The MCUs of one MCU row: bit position *bit on, DC predictions summed into pred, bytes
 * unstuffed as they are needed. 0 on a code no table has, when a block would start past the
 * frame's entropy-coded bytes (a block reads at most PADDING bytes past its start), or when
 * malloc failed. */
static int walk_row(const frame_layout *f, const huff_table *const dcs[10], const huff_table *const acs[10],
                    unstuffed *u, size_t *bit, int64_t pred[3]) {
    size_t at = *bit;
    const uint8_t *bytes = u->bytes;
    const size_t mcu_bytes = (size_t)f->blocks * PADDING;
    for (uint32_t m = 0; m < f->mcus_per_row; m++) {
        if (!u->ended && at / 8 + mcu_bytes > u->length && !unstuff_more(u, mcu_bytes + 16384)) return 0;
        const size_t limit = 8 * u->length;
        for (int b = 0; b < f->blocks; b++) {
            if (at > limit) return 0;
            const huff_table *dc = dcs[b], *ac = acs[b];
            uint64_t w = peek(bytes, at);
            uint32_t e = dc->fast[w >> (64 - LOOKAHEAD)];
            int l, s;
            if (e) {
                l = e & 0xFF;
                s = (int)(e >> 8);
            } else if (!long_code(dc, w, &s, &l)) {
                return 0;
            }
            if (s) {
                uint32_t v = (uint32_t)((w << l) >> (64 - s));
                pred[f->block_comp[b]] += v < (1u << (s - 1)) ? (int64_t)v - (int64_t)((1u << s) - 1) : (int64_t)v;
            }
            at += (size_t)(l + s);
            w <<= l + s;
            /* AC: two look-ups per peek. A peek gives at least 57 valid bits; a look-up needs 16
             * of them (a long code) and takes at most 31 (codes and their magnitude bits). The
             * DC code took at most 31 too: one look-up before the first peek. */
            int k = 1;
            AC_STEP
            for (;;) {
                w = peek(bytes, at);
                AC_STEP
                AC_STEP
            }
        next_block:;
        }
    }
    *bit = at;
    return 1;
}

/* Writes bits, stuffing a 00 after every FF byte. */
typedef struct {
    uint8_t *out;
    size_t n;
    uint64_t acc;
    int bits;
} bit_writer;

static void put_bits(bit_writer *w, uint32_t value, int count) {
    if (count == 0) return;
    w->acc = w->acc << count | (value & ((1u << count) - 1));
    w->bits += count;
    while (w->bits >= 8) {
        uint8_t byte = (uint8_t)(w->acc >> (w->bits - 8));
        w->out[w->n++] = byte;
        if (byte == 0xFF) w->out[w->n++] = 0x00;
        w->bits -= 8;
    }
}

static int bit_length(uint32_t v) { return v ? 32 - __builtin_clz(v) : 0; }

void isc_mjpeg_cut_free(isc_mjpeg_cut *cut) {
    free(cut->head);
    memset(cut, 0, sizeof *cut);
}

int isc_mjpeg_cut_above(const uint8_t *data, size_t size, uint32_t first_row, uint64_t max_pixels,
                        isc_mjpeg_cut *cut) {
    memset(cut, 0, sizeof *cut);
    frame_layout *f = calloc(1, sizeof *f);
    if (f == NULL) return 0;
    unstuffed u = { .src = data, .src_size = size };
    uint8_t *head = NULL;
    int ok = 0;
    if (!read_layout(data, size, max_pixels, f)) goto done;

    /* Missing tables: the standard ones, as libjpeg-turbo and isbnscan's whole decode use. */
    const uint8_t *std_dht = NULL;
    size_t std_dht_size = 0;
    if (!f->has_dht) {
        std_dht_size = isc_mjpeg_standard_dht(&std_dht);
        if (std_dht_size < 4 || !read_dht(f, std_dht + 4, std_dht_size - 4)) goto done;
    }

    /* Geometry: Y (the first component) at the largest sampling factors. */
    int hmax = 1, vmax = 1;
    for (int i = 0; i < 3; i++) {
        if (f->comp[i].h > hmax) hmax = f->comp[i].h;
        if (f->comp[i].v > vmax) vmax = f->comp[i].v;
    }
    if (f->comp[0].h != hmax || f->comp[0].v != vmax) goto done;
    const huff_table *dcs[10], *acs[10];
    for (int i = 0; i < 3; i++) {
        if (!f->dc[f->comp[i].dc].defined || !f->ac[f->comp[i].ac].defined) goto done;
        for (int j = 0; j < f->comp[i].h * f->comp[i].v; j++) {
            if (f->blocks == 10) goto done;   /* libjpeg's limit on blocks per MCU */
            f->block_comp[f->blocks] = (uint8_t)i;
            dcs[f->blocks] = &f->dc[f->comp[i].dc];
            acs[f->blocks] = &f->ac[f->comp[i].ac];
            f->blocks++;
        }
    }
    f->imcu_height = 8u * (uint32_t)vmax;
    f->mcus_per_row = (f->width + 8u * (uint32_t)hmax - 1) / (8u * (uint32_t)hmax);
    const uint32_t rows_cut = first_row / f->imcu_height;   /* iMCU rows walked */
    if (first_row >= f->height || rows_cut == 0) goto done;

    /* Walk: one MCU row at a time. */
    u.bytes = malloc(size + PADDING);
    if (u.bytes == NULL) goto done;
    u.src_at = f->data_at;
    int64_t pred[3] = { 0, 0, 0 };   /* no overflow: at most 2^26 blocks of 2^15 */
    size_t bit = 0;
    for (uint32_t row = 0; row < rows_cut; row++) {
        if (!walk_row(f, dcs, acs, &u, &bit, pred)) goto done;
        if (bit > 8 * u.length) goto done;   /* ran into a marker or the end: libjpeg's business */
    }
    if (u.ended && bit == 8 * u.length) goto done;   /* nothing left of the frame's bits */
    if (!rest_is_clean(data, size, u.src_at)) goto done;

    /* The frame's byte holding the bit, and how many of its bits are already walked. */
    size_t index = bit / 8, before = 0;
    for (size_t lo = 0, hi = u.stuffed_count; lo < hi;) {   /* stuffed FFs before that byte */
        size_t mid = (lo + hi) / 2;
        if (u.stuffed[mid] < index) { before = mid + 1; lo = mid + 1; } else { hi = mid; }
    }
    const size_t frame_at = f->data_at + index + before;
    const int split = (int)(bit & 7);

    /* The made-up iMCU row: DC differences that bring each component's prediction to the
     * frame's (the first block of each component; the others 0), AC all zero (EOB), and enough
     * extra AC coefficients in the first Y block that the row ends `split` bits into a byte. */
    const huff_table *yac = acs[0];
    int first_block_of[3] = { -1, -1, -1 };
    for (int b = 0; b < f->blocks; b++)
        if (first_block_of[f->block_comp[b]] < 0) first_block_of[f->block_comp[b]] = b;
    long row_bits = 0;
    for (int b = 0; b < f->blocks; b++) {
        const huff_table *dc = dcs[b], *ac = acs[b];
        if (ac->length[0x00] == 0 || dc->length[0] == 0) goto done;   /* no EOB, no "difference 0" */
        int c = f->block_comp[b];
        long block = (long)dc->length[0] + ac->length[0x00];
        if (first_block_of[c] == b) {
            int64_t p = pred[c];
            if (p > 32767 || p < -32767) goto done;   /* no DC coefficient is that large */
            int s = bit_length((uint32_t)(p < 0 ? -p : p));
            if (s > 15 || dc->length[s] == 0) goto done;
            row_bits += (long)dc->length[s] + s + ac->length[0x00];
            row_bits += block * (long)(f->mcus_per_row - 1);
        } else {
            row_bits += block * (long)f->mcus_per_row;
        }
    }
    /* Padding: the fewest coefficients (run 0, sizes 1-10) whose codes make up the missing bits mod 8. */
    int need = (int)(((split - row_bits) % 8 + 8) % 8);
    int pad[8], pads = 0;
    if (need) {
        int from[8], by[8];
        for (int i = 0; i < 8; i++) from[i] = -1;
        from[0] = 0;
        int queue[8], head_at = 0, tail_at = 0;
        queue[tail_at++] = 0;
        while (head_at < tail_at) {
            int r = queue[head_at++];
            for (int s = 1; s <= 10; s++) {
                if (yac->length[s] == 0) continue;
                int next = (r + yac->length[s] + s) % 8;
                if (next != 0 && from[next] < 0) { from[next] = r; by[next] = s; queue[tail_at++] = next; }
            }
        }
        if (from[need] < 0) goto done;
        for (int r = need; r != 0; r = from[r]) pad[pads++] = by[r];
    }

    /* Head: the frame's bytes up to SOS with the new height, the standard DHT when the frame
     * has none, its SOS, the made-up row, the byte where the bit streams meet. */
    const uint32_t kept_height = f->height - rows_cut * f->imcu_height;
    const uint32_t new_height = f->imcu_height + kept_height;
    if (new_height > 65535) goto done;
    const size_t row_capacity = (size_t)(2 * (row_bits + 8 * 31) / 8 + 16);   /* + padding, + the byte of the frame; stuffed */
    head = malloc(f->data_at + std_dht_size + row_capacity);
    if (head == NULL) goto done;
    size_t n = 0;
    memcpy(head, data, f->sos_at);
    head[f->sof_at + 5] = (uint8_t)(new_height >> 8);
    head[f->sof_at + 6] = (uint8_t)(new_height & 0xFF);
    n = f->sos_at;
    if (std_dht_size) { memcpy(head + n, std_dht, std_dht_size); n += std_dht_size; }
    memcpy(head + n, data + f->sos_at, f->data_at - f->sos_at);
    n += f->data_at - f->sos_at;
    bit_writer w = { .out = head + n };
    for (uint32_t m = 0; m < f->mcus_per_row; m++) {
        for (int b = 0; b < f->blocks; b++) {
            const huff_table *dc = dcs[b], *ac = acs[b];
            int c = f->block_comp[b];
            if (m == 0 && first_block_of[c] == b) {
                int32_t p = (int32_t)pred[c];
                int s = bit_length((uint32_t)(p < 0 ? -p : p));
                put_bits(&w, dc->code[s], dc->length[s]);
                put_bits(&w, (uint32_t)(p < 0 ? p - 1 : p), s);   /* negative: one's complement, as T.81 F.1.2.1 */
            } else {
                put_bits(&w, dc->code[0], dc->length[0]);
            }
            if (m == 0 && b == 0) {
                for (int i = 0; i < pads; i++) {
                    put_bits(&w, ac->code[pad[i]], ac->length[pad[i]]);
                    put_bits(&w, (1u << pad[i]) - 1, pad[i]);   /* any value of that size */
                }
            }
            put_bits(&w, ac->code[0x00], ac->length[0x00]);
        }
    }
    if (w.bits != split) goto done;   /* cannot happen: the padding is there for it */
    size_t tail_at = frame_at;
    if (split) {
        /* The rest of the frame's byte completes the made-up row's last byte (stuffed if FF). */
        put_bits(&w, data[frame_at], 8 - split);
        tail_at = frame_at + (data[frame_at] == 0xFF ? 2 : 1);   /* past the frame's stuffed 00 */
    }
    n += w.n;
    if (tail_at > size) goto done;

    cut->head = head;
    cut->head_size = n;
    cut->tail = data + tail_at;
    cut->tail_size = size - tail_at;
    cut->first_kept_row = rows_cut * f->imcu_height;
    cut->synthetic_rows = f->imcu_height;
    cut->frame_width = f->width;
    cut->frame_height = f->height;
    cut->inserted_dht = !f->has_dht;
    head = NULL;
    ok = 1;
done:
    free(head);
    free(u.bytes);
    free(u.stuffed);
    free(f);
    return ok;
}
