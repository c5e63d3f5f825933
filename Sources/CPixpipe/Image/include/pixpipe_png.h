#ifndef PIXPIPE_PNG_H
#define PIXPIPE_PNG_H
// libpng behind setjmp guards. Every libpng call that can png_error runs inside a setjmp in C, because
// a longjmp across Swift frames is undefined behaviour. Errors and warnings are captured into the
// context as text, never printed. The read side is a sequence of steps (info, transforms, rows, end)
// so that a streaming consumer can pull rows one band at a time.
#include <stddef.h>
#include <stdint.h>

/// Result of every fallible call.
typedef enum {
    PXP_PNG_OK = 0,
    /// libpng refused the data (bad chunk, CRC, zlib, IHDR values...); see the context's message.
    PXP_PNG_CORRUPT = 1,
    /// The input ended before libpng was done with it.
    PXP_PNG_TRUNCATED = 2,
    /// Out of memory, or a call made out of order.
    PXP_PNG_FAILURE = 3,
    /// Every row was read, but far more compressed image data than a stream's end follows the last row:
    /// decoding stopped instead of inflating it. The chunks after the image data were not read.
    PXP_PNG_EXCESS_DATA = 4,
} pxp_png_status;

/// PNG colour types, mirrored because the macros do not import into Swift as an enum.
enum {
    PXP_PNG_COLOR_GRAY = 0,
    PXP_PNG_COLOR_RGB = 2,
    PXP_PNG_COLOR_PALETTE = 3,
    PXP_PNG_COLOR_GRAY_ALPHA = 4,
    PXP_PNG_COLOR_RGBA = 6,
};

/// Header facts and the metadata chunks seen so far. Pointers belong to the decoder and stay valid
/// until it is destroyed.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// Stored bits per sample (1, 2, 4, 8 or 16; palette index depth for palette images).
    int bit_depth;
    /// One of PXP_PNG_COLOR_*.
    int color_type;
    /// 1 when Adam7-interlaced.
    int interlaced;
    /// 1 when a tRNS chunk is present.
    int has_trns;
    /// 1 when a gAMA chunk is present; `gamma` is then the file gamma (for example 0.45455).
    int has_gamma;
    double gamma;
    /// 1 when an sRGB chunk is present: the image is sRGB, whatever gAMA and cHRM say.
    int has_srgb;
    /// 1 when a cHRM chunk is present; `chrm` then holds CIE x, y of the white point, red, green and blue.
    int has_chrm;
    double chrm[8];
    /// The decompressed iCCP profile, or NULL.
    const uint8_t *icc;
    size_t icc_length;
    /// The eXIf payload (TIFF structure), or NULL.
    const uint8_t *exif;
    size_t exif_length;
    /// 1 when a pHYs chunk is present; `phys_unit` is 1 for metres, 0 for an aspect ratio only.
    int has_phys;
    uint32_t phys_x;
    uint32_t phys_y;
    int phys_unit;
} pxp_png_info;

/// The output rows once transforms are set.
typedef struct {
    /// Channels per output pixel (1 to 4).
    int channels;
    /// Bits per output sample (8 or 16).
    int bit_depth;
    /// Bytes per output row.
    size_t row_bytes;
    /// Adam7 passes needed by pxp_png_read_rows (1 when not interlaced, 7 when interlaced).
    int passes;
} pxp_png_output;

/// A decoder over a memory buffer; the buffer must outlive it.
typedef struct pxp_png_decoder pxp_png_decoder;

/// A decoder reading `length` bytes at `bytes`, or NULL when out of memory.
pxp_png_decoder *pxp_png_decoder_create(const uint8_t *bytes, size_t length);
/// A decoder reading the open file `fd` from its current offset through a small buffer, so a large file
/// is never held whole; or NULL when out of memory. The caller keeps `fd` open for the decoder's life
/// and closes it afterwards. The end of the file before IEND is reported as truncation.
pxp_png_decoder *pxp_png_decoder_create_fd(int fd);
/// Frees the decoder and everything libpng allocated for it. NULL is allowed.
void pxp_png_decoder_destroy(pxp_png_decoder *decoder);
/// The last error message (empty when none).
const char *pxp_png_decoder_message(const pxp_png_decoder *decoder);
/// The first warning libpng reported (empty when none) and how many there were.
const char *pxp_png_decoder_warning(const pxp_png_decoder *decoder);
int pxp_png_decoder_warning_count(const pxp_png_decoder *decoder);

// libpng has no message codes. What identifies a read warning is its path (`png_warning`, or
// `png_benign_error`, which the decoder makes a warning; an ancillary chunk's CRC mismatch is one too) and
// the chunk being read (`png_get_io_chunk_type`). The decoder records warnings by chunk; what each means
// for the pixels is decided in Swift (`PNGWarningTable`), not here.

/// The most distinct chunk types whose warnings are recorded; past it the decoder only says it overflowed.
#define PXP_PNG_MAX_WARNING_KINDS 32

