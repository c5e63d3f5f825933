#include "pixpipe_jpeg.h"

// jpeglib.h uses FILE and size_t without including their headers.
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// jpeglib.h first: it brings jconfig.h, which decides which codes jerror.h defines (JWRN_ARITH_BAD_CODE
// only where arithmetic decoding is built in).
#include <jpeglib.h>
#include <jerror.h>

// A progressive file may hold any number of scans; each costs a pass over the coefficients, so a
// small hostile file could keep the decoder busy for minutes. Real encoders write about ten.
#define PXP_JPEG_MAX_SCANS 500

// MARK: error and warning capture, shared by both directions

typedef struct pxp_jpeg_errors {
    struct jpeg_error_mgr manager;  // first, so libjpeg's cinfo->err points at the whole struct
    jmp_buf jump;
    int kind;
    char message[PXP_JPEG_MESSAGE_LENGTH];
    int warning_count;
    int warning_codes[PXP_JPEG_MAX_WARNINGS];
    int warning_places[PXP_JPEG_MAX_WARNINGS];
    char warning_messages[PXP_JPEG_MAX_WARNINGS][PXP_JPEG_MESSAGE_LENGTH];
    int warning_tally[PXP_JPEG_WARNING_CODES][PXP_JPEG_PLACES];
} pxp_jpeg_errors;

static int pxp_jpeg_classify_error(int code) {
    switch (code) {
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOT_COMPILED:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_ARITH_NOTIMPL:
        return PXP_JPEG_ERROR_UNSUPPORTED;
    case JERR_NO_BACKING_STORE:
    case JERR_OUT_OF_MEMORY:
        return PXP_JPEG_ERROR_MEMORY;
    case JERR_BAD_STATE:
    case JERR_BUFFER_SIZE:
        return PXP_JPEG_ERROR_INTERNAL;
    default:
        return PXP_JPEG_ERROR_CORRUPT;
    }
}

// libjpeg's error_exit must not return: record the message and jump back to the guarded step.
static void pxp_jpeg_error_exit(j_common_ptr cinfo) {
    pxp_jpeg_errors *errors = (pxp_jpeg_errors *)cinfo->err;
    errors->kind = pxp_jpeg_classify_error(errors->manager.msg_code);
    (*errors->manager.format_message)(cinfo, errors->message);
    longjmp(errors->jump, 1);
}

// The default prints to stderr; a library must not.
static void pxp_jpeg_output_message(j_common_ptr cinfo) {
    pxp_jpeg_errors *errors = (pxp_jpeg_errors *)cinfo->err;
    (*errors->manager.format_message)(cinfo, errors->message);
}

// libjpeg's warning code as the shim's own number (see the header).
static int pxp_jpeg_warning_code(int code) {
    switch (code) {
    case JWRN_ADOBE_XFORM: return PXP_JPEG_WARNING_ADOBE_XFORM;
    case JWRN_ARITH_BAD_CODE: return PXP_JPEG_WARNING_ARITH_BAD_CODE;
    case JWRN_BOGUS_PROGRESSION: return PXP_JPEG_WARNING_BOGUS_PROGRESSION;
    case JWRN_EXTRANEOUS_DATA: return PXP_JPEG_WARNING_EXTRANEOUS_DATA;
    case JWRN_HIT_MARKER: return PXP_JPEG_WARNING_HIT_MARKER;
    case JWRN_HUFF_BAD_CODE: return PXP_JPEG_WARNING_HUFF_BAD_CODE;
    case JWRN_JFIF_MAJOR: return PXP_JPEG_WARNING_JFIF_MAJOR;
    case JWRN_JPEG_EOF: return PXP_JPEG_WARNING_JPEG_EOF;
    case JWRN_MUST_RESYNC: return PXP_JPEG_WARNING_MUST_RESYNC;
    case JWRN_NOT_SEQUENTIAL: return PXP_JPEG_WARNING_NOT_SEQUENTIAL;
    case JWRN_TOO_MUCH_DATA: return PXP_JPEG_WARNING_TOO_MUCH_DATA;
    case JWRN_BOGUS_ICC: return PXP_JPEG_WARNING_BOGUS_ICC;
    default: return PXP_JPEG_WARNING_OTHER;
    }
}

