#ifndef CLIBTIFF_SHIM_H
#define CLIBTIFF_SHIM_H
#include <tiffio.h>
#endif
