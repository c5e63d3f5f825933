#include "CPixpipeTIFF.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>
#if defined(__linux__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

// Every libtiff function used. Each pointer's type is the header's own declaration (`__typeof__`), so a
// call that does not fit the installed header fails to compile.
#define PXP_TIFF_FUNCTIONS(X)                                                                              \
    X(TIFFGetVersion)                                                                                      \
    X(TIFFOpenOptionsAlloc)                                                                                \
    X(TIFFOpenOptionsFree)                                                                                 \
    X(TIFFOpenOptionsSetMaxSingleMemAlloc)                                                                 \
    X(TIFFOpenOptionsSetErrorHandlerExtR)                                                                  \
    X(TIFFOpenOptionsSetWarningHandlerExtR)                                                                \
    X(TIFFClientOpenExt)                                                                                   \
    X(TIFFClose)                                                                                           \
    X(TIFFGetField)                                                                                        \
    X(TIFFGetFieldDefaulted)                                                                               \
    X(TIFFSetField)                                                                                        \
    X(TIFFIsTiled)                                                                                         \
    X(TIFFNumberOfStrips)                                                                                  \
    X(TIFFNumberOfTiles)                                                                                   \
    X(TIFFStripSize64)                                                                                     \
    X(TIFFTileSize64)                                                                                      \
    X(TIFFScanlineSize64)                                                                                  \
    X(TIFFSetDirectory)                                                                                    \
    X(TIFFReadDirectory)                                                                                   \
    X(TIFFReadEncodedStrip)                                                                                \
    X(TIFFReadEncodedTile)                                                                                 \
    X(TIFFComputeStrip)                                                                                    \
    X(TIFFComputeTile)                                                                                     \
    X(TIFFGetStrileOffset)                                                                                 \
    X(TIFFGetStrileByteCount)                                                                              \
    X(TIFFRGBAImageOK)                                                                                     \
    X(TIFFReadRGBAImageOriented)                                                                           \
    X(TIFFWriteEncodedStrip)                                                                               \
    X(TIFFWriteDirectory)

#define PXP_TIFF_POINTER(name) static __typeof__(name) *pxp_fn_##name;
PXP_TIFF_FUNCTIONS(PXP_TIFF_POINTER)

static pthread_once_t pxp_tiff_once = PTHREAD_ONCE_INIT;
static int pxp_tiff_loaded;
static char pxp_tiff_load_message[256];

#if defined(__linux__)
#include <dlfcn.h>

// libtiff 4.x has had SONAME libtiff.so.6 since 4.5 (libtiff.so.5 before, with the same API for what is
// used here but without the per-handle handlers, which are required).
#define PXP_TIFF_SONAME "libtiff.so.6"

