#include "pixpipe_png_unfilter.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

// Every loop reads a row's filtered bytes from `source` and writes the unfiltered ones to `target`, which
// lies `y + 1` bytes before it in the same buffer: each byte is read before the write that may cover it.
// `above` is the previous unfiltered row (a row of zeros for the first), never overwritten by this row.

static void pxp_unfilter_sub(const uint8_t *source, uint8_t *target, size_t length, size_t bpp) {
    for (size_t i = 0; i < bpp && i < length; i++) target[i] = source[i];
    for (size_t i = bpp; i < length; i++) target[i] = (uint8_t)(source[i] + target[i - bpp]);
}

static void pxp_unfilter_up(const uint8_t *source, uint8_t *target, const uint8_t *above, size_t length) {
    size_t i = 0;
#if defined(__x86_64__)
    // Whole 16-byte loads before the store: the store may cover source bytes of this same block only.
    for (; i + 16 <= length; i += 16) {
        const __m128i s = _mm_loadu_si128((const __m128i *)(source + i));
        const __m128i a = _mm_loadu_si128((const __m128i *)(above + i));
        _mm_storeu_si128((__m128i *)(target + i), _mm_add_epi8(s, a));
    }
#endif
    for (; i < length; i++) target[i] = (uint8_t)(source[i] + above[i]);
}

static void pxp_unfilter_average(
    const uint8_t *source, uint8_t *target, const uint8_t *above, size_t length, size_t bpp) {
    for (size_t i = 0; i < bpp && i < length; i++) target[i] = (uint8_t)(source[i] + (above[i] >> 1));
    for (size_t i = bpp; i < length; i++)
        target[i] = (uint8_t)(source[i] + (((unsigned)target[i - bpp] + above[i]) >> 1));
}

static inline uint8_t pxp_paeth(int a, int b, int c) {
    const int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

static void pxp_unfilter_paeth_scalar(
    const uint8_t *source, uint8_t *target, const uint8_t *above, size_t length, size_t bpp) {
    for (size_t i = 0; i < bpp && i < length; i++) target[i] = (uint8_t)(source[i] + above[i]);
    for (size_t i = bpp; i < length; i++)
        target[i] = (uint8_t)(source[i] + pxp_paeth(target[i - bpp], above[i], above[i - bpp]));
}

#if defined(__x86_64__)
// One pixel of `bpp` (3 or 4) bytes through a 32-bit lane; memcpy keeps a 3-byte pixel from touching
// the byte after it (past the end of the buffer on the last row).
__attribute__((always_inline)) static inline __m128i pxp_load_pixel(const uint8_t *p, size_t bpp) {
    uint32_t v = 0;
    memcpy(&v, p, bpp);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)v), _mm_setzero_si128());
}

__attribute__((always_inline)) static inline void pxp_store_pixel(uint8_t *p, __m128i v, size_t bpp) {
    const uint32_t packed = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(v, v));
    memcpy(p, &packed, bpp);
}

static inline __m128i pxp_abs16(__m128i v) {
    const __m128i negative = _mm_srai_epi16(v, 15);
    return _mm_sub_epi16(_mm_xor_si128(v, negative), negative);
}

// Paeth on 16-bit lanes, the predictor chosen per lane with masks as in the scalar form (a on ties with
// b or c, then b on a tie with c). Inlined into one copy per pixel size, so each pixel's loads and stores
// are plain moves rather than calls.
__attribute__((always_inline)) static inline void pxp_unfilter_paeth_sse2(
    const uint8_t *source, uint8_t *target, const uint8_t *above, size_t length, size_t bpp) {
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    const __m128i mask = _mm_set1_epi16(0xFF);
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        const __m128i b = pxp_load_pixel(above + i, bpp);
        const __m128i x = pxp_load_pixel(source + i, bpp);
        // p = a + b - c; pa = |p - a| = |b - c|, pb = |p - b| = |a - c|, pc = |p - c| = |(b - c) + (a - c)|.
        const __m128i b_minus_c = _mm_sub_epi16(b, c), a_minus_c = _mm_sub_epi16(a, c);
        const __m128i pa = pxp_abs16(b_minus_c);
        const __m128i pb = pxp_abs16(a_minus_c);
        const __m128i pc = pxp_abs16(_mm_add_epi16(b_minus_c, a_minus_c));
        // pa <= pb && pa <= pc  ->  a; else pb <= pc -> b; else c. The masks say where a is NOT chosen,
        // and where c is.
        const __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
        const __m128i use_c = _mm_cmpgt_epi16(pb, pc);
        const __m128i b_or_c = _mm_or_si128(_mm_andnot_si128(use_c, b), _mm_and_si128(use_c, c));
        const __m128i predictor = _mm_or_si128(_mm_andnot_si128(not_a, a), _mm_and_si128(not_a, b_or_c));
        const __m128i value = _mm_and_si128(_mm_add_epi16(x, predictor), mask);
        pxp_store_pixel(target + i, value, bpp);
        a = value;
        c = b;
    }
}
#endif

size_t pxp_png_unfilter(uint8_t *buffer, size_t height, size_t row_bytes, size_t bytes_per_pixel) {
    if (height == 0) return 0;
    uint8_t *zeros = calloc(row_bytes > 0 ? row_bytes : 1, 1);
    if (zeros == NULL) return 0;
    const size_t bpp = bytes_per_pixel;
    size_t y = 0;
    for (; y < height; y++) {
        const uint8_t *source = buffer + y * (row_bytes + 1);
        const uint8_t filter = source[0];
        source += 1;
        uint8_t *target = buffer + y * row_bytes;
        const uint8_t *above = y == 0 ? zeros : target - row_bytes;
        switch (filter) {
        case 0: memmove(target, source, row_bytes); break;
        case 1: pxp_unfilter_sub(source, target, row_bytes, bpp); break;
        case 2: pxp_unfilter_up(source, target, above, row_bytes); break;
        case 3: pxp_unfilter_average(source, target, above, row_bytes, bpp); break;
        case 4:
#if defined(__x86_64__)
            if (bpp == 3) {
                pxp_unfilter_paeth_sse2(source, target, above, row_bytes, 3);
                break;
            }
            if (bpp == 4) {
                pxp_unfilter_paeth_sse2(source, target, above, row_bytes, 4);
                break;
            }
#endif
            pxp_unfilter_paeth_scalar(source, target, above, row_bytes, bpp);
            break;
        default: free(zeros); return y;
        }
    }
    free(zeros);
    return y;
}

void pxp_png_swap16(uint8_t *samples, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const uint8_t high = samples[2 * i];
        samples[2 * i] = samples[2 * i + 1];
        samples[2 * i + 1] = high;
    }
}
