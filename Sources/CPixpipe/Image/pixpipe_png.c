#include "pixpipe_png.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

// Limits that stop chunk bombs: at most this many ancillary chunks are kept, and no chunk (or
// decompressed iCCP/zTXt payload) may need more than this many bytes. Image dimensions are left to the
// caller's pixel limit, which is checked against the header before any pixel buffer exists.
enum {
    PXP_PNG_CHUNK_CACHE_MAX = 256,
    PXP_PNG_CHUNK_MALLOC_MAX = 16 * 1024 * 1024,
    PXP_PNG_MESSAGE_CAPACITY = 256,
    // Compressed image data allowed after the last row. A valid stream has only its end: an end-of-block
    // code, perhaps an empty block, the 4-byte Adler-32, a few dozen bytes at most. Beyond this, libpng
    // would inflate the rest (up to 1032 times its size) just to find the end, so decoding stops instead.
    // With the 8 KiB libpng may already hold, at most about 25 MB are inflated after the rows.
    PXP_PNG_TRAILING_IDAT_MAX = 16 * 1024,
    // Bytes read from a file at a time: large enough that libpng's many small reads (chunk headers,
    // CRCs) cost no system call each, small enough to be nothing next to one image row band.
    PXP_PNG_FILE_BUFFER = 64 * 1024,
};

// ---------------------------------------------------------------------------------------------------
// Message capture shared by the decoder and the encoder.

// The read warnings about one chunk type: how many, and the first message.
typedef struct {
    png_uint_32 chunk;
    int repeats;
    char message[PXP_PNG_MESSAGE_CAPACITY];
} pxp_png_warning_kind;

typedef struct {
    char error[PXP_PNG_MESSAGE_CAPACITY];
    char warning[PXP_PNG_MESSAGE_CAPACITY];
    int warning_count;
    // Read side only (the encoder leaves it empty).
    int kind_count;
    int kind_overflow;
    pxp_png_warning_kind kinds[PXP_PNG_MAX_WARNING_KINDS];
} pxp_png_messages;

static void pxp_png_copy_message(char *target, const char *message) {
    if (message == NULL) message = "unknown libpng error";
    strncpy(target, message, PXP_PNG_MESSAGE_CAPACITY - 1);
    target[PXP_PNG_MESSAGE_CAPACITY - 1] = '\0';
}

static pxp_png_messages *pxp_png_messages_of(png_structp png) {
    return (pxp_png_messages *)png_get_error_ptr(png);
}

// libpng must not return from the error callback (it would print and abort), so jump back to the
// setjmp of whichever guarded call is running.
static void pxp_png_on_error(png_structp png, png_const_charp message) {
    pxp_png_messages *messages = pxp_png_messages_of(png);
    if (messages != NULL) pxp_png_copy_message(messages->error, message);
    png_longjmp(png, 1);
}

// Records the warning under the chunk being read (the getter only reads a field).
static void pxp_png_record_kind(png_structp png, pxp_png_messages *messages, png_const_charp message) {
    const png_uint_32 chunk = png_get_io_chunk_type(png);
    for (int index = 0; index < messages->kind_count; index++) {
        pxp_png_warning_kind *kind = &messages->kinds[index];
        if (kind->chunk == chunk) {
            if (kind->repeats < 1 << 30) kind->repeats += 1;
            return;
        }
    }
    if (messages->kind_count == PXP_PNG_MAX_WARNING_KINDS) {
        messages->kind_overflow = 1;
        return;
    }
    pxp_png_warning_kind *kind = &messages->kinds[messages->kind_count++];
    kind->chunk = chunk;
    kind->repeats = 1;
    pxp_png_copy_message(kind->message, message);
}

static void pxp_png_on_warning(png_structp png, png_const_charp message) {
    pxp_png_messages *messages = pxp_png_messages_of(png);
    if (messages == NULL) return;
    if (messages->warning_count == 0) pxp_png_copy_message(messages->warning, message);
    messages->warning_count += 1;
    pxp_png_record_kind(png, messages, message);
}

static int pxp_png_is_little_endian(void) {
    const uint16_t probe = 1;
    return *(const uint8_t *)&probe == 1;
}