static void pxp_tiff_load_once(void) {
    void *library = dlopen(PXP_TIFF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(pxp_tiff_load_message, sizeof pxp_tiff_load_message, "libtiff could not be loaded: %s",
                 dlerror());
        return;
    }
#define PXP_TIFF_LOOKUP(name)                                                                              \
    pxp_fn_##name = (__typeof__(name) *)dlsym(library, #name);                                             \
    if (pxp_fn_##name == NULL) {                                                                           \
        snprintf(pxp_tiff_load_message, sizeof pxp_tiff_load_message, "%s has no %s", PXP_TIFF_SONAME,     \
                 #name);                                                                                   \
        return;                                                                                            \
    }
    PXP_TIFF_FUNCTIONS(PXP_TIFF_LOOKUP)
    // The handle stays open for the life of the process: the pointers point into it.
    pxp_tiff_loaded = 1;
}
#else
static void pxp_tiff_load_once(void) {
#define PXP_TIFF_BIND(name) pxp_fn_##name = name;
    PXP_TIFF_FUNCTIONS(PXP_TIFF_BIND)
    pxp_tiff_loaded = 1;
}
#endif

int pxp_tiff_load(void) {
    pthread_once(&pxp_tiff_once, pxp_tiff_load_once);
    return pxp_tiff_loaded;
}

const char *pxp_tiff_load_error(void) { return pxp_tiff_load() ? NULL : pxp_tiff_load_message; }

struct pxp_tiff {
    TIFF *tif;
    // Reading: the caller's bytes. Writing: a buffer grown with realloc.
    const uint8_t *data;
    uint8_t *owned;
    uint64_t size, capacity, position;
    int writing;
    // Reading a private mapping of a file: pages of strips already decoded are given back to the kernel.
    int releases_pages;
    char error[512];
    int has_error;
    char warnings[PXP_TIFF_MAX_WARNINGS][256];
    int warning_count, warning_overflow;
};

static tmsize_t pxp_tiff_read_proc(thandle_t client, void *buffer, tmsize_t size) {
    pxp_tiff *handle = (pxp_tiff *)client;
    if (size < 0 || handle->position >= handle->size) return 0;
    uint64_t available = handle->size - handle->position;
    uint64_t count = (uint64_t)size < available ? (uint64_t)size : available;
    const uint8_t *source = handle->writing ? handle->owned : handle->data;
    memcpy(buffer, source + handle->position, (size_t)count);
    handle->position += count;
    return (tmsize_t)count;
}

static tmsize_t pxp_tiff_write_proc(thandle_t client, void *buffer, tmsize_t size) {
    pxp_tiff *handle = (pxp_tiff *)client;
    if (!handle->writing || size < 0) return -1;
    uint64_t end = handle->position + (uint64_t)size;
    if (end > handle->capacity) {
        uint64_t capacity = handle->capacity ? handle->capacity : 65536;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(handle->owned, (size_t)capacity);
        if (grown == NULL) return -1;
        handle->owned = grown;
        handle->capacity = capacity;
    }
    // A seek past the end leaves a gap: zero it.
    if (handle->position > handle->size) memset(handle->owned + handle->size, 0, handle->position - handle->size);
    memcpy(handle->owned + handle->position, buffer, (size_t)size);
    handle->position = end;
    if (end > handle->size) handle->size = end;
    return size;
}

static toff_t pxp_tiff_seek_proc(thandle_t client, toff_t offset, int whence) {
    pxp_tiff *handle = (pxp_tiff *)client;
    uint64_t base = whence == SEEK_CUR ? handle->position : whence == SEEK_END ? handle->size : 0;
    handle->position = base + offset;
    return handle->position;
}

static int pxp_tiff_close_proc(thandle_t client) {
    (void)client;
    return 0;
}

static toff_t pxp_tiff_size_proc(thandle_t client) { return ((pxp_tiff *)client)->size; }

// Reading maps the caller's bytes, so libtiff decodes strips in place instead of copying them.
static int pxp_tiff_map_proc(thandle_t client, void **base, toff_t *size) {
    pxp_tiff *handle = (pxp_tiff *)client;
    if (handle->writing) return 0;
    *base = (void *)handle->data;
    *size = handle->size;
    return 1;
}

static void pxp_tiff_unmap_proc(thandle_t client, void *base, toff_t size) {
    (void)client;
    (void)base;
    (void)size;
}

static int pxp_tiff_error_handler(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    pxp_tiff *handle = (pxp_tiff *)user;
    if (handle != NULL && !handle->has_error) {
        char message[400];
        vsnprintf(message, sizeof message, format, args);
        snprintf(handle->error, sizeof handle->error, "%s: %s", module ? module : "libtiff", message);
        handle->has_error = 1;
    }
    return 1;
}

static int pxp_tiff_warning_handler(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    pxp_tiff *handle = (pxp_tiff *)user;
    if (handle == NULL) return 1;
    if (handle->warning_count >= PXP_TIFF_MAX_WARNINGS) {
        handle->warning_overflow++;
        return 1;
    }
    char message[200];
    vsnprintf(message, sizeof message, format, args);
    snprintf(handle->warnings[handle->warning_count], sizeof handle->warnings[0], "%s: %s",
             module ? module : "libtiff", message);
    handle->warning_count++;
    return 1;
}

static pxp_tiff *pxp_tiff_open(const uint8_t *data, size_t size, int64_t max_single_alloc, const char *mode) {
    if (!pxp_tiff_load()) return NULL;
    pxp_tiff *handle = calloc(1, sizeof *handle);
    if (handle == NULL) return NULL;
    handle->data = data;
    handle->size = size;
    handle->writing = mode[0] == 'w';
    TIFFOpenOptions *options = pxp_fn_TIFFOpenOptionsAlloc();
    if (options == NULL) {
        free(handle);
        return NULL;
    }
    if (max_single_alloc > 0) pxp_fn_TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_single_alloc);
    pxp_fn_TIFFOpenOptionsSetErrorHandlerExtR(options, pxp_tiff_error_handler, handle);
    pxp_fn_TIFFOpenOptionsSetWarningHandlerExtR(options, pxp_tiff_warning_handler, handle);
    handle->tif = pxp_fn_TIFFClientOpenExt(
        "pixpipe", mode, (thandle_t)handle, pxp_tiff_read_proc, pxp_tiff_write_proc, pxp_tiff_seek_proc,
        pxp_tiff_close_proc, pxp_tiff_size_proc, pxp_tiff_map_proc, pxp_tiff_unmap_proc, options);
    pxp_fn_TIFFOpenOptionsFree(options);
    return handle;
}

