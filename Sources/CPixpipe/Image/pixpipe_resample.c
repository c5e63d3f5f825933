#include "pixpipe_resample.h"

// A product and a sum must stay two roundings, as in Swift, whatever flags the C is built with.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>

// 0 unknown, 1 no AVX2, 2 AVX2 usable (CPU and OS: the OS must save the YMM registers).
static atomic_int pxp_avx2_state;

static int pxp_has_avx2(void) {
    int state = atomic_load_explicit(&pxp_avx2_state, memory_order_relaxed);
    if (state != 0) return state == 2;
    unsigned int eax, ebx, ecx, edx;
    int usable = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_OSXSAVE) && (ecx & bit_AVX)) {
        unsigned int low, high;
        __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        if ((low & 6) == 6 && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & bit_AVX2)) usable = 1;
    }
    atomic_store_explicit(&pxp_avx2_state, usable ? 2 : 1, memory_order_relaxed);
    return usable;
}

__attribute__((target("avx2"))) static void pxp_add_rows_avx2(
    const float *a, float wa, const float *b, float wb, size_t length, float *d, int overwriting) {
    const __m256 va = _mm256_set1_ps(wa);
    const __m256 vb = _mm256_set1_ps(wb);
    size_t i = 0;
    if (b != NULL && overwriting) {
        for (; i + 8 <= length; i += 8) {
            __m256 sum = _mm256_add_ps(
                _mm256_mul_ps(va, _mm256_loadu_ps(a + i)), _mm256_mul_ps(vb, _mm256_loadu_ps(b + i)));
            _mm256_storeu_ps(d + i, sum);
        }
        for (; i < length; i++) d[i] = wa * a[i] + wb * b[i];
    } else if (b != NULL) {
        for (; i + 8 <= length; i += 8) {
            __m256 sum = _mm256_add_ps(
                _mm256_mul_ps(va, _mm256_loadu_ps(a + i)), _mm256_mul_ps(vb, _mm256_loadu_ps(b + i)));
            _mm256_storeu_ps(d + i, _mm256_add_ps(_mm256_loadu_ps(d + i), sum));
        }
        for (; i < length; i++) d[i] = d[i] + (wa * a[i] + wb * b[i]);
    } else if (overwriting) {
        for (; i + 8 <= length; i += 8) _mm256_storeu_ps(d + i, _mm256_mul_ps(va, _mm256_loadu_ps(a + i)));
        for (; i < length; i++) d[i] = wa * a[i];
    } else {
        for (; i + 8 <= length; i += 8) {
            _mm256_storeu_ps(d + i, _mm256_add_ps(_mm256_loadu_ps(d + i), _mm256_mul_ps(va, _mm256_loadu_ps(a + i))));
        }
        for (; i < length; i++) d[i] = d[i] + wa * a[i];
    }
}

// One lane block of `pxp_resample_sum_rows`: 8 floats at `offset`, the taps' pair sums added in order.
__attribute__((target("avx2"))) static inline __m256 pxp_sum_rows_block8(
    const float *const *rows, const float *weights, size_t count, size_t offset) {
    __m256 sum = _mm256_mul_ps(_mm256_broadcast_ss(weights), _mm256_loadu_ps(rows[0] + offset));
    if (count > 1) {
        sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_broadcast_ss(weights + 1), _mm256_loadu_ps(rows[1] + offset)));
    }
    for (size_t tap = 2; tap < count; tap += 2) {
        __m256 pair = _mm256_mul_ps(_mm256_broadcast_ss(weights + tap), _mm256_loadu_ps(rows[tap] + offset));
        if (tap + 1 < count) {
            pair = _mm256_add_ps(
                pair, _mm256_mul_ps(_mm256_broadcast_ss(weights + tap + 1), _mm256_loadu_ps(rows[tap + 1] + offset)));
        }
        sum = _mm256_add_ps(sum, pair);
    }
    return sum;
}

