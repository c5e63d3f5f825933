#ifndef CPIXPIPE_IMAGE_H
#define CPIXPIPE_IMAGE_H
// The image layer's C: what Swift cannot do with libpng, libjpeg and Little CMS (setjmp/longjmp error recovery,
// message capture) behind opaque handles, and the resampler's vertical pass built for AVX2 (chosen at
// run time). Every name is `pxp_`. Nothing here includes an HTTP header,
// so PixpipeImage neither sees nor links libcurl. Each library has its own header; this umbrella
// includes them.
#include "pixpipe_png.h"
#include "pixpipe_png_unfilter.h"
#include "pixpipe_jpeg.h"
#include "pixpipe_lcms.h"
#include "pixpipe_resample.h"
#endif