pxp_tiff *pxp_tiff_open_memory(const uint8_t *data, size_t size, int64_t max_single_alloc) {
    return pxp_tiff_open(data, size, max_single_alloc, "r");
}

pxp_tiff *pxp_tiff_open_mapping(const uint8_t *data, size_t size, int64_t max_single_alloc) {
    pxp_tiff *handle = pxp_tiff_open(data, size, max_single_alloc, "r");
    if (handle != NULL) handle->releases_pages = 1;
    return handle;
}

// Drops the whole pages inside strip or tile `strile`'s bytes from the process's memory. Only for a
// read-only private mapping of a file, whose pages are never written: a later touch reads them from the
// file again, so this changes resident memory, never the bytes seen.
static void pxp_tiff_release(pxp_tiff *handle, uint32_t strile) {
#if defined(__linux__) || defined(__APPLE__)
    if (!handle->releases_pages) return;
    uint64_t offset = pxp_fn_TIFFGetStrileOffset(handle->tif, strile);
    uint64_t count = pxp_fn_TIFFGetStrileByteCount(handle->tif, strile);
    if (offset >= handle->size || count == 0) return;
    uint64_t end = count > handle->size - offset ? handle->size : offset + count;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t base = (uint64_t)(uintptr_t)handle->data;
    uint64_t first = (base + offset + page - 1) / page * page;
    uint64_t last = (base + end) / page * page;
    if (last > first) madvise((void *)(uintptr_t)first, (size_t)(last - first), MADV_DONTNEED);
#else
    (void)handle;
    (void)strile;
#endif
}

pxp_tiff *pxp_tiff_open_writer(int bigtiff) { return pxp_tiff_open(NULL, 0, 0, bigtiff ? "w8" : "w"); }

int pxp_tiff_is_open(const pxp_tiff *handle) { return handle->tif != NULL; }

void pxp_tiff_close(pxp_tiff *handle) {
    if (handle == NULL) return;
    if (handle->tif != NULL) pxp_fn_TIFFClose(handle->tif);
    free(handle->owned);
    free(handle);
}

const char *pxp_tiff_error(const pxp_tiff *handle) { return handle->has_error ? handle->error : NULL; }
void pxp_tiff_clear_error(pxp_tiff *handle) { handle->has_error = 0; }
int pxp_tiff_warning_count(const pxp_tiff *handle) { return handle->warning_count; }
const char *pxp_tiff_warning(const pxp_tiff *handle, int index) {
    return index >= 0 && index < handle->warning_count ? handle->warnings[index] : NULL;
}
int pxp_tiff_warning_overflow(const pxp_tiff *handle) { return handle->warning_overflow; }
void pxp_tiff_clear_warnings(pxp_tiff *handle) {
    handle->warning_count = 0;
    handle->warning_overflow = 0;
}

