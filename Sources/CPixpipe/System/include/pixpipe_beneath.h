#ifndef PIXPIPE_BENEATH_H
#define PIXPIPE_BENEATH_H
// Opening a name strictly inside a folder open as a descriptor, for names read back from a folder that
// others may have written (the manifest's stored names).

/// Opens `name` relative to the folder open as `directory` for reading, with `flags` (`O_NONBLOCK`,
/// `O_CLOEXEC`... added to `O_RDONLY | O_NOFOLLOW`). On Linux with `openat2` (5.6 and later) the
/// resolution may not leave the folder nor cross any symbolic link (`RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`); where the kernel lacks it (`ENOSYS`), or elsewhere,
/// plain `openat` with `O_NOFOLLOW`, which refuses a link as the last component only (callers pass one
/// component). Returns the descriptor, or -1 with errno set (`ELOOP` or `EXDEV` for a link or an escape).
int pxp_open_beneath(int directory, const char *name, int flags);

#endif
