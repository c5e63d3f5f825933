#define _GNU_SOURCE
#include "pixpipe_names.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

int pxp_rename_noreplace(const char *from, const char *to) {
#if defined(__linux__) && defined(SYS_renameat2)
    // RENAME_NOREPLACE is 1 (linux/fs.h); spelled out so no kernel header is needed.
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1U);
#else
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
#endif
}
