// SPDX-License-Identifier: Apache-2.0
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


/* One line of `count` bilinear samples added to `sum` (floats). */
static void add_line(const uint8_t *pixels, int width, int height, float ox, float oy, float dx, float dy, float half,
                     int count, float *sum) {
    int i = 0;
    if (width < 2 || height < 2) {  /* no 2×2 neighbourhood anywhere (and no pixel 0's to read) */
        for (; i < count; i++) sum[i] += 128;
        return;
    }
#ifdef ISC_HAVE_SSE2
    const __m128 vdx = _mm_set1_ps(dx), vdy = _mm_set1_ps(dy), vox = _mm_set1_ps(ox), voy = _mm_set1_ps(oy);
    const __m128 zero = _mm_setzero_ps(), gray = _mm_set1_ps(128);
    const __m128 xmax = _mm_set1_ps((float)(width - 1)), ymax = _mm_set1_ps((float)(height - 1));
    for (; i + 4 <= count; i += 4) {
        __m128 t = _mm_sub_ps(_mm_setr_ps((float)i, (float)(i + 1), (float)(i + 2), (float)(i + 3)), _mm_set1_ps(half));
        __m128 x = _mm_add_ps(vox, _mm_mul_ps(t, vdx)), y = _mm_add_ps(voy, _mm_mul_ps(t, vdy));
        /* Inside: 0 <= x, y and x0 + 1 < width, y0 + 1 < height, i.e. x < width - 1 after flooring. */
        __m128 inside = _mm_and_ps(_mm_and_ps(_mm_cmpge_ps(x, zero), _mm_cmpge_ps(y, zero)),
                                   _mm_and_ps(_mm_cmplt_ps(x, xmax), _mm_cmplt_ps(y, ymax)));
        x = _mm_and_ps(x, inside); y = _mm_and_ps(y, inside);  /* outside lanes read pixel 0 */
        __m128i x0 = _mm_cvttps_epi32(x), y0 = _mm_cvttps_epi32(y);
        __m128 fx = _mm_sub_ps(x, _mm_cvtepi32_ps(x0)), fy = _mm_sub_ps(y, _mm_cvtepi32_ps(y0));
        int32_t xs[4], ys[4];
        _mm_storeu_si128((__m128i *)xs, x0);
        _mm_storeu_si128((__m128i *)ys, y0);
        float a[4], b[4], c[4], d[4];
        for (int k = 0; k < 4; k++) {
            const uint8_t *p = pixels + (size_t)ys[k] * (size_t)width + (size_t)xs[k];
            a[k] = p[0]; b[k] = p[1]; c[k] = p[width]; d[k] = p[width + 1];
        }
        __m128 top = _mm_add_ps(_mm_loadu_ps(a), _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(b), _mm_loadu_ps(a)), fx));
        __m128 bottom = _mm_add_ps(_mm_loadu_ps(c), _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(d), _mm_loadu_ps(c)), fx));
        __m128 v = _mm_add_ps(top, _mm_mul_ps(_mm_sub_ps(bottom, top), fy));
        v = _mm_or_ps(_mm_and_ps(inside, v), _mm_andnot_ps(inside, gray));
        _mm_storeu_ps(sum + i, _mm_add_ps(_mm_loadu_ps(sum + i), v));
    }
#endif
    for (; i < count; i++) {
        float t = (float)i - half, x = ox + t * dx, y = oy + t * dy;
        float v = 128;
        if (x >= 0 && y >= 0 && x < (float)(width - 1) && y < (float)(height - 1)) {
            int x0 = (int)x, y0 = (int)y;
            float fx = x - (float)x0, fy = y - (float)y0;
            const uint8_t *p = pixels + (size_t)y0 * (size_t)width + (size_t)x0;
            float top = p[0] + (p[1] - (float)p[0]) * fx, bottom = p[width] + (p[width + 1] - (float)p[width]) * fx;
            v = top + (bottom - top) * fy;
        }
        sum[i] += v;
    }
}

void isc_bar_profile(const uint8_t *pixels, int width, int height, double cx, double cy, double dx, double dy,
                     double half, int count, double offset, int window, double *scratch, double *out) {
    /* The float sums live in `out`'s storage (count doubles hold 2·count floats). */
    float *sum = (float *)out;
    for (int k = 0; k < count; k++) sum[k] = 0;
    for (int d = -2; d <= 2; d++) {
        double o = offset + (double)d;
        add_line(pixels, width, height, (float)(cx - dy * o), (float)(cy + dx * o), (float)dx, (float)dy, (float)half,
                 count, sum);
    }
    scratch[0] = 0;
    for (int k = 0; k < count; k++) scratch[k + 1] = scratch[k] + (double)sum[k];
    /* The sums are read from `scratch` from here on: `out` may be overwritten. */
    for (int k = 0; k < count; k++) {
        int lo = k - window > 0 ? k - window : 0, hi = k + window + 1 < count ? k + window + 1 : count;
        double s = scratch[k + 1] - scratch[k];
        out[k] = s - (scratch[hi] - scratch[lo]) / (double)(hi - lo);
    }
}
