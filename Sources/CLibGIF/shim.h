#ifndef CLIBGIF_SHIM_H
#define CLIBGIF_SHIM_H
// giflib ships no pkg-config file on Debian: the module map links `gif` by name and this header is found on
// the default include path.
#include <gif_lib.h>
#endif
