#ifndef PIXPIPE_SHIM_H
#define PIXPIPE_SHIM_H
// The package's C shim: what Swift cannot do with libpng and libjpeg (setjmp/longjmp error
// recovery, message capture), non-variadic wrappers for libcurl, and constants for macros that do
// not import, and the file-system and thread calls Swift's Glibc module hides. Every name is `pxp_`. Each library has its own header; this umbrella includes them.
#include "pixpipe_png.h"
#include "pixpipe_jpeg.h"
#include "pixpipe_curl.h"
#include "pixpipe_files.h"
#include "pixpipe_threads.h"
#endif