// Where the warning was found. Extraneous bytes are reported by the marker reader with the marker that
// follows them (JWRN_EXTRANEOUS_DATA's second parameter): before RSTn they sit inside a scan's
// entropy-coded data, between restart intervals; before any other marker, between segments.
static int pxp_jpeg_warning_place(const struct jpeg_error_mgr *manager) {
    if (manager->msg_code != JWRN_EXTRANEOUS_DATA) return PXP_JPEG_PLACE_SEGMENTS;
    const int marker = manager->msg_parm.i[1];
    return marker >= JPEG_RST0 && marker <= JPEG_RST0 + 7 ? PXP_JPEG_PLACE_SCAN_DATA : PXP_JPEG_PLACE_SEGMENTS;
}

// Level -1 is a warning; levels 0 and up are trace messages, which are dropped unformatted. Every warning
// is recorded with its code and place; what it means is decided by the caller.
static void pxp_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    pxp_jpeg_errors *errors = (pxp_jpeg_errors *)cinfo->err;
    if (msg_level >= 0) return;
    const int code = pxp_jpeg_warning_code(errors->manager.msg_code);
    const int place = pxp_jpeg_warning_place(&errors->manager);
    errors->manager.num_warnings++;
    if (errors->warning_count < PXP_JPEG_MAX_WARNINGS) {
        errors->warning_codes[errors->warning_count] = code;
        errors->warning_places[errors->warning_count] = place;
        (*errors->manager.format_message)(cinfo, errors->warning_messages[errors->warning_count]);
    }
    errors->warning_count++;
    if (errors->warning_tally[code][place] < 1 << 30) errors->warning_tally[code][place]++;
}

static void pxp_jpeg_errors_init(pxp_jpeg_errors *errors) {
    jpeg_std_error(&errors->manager);
    errors->manager.error_exit = pxp_jpeg_error_exit;
    errors->manager.output_message = pxp_jpeg_output_message;
    errors->manager.emit_message = pxp_jpeg_emit_message;
}

static int pxp_jpeg_color_space_code(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return PXP_JPEG_SPACE_GRAY;
    case JCS_RGB: return PXP_JPEG_SPACE_RGB;
    case JCS_YCbCr: return PXP_JPEG_SPACE_YCBCR;
    case JCS_CMYK: return PXP_JPEG_SPACE_CMYK;
    case JCS_YCCK: return PXP_JPEG_SPACE_YCCK;
    default: return PXP_JPEG_SPACE_UNKNOWN;
    }
}

void pxp_jpeg_free(void *pointer) { free(pointer); }

// MARK: decoding

// A source reading a file descriptor through a buffer, like libjpeg's stdio source but on a descriptor
// the caller owns (no FILE to open or close).
typedef struct pxp_jpeg_fd_source {
    struct jpeg_source_mgr manager;  // first, so cinfo->src points at the whole struct
    int fd;
    JOCTET *buffer;
} pxp_jpeg_fd_source;

#define PXP_JPEG_FILE_BUFFER 65536

// A block array libjpeg asked its memory manager for (see pxp_jpeg_advise_block_arrays).
typedef struct pxp_jpeg_block_array {
    jvirt_barray_ptr array;
    size_t row_bytes;
    JDIMENSION rows;
} pxp_jpeg_block_array;

struct pxp_jpeg_decoder {
    struct jpeg_decompress_struct info;  // first, so a j_common_ptr to it points at the whole decoder
    pxp_jpeg_errors errors;
    struct jpeg_progress_mgr progress;
    const unsigned char *data;
    size_t size;
    int fd;  // >= 0: read this file instead of `data`
    pxp_jpeg_fd_source fd_source;
    int skips_rows;  // a verifying read may hand rows to jpeg_skip_scanlines (see configure_verification)
    // libjpeg's own memory-manager methods, which the wrappers below call.
    jvirt_barray_ptr (*request_block_array)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    void (*realize_arrays)(j_common_ptr);
    void (*free_pool)(j_common_ptr, int);
    pxp_jpeg_block_array block_arrays[MAX_COMPONENTS];
    int block_array_count;
};

