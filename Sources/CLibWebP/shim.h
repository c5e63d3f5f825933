#ifndef CLIBWEBP_SHIM_H
#define CLIBWEBP_SHIM_H
// libwebp's decoder and encoder, its container reader (demux: frames, ICC, EXIF, animation decoding)
// and writer (mux: metadata chunks, animation encoding). Their ABI-versioned init functions are
// `static inline` in the headers, which Swift imports as they are.
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
#endif