// ---------------------------------------------------------------------------------------------------
// Decoder.

struct pxp_png_decoder {
    // First member, so the error pointer handed to libpng is also the decoder.
    pxp_png_messages messages;
    png_structp png;
    png_infop info;
    // Memory source: `length` bytes at `bytes`, read up to `offset`. File source (`fd` >= 0): `bytes`
    // is the decoder's own buffer of `length` bytes read from the file, consumed up to `offset`.
    const uint8_t *bytes;
    size_t length;
    size_t offset;
    int fd;
    uint8_t *file_buffer;
    int truncated;
    // Set once the read callback has checked what follows the last row, and when it found too much.
    int trailing_checked;
    int trailing_excess;
    int info_read;
    int transforms_set;
};

static uint32_t pxp_png_big_endian_32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | (uint32_t)bytes[3];
}

// The 8-byte chunk header at `position` of the whole input, from memory or (without moving the file
// offset libpng reads from) from the file; 0 when the input ends before it.
static int pxp_png_chunk_header(const pxp_png_decoder *decoder, size_t position, uint8_t header[8]) {
    if (decoder->fd < 0) {
        if (position > decoder->length || decoder->length - position < 8) return 0;
        memcpy(header, decoder->bytes + position, 8);
        return 1;
    }
    ssize_t got;
    do {
        got = pread(decoder->fd, header, 8, (off_t)position);
    } while (got < 0 && errno == EINTR);
    return got == 8;
}

// The whole input's length and libpng's read position in it; for a file, its size and the file offset
// less what is still buffered. Both are 0 when the file cannot say (the check then finds nothing).
static void pxp_png_input_extent(const pxp_png_decoder *decoder, size_t *length, size_t *offset) {
    *length = decoder->length;
    *offset = decoder->offset;
    if (decoder->fd < 0) return;
    struct stat status;
    const off_t position = lseek(decoder->fd, 0, SEEK_CUR);
    const size_t buffered = decoder->length - decoder->offset;
    if (fstat(decoder->fd, &status) != 0 || position < 0 || (size_t)position < buffered) {
        *length = 0;
        *offset = 0;
        return;
    }
    *length = (size_t)status.st_size;
    *offset = (size_t)position - buffered;
}

// The IDAT payload bytes at or after `offset` that libpng could still inflate: the rest of the IDAT
// chunk holding `offset` and of the IDAT chunks right after it. Walks the chunk headers from the
// signature, as libpng read them; every length is checked against the input, and the count stops once
// over `limit`.
static size_t pxp_png_idat_bytes_after(const pxp_png_decoder *decoder, size_t limit) {
    static const uint8_t idat[4] = {'I', 'D', 'A', 'T'};
    size_t length, offset;
    pxp_png_input_extent(decoder, &length, &offset);
    size_t remaining = 0;
    size_t position = 8;
    uint8_t header[8];
    while (position <= length && length - position >= 8 && remaining <= limit &&
           pxp_png_chunk_header(decoder, position, header)) {
        const size_t data_start = position + 8;
        const size_t data_length = pxp_png_big_endian_32(header);
        const size_t data_end = data_length > length - data_start ? length : data_start + data_length;
        const size_t chunk_end = length - data_end >= 4 ? data_end + 4 : length;
        const int is_idat = memcmp(header + 4, idat, 4) == 0;
        if (chunk_end > offset) {
            // libpng stops inflating at the first chunk after the image data that is not an IDAT.
            if (!is_idat) break;
            const size_t from = offset > data_start ? offset : data_start;
            if (data_end > from) remaining += data_end - from;
        }
        position = chunk_end;
    }
    return remaining;
}

