#ifndef CPIXPIPE_HTTP_H
#define CPIXPIPE_HTTP_H
// The HTTP layer's C: non-variadic wrappers for libcurl and constants for its macros that do not
// import. Every name is `pxp_`. Nothing here includes an image library's header, so PixpipeHTTP neither
// sees nor links libpng or libjpeg.
#include "pixpipe_curl.h"
#endif
