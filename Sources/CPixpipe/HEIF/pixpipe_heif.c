#include "CPixpipeHEIF.h"
#include "pixpipe_heif_internal.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every libheif function the wrappers call. Each pointer's type is taken from the header's own declaration
// (`__typeof__`), so a wrapper whose call does not fit the installed header fails to compile.
#define PXP_HEIF_FUNCTIONS(X)                                                                              \
    X(heif_get_version_number_major)                                                                       \
    X(heif_get_version_number_minor)                                                                       \
    X(heif_context_alloc)                                                                                  \
    X(heif_context_free)                                                                                   \
    X(heif_context_read_from_memory_without_copy)                                                          \
    X(heif_context_set_maximum_image_size_limit)                                                           \
    X(heif_context_set_max_decoding_threads)                                                               \
    X(heif_context_get_primary_image_handle)                                                               \
    X(heif_context_get_number_of_top_level_images)                                                         \
    X(heif_context_get_list_of_top_level_image_IDs)                                                        \
    X(heif_context_get_image_handle)                                                                       \
    X(heif_image_handle_release)                                                                           \
    X(heif_image_handle_get_width)                                                                         \
    X(heif_image_handle_get_height)                                                                        \
    X(heif_image_handle_get_ispe_width)                                                                    \
    X(heif_image_handle_get_ispe_height)                                                                   \
    X(heif_image_handle_has_alpha_channel)                                                                 \
    X(heif_image_handle_get_luma_bits_per_pixel)                                                           \
    X(heif_image_handle_get_number_of_thumbnails)                                                          \
    X(heif_image_handle_get_list_of_thumbnail_IDs)                                                         \
    X(heif_image_handle_get_thumbnail)                                                                     \
    X(heif_image_handle_get_number_of_depth_images)                                                        \
    X(heif_image_handle_get_list_of_depth_image_IDs)                                                       \
    X(heif_image_handle_get_depth_image_handle)                                                            \
    X(heif_image_handle_get_color_profile_type)                                                            \
    X(heif_image_handle_get_raw_color_profile_size)                                                        \
    X(heif_image_handle_get_raw_color_profile)                                                             \
    X(heif_image_handle_get_nclx_color_profile)                                                            \
    X(heif_nclx_color_profile_free)                                                                        \
    X(heif_image_handle_get_number_of_metadata_blocks)                                                     \
    X(heif_image_handle_get_list_of_metadata_block_IDs)                                                    \
    X(heif_image_handle_get_metadata_type)                                                                 \
    X(heif_image_handle_get_metadata_content_type)                                                         \
    X(heif_image_handle_get_metadata_size)                                                                 \
    X(heif_image_handle_get_metadata)                                                                      \
    X(heif_decode_image)                                                                                   \
    X(heif_decoding_options_alloc)                                                                         \
    X(heif_decoding_options_free)                                                                          \
    X(heif_image_release)                                                                                  \
    X(heif_image_get_width)                                                                                \
    X(heif_image_get_height)                                                                               \
    X(heif_image_get_plane_readonly)                                                                       \
    X(heif_image_get_bits_per_pixel_range)                                                                 \
    X(heif_image_get_nclx_color_profile)                                                                   \
    X(heif_context_get_encoder_for_format)                                                                 \
    X(heif_encoder_release)                                                                                \
    X(heif_encoder_set_lossy_quality)                                                                      \
    X(heif_encoder_set_lossless)                                                                           \
    X(heif_encoder_set_parameter)                                                                          \
    X(heif_image_create)                                                                                   \
    X(heif_image_add_plane)                                                                                \
    X(heif_image_get_plane)                                                                                \
    X(heif_image_set_raw_color_profile)                                                                    \
    X(heif_image_set_nclx_color_profile)                                                                   \
    X(heif_nclx_color_profile_alloc)                                                                       \
    X(heif_register_decoder)                                                                               \
    X(heif_encoding_options_alloc)                                                                         \
    X(heif_encoding_options_free)                                                                          \
    X(heif_context_encode_image)                                                                           \
    X(heif_context_encode_thumbnail)                                                                       \
    X(heif_context_add_exif_metadata)                                                                      \
    X(heif_context_add_XMP_metadata)                                                                       \
    X(heif_context_write)

