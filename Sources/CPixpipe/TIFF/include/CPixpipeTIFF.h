#ifndef CPIXPIPE_TIFF_H
#define CPIXPIPE_TIFF_H
// libtiff for PixpipeImage's TIFF folder. On Linux the library is loaded with dlopen on first use: linking
// it maps 14 more shared libraries (libjpeg, zlib, zstd, lzma, libdeflate, jbig, lerc and its C++ runtime,
// webp) at every start, about 1.6 ms a run. Elsewhere the wrappers call the linked library.
//
// A `pxp_tiff` is one libtiff handle over memory (reading) or a growing buffer (writing), with its own error
// and warning handlers (libtiff 4.5's per-handle `...HandlerExtR`): nothing goes to stderr, nothing is global.
// The variadic `TIFFGetField`/`TIFFSetField` are called here, with the types each tag takes.
#include <stddef.h>
#include <stdint.h>

/// Loads libtiff if it is not loaded yet (once per process, thread-safe): 1 when the functions below can
/// be used, 0 when the library is missing or is not libtiff 4.x (see `pxp_tiff_load_error`).
int pxp_tiff_load(void);
/// Why `pxp_tiff_load` failed, or NULL when it did not.
const char *pxp_tiff_load_error(void);

typedef struct pxp_tiff pxp_tiff;

/// The most warnings a handle keeps; later ones are counted in `pxp_tiff_warning_overflow`.
#define PXP_TIFF_MAX_WARNINGS 8

/// Opens `size` bytes at `data` (which must outlive the handle) and reads the first directory. Returns
/// NULL only when libtiff cannot be loaded or memory runs out; otherwise check `pxp_tiff_is_open`.
/// `max_single_alloc` is libtiff's limit on one allocation (0: libtiff's default).
pxp_tiff *pxp_tiff_open_memory(const uint8_t *data, size_t size, int64_t max_single_alloc);
/// As `pxp_tiff_open_memory`, for a read-only private mapping of a file (`mmap`, PROT_READ, MAP_PRIVATE):
/// after each strip or tile is read, the whole pages of its bytes are dropped with
/// `madvise(MADV_DONTNEED)`, so resident memory does not grow with the file. Never for other memory.
pxp_tiff *pxp_tiff_open_mapping(const uint8_t *data, size_t size, int64_t max_single_alloc);
/// Opens a writer over an empty in-memory buffer; NULL when libtiff cannot be loaded.
pxp_tiff *pxp_tiff_open_writer(int bigtiff);
/// Whether libtiff accepted the file (the header and first directory).
int pxp_tiff_is_open(const pxp_tiff *handle);
/// Closes libtiff's handle (flushing a writer) and frees everything but nothing the caller owns.
void pxp_tiff_close(pxp_tiff *handle);
/// The first error message since the last `pxp_tiff_clear_error`, or NULL.
const char *pxp_tiff_error(const pxp_tiff *handle);
/// Forgets the recorded error.
void pxp_tiff_clear_error(pxp_tiff *handle);
/// How many warnings are recorded, and the `index`th ("module: message").
int pxp_tiff_warning_count(const pxp_tiff *handle);
const char *pxp_tiff_warning(const pxp_tiff *handle, int index);
/// How many warnings were dropped past PXP_TIFF_MAX_WARNINGS.
int pxp_tiff_warning_overflow(const pxp_tiff *handle);
/// Forgets the recorded warnings.
void pxp_tiff_clear_warnings(pxp_tiff *handle);

/// What one directory (page) says, read from the current directory.
typedef struct {
    uint32_t width, height;
    uint16_t bits_per_sample, samples_per_pixel, sample_format, photometric, planar, compression;
    uint16_t orientation, has_orientation, ink_set, fill_order;
    /// ExtraSamples: how many, and the kind of the first one (0 unspecified, 1 associated, 2 unassociated).
    uint16_t extra_count, first_extra;
    uint16_t subsampling_h, subsampling_v;
    int is_tiled;
    uint32_t tile_width, tile_length, rows_per_strip;
    uint32_t strip_or_tile_count;
    int64_t strip_size, tile_size, scanline_size;
    int has_resolution;
    uint16_t resolution_unit;
    float x_resolution, y_resolution;
    const uint8_t *icc;
    uint32_t icc_size;
    const uint8_t *xmp;
    uint32_t xmp_size;
    /// The colormap (palette images): three arrays of 2^bits_per_sample entries, or NULL.
    const uint16_t *red, *green, *blue;
} pxp_tiff_page;

/// Fills `page` from the current directory.
void pxp_tiff_read_page(pxp_tiff *handle, pxp_tiff_page *page);
/// Makes directory `index` current (0-based); 1 on success.
int pxp_tiff_set_directory(pxp_tiff *handle, uint32_t index);
/// Reads the next directory; 1 on success.
int pxp_tiff_read_directory(pxp_tiff *handle);
/// Has libjpeg convert YCbCr to RGB for a JPEG-compressed YCbCr page (TIFFTAG_JPEGCOLORMODE).
int pxp_tiff_set_jpeg_rgb(pxp_tiff *handle);
/// The byte sizes after `pxp_tiff_set_jpeg_rgb` changed them.
int64_t pxp_tiff_strip_size(pxp_tiff *handle);
int64_t pxp_tiff_tile_size(pxp_tiff *handle);
/// Decodes strip or tile `index` into `buffer`; the bytes read, or -1.
int64_t pxp_tiff_read_strip(pxp_tiff *handle, uint32_t index, void *buffer, int64_t size);
int64_t pxp_tiff_read_tile(pxp_tiff *handle, uint32_t index, void *buffer, int64_t size);
/// The strip holding `row` of `plane`, and the tile at (`x`, `y`) of `plane`.
uint32_t pxp_tiff_compute_strip(pxp_tiff *handle, uint32_t row, uint16_t plane);
uint32_t pxp_tiff_compute_tile(pxp_tiff *handle, uint32_t x, uint32_t y, uint16_t plane);
/// Whether libtiff's RGBA interface reads the current page; `message` (1024 bytes) says why not.
int pxp_tiff_rgba_ok(pxp_tiff *handle, char *message);
/// libtiff's RGBA interface into `raster` (width x height ABGR words, top row first, as stored: the
/// requested orientation is the page's own so that libtiff flips nothing). 1 on success.
int pxp_tiff_read_rgba(pxp_tiff *handle, uint32_t width, uint32_t height, uint32_t *raster, uint16_t orientation);

/// One page for the writer: 8 or 16 bits, 1 to 4 channels, alpha unassociated when `has_alpha`.
typedef struct {
    uint32_t width, height;
    uint16_t bits_per_sample, channels, has_alpha, compression, predictor, orientation;
    const uint8_t *icc;
    uint32_t icc_size;
    const uint8_t *xmp;
    uint32_t xmp_size;
    float dots_per_inch_x, dots_per_inch_y;
    /// The page number and page count (PageNumber tag), when `page_count` > 1.
    uint16_t page_index, page_count;
} pxp_tiff_write_page;

/// Writes one page of contiguous `pixels` (native-endian 16-bit samples) as one directory; 1 on success.
int pxp_tiff_write(pxp_tiff *handle, const pxp_tiff_write_page *page, const uint8_t *pixels);
/// Closes the writer's libtiff handle (flushing it) and gives its bytes; valid until `pxp_tiff_close`.
int pxp_tiff_finish(pxp_tiff *handle, const uint8_t **data, size_t *size);

#endif
