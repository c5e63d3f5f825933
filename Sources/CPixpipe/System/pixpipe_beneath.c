#define _GNU_SOURCE
#include "pixpipe_beneath.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#endif

int pxp_open_beneath(int directory, const char *name, int flags) {
    flags |= O_RDONLY | O_NOFOLLOW;
#if defined(__linux__) && defined(SYS_openat2) && defined(RESOLVE_BENEATH)
    // Once the kernel has said it has no openat2, every later call goes straight to openat (a relaxed
    // flag: a race only costs one more ENOSYS).
    static int lacks_openat2 = 0;
    if (!__atomic_load_n(&lacks_openat2, __ATOMIC_RELAXED)) {
        struct open_how how;
        memset(&how, 0, sizeof how);
        how.flags = (uint64_t)flags;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        long fd;
        do {
            fd = syscall(SYS_openat2, directory, name, &how, sizeof how);
        } while (fd < 0 && errno == EAGAIN);
        if (fd >= 0 || errno != ENOSYS) return (int)fd;
        __atomic_store_n(&lacks_openat2, 1, __ATOMIC_RELAXED);
    }
#endif
    return openat(directory, name, flags);
}