#define PXP_HEIF_POINTER(name) static __typeof__(name) *pxp_fn_##name;
PXP_HEIF_FUNCTIONS(PXP_HEIF_POINTER)

static pthread_once_t pxp_heif_once = PTHREAD_ONCE_INIT;
static int pxp_heif_loaded;
static char pxp_heif_error[256];

#if defined(__linux__)
#include <dlfcn.h>

// libheif has kept SONAME 1 through every 1.x release; other headers use the development link.
#if LIBHEIF_NUMERIC_VERSION >= 0x01000000 && LIBHEIF_NUMERIC_VERSION < 0x02000000
#define PXP_HEIF_SONAME "libheif.so.1"
#else
#define PXP_HEIF_SONAME "libheif.so"
#endif

static void pxp_heif_load_once(void) {
    void *library = dlopen(PXP_HEIF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(pxp_heif_error, sizeof pxp_heif_error, "libheif could not be loaded: %s", dlerror());
        return;
    }
#define PXP_HEIF_LOOKUP(name)                                                                              \
    pxp_fn_##name = (__typeof__(name) *)dlsym(library, #name);                                             \
    if (pxp_fn_##name == NULL) {                                                                           \
        snprintf(pxp_heif_error, sizeof pxp_heif_error, "%s has no %s", PXP_HEIF_SONAME, #name);           \
        return;                                                                                            \
    }
    PXP_HEIF_FUNCTIONS(PXP_HEIF_LOOKUP)
    // 1.x adds functions and struct versions but keeps the ABI; the header's minor is the oldest that has
    // every function and field used here.
    int major = pxp_fn_heif_get_version_number_major(), minor = pxp_fn_heif_get_version_number_minor();
    int header_major = (LIBHEIF_NUMERIC_VERSION >> 24) & 0xff, header_minor = (LIBHEIF_NUMERIC_VERSION >> 16) & 0xff;
    if (major != header_major || minor < header_minor) {
        snprintf(pxp_heif_error, sizeof pxp_heif_error, "%s is version %d.%d, built for %d.%d", PXP_HEIF_SONAME,
                 major, minor, header_major, header_minor);
        return;
    }
    // The handle stays open for the life of the process: the wrappers' pointers point into it.
    pxp_heif_loaded = 1;
}
#else
static void pxp_heif_load_once(void) {
#define PXP_HEIF_BIND(name) pxp_fn_##name = name;
    PXP_HEIF_FUNCTIONS(PXP_HEIF_BIND)
    pxp_heif_loaded = 1;
}
#endif

int pxp_heif_load(void) {
    pthread_once(&pxp_heif_once, pxp_heif_load_once);
    return pxp_heif_loaded;
}

const char *pxp_heif_load_error(void) { return pxp_heif_load() ? NULL : pxp_heif_error; }

struct heif_context *pxp_heif_context_alloc(void) { return pxp_heif_load() ? pxp_fn_heif_context_alloc() : NULL; }
void pxp_heif_context_free(struct heif_context *ctx) { pxp_fn_heif_context_free(ctx); }
struct heif_error pxp_heif_context_read_from_memory_without_copy(
    struct heif_context *ctx, const void *mem, size_t size) {
    return pxp_fn_heif_context_read_from_memory_without_copy(ctx, mem, size, NULL);
}
void pxp_heif_context_set_maximum_image_size_limit(struct heif_context *ctx, int maximum_width) {
    pxp_fn_heif_context_set_maximum_image_size_limit(ctx, maximum_width);
}
void pxp_heif_context_set_max_decoding_threads(struct heif_context *ctx, int max_threads) {
    pxp_fn_heif_context_set_max_decoding_threads(ctx, max_threads);
}
struct heif_error pxp_heif_context_get_primary_image_handle(struct heif_context *ctx, struct heif_image_handle **handle) {
    return pxp_fn_heif_context_get_primary_image_handle(ctx, handle);
}
int pxp_heif_context_get_number_of_top_level_images(struct heif_context *ctx) {
    return pxp_fn_heif_context_get_number_of_top_level_images(ctx);
}
int pxp_heif_context_get_list_of_top_level_image_IDs(struct heif_context *ctx, heif_item_id *ids, int count) {
    return pxp_fn_heif_context_get_list_of_top_level_image_IDs(ctx, ids, count);
}
struct heif_error pxp_heif_context_get_image_handle(
    struct heif_context *ctx, heif_item_id id, struct heif_image_handle **handle) {
    return pxp_fn_heif_context_get_image_handle(ctx, id, handle);
}
void pxp_heif_image_handle_release(const struct heif_image_handle *handle) { pxp_fn_heif_image_handle_release(handle); }
int pxp_heif_image_handle_get_width(const struct heif_image_handle *h) { return pxp_fn_heif_image_handle_get_width(h); }
int pxp_heif_image_handle_get_height(const struct heif_image_handle *h) { return pxp_fn_heif_image_handle_get_height(h); }
int pxp_heif_image_handle_get_ispe_width(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_get_ispe_width(h);
}
int pxp_heif_image_handle_get_ispe_height(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_get_ispe_height(h);
}
int pxp_heif_image_handle_has_alpha_channel(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_has_alpha_channel(h);
}
int pxp_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_get_luma_bits_per_pixel(h);
}
int pxp_heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_get_number_of_thumbnails(h);
}
int pxp_heif_image_handle_get_list_of_thumbnail_IDs(const struct heif_image_handle *h, heif_item_id *ids, int count) {
    return pxp_fn_heif_image_handle_get_list_of_thumbnail_IDs(h, ids, count);
}
struct heif_error pxp_heif_image_handle_get_thumbnail(
    const struct heif_image_handle *h, heif_item_id id, struct heif_image_handle **thumbnail) {
    return pxp_fn_heif_image_handle_get_thumbnail(h, id, thumbnail);
}
int pxp_heif_image_handle_get_number_of_depth_images(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_get_number_of_depth_images(h);
}
int pxp_heif_image_handle_get_list_of_depth_image_IDs(const struct heif_image_handle *h, heif_item_id *ids, int count) {
    return pxp_fn_heif_image_handle_get_list_of_depth_image_IDs(h, ids, count);
}
struct heif_error pxp_heif_image_handle_get_depth_image_handle(
    const struct heif_image_handle *h, heif_item_id id, struct heif_image_handle **depth) {
    return pxp_fn_heif_image_handle_get_depth_image_handle(h, id, depth);
}
enum heif_color_profile_type pxp_heif_image_handle_get_color_profile_type(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_get_color_profile_type(h);
}
size_t pxp_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *h) {
    return pxp_fn_heif_image_handle_get_raw_color_profile_size(h);
}
struct heif_error pxp_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *h, void *data) {
    return pxp_fn_heif_image_handle_get_raw_color_profile(h, data);
}
struct heif_error pxp_heif_image_handle_get_nclx_color_profile(
    const struct heif_image_handle *h, struct heif_color_profile_nclx **nclx) {
    return pxp_fn_heif_image_handle_get_nclx_color_profile(h, nclx);
}
void pxp_heif_nclx_color_profile_free(struct heif_color_profile_nclx *nclx) { pxp_fn_heif_nclx_color_profile_free(nclx); }
int pxp_heif_image_handle_get_number_of_metadata_blocks(const struct heif_image_handle *h, const char *type) {
    return pxp_fn_heif_image_handle_get_number_of_metadata_blocks(h, type);
}
int pxp_heif_image_handle_get_list_of_metadata_block_IDs(
    const struct heif_image_handle *h, const char *type, heif_item_id *ids, int count) {
    return pxp_fn_heif_image_handle_get_list_of_metadata_block_IDs(h, type, ids, count);
}
const char *pxp_heif_image_handle_get_metadata_type(const struct heif_image_handle *h, heif_item_id id) {
    return pxp_fn_heif_image_handle_get_metadata_type(h, id);
}
const char *pxp_heif_image_handle_get_metadata_content_type(const struct heif_image_handle *h, heif_item_id id) {
    return pxp_fn_heif_image_handle_get_metadata_content_type(h, id);
}
size_t pxp_heif_image_handle_get_metadata_size(const struct heif_image_handle *h, heif_item_id id) {
    return pxp_fn_heif_image_handle_get_metadata_size(h, id);
}
struct heif_error pxp_heif_image_handle_get_metadata(const struct heif_image_handle *h, heif_item_id id, void *out) {
    return pxp_fn_heif_image_handle_get_metadata(h, id, out);
}