// MARK: huge pages for a progressive file's coefficients
//
// A progressive (or multi-scan) file is decoded through whole-image coefficient arrays, one per component:
// 128 bytes per 8x8 block, 97 MB for a 24 MP 4:2:0 photo. libjpeg mallocs them fresh for each image and
// zeroes them row by row as the first scan arrives, so every 4 KiB page costs a fault, which on virtual
// machines is expensive (a 24 MP progressive thumbnail: 22,000 faults, 0.124 s against 0.105 s advised).
// The wrappers below note each array libjpeg requests and, once it has allocated them, advise the
// 2 MiB-aligned inside of each with MADV_HUGEPAGE before anything is written, as HugePageAdvice does for
// the decoder's output. Advice changes nothing but speed and is ignored where huge pages are off.
//
// The array's memory is found through libjpeg's own access method asked for zero rows from row 0 (which
// neither zeroes nor marks anything): it returns the array's row pointers. libjpeg-turbo keeps every row
// in memory (it has no backing store) and allocates the rows in chunks of at most max_alloc_chunk bytes,
// each contiguous, so the first row and the chunk size give a range that is the array's own memory.

#define PXP_JPEG_HUGE_PAGE ((size_t)2 << 20)
// Arrays smaller than this are left alone: they hold at most one huge page.
#define PXP_JPEG_ADVISED_MINIMUM ((size_t)4 << 20)

static jvirt_barray_ptr pxp_jpeg_request_block_array(
    j_common_ptr cinfo, int pool, boolean pre_zero, JDIMENSION blocks_per_row, JDIMENSION rows, JDIMENSION max_access) {
    pxp_jpeg_decoder *decoder = (pxp_jpeg_decoder *)cinfo;
    jvirt_barray_ptr array = (*decoder->request_block_array)(cinfo, pool, pre_zero, blocks_per_row, rows, max_access);
    if (pool == JPOOL_IMAGE && decoder->block_array_count < MAX_COMPONENTS) {
        pxp_jpeg_block_array *noted = &decoder->block_arrays[decoder->block_array_count++];
        noted->array = array;
        noted->row_bytes = (size_t)blocks_per_row * sizeof(JBLOCK);
        noted->rows = rows;
    }
    return array;
}

static void pxp_jpeg_advise_block_arrays(j_common_ptr cinfo) {
    pxp_jpeg_decoder *decoder = (pxp_jpeg_decoder *)cinfo;
    (*decoder->realize_arrays)(cinfo);
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(LIBJPEG_TURBO_VERSION)
    for (int index = 0; index < decoder->block_array_count; index++) {
        pxp_jpeg_block_array *noted = &decoder->block_arrays[index];
        if (noted->row_bytes == 0 || noted->rows == 0) continue;
        size_t rows_per_chunk = (size_t)cinfo->mem->max_alloc_chunk / noted->row_bytes;
        size_t contiguous_rows = rows_per_chunk < noted->rows ? rows_per_chunk : noted->rows;
        size_t bytes = contiguous_rows * noted->row_bytes;
        if (bytes < PXP_JPEG_ADVISED_MINIMUM) continue;
        JBLOCKARRAY rows = (*cinfo->mem->access_virt_barray)(cinfo, noted->array, 0, 0, FALSE);
        uintptr_t first = (uintptr_t)rows[0];
        uintptr_t start = (first + PXP_JPEG_HUGE_PAGE - 1) & ~(uintptr_t)(PXP_JPEG_HUGE_PAGE - 1);
        uintptr_t end = (first + bytes) & ~(uintptr_t)(PXP_JPEG_HUGE_PAGE - 1);
        if (end > start) (void)madvise((void *)start, (size_t)(end - start), MADV_HUGEPAGE);
    }
#endif
    decoder->block_array_count = 0;
}

// The image pool's arrays are gone once it is freed (an image finished or abandoned).
static void pxp_jpeg_free_pool(j_common_ptr cinfo, int pool) {
    pxp_jpeg_decoder *decoder = (pxp_jpeg_decoder *)cinfo;
    if (pool == JPOOL_IMAGE) decoder->block_array_count = 0;
    (*decoder->free_pool)(cinfo, pool);
}

static void pxp_jpeg_fd_init(j_decompress_ptr cinfo) { (void)cinfo; }

// At the end of the file, a fake EOI marker and a truncation warning, as libjpeg's own sources do.
static boolean pxp_jpeg_fd_fill(j_decompress_ptr cinfo) {
    pxp_jpeg_fd_source *source = (pxp_jpeg_fd_source *)cinfo->src;
    ssize_t got;
    do {
        got = read(source->fd, source->buffer, PXP_JPEG_FILE_BUFFER);
    } while (got < 0 && errno == EINTR);
    if (got < 0) ERREXIT(cinfo, JERR_FILE_READ);
    if (got == 0) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        source->buffer[0] = (JOCTET)0xFF;
        source->buffer[1] = (JOCTET)JPEG_EOI;
        got = 2;
    }
    source->manager.next_input_byte = source->buffer;
    source->manager.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void pxp_jpeg_fd_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    while (count > (long)source->bytes_in_buffer) {
        count -= (long)source->bytes_in_buffer;
        (void)(*source->fill_input_buffer)(cinfo);
    }
    source->next_input_byte += (size_t)count;
    source->bytes_in_buffer -= (size_t)count;
}

