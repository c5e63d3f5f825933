#ifndef PIXPIPE_PNG_UNFILTER_H
#define PIXPIPE_PNG_UNFILTER_H
// PNG's row filters undone over a whole inflated image at once, for the decoder's fast path (PNGFastPath in
// Swift): the Paeth filter, the costly one, uses SSE2 for 3- and 4-byte pixels. No library is involved.

#include <stddef.h>
#include <stdint.h>

/// Undoes the filters of `height` rows in place. On entry `buffer` holds the inflated image data: each
/// row a filter-type byte then `row_bytes` filtered bytes. On return row `y`'s unfiltered bytes start at
/// `y * row_bytes` (the filter bytes are squeezed out), so the first `height * row_bytes` bytes are the
/// image. `bytes_per_pixel` is PNG's filter unit (1 to 8). Returns the number of rows done: less than
/// `height` when a row's filter type is not 0 to 4 (the rows from it on are then left undefined).
size_t pxp_png_unfilter(uint8_t *buffer, size_t height, size_t row_bytes, size_t bytes_per_pixel);

/// Swaps each byte pair of `count` 16-bit samples in place (PNG's big-endian samples to little-endian).
void pxp_png_swap16(uint8_t *samples, size_t count);

#endif