struct heif_error pxp_heif_decode_image(
    const struct heif_image_handle *handle, struct heif_image **image, enum heif_colorspace colorspace,
    enum heif_chroma chroma, int apply_transformations) {
    struct heif_decoding_options *options = pxp_fn_heif_decoding_options_alloc();
    if (options != NULL) options->ignore_transformations = apply_transformations ? 0 : 1;
    struct heif_error error = pxp_fn_heif_decode_image(handle, image, colorspace, chroma, options);
    if (options != NULL) pxp_fn_heif_decoding_options_free(options);
    return error;
}
void pxp_heif_image_release(const struct heif_image *image) { pxp_fn_heif_image_release(image); }
int pxp_heif_image_get_width(const struct heif_image *image, enum heif_channel channel) {
    return pxp_fn_heif_image_get_width(image, channel);
}
int pxp_heif_image_get_height(const struct heif_image *image, enum heif_channel channel) {
    return pxp_fn_heif_image_get_height(image, channel);
}
const uint8_t *pxp_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel, int *stride) {
    return pxp_fn_heif_image_get_plane_readonly(image, channel, stride);
}
int pxp_heif_image_get_bits_per_pixel_range(const struct heif_image *image, enum heif_channel channel) {
    return pxp_fn_heif_image_get_bits_per_pixel_range(image, channel);
}

