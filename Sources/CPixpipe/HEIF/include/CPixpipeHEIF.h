#ifndef CPIXPIPE_HEIF_H
#define CPIXPIPE_HEIF_H
// libheif for PixpipeImage's HEIF folder, behind `pxp_heif_` wrappers of the functions it calls. On Linux
// the library is loaded with dlopen on first use, so a process that never meets a HEIF file does not map
// libheif and the codecs behind it (libde265, x265, libaom, dav1d...). Elsewhere the wrappers call the
// linked library. Types and constants are libheif's own, from its header.
#include <libheif/heif.h>
#include <stddef.h>
#include <stdint.h>

/// Loads libheif if it is not loaded yet (once per process, thread-safe): 1 when the wrappers below can be
/// called, 0 when the library is missing or of another ABI than the header (see `pxp_heif_load_error`).
int pxp_heif_load(void);

/// Why `pxp_heif_load` failed, or NULL when it did not.
const char *pxp_heif_load_error(void);

/// A new context, or NULL when libheif cannot be loaded. Every other wrapper takes an object made from a
/// context, so it is only ever called once the library is loaded.
struct heif_context *pxp_heif_context_alloc(void);
void pxp_heif_context_free(struct heif_context *ctx);
struct heif_error pxp_heif_context_read_from_memory_without_copy(
    struct heif_context *ctx, const void *mem, size_t size);
void pxp_heif_context_set_maximum_image_size_limit(struct heif_context *ctx, int maximum_width);
/// Threads libheif itself uses for a grid's tiles: 0 decodes them on the calling thread.
void pxp_heif_context_set_max_decoding_threads(struct heif_context *ctx, int max_threads);
/// Decodes the context's HEVC images through FFmpeg's libavcodec (loaded with dlopen when the first one is
/// decoded) instead of libde265; where libavcodec cannot be loaded, libheif's libde265 decodes them.
void pxp_heif_context_use_libavcodec_hevc(struct heif_context *ctx);
/// 1 once libavcodec has been loaded for HEVC decoding, 0 before or when it could not be.
int pxp_heif_libavcodec_hevc_loaded(void);
struct heif_error pxp_heif_context_get_primary_image_handle(struct heif_context *ctx, struct heif_image_handle **handle);
int pxp_heif_context_get_number_of_top_level_images(struct heif_context *ctx);
int pxp_heif_context_get_list_of_top_level_image_IDs(struct heif_context *ctx, heif_item_id *ids, int count);
struct heif_error pxp_heif_context_get_image_handle(
    struct heif_context *ctx, heif_item_id id, struct heif_image_handle **handle);