void pxp_tiff_read_page(pxp_tiff *handle, pxp_tiff_page *page) {
    TIFF *tif = handle->tif;
    memset(page, 0, sizeof *page);
    pxp_fn_TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &page->width);
    pxp_fn_TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &page->height);
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &page->bits_per_sample);
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &page->samples_per_pixel);
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &page->sample_format);
    if (!pxp_fn_TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &page->photometric)) page->photometric = 0xFFFF;
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &page->planar);
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &page->compression);
    page->has_orientation = (uint16_t)pxp_fn_TIFFGetField(tif, TIFFTAG_ORIENTATION, &page->orientation);
    if (!page->has_orientation) page->orientation = 1;
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &page->ink_set);
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_FILLORDER, &page->fill_order);
    uint16_t *extra = NULL;
    if (pxp_fn_TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, &page->extra_count, &extra) && page->extra_count > 0 &&
        extra != NULL)
        page->first_extra = extra[0];
    pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_YCBCRSUBSAMPLING, &page->subsampling_h, &page->subsampling_v);
    page->is_tiled = pxp_fn_TIFFIsTiled(tif);
    if (page->is_tiled) {
        pxp_fn_TIFFGetField(tif, TIFFTAG_TILEWIDTH, &page->tile_width);
        pxp_fn_TIFFGetField(tif, TIFFTAG_TILELENGTH, &page->tile_length);
        page->strip_or_tile_count = pxp_fn_TIFFNumberOfTiles(tif);
        page->tile_size = (int64_t)pxp_fn_TIFFTileSize64(tif);
    } else {
        pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &page->rows_per_strip);
        page->strip_or_tile_count = pxp_fn_TIFFNumberOfStrips(tif);
        page->strip_size = (int64_t)pxp_fn_TIFFStripSize64(tif);
    }
    page->scanline_size = (int64_t)pxp_fn_TIFFScanlineSize64(tif);
    float x = 0, y = 0;
    if (pxp_fn_TIFFGetField(tif, TIFFTAG_XRESOLUTION, &x) && pxp_fn_TIFFGetField(tif, TIFFTAG_YRESOLUTION, &y)) {
        page->has_resolution = 1;
        page->x_resolution = x;
        page->y_resolution = y;
        pxp_fn_TIFFGetFieldDefaulted(tif, TIFFTAG_RESOLUTIONUNIT, &page->resolution_unit);
    }
    uint32_t count = 0;
    void *bytes = NULL;
    if (pxp_fn_TIFFGetField(tif, TIFFTAG_ICCPROFILE, &count, &bytes) && bytes != NULL) {
        page->icc = bytes;
        page->icc_size = count;
    }
    count = 0;
    bytes = NULL;
    if (pxp_fn_TIFFGetField(tif, TIFFTAG_XMLPACKET, &count, &bytes) && bytes != NULL) {
        page->xmp = bytes;
        page->xmp_size = count;
    }
    uint16_t *red = NULL, *green = NULL, *blue = NULL;
    if (page->photometric == PHOTOMETRIC_PALETTE &&
        pxp_fn_TIFFGetField(tif, TIFFTAG_COLORMAP, &red, &green, &blue)) {
        page->red = red;
        page->green = green;
        page->blue = blue;
    }
}

int pxp_tiff_set_directory(pxp_tiff *handle, uint32_t index) {
    return pxp_fn_TIFFSetDirectory(handle->tif, (tdir_t)index);
}

int pxp_tiff_read_directory(pxp_tiff *handle) { return pxp_fn_TIFFReadDirectory(handle->tif); }

