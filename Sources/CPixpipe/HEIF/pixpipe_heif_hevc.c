#include "CPixpipeHEIF.h"
#include "pixpipe_heif_internal.h"
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// An HEVC decoder plugin for libheif over FFmpeg's libavcodec, whose x86 SIMD decodes a photo's HEVC in
// about 60% of libde265's time. HEVC decoding is exact by specification, so the planes handed back are
// the ones libde265 gives; libheif keeps its colour conversion, grid assembly, alpha and transformations.

#define PXP_AVCODEC_FUNCTIONS(X)                                                                           \
    X(avcodec_version)                                                                                     \
    X(avcodec_find_decoder)                                                                                \
    X(avcodec_alloc_context3)                                                                              \
    X(avcodec_open2)                                                                                       \
    X(avcodec_free_context)                                                                                \
    X(avcodec_send_packet)                                                                                 \
    X(avcodec_receive_frame)                                                                               \
    X(av_packet_alloc)                                                                                     \
    X(av_packet_free)

#define PXP_AVUTIL_FUNCTIONS(X)                                                                            \
    X(avutil_version)                                                                                      \
    X(av_frame_alloc)                                                                                      \
    X(av_frame_free)                                                                                       \
    X(av_pix_fmt_desc_get)                                                                                 \
    X(av_log_set_level)

#define PXP_AV_POINTER(name) static __typeof__(name) *pxp_av_##name;
PXP_AVCODEC_FUNCTIONS(PXP_AV_POINTER)
PXP_AVUTIL_FUNCTIONS(PXP_AV_POINTER)

static pthread_once_t pxp_av_once = PTHREAD_ONCE_INIT;
static int pxp_av_loaded;

#if defined(__linux__)
#include <dlfcn.h>

// The major version is the ABI: the structure fields read here are those of the header's major.
#define PXP_AV_STRING(x) #x
#define PXP_AV_MAJOR(x) PXP_AV_STRING(x)
#define PXP_AVCODEC_SONAME "libavcodec.so." PXP_AV_MAJOR(LIBAVCODEC_VERSION_MAJOR)
#define PXP_AVUTIL_SONAME "libavutil.so." PXP_AV_MAJOR(LIBAVUTIL_VERSION_MAJOR)

