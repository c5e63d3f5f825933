#define _GNU_SOURCE
#include "pixpipe_files.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

int pxp_open_unnamed(const char *directory, unsigned int mode) {
#if defined(__linux__) && defined(O_TMPFILE)
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
#else
    (void)directory;
    (void)mode;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int pxp_link_unnamed(int fd, const char *path) {
#if defined(__linux__)
    // AT_EMPTY_PATH would link the descriptor itself but needs CAP_DAC_READ_SEARCH; the /proc link
    // followed with AT_SYMLINK_FOLLOW is the unprivileged form of the same call.
    char source[64];
    snprintf(source, sizeof source, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
#else
    (void)fd;
    (void)path;
    errno = EOPNOTSUPP;
    return -1;
#endif
}
