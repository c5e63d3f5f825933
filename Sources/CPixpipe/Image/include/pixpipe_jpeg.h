#ifndef PIXPIPE_JPEG_H
#define PIXPIPE_JPEG_H
// libjpeg behind an opaque handle. libjpeg reports fatal errors through error_exit, which must not
// return; only C can recover from that (setjmp/longjmp), so every step that may fail runs here
// under a setjmp guard and returns PXP_JPEG_OK or PXP_JPEG_FAILED. Messages and warnings are captured
// in the handle instead of being printed. No libjpeg type appears in this header, so Swift needs
// nothing from jpeglib.h.
#include <stddef.h>

/// Result of a guarded step.
enum {
    PXP_JPEG_OK = 0,
    PXP_JPEG_FAILED = -1,
};

/// Why a guarded step failed (`pxp_jpeg_decoder_error_kind`, `pxp_jpeg_encoder_error_kind`).
enum {
    PXP_JPEG_ERROR_NONE = 0,
    /// The data is damaged or not a JPEG.
    PXP_JPEG_ERROR_CORRUPT = 1,
    /// A valid file using something this library cannot decode (12-bit, lossless, ...).
    PXP_JPEG_ERROR_UNSUPPORTED = 2,
    /// libjpeg's own memory needs went over the limit set with `pxp_jpeg_decoder_set_memory_limit`.
    PXP_JPEG_ERROR_MEMORY = 3,
    /// The step was refused because of misuse (a bug in the caller), or a resource ran out.
    PXP_JPEG_ERROR_INTERNAL = 4,
};

/// libjpeg's warning codes (`JWRN_*` in jerror.h), renamed one for one so Swift needs nothing from
/// libjpeg's headers. What each means for the pixels is decided in Swift (`JPEGWarningTable`), not here.
enum {
    /// A warning code this list does not name.
    PXP_JPEG_WARNING_OTHER = 0,
    PXP_JPEG_WARNING_ADOBE_XFORM = 1,
    PXP_JPEG_WARNING_ARITH_BAD_CODE = 2,
    PXP_JPEG_WARNING_BOGUS_PROGRESSION = 3,
    PXP_JPEG_WARNING_EXTRANEOUS_DATA = 4,
    PXP_JPEG_WARNING_HIT_MARKER = 5,
    PXP_JPEG_WARNING_HUFF_BAD_CODE = 6,
    PXP_JPEG_WARNING_JFIF_MAJOR = 7,
    PXP_JPEG_WARNING_JPEG_EOF = 8,
    PXP_JPEG_WARNING_MUST_RESYNC = 9,
    PXP_JPEG_WARNING_NOT_SEQUENTIAL = 10,
    PXP_JPEG_WARNING_TOO_MUCH_DATA = 11,
    PXP_JPEG_WARNING_BOGUS_ICC = 12,
    /// How many codes there are.
    PXP_JPEG_WARNING_CODES = 13,
};

/// Where in the stream a warning was found.
enum {
    /// Between marker segments: in the header, between scans, before EOI.
    PXP_JPEG_PLACE_SEGMENTS = 0,
    /// Inside a scan's entropy-coded data (junk before an RSTn marker, between restart intervals).
    PXP_JPEG_PLACE_SCAN_DATA = 1,
    /// How many places there are.
    PXP_JPEG_PLACES = 2,
};

/// Colour spaces, for the source (`jpeg_color_space`), the decoder's output and the encoder's input.
enum {
    PXP_JPEG_SPACE_UNKNOWN = 0,
    PXP_JPEG_SPACE_GRAY = 1,
    PXP_JPEG_SPACE_RGB = 2,
    PXP_JPEG_SPACE_YCBCR = 3,
    PXP_JPEG_SPACE_CMYK = 4,
    PXP_JPEG_SPACE_YCCK = 5,
};

/// The most warnings whose message is kept; later ones are only counted.
#define PXP_JPEG_MAX_WARNINGS 8
/// Bytes in a message buffer (libjpeg's JMSG_LENGTH_MAX).
#define PXP_JPEG_MESSAGE_LENGTH 200

