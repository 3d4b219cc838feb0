#include "ckernels.h"

#include <string.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>
#define ISC_HAVE_SSE2 1
#endif

/* One row of cells of one block, one pixel at a time (the right edge of the image, blocks
 * narrower than 16, machines without SSE2). */
static void cells_scalar(const uint8_t *top, const uint8_t *bottom, int x, int count, isc_block_sums *s) {
    int32_t sxx = 0, syy = 0, sxy = 0, sum_abs = 0, sum = 0;
    for (int i = x; i < x + count; i++) {
        int32_t here = top[i], right = top[i + 1], below = bottom[i], diagonal = bottom[i + 1];
        int32_t gx = (right + diagonal - here - below) / 2;
        int32_t gy = (below + diagonal - here - right) / 2;
        sxx += gx * gx; syy += gy * gy; sxy += gx * gy;
        sum_abs += (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
        sum += here;
    }
    s->sxx += sxx; s->syy += syy; s->sxy += sxy; s->sum_abs += sum_abs; s->n += count; s->luminance += sum;
}

#ifdef ISC_HAVE_SSE2
/* a / 2 truncated toward zero, as C and Swift divide, on 16-bit lanes. */
static inline __m128i half_toward_zero(__m128i a) {
    return _mm_srai_epi16(_mm_add_epi16(a, _mm_srli_epi16(a, 15)), 1);
}

static inline __m128i abs16(__m128i a) { return _mm_max_epi16(a, _mm_sub_epi16(_mm_setzero_si128(), a)); }

static inline int32_t horizontal_sum32(__m128i v) {
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(v);
}

/* A whole block 16 cells wide: 8 lanes of 16 bits at a time (|gx|, |gy| ≤ 255, so the squares
 * summed in pairs by pmaddwd fit 32 bits; 8 rows of |gx| + |gy| ≤ 510 fit 16). */
static void block16_sse2(const uint8_t *pixels, int width, int x, int y, int y_end, isc_block_sums *s) {
    const __m128i zero = _mm_setzero_si128();
    __m128i sxx = zero, syy = zero, sxy = zero, abs_sum = zero, luminance = zero;
    int counted = 0;
    for (; y < y_end; y += 2) {
        const uint8_t *top = pixels + (size_t)y * (size_t)width + x, *bottom = top + width;
        __m128i t0 = _mm_loadu_si128((const __m128i *)top), t1 = _mm_loadu_si128((const __m128i *)(top + 1));
        __m128i b0 = _mm_loadu_si128((const __m128i *)bottom), b1 = _mm_loadu_si128((const __m128i *)(bottom + 1));
        for (int half = 0; half < 2; half++) {
            __m128i here = half ? _mm_unpackhi_epi8(t0, zero) : _mm_unpacklo_epi8(t0, zero);
            __m128i right = half ? _mm_unpackhi_epi8(t1, zero) : _mm_unpacklo_epi8(t1, zero);
            __m128i below = half ? _mm_unpackhi_epi8(b0, zero) : _mm_unpacklo_epi8(b0, zero);
            __m128i diagonal = half ? _mm_unpackhi_epi8(b1, zero) : _mm_unpacklo_epi8(b1, zero);
            __m128i gx = half_toward_zero(_mm_sub_epi16(_mm_add_epi16(right, diagonal), _mm_add_epi16(here, below)));
            __m128i gy = half_toward_zero(_mm_sub_epi16(_mm_add_epi16(below, diagonal), _mm_add_epi16(here, right)));
            sxx = _mm_add_epi32(sxx, _mm_madd_epi16(gx, gx));
            syy = _mm_add_epi32(syy, _mm_madd_epi16(gy, gy));
            sxy = _mm_add_epi32(sxy, _mm_madd_epi16(gx, gy));
            abs_sum = _mm_add_epi16(abs_sum, _mm_add_epi16(abs16(gx), abs16(gy)));
            luminance = _mm_add_epi16(luminance, here);
        }
        counted += 16;
    }
    const __m128i ones = _mm_set1_epi16(1);
    s->sxx += horizontal_sum32(sxx); s->syy += horizontal_sum32(syy); s->sxy += horizontal_sum32(sxy);
    s->sum_abs += horizontal_sum32(_mm_madd_epi16(abs_sum, ones));
    s->luminance += horizontal_sum32(_mm_madd_epi16(luminance, ones));
    s->n += counted;
}
#endif

void isc_block_gradient_sums(const uint8_t *pixels, int width, int height, int x0, int y0, int columns,
                             int rows, int block, isc_block_sums *out) {
    memset(out, 0, sizeof(*out) * (size_t)columns * (size_t)rows);
    for (int by = 0; by < rows; by++) {
        int top_row = y0 + by * block;
        /* The block's even rows whose cells stay in the image (row y + 1 exists). */
        int y_end = top_row + block;
        if (y_end > height - 1) y_end = height - 1;
        for (int bx = 0; bx < columns; bx++) {
            isc_block_sums *s = &out[by * columns + bx];
            int x = x0 + bx * block;
            int count = width - 1 - x < block ? width - 1 - x : block;
            if (count <= 0) continue;
#ifdef ISC_HAVE_SSE2
            if (count == 16) {
                if (top_row < y_end) block16_sse2(pixels, width, x, top_row, y_end, s);
                continue;
            }
#endif
            for (int y = top_row; y < y_end; y += 2) {
                const uint8_t *top = pixels + (size_t)y * (size_t)width;
                cells_scalar(top, top + width, x, count, s);
            }
        }
    }
}

