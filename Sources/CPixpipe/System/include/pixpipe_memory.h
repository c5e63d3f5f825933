#ifndef PIXPIPE_MEMORY_H
#define PIXPIPE_MEMORY_H
// Allocator settings Swift's Glibc module does not export (`mallopt` is in malloc.h, outside it).

/// Caps how many malloc arenas the process may create from now on (glibc's `M_ARENA_MAX`; by default
/// 8 per core, one more each time threads contend). Returns 1 when set, 0 where there is no such setting.
int pxp_limit_malloc_arenas(int count);

#endif