// Whether a chunk other than IDAT declares more data than PXP_PNG_CHUNK_MALLOC_MAX. libpng 1.6.39
// allocates a text chunk's declared length before reading it (a fuzzed iTXt declaring 1.1 GB made it
// ask for 1.1 GB) even with the chunk malloc limit set, so the declared lengths are checked here first.
// IDAT data is streamed, never allocated whole, so its length is left to libpng.
static int pxp_png_has_oversized_chunk(const pxp_png_decoder *decoder) {
    static const uint8_t idat[4] = {'I', 'D', 'A', 'T'};
    static const uint8_t iend[4] = {'I', 'E', 'N', 'D'};
    size_t length, offset;
    pxp_png_input_extent(decoder, &length, &offset);
    size_t position = 8;
    uint8_t header[8];
    while (position <= length && length - position >= 8 && pxp_png_chunk_header(decoder, position, header)) {
        // Nothing after IEND is read by libpng; walking it would touch every page of a huge tail.
        if (memcmp(header + 4, iend, 4) == 0) break;
        const size_t data_length = pxp_png_big_endian_32(header);
        if (memcmp(header + 4, idat, 4) != 0 && data_length > PXP_PNG_CHUNK_MALLOC_MAX) return 1;
        if (data_length > length - position - 8) break;
        position += 12 + data_length;
    }
    return 0;
}

// After the last row libpng inflates whatever is left of the image data only to find the end of the
// zlib stream; a small image with a huge stream makes that seconds of work. The first read once every
// row is done (row number at the height, or pass 7 for Adam7) checks how much is left and stops libpng
// when it is more than a valid stream's end. Both getters only read fields and cannot png_error.
static void pxp_png_check_trailing_data(png_structp png, pxp_png_decoder *decoder) {
    if (decoder->trailing_checked || !decoder->transforms_set) return;
    const int rows_done = png_get_current_pass_number(png) >= 7 ||
                          png_get_current_row_number(png) >= png_get_image_height(png, decoder->info);
    if (!rows_done) return;
    decoder->trailing_checked = 1;
    const size_t excess = pxp_png_idat_bytes_after(decoder, PXP_PNG_TRAILING_IDAT_MAX);
    if (excess > PXP_PNG_TRAILING_IDAT_MAX) {
        decoder->trailing_excess = 1;
        png_error(png, "too much image data after the last row");
    }
}

// Refills the file buffer; returns the bytes now available, 0 at the end of the file.
static size_t pxp_png_refill(png_structp png, pxp_png_decoder *decoder) {
    ssize_t got;
    do {
        got = read(decoder->fd, decoder->file_buffer, PXP_PNG_FILE_BUFFER);
    } while (got < 0 && errno == EINTR);
    if (got < 0) png_error(png, "read error");
    decoder->bytes = decoder->file_buffer;
    decoder->length = (size_t)got;
    decoder->offset = 0;
    return (size_t)got;
}

static void pxp_png_read_from_file(png_structp png, png_bytep target, size_t count) {
    pxp_png_decoder *decoder = (pxp_png_decoder *)png_get_io_ptr(png);
    pxp_png_check_trailing_data(png, decoder);
    while (count > 0) {
        if (decoder->offset == decoder->length && pxp_png_refill(png, decoder) == 0) {
            decoder->truncated = 1;
            png_error(png, "unexpected end of data");
        }
        size_t available = decoder->length - decoder->offset;
        size_t step = count < available ? count : available;
        memcpy(target, decoder->bytes + decoder->offset, step);
        decoder->offset += step;
        target += step;
        count -= step;
    }
}

static void pxp_png_read_from_memory(png_structp png, png_bytep target, size_t count) {
    pxp_png_decoder *decoder = (pxp_png_decoder *)png_get_io_ptr(png);
    pxp_png_check_trailing_data(png, decoder);
    if (count > decoder->length - decoder->offset) {
        // Flagged separately so the caller can tell a short file from a damaged one.
        decoder->truncated = 1;
        decoder->offset = decoder->length;
        png_error(png, "unexpected end of data");
    }
    memcpy(target, decoder->bytes + decoder->offset, count);
    decoder->offset += count;
}

static pxp_png_status pxp_png_decoder_failure(pxp_png_decoder *decoder) {
    if (decoder->trailing_excess) return PXP_PNG_EXCESS_DATA;
    return decoder->truncated ? PXP_PNG_TRUNCATED : PXP_PNG_CORRUPT;
}