/// What `jpeg_read_header` learned, in plain integers.
typedef struct pxp_jpeg_header {
    unsigned int width;
    unsigned int height;
    int components;
    int color_space;  // PXP_JPEG_SPACE_*
    int data_precision;
    int progressive;
    int arithmetic;
    int saw_jfif;
    int density_unit;  // 0 none, 1 dots per inch, 2 dots per cm
    int x_density;
    int y_density;
    int saw_adobe;
    int adobe_transform;
} pxp_jpeg_header;

// MARK: decoding

/// A decompressor reading from memory; the bytes must outlive it.
typedef struct pxp_jpeg_decoder pxp_jpeg_decoder;

/// A decoder over `size` bytes at `data`, or NULL when memory runs out.
pxp_jpeg_decoder *pxp_jpeg_decoder_create(const unsigned char *data, size_t size);
/// A decoder reading the open file `fd` from its current offset through a small buffer, so a large file
/// is never held whole; or NULL when memory runs out. The caller keeps `fd` open for the decoder's life
/// and closes it afterwards. The end of the file before EOI is a truncation warning, as from memory.
pxp_jpeg_decoder *pxp_jpeg_decoder_create_fd(int fd);
/// Frees the decoder and everything libjpeg allocated for it.
void pxp_jpeg_decoder_destroy(pxp_jpeg_decoder *decoder);
/// Caps libjpeg's internal memory (for example a progressive file's coefficient buffer); 0 = no cap.
void pxp_jpeg_decoder_set_memory_limit(pxp_jpeg_decoder *decoder, long bytes);
/// Reads markers up to the first scan, keeping APP1 (EXIF) and APP2 (ICC) markers.
int pxp_jpeg_decoder_read_header(pxp_jpeg_decoder *decoder, pxp_jpeg_header *header);
/// Payload of the first APP1 marker that starts with `prefix`, or NULL; valid until destroy.
const unsigned char *pxp_jpeg_decoder_find_app1(
    pxp_jpeg_decoder *decoder, const unsigned char *prefix, size_t prefix_length, size_t *length);
/// The ICC profile reassembled from APP2 markers; NULL when absent or malformed. Free with pxp_jpeg_free.
unsigned char *pxp_jpeg_decoder_copy_icc_profile(pxp_jpeg_decoder *decoder, size_t *length);
/// Sets the output scale (`numerator`/8) and colour space, and computes the output size.
int pxp_jpeg_decoder_configure(
    pxp_jpeg_decoder *decoder, int numerator, int color_space, unsigned int *width, unsigned int *height);
/// Like `pxp_jpeg_decoder_configure`, for a read that only proves the data whole: a YCbCr file asked
/// for as RGB is decoded as luma only (grayscale, one sample per pixel), where libjpeg would accept the
/// RGB decode; on one-scan Huffman files, `pxp_jpeg_decoder_discard_rows` then skips rows. Every
/// entropy-coded byte is still decoded, with the same warnings and errors.
int pxp_jpeg_decoder_configure_verification(
    pxp_jpeg_decoder *decoder, int numerator, int color_space, unsigned int *width, unsigned int *height);
/// After `pxp_jpeg_decoder_configure`: writes to `ids`, `sizes` and `luma` (room for `capacity` each) every
/// component's identifier, the side of its scaled inverse DCT (1 means the decode uses only its DC
/// coefficients) and whether it is the luma of a YCbCr, YCCK or grayscale file (1) or not (0); returns how
/// many.
int pxp_jpeg_decoder_component_blocks(
    const pxp_jpeg_decoder *decoder, unsigned char *ids, unsigned char *sizes, unsigned char *luma, int capacity);
/// Turns libjpeg's block smoothing of a progressive file off (it guesses AC coefficients no scan sent),
/// before `pxp_jpeg_decoder_start`.
void pxp_jpeg_decoder_disable_block_smoothing(pxp_jpeg_decoder *decoder);
/// Starts decompression; a progressive file's scans are all read here.
int pxp_jpeg_decoder_start(pxp_jpeg_decoder *decoder, int *components);
/// Reads up to `max_rows` rows into `rows` (`stride` bytes apart); sets `*read` to the count.
int pxp_jpeg_decoder_read_rows(
    pxp_jpeg_decoder *decoder, unsigned char *rows, size_t stride, unsigned int max_rows, unsigned int *read);