static void pxp_jpeg_fd_term(j_decompress_ptr cinfo) { (void)cinfo; }

static void pxp_jpeg_fd_src(pxp_jpeg_decoder *decoder) {
    j_decompress_ptr info = &decoder->info;
    pxp_jpeg_fd_source *source = &decoder->fd_source;
    source->fd = decoder->fd;
    source->buffer = (JOCTET *)(*info->mem->alloc_small)((j_common_ptr)info, JPOOL_PERMANENT, PXP_JPEG_FILE_BUFFER);
    source->manager.init_source = pxp_jpeg_fd_init;
    source->manager.fill_input_buffer = pxp_jpeg_fd_fill;
    source->manager.skip_input_data = pxp_jpeg_fd_skip;
    source->manager.resync_to_restart = jpeg_resync_to_restart;
    source->manager.term_source = pxp_jpeg_fd_term;
    source->manager.bytes_in_buffer = 0;
    source->manager.next_input_byte = NULL;
    info->src = &source->manager;
}

static void pxp_jpeg_limit_scans(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr info = (j_decompress_ptr)cinfo;
    if (info->input_scan_number <= PXP_JPEG_MAX_SCANS) return;
    pxp_jpeg_errors *errors = (pxp_jpeg_errors *)cinfo->err;
    errors->kind = PXP_JPEG_ERROR_CORRUPT;
    snprintf(errors->message, sizeof errors->message, "more than %d progressive scans", PXP_JPEG_MAX_SCANS);
    longjmp(errors->jump, 1);
}

