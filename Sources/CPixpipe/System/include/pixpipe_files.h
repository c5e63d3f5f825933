#ifndef PIXPIPE_FILES_H
#define PIXPIPE_FILES_H
// File-system calls that Swift's Glibc module does not export (they need _GNU_SOURCE).

/// Flushes every file of the file system holding the open descriptor `fd` to the disk (Linux `syncfs`;
/// elsewhere `sync`, which cannot fail). Returns 0, or -1 with errno set.
int pxp_syncfs(int fd);

/// Opens an unnamed regular file for writing in `directory` (Linux `O_TMPFILE`), created with `mode` less
/// the umask; it has no name until `pxp_link_unnamed` gives it one, and vanishes if closed before that.
/// Returns the descriptor, or -1 with errno set: `EOPNOTSUPP`, `EISDIR` or `EINVAL` when the file system
/// (or the system, off Linux: always `EOPNOTSUPP`) has no unnamed files.
int pxp_open_unnamed(const char *directory, unsigned int mode);

/// Gives the unnamed file open as `fd` the name `path` (`linkat` through `/proc/self/fd`, which needs no
/// privilege). Fails with `EEXIST` when `path` exists: it never replaces. Returns 0, or -1 with errno set.
int pxp_link_unnamed(int fd, const char *path);

#endif