static void pxp_av_load_once(void) {
    // Without the library (or with another major) libheif keeps its own libde265: nothing is reported.
    void *codec = dlopen(PXP_AVCODEC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (codec == NULL) return;
    void *util = dlopen(PXP_AVUTIL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (util == NULL) return;
#define PXP_AVCODEC_LOOKUP(name)                                                                           \
    pxp_av_##name = (__typeof__(name) *)dlsym(codec, #name);                                               \
    if (pxp_av_##name == NULL) return;
#define PXP_AVUTIL_LOOKUP(name)                                                                            \
    pxp_av_##name = (__typeof__(name) *)dlsym(util, #name);                                                \
    if (pxp_av_##name == NULL) return;
    PXP_AVCODEC_FUNCTIONS(PXP_AVCODEC_LOOKUP)
    PXP_AVUTIL_FUNCTIONS(PXP_AVUTIL_LOOKUP)
    if ((pxp_av_avcodec_version() >> 16) != LIBAVCODEC_VERSION_MAJOR) return;
    if ((pxp_av_avutil_version() >> 16) != LIBAVUTIL_VERSION_MAJOR) return;
    if (pxp_av_avcodec_find_decoder(AV_CODEC_ID_HEVC) == NULL) return;
    // A damaged stream is reported through libheif's error; FFmpeg's own log would only reach stderr.
    pxp_av_av_log_set_level(AV_LOG_QUIET);
    // The handles stay open for the life of the process: the pointers point into them.
    __atomic_store_n(&pxp_av_loaded, 1, __ATOMIC_RELEASE);
}
#else
static void pxp_av_load_once(void) {
#define PXP_AV_BIND(name) pxp_av_##name = name;
    PXP_AVCODEC_FUNCTIONS(PXP_AV_BIND)
    PXP_AVUTIL_FUNCTIONS(PXP_AV_BIND)
    pxp_av_av_log_set_level(AV_LOG_QUIET);
    __atomic_store_n(&pxp_av_loaded, pxp_av_avcodec_find_decoder(AV_CODEC_ID_HEVC) != NULL, __ATOMIC_RELEASE);
}
#endif

static int pxp_av_load(void) {
    pthread_once(&pxp_av_once, pxp_av_load_once);
    return __atomic_load_n(&pxp_av_loaded, __ATOMIC_ACQUIRE);
}

// One coded image: the NAL units libheif pushes (parameter sets, then the image's slices), rewritten from
// 4-byte size prefixes to Annex B start codes, which libavcodec reads without an hvcC record.
struct pxp_hevc_decoder {
    uint8_t *stream;
    size_t size, capacity;
};

static const char pxp_hevc_ok[] = "Success";

static struct heif_error pxp_hevc_error(enum heif_suberror_code code, const char *message) {
    struct heif_error error = {heif_error_Decoder_plugin_error, code, message};
    return error;
}

static const char *pxp_hevc_plugin_name(void) { return "FFmpeg libavcodec HEVC decoder"; }

static int pxp_hevc_does_support_format(enum heif_compression_format format) {
    // Above libde265's 100, so libheif picks this plugin; 0 (libde265 stays) when libavcodec is missing.
    return format == heif_compression_HEVC && pxp_av_load() ? 200 : 0;
}

static struct heif_error pxp_hevc_new_decoder(void **decoder) {
    struct pxp_hevc_decoder *state = calloc(1, sizeof *state);
    if (state == NULL) return pxp_hevc_error(heif_suberror_Unspecified, "out of memory");
    *decoder = state;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, pxp_hevc_ok};
    return ok;
}

static void pxp_hevc_free_decoder(void *decoder) {
    struct pxp_hevc_decoder *state = decoder;
    free(state->stream);
    free(state);
}

static struct heif_error pxp_hevc_push_data(void *decoder, const void *data, size_t size) {
    struct pxp_hevc_decoder *state = decoder;
    const uint8_t *bytes = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return pxp_hevc_error(heif_suberror_End_of_data, "truncated NAL unit size");
        size_t length = ((size_t)bytes[at] << 24) | ((size_t)bytes[at + 1] << 16) | ((size_t)bytes[at + 2] << 8) |
                        (size_t)bytes[at + 3];
        at += 4;
        if (length > size - at) return pxp_hevc_error(heif_suberror_End_of_data, "NAL unit past the end of the data");
        // Room for the start code, the unit, and the zeroed padding libavcodec's bit reader may read past the end.
        size_t needed = state->size + 4 + length + AV_INPUT_BUFFER_PADDING_SIZE;
        if (needed > INT32_MAX) return pxp_hevc_error(heif_suberror_Unspecified, "coded image too large");
        if (needed > state->capacity) {
            size_t capacity = state->capacity ? state->capacity : 65536;
            while (capacity < needed) capacity *= 2;
            uint8_t *grown = realloc(state->stream, capacity);
            if (grown == NULL) return pxp_hevc_error(heif_suberror_Unspecified, "out of memory");
            state->stream = grown;
            state->capacity = capacity;
        }
        static const uint8_t start_code[4] = {0, 0, 0, 1};
        memcpy(state->stream + state->size, start_code, 4);
        memcpy(state->stream + state->size + 4, bytes + at, length);
        state->size += 4 + length;
        at += length;
    }
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, pxp_hevc_ok};
    return ok;
}

// The frame's planes as libheif's own HEVC plugin hands them over: Y, Cb, Cr (or Y alone) at the coded
// bit depth, samples of more than 8 bits in 16-bit little-endian words.
static struct heif_error pxp_hevc_copy_frame(const AVFrame *frame, struct heif_image **out) {
    const AVPixFmtDescriptor *format = pxp_av_av_pix_fmt_desc_get(frame->format);
    if (format == NULL ||
        (format->flags & (AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_HWACCEL)) ||
        (format->nb_components != 1 && format->nb_components != 3) ||
        (format->nb_components == 3 && !(format->flags & AV_PIX_FMT_FLAG_PLANAR)))
        return pxp_hevc_error(heif_suberror_Unsupported_color_conversion, "unexpected decoded pixel format");
    int monochrome = format->nb_components == 1, depth = format->comp[0].depth;
    // An identity matrix (lossless RGB) comes as FFmpeg's GBR planes: data[0..2] hold the coded components
    // in stream order, which is the order libde265 hands over as Y, Cb and Cr.
    for (int c = 1; c < format->nb_components; c++)
        if (format->comp[c].depth != depth)
            return pxp_hevc_error(heif_suberror_Unsupported_color_conversion, "unexpected decoded pixel format");
    if (depth < 8 || depth > 16 || frame->width <= 0 || frame->height <= 0)
        return pxp_hevc_error(heif_suberror_Invalid_image_size, "unexpected decoded image");
    enum heif_chroma chroma = heif_chroma_monochrome;
    if (!monochrome) {
        if (format->log2_chroma_w == 1 && format->log2_chroma_h == 1) chroma = heif_chroma_420;
        else if (format->log2_chroma_w == 1 && format->log2_chroma_h == 0) chroma = heif_chroma_422;
        else if (format->log2_chroma_w == 0 && format->log2_chroma_h == 0) chroma = heif_chroma_444;
        else return pxp_hevc_error(heif_suberror_Unsupported_color_conversion, "unexpected chroma subsampling");
    }
    struct heif_error error = pxp_heif_image_create(
        frame->width, frame->height, monochrome ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma, out);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    size_t sample = depth > 8 ? 2 : 1;
    for (int c = 0; c < format->nb_components; c++) {
        int width = c ? -((-frame->width) >> format->log2_chroma_w) : frame->width;
        int height = c ? -((-frame->height) >> format->log2_chroma_h) : frame->height;
        error = pxp_heif_image_add_plane(*out, channels[c], width, height, depth);
        int stride = 0;
        uint8_t *plane = error.code == heif_error_Ok ? pxp_heif_image_get_plane(*out, channels[c], &stride) : NULL;
        if (plane == NULL) {
            pxp_heif_image_release(*out);
            *out = NULL;
            return error.code != heif_error_Ok ? error
                                               : pxp_hevc_error(heif_suberror_Unspecified, "no plane for the image");
        }
        for (int y = 0; y < height; y++)
            memcpy(plane + (size_t)y * (size_t)stride, frame->data[c] + (ptrdiff_t)y * frame->linesize[c],
                   (size_t)width * sample);
    }
    // The stream's VUI code points, as libde265's plugin sets them: libheif uses them when the file has no
    // `colr` box. FFmpeg's enums carry the H.273 values.
    struct heif_color_profile_nclx *nclx = pxp_heif_nclx_color_profile_alloc();
    if (nclx != NULL) {
        nclx->color_primaries = (enum heif_color_primaries)frame->color_primaries;
        nclx->transfer_characteristics = (enum heif_transfer_characteristics)frame->color_trc;
        nclx->matrix_coefficients = (enum heif_matrix_coefficients)frame->colorspace;
        nclx->full_range_flag = frame->color_range == AVCOL_RANGE_JPEG;
        pxp_heif_image_set_nclx_color_profile(*out, nclx);
        pxp_heif_nclx_color_profile_free(nclx);
    }
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, pxp_hevc_ok};
    return ok;
}