pxp_jpeg_decoder *pxp_jpeg_decoder_create(const unsigned char *data, size_t size) {
    pxp_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->fd = -1;
    pxp_jpeg_errors_init(&decoder->errors);
    decoder->info.err = &decoder->errors.manager;
    if (setjmp(decoder->errors.jump)) {
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    struct jpeg_memory_mgr *memory = decoder->info.mem;
    decoder->request_block_array = memory->request_virt_barray;
    decoder->realize_arrays = memory->realize_virt_arrays;
    decoder->free_pool = memory->free_pool;
    memory->request_virt_barray = pxp_jpeg_request_block_array;
    memory->realize_virt_arrays = pxp_jpeg_advise_block_arrays;
    memory->free_pool = pxp_jpeg_free_pool;
    decoder->progress.progress_monitor = pxp_jpeg_limit_scans;
    decoder->info.progress = &decoder->progress;
    return decoder;
}

pxp_jpeg_decoder *pxp_jpeg_decoder_create_fd(int fd) {
    if (fd < 0) return NULL;
    pxp_jpeg_decoder *decoder = pxp_jpeg_decoder_create(NULL, 0);
    if (decoder != NULL) decoder->fd = fd;
    return decoder;
}

void pxp_jpeg_decoder_destroy(pxp_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

void pxp_jpeg_decoder_set_memory_limit(pxp_jpeg_decoder *decoder, long bytes) {
    decoder->info.mem->max_memory_to_use = bytes;
}

int pxp_jpeg_decoder_read_header(pxp_jpeg_decoder *decoder, pxp_jpeg_header *header) {
    if (setjmp(decoder->errors.jump)) return PXP_JPEG_FAILED;
    struct jpeg_decompress_struct *info = &decoder->info;
    if (decoder->fd >= 0) pxp_jpeg_fd_src(decoder);
    else jpeg_mem_src(info, decoder->data, (unsigned long)decoder->size);
    jpeg_save_markers(info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(info, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(info, TRUE);
    header->width = info->image_width;
    header->height = info->image_height;
    header->components = info->num_components;
    header->color_space = pxp_jpeg_color_space_code(info->jpeg_color_space);
    header->data_precision = info->data_precision;
    header->progressive = info->progressive_mode ? 1 : 0;
    header->arithmetic = info->arith_code ? 1 : 0;
    header->saw_jfif = info->saw_JFIF_marker ? 1 : 0;
    header->density_unit = info->density_unit;
    header->x_density = info->X_density;
    header->y_density = info->Y_density;
    header->saw_adobe = info->saw_Adobe_marker ? 1 : 0;
    header->adobe_transform = info->Adobe_transform;
    return PXP_JPEG_OK;
}

const unsigned char *pxp_jpeg_decoder_find_app1(
    pxp_jpeg_decoder *decoder, const unsigned char *prefix, size_t prefix_length, size_t *length) {
    for (jpeg_saved_marker_ptr marker = decoder->info.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < prefix_length) continue;
        if (memcmp(marker->data, prefix, prefix_length) != 0) continue;
        *length = marker->data_length;
        return marker->data;
    }
    *length = 0;
    return NULL;
}

unsigned char *pxp_jpeg_decoder_copy_icc_profile(pxp_jpeg_decoder *decoder, size_t *length) {
    *length = 0;
    JOCTET *profile = NULL;
    unsigned int profile_length = 0;
    if (setjmp(decoder->errors.jump)) return NULL;
    if (!jpeg_read_icc_profile(&decoder->info, &profile, &profile_length)) return NULL;
    *length = profile_length;
    return profile;
}

int pxp_jpeg_decoder_configure(
    pxp_jpeg_decoder *decoder, int numerator, int color_space, unsigned int *width, unsigned int *height) {
    if (setjmp(decoder->errors.jump)) return PXP_JPEG_FAILED;
    struct jpeg_decompress_struct *info = &decoder->info;
    decoder->skips_rows = 0;
    info->scale_num = (unsigned int)numerator;
    info->scale_denom = 8;
    switch (color_space) {
    case PXP_JPEG_SPACE_GRAY: info->out_color_space = JCS_GRAYSCALE; break;
    case PXP_JPEG_SPACE_CMYK: info->out_color_space = JCS_CMYK; break;
    default: info->out_color_space = JCS_RGB; break;
    }
    jpeg_calc_output_dimensions(info);
    *width = info->output_width;
    *height = info->output_height;
    return PXP_JPEG_OK;
}

// Whether libjpeg's upsampler would accept every component, as it checks each one when it is built for
// colour output: a component is upsampled by whole factors or the decode fails (JERR_FRACT_SAMPLE_NOTIMPL).
// A grayscale output skips that check for the chroma components, so a verifying read only drops them where
// the check would pass. Needs jpeg_calc_output_dimensions first (the per-component DCT scaling).
static int pxp_jpeg_upsampling_is_integral(j_decompress_ptr info) {
#if JPEG_LIB_VERSION >= 70
    const int smallest = info->min_DCT_h_scaled_size;  // libjpeg-turbo scales both directions alike
#else
    const int smallest = info->min_DCT_scaled_size;
#endif
    if (smallest <= 0) return 0;
    for (int index = 0; index < info->num_components; index++) {
        const jpeg_component_info *component = &info->comp_info[index];
#if JPEG_LIB_VERSION >= 70
        const int scaled = component->DCT_h_scaled_size;
#else
        const int scaled = component->DCT_scaled_size;
#endif
        const int h_in = component->h_samp_factor * scaled / smallest;
        const int v_in = component->v_samp_factor * scaled / smallest;
        if (h_in <= 0 || v_in <= 0) return 0;
        if (info->max_h_samp_factor % h_in != 0 || info->max_v_samp_factor % v_in != 0) return 0;
    }
    return 1;
}

int pxp_jpeg_decoder_configure_verification(
    pxp_jpeg_decoder *decoder, int numerator, int color_space, unsigned int *width, unsigned int *height) {
    if (pxp_jpeg_decoder_configure(decoder, numerator, color_space, width, height) != PXP_JPEG_OK) {
        return PXP_JPEG_FAILED;
    }
    if (setjmp(decoder->errors.jump)) return PXP_JPEG_FAILED;
    struct jpeg_decompress_struct *info = &decoder->info;
    decoder->skips_rows = 0;
    if (info->out_color_space == JCS_RGB && info->jpeg_color_space == JCS_YCbCr && !info->CCIR601_sampling &&
        pxp_jpeg_upsampling_is_integral(info)) {
        // Luma only: libjpeg still entropy-decodes the chroma blocks (the scan interleaves them) but
        // neither keeps their coefficients nor transforms, upsamples or colour-converts them.
        info->out_color_space = JCS_GRAYSCALE;
        jpeg_calc_output_dimensions(info);
    }
    if (info->out_color_space != JCS_GRAYSCALE) return PXP_JPEG_OK;
    // Rows may be skipped where skipping is libjpeg's plainest path: one interleaved Huffman scan, whose
    // skipped rows are entropy-decoded MCU by MCU with the coefficients dropped, and luma at full
    // resolution (no upsampling state to carry across skipped rows). Multi-scan files read every scan in
    // jpeg_start_decompress and arithmetic-coded ones keep the plain read.
    const jpeg_component_info *luma = &info->comp_info[0];
    decoder->skips_rows = !info->progressive_mode && !info->arith_code &&
                          info->comps_in_scan == info->num_components &&
                          luma->h_samp_factor == info->max_h_samp_factor &&
                          luma->v_samp_factor == info->max_v_samp_factor;
    *width = info->output_width;
    *height = info->output_height;
    return PXP_JPEG_OK;
}

int pxp_jpeg_decoder_component_blocks(
    const pxp_jpeg_decoder *decoder, unsigned char *ids, unsigned char *sizes, unsigned char *luma, int capacity) {
    const struct jpeg_decompress_struct *info = &decoder->info;
    int count = 0;
    for (int index = 0; index < info->num_components && count < capacity; index++) {
        const jpeg_component_info *component = &info->comp_info[index];
#if JPEG_LIB_VERSION >= 70
        // libjpeg-turbo scales both directions alike; a mismatch is reported as a full-size block.
        const int size = component->DCT_h_scaled_size == component->DCT_v_scaled_size ? component->DCT_h_scaled_size
                                                                                         : DCTSIZE;
#else
        const int size = component->DCT_scaled_size;
#endif
        ids[count] = (unsigned char)component->component_id;
        sizes[count] = (unsigned char)(size > 0 && size <= DCTSIZE ? size : DCTSIZE);
        const J_COLOR_SPACE space = info->jpeg_color_space;
        luma[count] = index == 0 && (space == JCS_YCbCr || space == JCS_YCCK || space == JCS_GRAYSCALE);
        count++;
    }
    return count;
}

void pxp_jpeg_decoder_disable_block_smoothing(pxp_jpeg_decoder *decoder) { decoder->info.do_block_smoothing = FALSE; }

int pxp_jpeg_decoder_start(pxp_jpeg_decoder *decoder, int *components) {
    if (setjmp(decoder->errors.jump)) return PXP_JPEG_FAILED;
    jpeg_start_decompress(&decoder->info);
    *components = decoder->info.output_components;
    return PXP_JPEG_OK;
}

int pxp_jpeg_decoder_read_rows(
    pxp_jpeg_decoder *decoder, unsigned char *rows, size_t stride, unsigned int max_rows, unsigned int *read) {
    *read = 0;
    if (setjmp(decoder->errors.jump)) return PXP_JPEG_FAILED;
    struct jpeg_decompress_struct *info = &decoder->info;
    JSAMPROW pointers[16];
    unsigned int done = 0;
    while (done < max_rows && info->output_scanline < info->output_height) {
        unsigned int batch = max_rows - done < 16 ? max_rows - done : 16;
        for (unsigned int index = 0; index < batch; index++) pointers[index] = rows + (done + index) * stride;
        JDIMENSION got = jpeg_read_scanlines(info, pointers, batch);
        if (got == 0) break;  // cannot happen with a memory source, which never suspends
        done += got;
        *read = done;
    }
    return PXP_JPEG_OK;
}

int pxp_jpeg_decoder_discard_rows(
    pxp_jpeg_decoder *decoder, unsigned char *rows, size_t stride, unsigned int max_rows, unsigned int *done) {
    *done = 0;
    struct jpeg_decompress_struct *info = &decoder->info;
    if (decoder->skips_rows && info->output_scanline < info->output_height) {
        if (setjmp(decoder->errors.jump)) return PXP_JPEG_FAILED;
        // Never the last row: a skip that reaches the bottom ends the scan without reading the rest.
        unsigned int skip = max_rows;
        const unsigned int before_last = info->output_height - 1 - info->output_scanline;
        if (skip > before_last) skip = before_last;
        if (skip > 0) *done = jpeg_skip_scanlines(info, skip);
    }
    unsigned int read = 0;
    const int status = pxp_jpeg_decoder_read_rows(decoder, rows, stride, max_rows - *done, &read);
    *done += read;
    return status;
}

unsigned int pxp_jpeg_decoder_next_row(const pxp_jpeg_decoder *decoder) { return decoder->info.output_scanline; }

int pxp_jpeg_decoder_finish(pxp_jpeg_decoder *decoder) {
    if (setjmp(decoder->errors.jump)) return PXP_JPEG_FAILED;
    // Rows left unread (a caller that stops early) would make finish an error: skip them.
    struct jpeg_decompress_struct *info = &decoder->info;
    if (info->output_scanline < info->output_height) jpeg_abort_decompress(info);
    else jpeg_finish_decompress(info);
    return PXP_JPEG_OK;
}

int pxp_jpeg_decoder_error_kind(const pxp_jpeg_decoder *decoder) { return decoder->errors.kind; }

const char *pxp_jpeg_decoder_error_message(const pxp_jpeg_decoder *decoder) { return decoder->errors.message; }

int pxp_jpeg_decoder_warning_count(const pxp_jpeg_decoder *decoder) { return decoder->errors.warning_count; }

int pxp_jpeg_decoder_warning_code(const pxp_jpeg_decoder *decoder, int index) {
    if (index < 0 || index >= PXP_JPEG_MAX_WARNINGS || index >= decoder->errors.warning_count) return 0;
    return decoder->errors.warning_codes[index];
}

int pxp_jpeg_decoder_warning_place(const pxp_jpeg_decoder *decoder, int index) {
    if (index < 0 || index >= PXP_JPEG_MAX_WARNINGS || index >= decoder->errors.warning_count) return 0;
    return decoder->errors.warning_places[index];
}

const char *pxp_jpeg_decoder_warning_message(const pxp_jpeg_decoder *decoder, int index) {
    if (index < 0 || index >= PXP_JPEG_MAX_WARNINGS || index >= decoder->errors.warning_count) return "";
    return decoder->errors.warning_messages[index];
}

int pxp_jpeg_decoder_warning_tally(const pxp_jpeg_decoder *decoder, int code, int place) {
    if (code < 0 || code >= PXP_JPEG_WARNING_CODES || place < 0 || place >= PXP_JPEG_PLACES) return 0;
    return decoder->errors.warning_tally[code][place];
}

// MARK: encoding

// A destination that grows one malloc'd buffer, owned by the encoder so it is freed even after an
// error (libjpeg's jpeg_mem_dest leaks its buffer when compression fails midway).
typedef struct pxp_jpeg_destination {
    struct jpeg_destination_mgr manager;
    unsigned char *buffer;
    size_t capacity;
    size_t length;
} pxp_jpeg_destination;

struct pxp_jpeg_encoder {
    struct jpeg_compress_struct info;
    pxp_jpeg_errors errors;
    pxp_jpeg_destination destination;
};

static void pxp_jpeg_destination_init(j_compress_ptr cinfo) {
    pxp_jpeg_destination *destination = (pxp_jpeg_destination *)cinfo->dest;
    if (destination->buffer == NULL) {
        destination->capacity = 1 << 16;
        destination->buffer = malloc(destination->capacity);
        if (destination->buffer == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    }
    destination->manager.next_output_byte = destination->buffer;
    destination->manager.free_in_buffer = destination->capacity;
}

// Called when the buffer is full: double it.
static boolean pxp_jpeg_destination_grow(j_compress_ptr cinfo) {
    pxp_jpeg_destination *destination = (pxp_jpeg_destination *)cinfo->dest;
    unsigned char *grown = realloc(destination->buffer, destination->capacity * 2);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    destination->buffer = grown;
    destination->manager.next_output_byte = grown + destination->capacity;
    destination->manager.free_in_buffer = destination->capacity;
    destination->capacity *= 2;
    return TRUE;
}

static void pxp_jpeg_destination_term(j_compress_ptr cinfo) {
    pxp_jpeg_destination *destination = (pxp_jpeg_destination *)cinfo->dest;
    destination->length = destination->capacity - destination->manager.free_in_buffer;
}

pxp_jpeg_encoder *pxp_jpeg_encoder_create(void) {
    pxp_jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) return NULL;
    pxp_jpeg_errors_init(&encoder->errors);
    encoder->info.err = &encoder->errors.manager;
    if (setjmp(encoder->errors.jump)) {
        jpeg_destroy_compress(&encoder->info);
        free(encoder);
        return NULL;
    }
    jpeg_create_compress(&encoder->info);
    encoder->destination.manager.init_destination = pxp_jpeg_destination_init;
    encoder->destination.manager.empty_output_buffer = pxp_jpeg_destination_grow;
    encoder->destination.manager.term_destination = pxp_jpeg_destination_term;
    encoder->info.dest = &encoder->destination.manager;
    return encoder;
}

void pxp_jpeg_encoder_destroy(pxp_jpeg_encoder *encoder) {
    if (encoder == NULL) return;
    jpeg_destroy_compress(&encoder->info);
    free(encoder->destination.buffer);
    free(encoder);
}

int pxp_jpeg_encoder_start(pxp_jpeg_encoder *encoder, const pxp_jpeg_settings *settings) {
    if (setjmp(encoder->errors.jump)) return PXP_JPEG_FAILED;
    struct jpeg_compress_struct *info = &encoder->info;
    info->image_width = settings->width;
    info->image_height = settings->height;
    switch (settings->color_space) {
    case PXP_JPEG_SPACE_GRAY:
        info->input_components = 1;
        info->in_color_space = JCS_GRAYSCALE;
        break;
    case PXP_JPEG_SPACE_CMYK:
        info->input_components = 4;
        info->in_color_space = JCS_CMYK;
        break;
    default:
        info->input_components = 3;
        info->in_color_space = JCS_RGB;
        break;
    }
    // Defaults first: they reset everything below, and pick YCbCr for RGB and an Adobe marker for CMYK.
    jpeg_set_defaults(info);
    jpeg_set_quality(info, settings->quality, TRUE);
    if (info->jpeg_color_space == JCS_YCbCr) {
        info->comp_info[0].h_samp_factor = settings->luma_h_sampling;
        info->comp_info[0].v_samp_factor = settings->luma_v_sampling;
    }
    info->optimize_coding = settings->optimize_coding ? TRUE : FALSE;
    if (settings->restart_rows > 0 && settings->restart_rows <= 65535) info->restart_in_rows = settings->restart_rows;
    if (settings->density_unit == 1) {
        info->density_unit = 1;
        info->X_density = (UINT16)settings->x_density;
        info->Y_density = (UINT16)settings->y_density;
    }
    if (settings->progressive) jpeg_simple_progression(info);
    jpeg_start_compress(info, TRUE);
    return PXP_JPEG_OK;
}

int pxp_jpeg_encoder_write_marker(pxp_jpeg_encoder *encoder, int marker, const unsigned char *data, size_t length) {
    if (setjmp(encoder->errors.jump)) return PXP_JPEG_FAILED;
    jpeg_write_marker(&encoder->info, marker, data, (unsigned int)length);
    return PXP_JPEG_OK;
}

int pxp_jpeg_encoder_write_icc_profile(pxp_jpeg_encoder *encoder, const unsigned char *data, size_t length) {
    if (setjmp(encoder->errors.jump)) return PXP_JPEG_FAILED;
    jpeg_write_icc_profile(&encoder->info, data, (unsigned int)length);
    return PXP_JPEG_OK;
}

int pxp_jpeg_encoder_write_rows(
    pxp_jpeg_encoder *encoder, const unsigned char *rows, size_t stride, unsigned int count) {
    if (setjmp(encoder->errors.jump)) return PXP_JPEG_FAILED;
    JSAMPROW pointers[16];
    unsigned int done = 0;
    while (done < count) {
        unsigned int batch = count - done < 16 ? count - done : 16;
        // libjpeg takes non-const rows but only reads them.
        for (unsigned int index = 0; index < batch; index++) {
            pointers[index] = (JSAMPROW)(rows + (done + index) * stride);
        }
        JDIMENSION written = jpeg_write_scanlines(&encoder->info, pointers, batch);
        if (written == 0) break;  // the memory destination never suspends
        done += written;
    }
    return PXP_JPEG_OK;
}

int pxp_jpeg_encoder_finish(pxp_jpeg_encoder *encoder, const unsigned char **data, size_t *length) {
    if (setjmp(encoder->errors.jump)) return PXP_JPEG_FAILED;
    jpeg_finish_compress(&encoder->info);
    *data = encoder->destination.buffer;
    *length = encoder->destination.length;
    return PXP_JPEG_OK;
}

int pxp_jpeg_encoder_error_kind(const pxp_jpeg_encoder *encoder) { return encoder->errors.kind; }

const char *pxp_jpeg_encoder_error_message(const pxp_jpeg_encoder *encoder) { return encoder->errors.message; }