static pxp_png_decoder *pxp_png_decoder_create_with(const uint8_t *bytes, size_t length, int fd) {
    pxp_png_decoder *decoder = calloc(1, sizeof(pxp_png_decoder));
    if (decoder == NULL) return NULL;
    decoder->fd = fd;
    if (fd >= 0) {
        decoder->file_buffer = malloc(PXP_PNG_FILE_BUFFER);
        if (decoder->file_buffer == NULL) {
            free(decoder);
            return NULL;
        }
    } else {
        decoder->bytes = bytes;
        decoder->length = bytes == NULL ? 0 : length;
    }
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->messages, pxp_png_on_error,
                                          pxp_png_on_warning);
    if (decoder->png == NULL) {
        free(decoder->file_buffer);
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder->file_buffer);
        free(decoder);
        return NULL;
    }
    // None of these setters can png_error, so no guard is needed here.
    png_set_read_fn(decoder->png, decoder, fd >= 0 ? pxp_png_read_from_file : pxp_png_read_from_memory);
    png_set_user_limits(decoder->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_chunk_cache_max(decoder->png, PXP_PNG_CHUNK_CACHE_MAX);
    png_set_chunk_malloc_max(decoder->png, PXP_PNG_CHUNK_MALLOC_MAX);
    // A CRC mismatch is an error in a critical chunk; an ancillary chunk with one is discarded with a
    // warning (damaged data is never used), and PNGWarningTable decides whether losing it matters.
    png_set_crc_action(decoder->png, PNG_CRC_ERROR_QUIT, PNG_CRC_WARN_DISCARD);
    // Benign errors (an invalid ancillary chunk, extra data after the last row) are warnings, recorded
    // and classified like the rest; this is libpng's read default, set here so it is stated.
    png_set_benign_errors(decoder->png, 1);
#ifdef PNG_IGNORE_ADLER32
    // zlib's Adler-32 of the inflated data costs about 4% of a decode and adds nothing: every IDAT
    // chunk's CRC-32 above already guards the very same bytes, more strongly, before inflating them.
    png_set_option(decoder->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    return decoder;
}

pxp_png_decoder *pxp_png_decoder_create(const uint8_t *bytes, size_t length) {
    return pxp_png_decoder_create_with(bytes, length, -1);
}

pxp_png_decoder *pxp_png_decoder_create_fd(int fd) {
    if (fd < 0) return NULL;
    return pxp_png_decoder_create_with(NULL, 0, fd);
}

void pxp_png_decoder_destroy(pxp_png_decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->file_buffer);
    free(decoder);
}

const char *pxp_png_decoder_message(const pxp_png_decoder *decoder) { return decoder->messages.error; }

const char *pxp_png_decoder_warning(const pxp_png_decoder *decoder) { return decoder->messages.warning; }

int pxp_png_decoder_warning_count(const pxp_png_decoder *decoder) { return decoder->messages.warning_count; }

int pxp_png_decoder_warning_kinds(const pxp_png_decoder *decoder) { return decoder->messages.kind_count; }

int pxp_png_decoder_warning_overflow(const pxp_png_decoder *decoder) { return decoder->messages.kind_overflow; }

static const pxp_png_warning_kind *pxp_png_kind_at(const pxp_png_decoder *decoder, int index) {
    if (index < 0 || index >= decoder->messages.kind_count) return NULL;
    return &decoder->messages.kinds[index];
}

uint32_t pxp_png_decoder_warning_chunk(const pxp_png_decoder *decoder, int index) {
    const pxp_png_warning_kind *kind = pxp_png_kind_at(decoder, index);
    return kind == NULL ? 0 : kind->chunk;
}

int pxp_png_decoder_warning_repeats(const pxp_png_decoder *decoder, int index) {
    const pxp_png_warning_kind *kind = pxp_png_kind_at(decoder, index);
    return kind == NULL ? 0 : kind->repeats;
}

const char *pxp_png_decoder_warning_message(const pxp_png_decoder *decoder, int index) {
    const pxp_png_warning_kind *kind = pxp_png_kind_at(decoder, index);
    return kind == NULL ? "" : kind->message;
}

