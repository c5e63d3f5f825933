#ifndef CPIXPIPE_ARCHIVE_H
#define CPIXPIPE_ARCHIVE_H
// libarchive for the downloader's archive outputs (tar, zip) and gzip lists. On Linux the library is loaded
// with dlopen on first use: linking it maps 15 more shared libraries (libxml2 and ICU, nettle, lzma, zstd,
// lz4, bzip2, acl, the C++ runtime) at every start of every program, about 1.2 MB more peak memory for a
// `pixpipe --version`, though only runs that write an archive or read a gzip list use it. Elsewhere the
// wrappers call the linked library. Handles are libarchive's `struct archive *`, passed as `void *`.
#include <stddef.h>
#include <stdint.h>

/// Loads libarchive if it is not loaded yet (once per process, thread-safe): 1 when the functions below can
/// be used, 0 when the library is missing (see `pxp_archive_load_error`).
int pxp_archive_load(void);
/// Why `pxp_archive_load` failed, or NULL when it did not.
const char *pxp_archive_load_error(void);

/// A writer of a tar (pax where a name or size needs it, `zip` 0) or a zip with stored entries (`zip` 1)
/// to the open file `fd` (not closed by the writer); NULL when libarchive cannot be loaded or refuses.
void *pxp_archive_writer_open(int fd, int zip);
/// Adds a regular file `name` (UTF-8) of `size` bytes at `bytes`, mode 0644, modified at `mtime`: 0 or -1.
int pxp_archive_writer_add(void *archive, const char *name, const void *bytes, size_t size, int64_t mtime);
/// Ends the archive (its trailer written): 0 or -1.
int pxp_archive_writer_close(void *archive);
/// Frees a writer.
void pxp_archive_writer_free(void *archive);

/// A reader of one gzip stream in the file at `path`, or in `size` bytes at `data` when `path` is NULL (the
/// bytes must outlive the reader), positioned at its start; NULL when libarchive cannot be loaded. Check
/// `pxp_archive_errno`/`pxp_archive_error_string` when `*failed` is set.
void *pxp_archive_gzip_reader_open(const char *path, const void *data, size_t size, int *failed);
/// Reads up to `size` decompressed bytes into `buffer`: the count, 0 at the end, or -1.
long pxp_archive_gzip_reader_read(void *archive, void *buffer, size_t size);
/// The compressed bytes read so far.
int64_t pxp_archive_gzip_reader_consumed(void *archive);
/// Frees a reader.
void pxp_archive_reader_free(void *archive);

/// The `errno` of the last failure of `archive` (0 when none was recorded).
int pxp_archive_errno(void *archive);
/// libarchive's message for the last failure of `archive`, or NULL.
const char *pxp_archive_error_string(void *archive);
#endif
