#ifndef CPIXPIPE_SYSTEM_H
#define CPIXPIPE_SYSTEM_H
// The file-system, thread and allocator calls Swift's Glibc module hides (most need _GNU_SOURCE;
// `mallopt` is in malloc.h, outside the module). No library beyond the C library, so any layer may use it. Every name is `pxp_`.
#include "pixpipe_beneath.h"
#include "pixpipe_files.h"
#include "pixpipe_memory.h"
#include "pixpipe_names.h"
#include "pixpipe_threads.h"
#endif