// Copies what libpng holds now; none of these getters can png_error.
static void pxp_png_fill_metadata(pxp_png_decoder *decoder, pxp_png_info *info) {
    png_structp png = decoder->png;
    png_infop png_info = decoder->info;
    info->has_trns = png_get_valid(png, png_info, PNG_INFO_tRNS) != 0;

    double gamma = 0;
    info->has_gamma = png_get_gAMA(png, png_info, &gamma) != 0;
    info->gamma = info->has_gamma ? gamma : 0;

    int srgb_intent = 0;
    info->has_srgb = png_get_sRGB(png, png_info, &srgb_intent) != 0;
    double *c = info->chrm;
    info->has_chrm = png_get_cHRM(png, png_info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]) != 0;

    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_length = 0;
    if (png_get_iCCP(png, png_info, &name, &compression, &profile, &profile_length) != 0) {
        info->icc = profile;
        info->icc_length = profile_length;
    } else {
        info->icc = NULL;
        info->icc_length = 0;
    }

    png_bytep exif = NULL;
    png_uint_32 exif_length = 0;
    const int has_exif = png_get_eXIf_1(png, png_info, &exif_length, &exif) != 0 && exif != NULL;
    info->exif = has_exif && exif_length > 0 ? exif : NULL;
    info->exif_length = has_exif ? exif_length : 0;

    png_uint_32 phys_x = 0, phys_y = 0;
    int unit = 0;
    info->has_phys = png_get_pHYs(png, png_info, &phys_x, &phys_y, &unit) != 0;
    info->phys_x = phys_x;
    info->phys_y = phys_y;
    info->phys_unit = unit;
}

pxp_png_status pxp_png_read_info(pxp_png_decoder *decoder, pxp_png_info *info) {
    if (decoder->info_read) return PXP_PNG_FAILURE;
    if (setjmp(png_jmpbuf(decoder->png))) return pxp_png_decoder_failure(decoder);
    if (pxp_png_has_oversized_chunk(decoder)) png_error(decoder->png, "chunk data is too large");
    png_read_info(decoder->png, decoder->info);
    decoder->info_read = 1;

    memset(info, 0, sizeof(*info));
    info->width = png_get_image_width(decoder->png, decoder->info);
    info->height = png_get_image_height(decoder->png, decoder->info);
    info->bit_depth = png_get_bit_depth(decoder->png, decoder->info);
    info->color_type = png_get_color_type(decoder->png, decoder->info);
    info->interlaced = png_get_interlace_type(decoder->png, decoder->info) == PNG_INTERLACE_ADAM7;
    pxp_png_fill_metadata(decoder, info);
    return PXP_PNG_OK;
}

int pxp_png_decoder_image_data_offset(const pxp_png_decoder *decoder, size_t *offset) {
    if (decoder->fd >= 0 || !decoder->info_read || decoder->trailing_checked) return 0;
    if (png_get_current_row_number(decoder->png) != 0 || png_get_current_pass_number(decoder->png) != 0) return 0;
    *offset = decoder->offset;
    return 1;
}

pxp_png_status pxp_png_set_transforms(pxp_png_decoder *decoder, int keep16, pxp_png_output *output) {
    if (!decoder->info_read || decoder->transforms_set) return PXP_PNG_FAILURE;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) return pxp_png_decoder_failure(decoder);

    const int color_type = png_get_color_type(png, info);
    const int bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    // libpng widens 1/2/4-bit gray by bit replication (v * 255 / (2^depth - 1)), the stored-sample scale.
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS) != 0) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) {
        if (!keep16) {
            png_set_strip_16(png);  // keeps the high byte, no rounding
        } else if (pxp_png_is_little_endian()) {
            png_set_swap(png);  // PNG stores big-endian; callers want native order
        }
    }
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    decoder->transforms_set = 1;

    output->channels = png_get_channels(png, info);
    output->bit_depth = png_get_bit_depth(png, info);
    output->row_bytes = png_get_rowbytes(png, info);
    output->passes = passes;
    return PXP_PNG_OK;
}