void pxp_heif_image_handle_release(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_width(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_height(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_ispe_width(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_ispe_height(const struct heif_image_handle *handle);
int pxp_heif_image_handle_has_alpha_channel(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_list_of_thumbnail_IDs(const struct heif_image_handle *handle, heif_item_id *ids, int count);
struct heif_error pxp_heif_image_handle_get_thumbnail(
    const struct heif_image_handle *handle, heif_item_id id, struct heif_image_handle **thumbnail);
int pxp_heif_image_handle_get_number_of_depth_images(const struct heif_image_handle *handle);
int pxp_heif_image_handle_get_list_of_depth_image_IDs(const struct heif_image_handle *handle, heif_item_id *ids, int count);
struct heif_error pxp_heif_image_handle_get_depth_image_handle(
    const struct heif_image_handle *handle, heif_item_id id, struct heif_image_handle **depth);
enum heif_color_profile_type pxp_heif_image_handle_get_color_profile_type(const struct heif_image_handle *handle);
size_t pxp_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *handle);
struct heif_error pxp_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *handle, void *data);
struct heif_error pxp_heif_image_handle_get_nclx_color_profile(
    const struct heif_image_handle *handle, struct heif_color_profile_nclx **nclx);
/// A new nclx profile of libheif's defaults; free it with pxp_heif_nclx_color_profile_free.
struct heif_color_profile_nclx *pxp_heif_nclx_color_profile_alloc(void);
void pxp_heif_nclx_color_profile_free(struct heif_color_profile_nclx *nclx);
int pxp_heif_image_handle_get_number_of_metadata_blocks(const struct heif_image_handle *handle, const char *type);
int pxp_heif_image_handle_get_list_of_metadata_block_IDs(
    const struct heif_image_handle *handle, const char *type, heif_item_id *ids, int count);
const char *pxp_heif_image_handle_get_metadata_type(const struct heif_image_handle *handle, heif_item_id id);
const char *pxp_heif_image_handle_get_metadata_content_type(const struct heif_image_handle *handle, heif_item_id id);
size_t pxp_heif_image_handle_get_metadata_size(const struct heif_image_handle *handle, heif_item_id id);
struct heif_error pxp_heif_image_handle_get_metadata(const struct heif_image_handle *handle, heif_item_id id, void *out);

/// Decodes `handle` to interleaved RGB(A) (`chroma`) or monochrome, with libheif's transformations
/// (irot, imir, clap) applied when `apply_transformations` is 1.
struct heif_error pxp_heif_decode_image(
    const struct heif_image_handle *handle, struct heif_image **image, enum heif_colorspace colorspace,
    enum heif_chroma chroma, int apply_transformations);
void pxp_heif_image_release(const struct heif_image *image);
int pxp_heif_image_get_width(const struct heif_image *image, enum heif_channel channel);
int pxp_heif_image_get_height(const struct heif_image *image, enum heif_channel channel);
const uint8_t *pxp_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel, int *stride);
int pxp_heif_image_get_bits_per_pixel_range(const struct heif_image *image, enum heif_channel channel);
/// The decoded image's colour code points (from the `colr` box or, without one, the HEVC stream's VUI).
struct heif_error pxp_heif_image_get_nclx_color_profile(
    const struct heif_image *image, struct heif_color_profile_nclx **nclx);

/// An HEVC (x265) encoder, or an error when libheif has none.
struct heif_error pxp_heif_context_get_encoder_for_format(
    struct heif_context *ctx, enum heif_compression_format format, struct heif_encoder **encoder);
void pxp_heif_encoder_release(struct heif_encoder *encoder);
struct heif_error pxp_heif_encoder_set_lossy_quality(struct heif_encoder *encoder, int quality);
struct heif_error pxp_heif_encoder_set_lossless(struct heif_encoder *encoder, int enable);
struct heif_error pxp_heif_encoder_set_parameter(struct heif_encoder *encoder, const char *name, const char *value);
struct heif_error pxp_heif_image_create(
    int width, int height, enum heif_colorspace colorspace, enum heif_chroma chroma, struct heif_image **image);
struct heif_error pxp_heif_image_add_plane(
    struct heif_image *image, enum heif_channel channel, int width, int height, int bit_depth);
uint8_t *pxp_heif_image_get_plane(struct heif_image *image, enum heif_channel channel, int *stride);
struct heif_error pxp_heif_image_set_raw_color_profile(
    struct heif_image *image, const char *type, const void *data, size_t size);
struct heif_error pxp_heif_image_set_nclx_color_profile(
    struct heif_image *image, const struct heif_color_profile_nclx *nclx);
/// Encodes `image` as the primary image; `orientation` is an EXIF orientation (1...8) written as irot/imir.
/// With `identity_matrix` (an image of GBR planes with an nclx of matrix coefficients 0), the nclx box is
/// written even beside an ICC one, since a decoder learns of the identity matrix only from it.
struct heif_error pxp_heif_context_encode_image(
    struct heif_context *ctx, const struct heif_image *image, struct heif_encoder *encoder, int orientation,
    int identity_matrix, struct heif_image_handle **handle);
/// Encodes `image` scaled into a `bbox_size` square as a thumbnail of `primary`, with `orientation` (EXIF
/// 1...8, or 0 for none) written as its own irot/imir; `*handle` is NULL when the image already fits.
struct heif_error pxp_heif_context_encode_thumbnail(
    struct heif_context *ctx, const struct heif_image *image, const struct heif_image_handle *primary,
    struct heif_encoder *encoder, int orientation, int bbox_size, struct heif_image_handle **handle);
struct heif_error pxp_heif_context_add_exif_metadata(
    struct heif_context *ctx, const struct heif_image_handle *handle, const void *data, int size);
struct heif_error pxp_heif_context_add_XMP_metadata(
    struct heif_context *ctx, const struct heif_image_handle *handle, const void *data, int size);
/// Writes the file into a buffer allocated with malloc (`*data`, `*size`), which the caller frees with `free`.
struct heif_error pxp_heif_context_write_to_memory(struct heif_context *ctx, uint8_t **data, size_t *size);
void pxp_heif_free(void *pointer);

#endif
