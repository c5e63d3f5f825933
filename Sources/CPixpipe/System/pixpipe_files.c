#define _GNU_SOURCE
#include "pixpipe_files.h"
#include <unistd.h>

int pxp_syncfs(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    (void)fd;
    sync();
    return 0;
#endif
}