pxp_png_status pxp_png_read_rows(pxp_png_decoder *decoder, uint8_t *const *rows, uint32_t count,
                                 uint32_t *rows_read) {
    *rows_read = 0;
    if (!decoder->transforms_set) return PXP_PNG_FAILURE;
    // `rows_read` points into the caller's memory, so its value survives the longjmp.
    if (setjmp(png_jmpbuf(decoder->png))) {
        // Excess data is found after libpng has stored the last row, so that row counts as read.
        if (decoder->trailing_excess) *rows_read += 1;
        return pxp_png_decoder_failure(decoder);
    }
    for (uint32_t index = 0; index < count; index++) {
        png_read_row(decoder->png, rows[index], NULL);
        *rows_read = index + 1;
    }
    return PXP_PNG_OK;
}

pxp_png_status pxp_png_read_image(pxp_png_decoder *decoder, uint8_t *const *rows) {
    if (!decoder->transforms_set) return PXP_PNG_FAILURE;
    if (setjmp(png_jmpbuf(decoder->png))) return pxp_png_decoder_failure(decoder);
    png_read_image(decoder->png, (png_bytepp)rows);
    return PXP_PNG_OK;
}

pxp_png_status pxp_png_read_end(pxp_png_decoder *decoder, pxp_png_info *info) {
    if (!decoder->transforms_set) return PXP_PNG_FAILURE;
    if (setjmp(png_jmpbuf(decoder->png))) return pxp_png_decoder_failure(decoder);
    png_read_end(decoder->png, decoder->info);
    if (info != NULL) pxp_png_fill_metadata(decoder, info);
    return PXP_PNG_OK;
}

// ---------------------------------------------------------------------------------------------------
// Encoder.

struct pxp_png_encoder {
    // First member, so the error pointer handed to libpng is also the encoder.
    pxp_png_messages messages;
    uint8_t *data;
    size_t length;
    size_t capacity;
    // Owned here rather than on the stack so a longjmp cannot leak them.
    png_bytep *rows;
    png_structp png;
    png_infop info;
    // Row mode (pxp_png_encoder_start_fd): the file written, bytes waiting in `data` (used as a fixed
    // buffer of PXP_PNG_FILE_BUFFER bytes there), and the errno of a failed write.
    int fd;
    int write_errno;
};

static void pxp_png_write_to_memory(png_structp png, png_bytep bytes, size_t count) {
    pxp_png_encoder *encoder = (pxp_png_encoder *)png_get_io_ptr(png);
    if (count > SIZE_MAX - encoder->length) png_error(png, "output too large");
    const size_t needed = encoder->length + count;
    if (needed > encoder->capacity) {
        size_t capacity = encoder->capacity < 4096 ? 4096 : encoder->capacity;
        while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        uint8_t *grown = realloc(encoder->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        encoder->data = grown;
        encoder->capacity = capacity;
    }
    memcpy(encoder->data + encoder->length, bytes, count);
    encoder->length = needed;
}

static void pxp_png_flush_memory(png_structp png) { (void)png; }

pxp_png_encoder *pxp_png_encoder_create(void) { return calloc(1, sizeof(pxp_png_encoder)); }

static void pxp_png_encoder_release_libpng(pxp_png_encoder *encoder) {
    if (encoder->png != NULL) png_destroy_write_struct(&encoder->png, &encoder->info);
    encoder->png = NULL;
    encoder->info = NULL;
    free(encoder->rows);
    encoder->rows = NULL;
}

void pxp_png_encoder_destroy(pxp_png_encoder *encoder) {
    if (encoder == NULL) return;
    pxp_png_encoder_release_libpng(encoder);
    free(encoder->data);
    free(encoder);
}

const uint8_t *pxp_png_encoder_data(const pxp_png_encoder *encoder, size_t *length) {
    *length = encoder->length;
    return encoder->data;
}

const char *pxp_png_encoder_message(const pxp_png_encoder *encoder) { return encoder->messages.error; }

const char *pxp_png_encoder_warning(const pxp_png_encoder *encoder) { return encoder->messages.warning; }

static int pxp_png_color_type_for(int channels) {
    switch (channels) {
    case 1: return PNG_COLOR_TYPE_GRAY;
    case 2: return PNG_COLOR_TYPE_GRAY_ALPHA;
    case 3: return PNG_COLOR_TYPE_RGB;
    case 4: return PNG_COLOR_TYPE_RGB_ALPHA;
    default: return -1;
    }
}

// Row mode: libpng's many small writes (chunk headers, CRCs, IDATs) gather in one buffer, so the file
// sees one write() per PXP_PNG_FILE_BUFFER bytes.
static int pxp_png_flush_buffer(pxp_png_encoder *encoder) {
    size_t offset = 0;
    while (offset < encoder->length) {
        ssize_t written = write(encoder->fd, encoder->data + offset, encoder->length - offset);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
            encoder->write_errno = written < 0 ? errno : EIO;
            return -1;
        }
        offset += (size_t)written;
    }
    encoder->length = 0;
    return 0;
}