/// How many distinct chunk types libpng warned about, at most PXP_PNG_MAX_WARNING_KINDS.
int pxp_png_decoder_warning_kinds(const pxp_png_decoder *decoder);
/// 1 when more distinct chunk types came than were recorded.
int pxp_png_decoder_warning_overflow(const pxp_png_decoder *decoder);
/// The chunk type (four ASCII bytes, big-endian), warning count and first message of recorded kind `index`.
uint32_t pxp_png_decoder_warning_chunk(const pxp_png_decoder *decoder, int index);
int pxp_png_decoder_warning_repeats(const pxp_png_decoder *decoder, int index);
const char *pxp_png_decoder_warning_message(const pxp_png_decoder *decoder, int index);

/// Reads the signature and every chunk up to the first IDAT; fills `info`.
pxp_png_status pxp_png_read_info(pxp_png_decoder *decoder, pxp_png_info *info);
/// Sets the transforms that give stored samples: palette and tRNS to alpha, low-bit gray to 8 bits by
/// bit replication, 16-bit kept (native byte order) when `keep16` else reduced to the high byte,
/// interlace handling. No gamma or colour correction. Fills `output`.
pxp_png_status pxp_png_set_transforms(pxp_png_decoder *decoder, int keep16, pxp_png_output *output);
/// Reads `count` rows of the current pass into `rows`; `*rows_read` counts the rows completed, even on
/// error (all of them with PXP_PNG_EXCESS_DATA, found while finishing the last row). For interlaced
/// images call it for every row of every pass, with the same row buffers.
pxp_png_status pxp_png_read_rows(pxp_png_decoder *decoder, uint8_t *const *rows, uint32_t count,
                                 uint32_t *rows_read);
/// For a decoder over memory that has read the info and nothing more: the offset in its bytes where the
/// first IDAT chunk's data starts (libpng stops reading there), so the image data can be read without
/// libpng. Returns 0 for a file decoder or once reading went further; 1 with `*offset` set otherwise.
int pxp_png_decoder_image_data_offset(const pxp_png_decoder *decoder, size_t *offset);
/// Reads the whole image (every pass) into `rows` (one pointer per image row).
pxp_png_status pxp_png_read_image(pxp_png_decoder *decoder, uint8_t *const *rows);
/// Reads the chunks after the image data up to IEND; refreshes the metadata in `info` (eXIf may follow
/// IDAT). `info` may be NULL.
pxp_png_status pxp_png_read_end(pxp_png_decoder *decoder, pxp_png_info *info);

/// What to write.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// 1 to 4 channels: gray, gray+alpha, RGB, RGBA.
    int channels;
    /// 8 or 16; 16-bit samples are in native byte order and swapped to big-endian as needed.
    int bit_depth;
    /// zlib level 0 to 9.
    int compression_level;
    /// 1 to write Adam7.
    int interlaced;
    /// An ICC profile to store in iCCP, or NULL.
    const uint8_t *icc;
    size_t icc_length;
    /// An EXIF block (TIFF structure) to store in eXIf, or NULL.
    const uint8_t *exif;
    size_t exif_length;
} pxp_png_encode_params;

/// An encoder writing into a growing memory buffer.
typedef struct pxp_png_encoder pxp_png_encoder;

/// A new encoder, or NULL when out of memory.
pxp_png_encoder *pxp_png_encoder_create(void);
/// Frees the encoder and its output buffer. NULL is allowed.
void pxp_png_encoder_destroy(pxp_png_encoder *encoder);
/// Encodes `pixels` (`height` rows of `stride` bytes). On success the file is at pxp_png_encoder_data.
pxp_png_status pxp_png_encode(pxp_png_encoder *encoder, const pxp_png_encode_params *params,
                              const uint8_t *pixels, size_t stride);
/// Row mode: writes the signature, IHDR and the metadata chunks of `params` (not interlaced) to the open
/// file `fd`, which the caller keeps open until pxp_png_encoder_finish_fd and closes afterwards. Bytes go
/// out through a 64 KiB buffer; nothing else of the file is held.
pxp_png_status pxp_png_encoder_start_fd(pxp_png_encoder *encoder, const pxp_png_encode_params *params, int fd);
/// Row mode: compresses and writes the next `count` rows (`stride` bytes apart) at `pixels`.
pxp_png_status pxp_png_encoder_write_rows(pxp_png_encoder *encoder, const uint8_t *pixels, size_t stride,
                                          uint32_t count);
/// Row mode: writes IEND and the buffered bytes, once every row is written.
pxp_png_status pxp_png_encoder_finish_fd(pxp_png_encoder *encoder);
/// Row mode: the errno of a failed write to the file (0 when none failed).
int pxp_png_encoder_write_errno(const pxp_png_encoder *encoder);
/// The encoded bytes; valid until the encoder is destroyed.
const uint8_t *pxp_png_encoder_data(const pxp_png_encoder *encoder, size_t *length);
/// The last error message (empty when none).
const char *pxp_png_encoder_message(const pxp_png_encoder *encoder);
/// The first warning libpng reported (empty when none), for example a refused ICC profile.
const char *pxp_png_encoder_warning(const pxp_png_encoder *encoder);

#endif
