#include "pixpipe_memory.h"
#include <stdlib.h>
// stdlib.h first: it defines __GLIBC__ (through features.h), which decides whether malloc.h has mallopt.
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int pxp_limit_malloc_arenas(int count) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}