static void pxp_png_write_to_file(png_structp png, png_bytep bytes, size_t count) {
    pxp_png_encoder *encoder = (pxp_png_encoder *)png_get_io_ptr(png);
    while (count > 0) {
        size_t room = PXP_PNG_FILE_BUFFER - encoder->length;
        size_t part = count < room ? count : room;
        memcpy(encoder->data + encoder->length, bytes, part);
        encoder->length += part;
        bytes += part;
        count -= part;
        if (encoder->length == PXP_PNG_FILE_BUFFER && pxp_png_flush_buffer(encoder) != 0)
            png_error(png, "cannot write the output file");
    }
}

static void pxp_png_flush_file(png_structp png) {
    pxp_png_encoder *encoder = (pxp_png_encoder *)png_get_io_ptr(png);
    if (pxp_png_flush_buffer(encoder) != 0) png_error(png, "cannot write the output file");
}

// The IHDR, compression settings and metadata chunks shared by both modes; runs under the caller's setjmp.
static void pxp_png_write_header(png_structp png, png_infop info, const pxp_png_encode_params *params,
                                 int color_type) {
    png_set_IHDR(png, info, params->width, params->height, params->bit_depth, color_type,
                 params->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, params->compression_level);
    // libpng pairs row filters with zlib's Z_FILTERED strategy; on photos the default strategy is both
    // faster (about 20% at level 6) and smaller (about 2%), as measured by scripts/bench.
    png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
    if (params->icc != NULL && params->icc_length > 0 && params->icc_length <= PNG_UINT_31_MAX) {
        // libpng checks the profile; a profile that does not suit the image (a gray profile on RGB pixels
        // from a converted image, say) is dropped with a warning instead of failing the whole encode.
        png_set_benign_errors(png, 1);
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, params->icc,
                     (png_uint_32)params->icc_length);
    }
    if (params->exif != NULL && params->exif_length > 0 && params->exif_length <= PNG_UINT_31_MAX) {
        png_set_eXIf_1(png, info, (png_uint_32)params->exif_length, (png_bytep)params->exif);
    }
    png_write_info(png, info);
    if (params->bit_depth == 16 && pxp_png_is_little_endian()) png_set_swap(png);
}

pxp_png_status pxp_png_encoder_start_fd(pxp_png_encoder *encoder, const pxp_png_encode_params *params, int fd) {
    const int color_type = pxp_png_color_type_for(params->channels);
    if (encoder->png != NULL || color_type < 0 || (params->bit_depth != 8 && params->bit_depth != 16) ||
        params->width == 0 || params->height == 0 || params->interlaced || fd < 0) {
        pxp_png_copy_message(encoder->messages.error, "invalid encoder parameters");
        return PXP_PNG_FAILURE;
    }
    free(encoder->data);
    encoder->data = malloc(PXP_PNG_FILE_BUFFER);
    encoder->length = 0;
    encoder->capacity = PXP_PNG_FILE_BUFFER;
    encoder->fd = fd;
    encoder->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &encoder->messages, pxp_png_on_error,
                                           pxp_png_on_warning);
    if (encoder->png != NULL) encoder->info = png_create_info_struct(encoder->png);
    if (encoder->data == NULL || encoder->png == NULL || encoder->info == NULL) {
        pxp_png_encoder_release_libpng(encoder);
        pxp_png_copy_message(encoder->messages.error, "out of memory");
        return PXP_PNG_FAILURE;
    }
    png_structp png = encoder->png;
    if (setjmp(png_jmpbuf(png))) {
        pxp_png_encoder_release_libpng(encoder);
        return PXP_PNG_CORRUPT;
    }
    png_set_write_fn(png, encoder, pxp_png_write_to_file, pxp_png_flush_file);
    pxp_png_write_header(png, encoder->info, params, color_type);
    return PXP_PNG_OK;
}