struct heif_error pxp_heif_image_get_nclx_color_profile(
    const struct heif_image *image, struct heif_color_profile_nclx **nclx) {
    return pxp_fn_heif_image_get_nclx_color_profile(image, nclx);
}

struct heif_error pxp_heif_context_get_encoder_for_format(
    struct heif_context *ctx, enum heif_compression_format format, struct heif_encoder **encoder) {
    return pxp_fn_heif_context_get_encoder_for_format(ctx, format, encoder);
}
void pxp_heif_encoder_release(struct heif_encoder *encoder) { pxp_fn_heif_encoder_release(encoder); }
struct heif_error pxp_heif_encoder_set_lossy_quality(struct heif_encoder *encoder, int quality) {
    return pxp_fn_heif_encoder_set_lossy_quality(encoder, quality);
}
struct heif_error pxp_heif_encoder_set_lossless(struct heif_encoder *encoder, int enable) {
    return pxp_fn_heif_encoder_set_lossless(encoder, enable);
}
struct heif_error pxp_heif_encoder_set_parameter(struct heif_encoder *encoder, const char *name, const char *value) {
    return pxp_fn_heif_encoder_set_parameter(encoder, name, value);
}
struct heif_error pxp_heif_image_create(
    int width, int height, enum heif_colorspace colorspace, enum heif_chroma chroma, struct heif_image **image) {
    if (!pxp_heif_load()) {
        struct heif_error error = {heif_error_Unsupported_feature, heif_suberror_Unspecified, pxp_heif_error};
        return error;
    }
    return pxp_fn_heif_image_create(width, height, colorspace, chroma, image);
}
struct heif_error pxp_heif_image_add_plane(
    struct heif_image *image, enum heif_channel channel, int width, int height, int bit_depth) {
    return pxp_fn_heif_image_add_plane(image, channel, width, height, bit_depth);
}
uint8_t *pxp_heif_image_get_plane(struct heif_image *image, enum heif_channel channel, int *stride) {
    return pxp_fn_heif_image_get_plane(image, channel, stride);
}
struct heif_error pxp_heif_image_set_raw_color_profile(
    struct heif_image *image, const char *type, const void *data, size_t size) {
    return pxp_fn_heif_image_set_raw_color_profile(image, type, data, size);
}
struct heif_error pxp_heif_image_set_nclx_color_profile(
    struct heif_image *image, const struct heif_color_profile_nclx *nclx) {
    return pxp_fn_heif_image_set_nclx_color_profile(image, nclx);
}
struct heif_error pxp_heif_context_encode_image(
    struct heif_context *ctx, const struct heif_image *image, struct heif_encoder *encoder, int orientation,
    int identity_matrix, struct heif_image_handle **handle) {
    struct heif_encoding_options *options = pxp_fn_heif_encoding_options_alloc();
    if (options != NULL && orientation >= 1 && orientation <= 8) {
        options->image_orientation = (enum heif_orientation)orientation;
    }
    if (options != NULL && identity_matrix) {
        // A decoder learns of the identity matrix only from the nclx box: write it even beside an ICC one.
        options->save_two_colr_boxes_when_ICC_and_nclx_available = 1;
    }
    struct heif_error error = pxp_fn_heif_context_encode_image(ctx, image, encoder, options, handle);
    if (options != NULL) pxp_fn_heif_encoding_options_free(options);
    return error;
}
struct heif_error pxp_heif_context_encode_thumbnail(
    struct heif_context *ctx, const struct heif_image *image, const struct heif_image_handle *primary,
    struct heif_encoder *encoder, int orientation, int bbox_size, struct heif_image_handle **handle) {
    struct heif_encoding_options *options = pxp_fn_heif_encoding_options_alloc();
    if (options != NULL && orientation >= 1 && orientation <= 8) {
        options->image_orientation = (enum heif_orientation)orientation;
    }
    struct heif_error error =
        pxp_fn_heif_context_encode_thumbnail(ctx, image, primary, encoder, options, bbox_size, handle);
    if (options != NULL) pxp_fn_heif_encoding_options_free(options);
    return error;
}
struct heif_error pxp_heif_context_add_exif_metadata(
    struct heif_context *ctx, const struct heif_image_handle *handle, const void *data, int size) {
    return pxp_fn_heif_context_add_exif_metadata(ctx, handle, data, size);
}
struct heif_error pxp_heif_context_add_XMP_metadata(
    struct heif_context *ctx, const struct heif_image_handle *handle, const void *data, int size) {
    return pxp_fn_heif_context_add_XMP_metadata(ctx, handle, data, size);
}

