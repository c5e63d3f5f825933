#ifndef PIXPIPE_FILES_H
#define PIXPIPE_FILES_H
// File-system calls that Swift's Glibc module does not export (they need _GNU_SOURCE).

/// Flushes every file of the file system holding the open descriptor `fd` to the disk (Linux `syncfs`;
/// elsewhere `sync`, which cannot fail). Returns 0, or -1 with errno set.
int pxp_syncfs(int fd);

#endif