static struct heif_error pxp_hevc_decode_image(void *decoder, struct heif_image **out) {
    struct pxp_hevc_decoder *state = decoder;
    *out = NULL;
    if (state->size == 0) return pxp_hevc_error(heif_suberror_End_of_data, "no coded data");
    const AVCodec *codec = pxp_av_avcodec_find_decoder(AV_CODEC_ID_HEVC);
    AVCodecContext *context = codec ? pxp_av_avcodec_alloc_context3(codec) : NULL;
    AVPacket *packet = pxp_av_av_packet_alloc();
    AVFrame *frame = pxp_av_av_frame_alloc();
    struct heif_error result = pxp_hevc_error(heif_suberror_Unspecified, "out of memory");
    if (context == NULL || packet == NULL || frame == NULL) goto done;
    // One thread per coded image: libheif already decodes a grid's tiles in parallel, and a photo's
    // single-slice image gains nothing from slice threads (measured). Unaligned keeps an odd crop exact.
    context->thread_count = 1;
    context->flags |= AV_CODEC_FLAG_UNALIGNED;
    if (pxp_av_avcodec_open2(context, codec, NULL) < 0) {
        result = pxp_hevc_error(heif_suberror_Unspecified, "libavcodec could not open its HEVC decoder");
        goto done;
    }
    memset(state->stream + state->size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    packet->data = state->stream;
    packet->size = (int)state->size;
    // The image is the only frame: sending the packet and then the end of stream drains it.
    if (pxp_av_avcodec_send_packet(context, packet) < 0 || pxp_av_avcodec_send_packet(context, NULL) < 0 ||
        pxp_av_avcodec_receive_frame(context, frame) < 0) {
        result = pxp_hevc_error(heif_suberror_Unspecified, "the HEVC data could not be decoded");
        goto done;
    }
    // A frame with concealed errors is damaged data, not an image.
    if (frame->decode_error_flags || (frame->flags & AV_FRAME_FLAG_CORRUPT)) {
        result = pxp_hevc_error(heif_suberror_Unspecified, "the HEVC data is damaged");
        goto done;
    }
    // The frame holds its own reference to its planes: the decoder's per-picture tables go before the copy
    // is allocated, which lowers the peak memory of a large image.
    pxp_av_avcodec_free_context(&context);
    result = pxp_hevc_copy_frame(frame, out);
done:
    pxp_av_av_frame_free(&frame);
    pxp_av_av_packet_free(&packet);
    pxp_av_avcodec_free_context(&context);
    return result;
}

// libheif 1.15 takes a context's plugin at API version 1 only: the fields after decode_image stay unset.
static const struct heif_decoder_plugin pxp_hevc_plugin = {
    .plugin_api_version = 1,
    .get_plugin_name = pxp_hevc_plugin_name,
    .does_support_format = pxp_hevc_does_support_format,
    .new_decoder = pxp_hevc_new_decoder,
    .free_decoder = pxp_hevc_free_decoder,
    .push_data = pxp_hevc_push_data,
    .decode_image = pxp_hevc_decode_image,
};

void pxp_heif_context_use_libavcodec_hevc(struct heif_context *ctx) {
    // Registering loads nothing: libavcodec is loaded when libheif first asks which plugin decodes HEVC.
    pxp_heif_register_decoder(ctx, &pxp_hevc_plugin);
}

int pxp_heif_libavcodec_hevc_loaded(void) { return __atomic_load_n(&pxp_av_loaded, __ATOMIC_ACQUIRE); }
