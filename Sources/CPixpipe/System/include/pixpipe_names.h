#ifndef PIXPIPE_NAMES_H
#define PIXPIPE_NAMES_H

/// Renames `from` to `to` unless something already has the name `to` (then -1 with errno EEXIST): Linux
/// `renameat2` with RENAME_NOREPLACE, called through `syscall` since older C libraries lack the wrapper.
/// -1 with errno EINVAL or ENOSYS where the kernel or the file system cannot (the caller links instead).
int pxp_rename_noreplace(const char *from, const char *to);

#endif