__attribute__((target("avx2"))) static void pxp_sum_rows_avx2(
    const float *const *rows, const float *weights, size_t count, size_t length, float *destination) {
    size_t i = 0;
    for (; i + 16 <= length; i += 16) {
        // Two blocks per pass share the broadcasts and the loop over taps.
        __m256 first = _mm256_mul_ps(_mm256_broadcast_ss(weights), _mm256_loadu_ps(rows[0] + i));
        __m256 second = _mm256_mul_ps(_mm256_broadcast_ss(weights), _mm256_loadu_ps(rows[0] + i + 8));
        if (count > 1) {
            __m256 weight = _mm256_broadcast_ss(weights + 1);
            first = _mm256_add_ps(first, _mm256_mul_ps(weight, _mm256_loadu_ps(rows[1] + i)));
            second = _mm256_add_ps(second, _mm256_mul_ps(weight, _mm256_loadu_ps(rows[1] + i + 8)));
        }
        for (size_t tap = 2; tap < count; tap += 2) {
            __m256 weight = _mm256_broadcast_ss(weights + tap);
            __m256 pairFirst = _mm256_mul_ps(weight, _mm256_loadu_ps(rows[tap] + i));
            __m256 pairSecond = _mm256_mul_ps(weight, _mm256_loadu_ps(rows[tap] + i + 8));
            if (tap + 1 < count) {
                __m256 next = _mm256_broadcast_ss(weights + tap + 1);
                pairFirst = _mm256_add_ps(pairFirst, _mm256_mul_ps(next, _mm256_loadu_ps(rows[tap + 1] + i)));
                pairSecond = _mm256_add_ps(pairSecond, _mm256_mul_ps(next, _mm256_loadu_ps(rows[tap + 1] + i + 8)));
            }
            first = _mm256_add_ps(first, pairFirst);
            second = _mm256_add_ps(second, pairSecond);
        }
        _mm256_storeu_ps(destination + i, first);
        _mm256_storeu_ps(destination + i + 8, second);
    }
    for (; i + 8 <= length; i += 8) _mm256_storeu_ps(destination + i, pxp_sum_rows_block8(rows, weights, count, i));
    for (; i < length; i++) {
        float sum = weights[0] * rows[0][i];
        if (count > 1) sum = sum + weights[1] * rows[1][i];
        for (size_t tap = 2; tap < count; tap += 2) {
            float pair = weights[tap] * rows[tap][i];
            if (tap + 1 < count) pair = pair + weights[tap + 1] * rows[tap + 1][i];
            sum = sum + pair;
        }
        destination[i] = sum;
    }
}

__attribute__((target("avx2"))) static void pxp_widen_u8_avx2(
    const uint8_t *source, size_t count, float scale, float *destination) {
    const __m256 vscale = _mm256_set1_ps(scale);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m128i bytes = _mm_loadl_epi64((const __m128i *)(const void *)(source + i));
        __m256 values = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
        _mm256_storeu_ps(destination + i, _mm256_mul_ps(values, vscale));
    }
    for (; i < count; i++) destination[i] = (float)source[i] * scale;
}
#endif

void pxp_resample_add_rows(
    const float *a, float wa, const float *b, float wb, size_t length, float *d, int overwriting) {
#if defined(__x86_64__)
    if (pxp_has_avx2()) {
        pxp_add_rows_avx2(a, wa, b, wb, length, d, overwriting);
        return;
    }
#endif
    if (b != NULL && overwriting) {
        for (size_t i = 0; i < length; i++) d[i] = wa * a[i] + wb * b[i];
    } else if (b != NULL) {
        for (size_t i = 0; i < length; i++) d[i] = d[i] + (wa * a[i] + wb * b[i]);
    } else if (overwriting) {
        for (size_t i = 0; i < length; i++) d[i] = wa * a[i];
    } else {
        for (size_t i = 0; i < length; i++) d[i] = d[i] + wa * a[i];
    }
}

int pxp_resample_sum_rows(
    const float *const *rows, const float *weights, size_t count, size_t length, float *destination) {
#if defined(__x86_64__)
    if (count > 0 && pxp_has_avx2()) {
        pxp_sum_rows_avx2(rows, weights, count, length, destination);
        return 1;
    }
#endif
    (void)rows;
    (void)weights;
    (void)count;
    (void)length;
    (void)destination;
    return 0;
}

void pxp_resample_widen_u8(const uint8_t *source, size_t count, float scale, float *destination) {
#if defined(__x86_64__)
    if (pxp_has_avx2()) {
        pxp_widen_u8_avx2(source, count, scale, destination);
        return;
    }
#endif
    for (size_t i = 0; i < count; i++) destination[i] = (float)source[i] * scale;
}