int pxp_tiff_set_jpeg_rgb(pxp_tiff *handle) {
    return pxp_fn_TIFFSetField(handle->tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
}

int64_t pxp_tiff_strip_size(pxp_tiff *handle) { return (int64_t)pxp_fn_TIFFStripSize64(handle->tif); }
int64_t pxp_tiff_tile_size(pxp_tiff *handle) { return (int64_t)pxp_fn_TIFFTileSize64(handle->tif); }

int64_t pxp_tiff_read_strip(pxp_tiff *handle, uint32_t index, void *buffer, int64_t size) {
    int64_t read = (int64_t)pxp_fn_TIFFReadEncodedStrip(handle->tif, index, buffer, (tmsize_t)size);
    pxp_tiff_release(handle, index);
    return read;
}

int64_t pxp_tiff_read_tile(pxp_tiff *handle, uint32_t index, void *buffer, int64_t size) {
    int64_t read = (int64_t)pxp_fn_TIFFReadEncodedTile(handle->tif, index, buffer, (tmsize_t)size);
    pxp_tiff_release(handle, index);
    return read;
}

uint32_t pxp_tiff_compute_strip(pxp_tiff *handle, uint32_t row, uint16_t plane) {
    return pxp_fn_TIFFComputeStrip(handle->tif, row, plane);
}

uint32_t pxp_tiff_compute_tile(pxp_tiff *handle, uint32_t x, uint32_t y, uint16_t plane) {
    return pxp_fn_TIFFComputeTile(handle->tif, x, y, 0, plane);
}

int pxp_tiff_rgba_ok(pxp_tiff *handle, char *message) { return pxp_fn_TIFFRGBAImageOK(handle->tif, message); }

int pxp_tiff_read_rgba(pxp_tiff *handle, uint32_t width, uint32_t height, uint32_t *raster, uint16_t orientation) {
    return pxp_fn_TIFFReadRGBAImageOriented(handle->tif, width, height, raster, orientation, 1);
}

int pxp_tiff_write(pxp_tiff *handle, const pxp_tiff_write_page *page, const uint8_t *pixels) {
    TIFF *tif = handle->tif;
    if (tif == NULL) return 0;
    uint16_t channels = page->channels;
    pxp_fn_TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, page->width);
    pxp_fn_TIFFSetField(tif, TIFFTAG_IMAGELENGTH, page->height);
    pxp_fn_TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, page->bits_per_sample);
    pxp_fn_TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, channels);
    pxp_fn_TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
    pxp_fn_TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    pxp_fn_TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    pxp_fn_TIFFSetField(tif, TIFFTAG_COMPRESSION, page->compression);
    if (page->predictor > 1) pxp_fn_TIFFSetField(tif, TIFFTAG_PREDICTOR, page->predictor);
    if (page->has_alpha) {
        uint16_t kind = EXTRASAMPLE_UNASSALPHA;
        pxp_fn_TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &kind);
    }
    if (page->orientation > 1) pxp_fn_TIFFSetField(tif, TIFFTAG_ORIENTATION, page->orientation);
    if (page->icc != NULL) pxp_fn_TIFFSetField(tif, TIFFTAG_ICCPROFILE, page->icc_size, page->icc);
    if (page->xmp != NULL) pxp_fn_TIFFSetField(tif, TIFFTAG_XMLPACKET, page->xmp_size, page->xmp);
    if (page->dots_per_inch_x > 0 && page->dots_per_inch_y > 0) {
        pxp_fn_TIFFSetField(tif, TIFFTAG_XRESOLUTION, page->dots_per_inch_x);
        pxp_fn_TIFFSetField(tif, TIFFTAG_YRESOLUTION, page->dots_per_inch_y);
        pxp_fn_TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
    }
    if (page->page_count > 1) {
        pxp_fn_TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
        pxp_fn_TIFFSetField(tif, TIFFTAG_PAGENUMBER, page->page_index, page->page_count);
    }
    uint64_t bytes_per_row = (uint64_t)page->width * channels * (page->bits_per_sample / 8);
    // Strips of about 64 KiB: small enough for a streaming reader, large enough to compress well.
    uint32_t rows = (uint32_t)(65536 / (bytes_per_row ? bytes_per_row : 1));
    if (rows < 1) rows = 1;
    if (rows > page->height) rows = page->height;
    pxp_fn_TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows);
    for (uint32_t row = 0, strip = 0; row < page->height; row += rows, strip++) {
        uint32_t count = page->height - row < rows ? page->height - row : rows;
        // libtiff's predictor works in place on the buffer it is given: write from a copy.
        tmsize_t size = (tmsize_t)(bytes_per_row * count);
        void *copy = malloc((size_t)size);
        if (copy == NULL) return 0;
        memcpy(copy, pixels + bytes_per_row * row, (size_t)size);
        tmsize_t written = pxp_fn_TIFFWriteEncodedStrip(tif, strip, copy, size);
        free(copy);
        if (written < 0) return 0;
    }
    return pxp_fn_TIFFWriteDirectory(tif) && !handle->has_error;
}

int pxp_tiff_finish(pxp_tiff *handle, const uint8_t **data, size_t *size) {
    if (handle->tif != NULL) {
        pxp_fn_TIFFClose(handle->tif);
        handle->tif = NULL;
    }
    *data = handle->owned;
    *size = (size_t)handle->size;
    return !handle->has_error;
}
