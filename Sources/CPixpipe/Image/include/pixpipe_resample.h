#ifndef PIXPIPE_RESAMPLE_H
#define PIXPIPE_RESAMPLE_H
// The resampler's vertical pass and its byte-to-float conversion, with AVX2 when the CPU has it. Swift
// cannot compile one function for AVX2 and choose it at run time; these do, through CPUID, and fall back
// to plain loops elsewhere. The arithmetic is the Swift loops' exactly: the same products and sums in the
// same order, no fused multiply-add (the AVX2 code is built without FMA), so results are identical to the
// bit on every CPU.

#include <stddef.h>
#include <stdint.h>

/// `destination[i] = (overwriting ? 0 : destination[i]) + (weight_a * row_a[i] + weight_b * row_b[i])`
/// for `i < length` (the first term dropped when overwriting, the `row_b` term when `row_b` is NULL).
void pxp_resample_add_rows(
    const float *row_a, float weight_a, const float *row_b, float weight_b, size_t length, float *destination,
    int overwriting);

/// The whole vertical window of one output row at once: `destination[i]` = the sum over taps `t < count`
/// of `weights[t] * rows[t][i]`, summed exactly as successive `pxp_resample_add_rows` calls on pairs of
/// taps (0 and 1 overwriting, then 2 and 3 added, ..., the last alone when `count` is odd) would, but with
/// the running sum kept in registers across the taps instead of stored and reloaded after every pair.
/// Returns 0, having written nothing, when the CPU has no AVX2 (the caller then adds pairs).
int pxp_resample_sum_rows(
    const float *const *rows, const float *weights, size_t count, size_t length, float *destination);

/// `destination[i] = (float)source[i] * scale` for `i < count`.
void pxp_resample_widen_u8(const uint8_t *source, size_t count, float scale, float *destination);

#endif