// The growing buffer libheif's writer callback appends to.
struct pxp_heif_buffer {
    uint8_t *data;
    size_t size;
};

static struct heif_error pxp_heif_append(struct heif_context *ctx, const void *data, size_t size, void *userdata) {
    (void)ctx;
    struct pxp_heif_buffer *buffer = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    uint8_t *grown = realloc(buffer->data, buffer->size + size);
    if (grown == NULL) {
        struct heif_error error = {heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
        return error;
    }
    memcpy(grown + buffer->size, data, size);
    buffer->data = grown;
    buffer->size += size;
    return ok;
}

struct heif_error pxp_heif_context_write_to_memory(struct heif_context *ctx, uint8_t **data, size_t *size) {
    struct pxp_heif_buffer buffer = {NULL, 0};
    struct heif_writer writer = {1, pxp_heif_append};
    struct heif_error error = pxp_fn_heif_context_write(ctx, &writer, &buffer);
    if (error.code != heif_error_Ok) {
        free(buffer.data);
        buffer.data = NULL;
        buffer.size = 0;
    }
    *data = buffer.data;
    *size = buffer.size;
    return error;
}

void pxp_heif_free(void *pointer) { free(pointer); }
struct heif_color_profile_nclx *pxp_heif_nclx_color_profile_alloc(void) { return pxp_fn_heif_nclx_color_profile_alloc(); }
struct heif_error pxp_heif_register_decoder(struct heif_context *ctx, const struct heif_decoder_plugin *plugin) {
    return pxp_fn_heif_register_decoder(ctx, plugin);
}