pxp_png_status pxp_png_encoder_write_rows(pxp_png_encoder *encoder, const uint8_t *pixels, size_t stride,
                                          uint32_t count) {
    if (encoder->png == NULL) {
        pxp_png_copy_message(encoder->messages.error, "the encoder was not started");
        return PXP_PNG_FAILURE;
    }
    png_structp png = encoder->png;
    if (setjmp(png_jmpbuf(png))) {
        pxp_png_encoder_release_libpng(encoder);
        return PXP_PNG_CORRUPT;
    }
    for (uint32_t row = 0; row < count; row++) png_write_row(png, (png_const_bytep)(pixels + row * stride));
    return PXP_PNG_OK;
}

pxp_png_status pxp_png_encoder_finish_fd(pxp_png_encoder *encoder) {
    if (encoder->png == NULL) {
        pxp_png_copy_message(encoder->messages.error, "the encoder was not started");
        return PXP_PNG_FAILURE;
    }
    png_structp png = encoder->png;
    if (setjmp(png_jmpbuf(png))) {
        pxp_png_encoder_release_libpng(encoder);
        return PXP_PNG_CORRUPT;
    }
    // No info: everything was written before the image data, and libpng 1.6 writes eXIf again from an info
    // passed here, giving the file a duplicate chunk that readers warn about.
    png_write_end(png, NULL);
    pxp_png_encoder_release_libpng(encoder);
    if (pxp_png_flush_buffer(encoder) != 0) {
        pxp_png_copy_message(encoder->messages.error, "cannot write the output file");
        return PXP_PNG_FAILURE;
    }
    return PXP_PNG_OK;
}

int pxp_png_encoder_write_errno(const pxp_png_encoder *encoder) { return encoder->write_errno; }

pxp_png_status pxp_png_encode(pxp_png_encoder *encoder, const pxp_png_encode_params *params,
                              const uint8_t *pixels, size_t stride) {
    const int color_type = pxp_png_color_type_for(params->channels);
    if (encoder->png != NULL || color_type < 0 || (params->bit_depth != 8 && params->bit_depth != 16) ||
        params->width == 0 || params->height == 0 || pixels == NULL) {
        pxp_png_copy_message(encoder->messages.error, "invalid encoder parameters");
        return PXP_PNG_FAILURE;
    }
    encoder->rows = malloc(sizeof(png_bytep) * params->height);
    if (encoder->rows == NULL) {
        pxp_png_copy_message(encoder->messages.error, "out of memory");
        return PXP_PNG_FAILURE;
    }
    for (uint32_t row = 0; row < params->height; row++) encoder->rows[row] = (png_bytep)(pixels + row * stride);

    encoder->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &encoder->messages, pxp_png_on_error,
                                           pxp_png_on_warning);
    if (encoder->png != NULL) encoder->info = png_create_info_struct(encoder->png);
    if (encoder->png == NULL || encoder->info == NULL) {
        pxp_png_encoder_release_libpng(encoder);
        pxp_png_copy_message(encoder->messages.error, "out of memory");
        return PXP_PNG_FAILURE;
    }
    png_structp png = encoder->png;
    png_infop info = encoder->info;
    if (setjmp(png_jmpbuf(png))) {
        pxp_png_encoder_release_libpng(encoder);
        return PXP_PNG_CORRUPT;
    }
    png_set_write_fn(png, encoder, pxp_png_write_to_memory, pxp_png_flush_memory);
    pxp_png_write_header(png, info, params, color_type);
    png_write_image(png, encoder->rows);
    // No info: everything was written before the image data, and libpng 1.6 writes eXIf again from an info
    // passed here, giving the file a duplicate chunk that readers warn about.
    png_write_end(png, NULL);
    pxp_png_encoder_release_libpng(encoder);
    return PXP_PNG_OK;
}