/// Decodes up to `max_rows` rows for a verifying read and drops them; sets `*done` to the count. Rows
/// that may be skipped (see `pxp_jpeg_decoder_configure_verification`) are entropy-decoded without
/// being transformed; the others, and always the image's last row, are read into `rows` (room for
/// `max_rows` rows, `stride` bytes apart).
int pxp_jpeg_decoder_discard_rows(
    pxp_jpeg_decoder *decoder, unsigned char *rows, size_t stride, unsigned int max_rows, unsigned int *done);
/// The next output row index (`output_scanline`).
unsigned int pxp_jpeg_decoder_next_row(const pxp_jpeg_decoder *decoder);
/// Reads to the end of the image (EOI).
int pxp_jpeg_decoder_finish(pxp_jpeg_decoder *decoder);
/// Why the last step failed (PXP_JPEG_ERROR_*).
int pxp_jpeg_decoder_error_kind(const pxp_jpeg_decoder *decoder);
/// libjpeg's message for the last failure.
const char *pxp_jpeg_decoder_error_message(const pxp_jpeg_decoder *decoder);
/// How many warnings libjpeg emitted so far (trace messages are not counted).
int pxp_jpeg_decoder_warning_count(const pxp_jpeg_decoder *decoder);
/// Code (PXP_JPEG_WARNING_*) of warning `index`, for index < min(count, PXP_JPEG_MAX_WARNINGS).
int pxp_jpeg_decoder_warning_code(const pxp_jpeg_decoder *decoder, int index);
/// Place (PXP_JPEG_PLACE_*) of warning `index`.
int pxp_jpeg_decoder_warning_place(const pxp_jpeg_decoder *decoder, int index);
/// Message of warning `index`.
const char *pxp_jpeg_decoder_warning_message(const pxp_jpeg_decoder *decoder, int index);
/// How many warnings of `code` at `place` were emitted, kept or not: so a warning past the kept ones
/// is still seen.
int pxp_jpeg_decoder_warning_tally(const pxp_jpeg_decoder *decoder, int code, int place);

/// Frees memory returned by this shim.
void pxp_jpeg_free(void *pointer);

// MARK: encoding

/// A compressor writing into a growing memory buffer.
typedef struct pxp_jpeg_encoder pxp_jpeg_encoder;

/// Encoder settings in plain integers.
typedef struct pxp_jpeg_settings {
    unsigned int width;
    unsigned int height;
    int color_space;  // PXP_JPEG_SPACE_GRAY, _RGB or _CMYK: the layout of the rows given
    int quality;  // 1...100
    int progressive;
    int optimize_coding;
    int restart_rows;  // MCU rows between RSTn markers; 0 = none
    int luma_h_sampling;  // 1 or 2: 2,2 is 4:2:0, 2,1 is 4:2:2, 1,1 is 4:4:4
    int luma_v_sampling;
    int density_unit;  // 0 = write no density, 1 = dots per inch
    int x_density;
    int y_density;
} pxp_jpeg_settings;

/// An encoder, or NULL when memory runs out.
pxp_jpeg_encoder *pxp_jpeg_encoder_create(void);
/// Frees the encoder and its output buffer.
void pxp_jpeg_encoder_destroy(pxp_jpeg_encoder *encoder);
/// Applies the settings and writes the SOI and JFIF/Adobe markers.
int pxp_jpeg_encoder_start(pxp_jpeg_encoder *encoder, const pxp_jpeg_settings *settings);
/// Writes one marker (for example APP1 = 0xE1) after start; `length` at most 65533.
int pxp_jpeg_encoder_write_marker(pxp_jpeg_encoder *encoder, int marker, const unsigned char *data, size_t length);
/// Writes an ICC profile as APP2 markers after start.
int pxp_jpeg_encoder_write_icc_profile(pxp_jpeg_encoder *encoder, const unsigned char *data, size_t length);
/// Compresses `count` rows, `stride` bytes apart.
int pxp_jpeg_encoder_write_rows(pxp_jpeg_encoder *encoder, const unsigned char *rows, size_t stride, unsigned int count);
/// Finishes the file; `*data` stays valid until destroy.
int pxp_jpeg_encoder_finish(pxp_jpeg_encoder *encoder, const unsigned char **data, size_t *length);
/// Why the last step failed (PXP_JPEG_ERROR_*).
int pxp_jpeg_encoder_error_kind(const pxp_jpeg_encoder *encoder);
/// libjpeg's message for the last failure.
const char *pxp_jpeg_encoder_error_message(const pxp_jpeg_encoder *encoder);

#endif
