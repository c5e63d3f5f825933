#ifndef CPIXPIPE_SYSTEM_H
#define CPIXPIPE_SYSTEM_H
// The file-system and thread calls Swift's Glibc module hides (they need _GNU_SOURCE). No library
// beyond the C library, so any layer may use it. Every name is `pxp_`.
#include "pixpipe_files.h"
#include "pixpipe_threads.h"
#endif
