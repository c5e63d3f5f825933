#include "CPixpipeArchive.h"
#include <archive.h>
#include <archive_entry.h>
#include <pthread.h>
#include <stdio.h>

// Every libarchive function used. Each pointer's type is the header's own declaration (`__typeof__`), so a
// call that does not fit the installed header fails to compile.
#define PXP_ARCHIVE_FUNCTIONS(X)                                                                           \
    X(archive_write_new)                                                                                   \
    X(archive_write_set_format_pax_restricted)                                                             \
    X(archive_write_set_format_zip)                                                                        \
    X(archive_write_zip_set_compression_store)                                                             \
    X(archive_write_open_fd)                                                                               \
    X(archive_write_header)                                                                                \
    X(archive_write_data)                                                                                  \
    X(archive_write_close)                                                                                 \
    X(archive_write_free)                                                                                  \
    X(archive_entry_new)                                                                                   \
    X(archive_entry_free)                                                                                  \
    X(archive_entry_set_pathname_utf8)                                                                     \
    X(archive_entry_set_size)                                                                              \
    X(archive_entry_set_filetype)                                                                          \
    X(archive_entry_set_perm)                                                                              \
    X(archive_entry_set_mtime)                                                                             \
    X(archive_read_new)                                                                                    \
    X(archive_read_support_filter_gzip)                                                                    \
    X(archive_read_support_format_raw)                                                                     \
    X(archive_read_open_filename)                                                                          \
    X(archive_read_open_memory)                                                                            \
    X(archive_read_next_header)                                                                            \
    X(archive_read_data)                                                                                   \
    X(archive_filter_bytes)                                                                                \
    X(archive_read_free)                                                                                   \
    X(archive_errno)                                                                                       \
    X(archive_error_string)

#define PXP_ARCHIVE_POINTER(name) static __typeof__(name) *pxp_fn_##name;
PXP_ARCHIVE_FUNCTIONS(PXP_ARCHIVE_POINTER)

static pthread_once_t pxp_archive_once = PTHREAD_ONCE_INIT;
static int pxp_archive_loaded;
static char pxp_archive_load_message[256];

#if defined(__linux__)
#include <dlfcn.h>

// libarchive 3.x has had SONAME libarchive.so.13 throughout.
#define PXP_ARCHIVE_SONAME "libarchive.so.13"

static void pxp_archive_load_once(void) {
    void *library = dlopen(PXP_ARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(pxp_archive_load_message, sizeof pxp_archive_load_message, "libarchive could not be loaded: %s",
                 dlerror());
        return;
    }
#define PXP_ARCHIVE_LOOKUP(name)                                                                           \
    pxp_fn_##name = (__typeof__(name) *)dlsym(library, #name);                                             \
    if (pxp_fn_##name == NULL) {                                                                           \
        snprintf(pxp_archive_load_message, sizeof pxp_archive_load_message, "%s has no %s",                \
                 PXP_ARCHIVE_SONAME, #name);                                                               \
        return;                                                                                            \
    }
    PXP_ARCHIVE_FUNCTIONS(PXP_ARCHIVE_LOOKUP)
    // The handle stays open for the life of the process: the pointers point into it.
    pxp_archive_loaded = 1;
}
#else
static void pxp_archive_load_once(void) {
#define PXP_ARCHIVE_BIND(name) pxp_fn_##name = name;
    PXP_ARCHIVE_FUNCTIONS(PXP_ARCHIVE_BIND)
    pxp_archive_loaded = 1;
}
#endif

int pxp_archive_load(void) {
    pthread_once(&pxp_archive_once, pxp_archive_load_once);
    return pxp_archive_loaded;
}

const char *pxp_archive_load_error(void) { return pxp_archive_load() ? NULL : pxp_archive_load_message; }

void *pxp_archive_writer_open(int fd, int zip) {
    if (!pxp_archive_load()) return NULL;
    struct archive *archive = pxp_fn_archive_write_new();
    if (archive == NULL) return NULL;
    int result = zip ? pxp_fn_archive_write_set_format_zip(archive) : pxp_fn_archive_write_set_format_pax_restricted(archive);
    if (result == ARCHIVE_OK && zip) result = pxp_fn_archive_write_zip_set_compression_store(archive);
    if (result == ARCHIVE_OK) result = pxp_fn_archive_write_open_fd(archive, fd);
    if (result != ARCHIVE_OK) {
        pxp_fn_archive_write_free(archive);
        return NULL;
    }
    return archive;
}

int pxp_archive_writer_add(void *archive, const char *name, const void *bytes, size_t size, int64_t mtime) {
    struct archive_entry *entry = pxp_fn_archive_entry_new();
    if (entry == NULL) return -1;
    pxp_fn_archive_entry_set_pathname_utf8(entry, name);
    pxp_fn_archive_entry_set_size(entry, (la_int64_t)size);
    pxp_fn_archive_entry_set_filetype(entry, AE_IFREG);
    pxp_fn_archive_entry_set_perm(entry, 0644);
    pxp_fn_archive_entry_set_mtime(entry, (time_t)mtime, 0);
    int result = pxp_fn_archive_write_header(archive, entry);
    pxp_fn_archive_entry_free(entry);
    if (result != ARCHIVE_OK) return -1;
    if (size > 0 && pxp_fn_archive_write_data(archive, bytes, size) != (la_ssize_t)size) return -1;
    return 0;
}

int pxp_archive_writer_close(void *archive) { return pxp_fn_archive_write_close(archive) == ARCHIVE_OK ? 0 : -1; }

void pxp_archive_writer_free(void *archive) {
    if (archive != NULL) pxp_fn_archive_write_free(archive);
}

void *pxp_archive_gzip_reader_open(const char *path, const void *data, size_t size, int *failed) {
    *failed = 1;
    if (!pxp_archive_load()) return NULL;
    struct archive *archive = pxp_fn_archive_read_new();
    if (archive == NULL) return NULL;
    struct archive_entry *entry;
    if (pxp_fn_archive_read_support_filter_gzip(archive) == ARCHIVE_OK &&
        pxp_fn_archive_read_support_format_raw(archive) == ARCHIVE_OK &&
        (path != NULL ? pxp_fn_archive_read_open_filename(archive, path, 65536)
                      : pxp_fn_archive_read_open_memory(archive, data, size)) == ARCHIVE_OK &&
        pxp_fn_archive_read_next_header(archive, &entry) == ARCHIVE_OK) {
        *failed = 0;
    }
    return archive;
}

long pxp_archive_gzip_reader_read(void *archive, void *buffer, size_t size) {
    la_ssize_t count = pxp_fn_archive_read_data(archive, buffer, size);
    return count < 0 ? -1 : (long)count;
}

int64_t pxp_archive_gzip_reader_consumed(void *archive) { return (int64_t)pxp_fn_archive_filter_bytes(archive, -1); }

void pxp_archive_reader_free(void *archive) {
    if (archive != NULL) pxp_fn_archive_read_free(archive);
}

int pxp_archive_errno(void *archive) { return archive != NULL && pxp_archive_load() ? pxp_fn_archive_errno(archive) : 0; }

const char *pxp_archive_error_string(void *archive) {
    return archive != NULL && pxp_archive_load() ? pxp_fn_archive_error_string(archive) : NULL;
}
