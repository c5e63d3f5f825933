#include "CPixpipeJXL.h"
#include <jxl/version.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Every libjxl function the wrappers call. Each pointer's type is taken from the header's own declaration
// (`__typeof__`), so a wrapper whose call does not fit the installed header fails to compile.
#define PXP_JXL_FUNCTIONS(X)                                                                               \
    X(JxlDecoderVersion)                                                                                   \
    X(JxlDecoderCreate)                                                                                    \
    X(JxlEncoderCreate)                                                                                    \
    X(JxlDecoderDestroy)                                                                                   \
    X(JxlDecoderSetParallelRunner)                                                                         \
    X(JxlDecoderSubscribeEvents)                                                                           \
    X(JxlDecoderSetInput)                                                                                  \
    X(JxlDecoderCloseInput)                                                                                \
    X(JxlDecoderProcessInput)                                                                              \
    X(JxlDecoderGetBasicInfo)                                                                              \
    X(JxlDecoderGetICCProfileSize)                                                                         \
    X(JxlDecoderGetColorAsICCProfile)                                                                      \
    X(JxlDecoderImageOutBufferSize)                                                                        \
    X(JxlDecoderSetImageOutBuffer)                                                                         \
    X(JxlDecoderGetFrameHeader)                                                                            \
    X(JxlDecoderSetKeepOrientation)                                                                        \
    X(JxlDecoderSetUnpremultiplyAlpha)                                                                     \
    X(JxlDecoderSetJPEGBuffer)                                                                             \
    X(JxlDecoderReleaseJPEGBuffer)                                                                         \
    X(JxlDecoderGetBoxType)                                                                                \
    X(JxlDecoderSetBoxBuffer)                                                                              \
    X(JxlDecoderReleaseBoxBuffer)                                                                          \
    X(JxlDecoderSetDecompressBoxes)                                                                        \
    X(JxlDecoderSetProgressiveDetail)                                                                      \
    X(JxlDecoderFlushImage)                                                                                \
    X(JxlDecoderSkipCurrentFrame)                                                                          \
    X(JxlEncoderDestroy)                                                                                   \
    X(JxlEncoderSetParallelRunner)                                                                         \
    X(JxlEncoderFrameSettingsCreate)                                                                       \
    X(JxlEncoderInitBasicInfo)                                                                             \
    X(JxlEncoderSetBasicInfo)                                                                              \
    X(JxlEncoderInitExtraChannelInfo)                                                                      \
    X(JxlEncoderSetExtraChannelInfo)                                                                       \
    X(JxlColorEncodingSetToSRGB)                                                                           \
    X(JxlEncoderSetColorEncoding)                                                                          \
    X(JxlEncoderSetICCProfile)                                                                             \
    X(JxlEncoderAddImageFrame)                                                                             \
    X(JxlEncoderAddJPEGFrame)                                                                              \
    X(JxlEncoderStoreJPEGMetadata)                                                                         \
    X(JxlEncoderUseContainer)                                                                              \
    X(JxlEncoderUseBoxes)                                                                                  \
    X(JxlEncoderAddBox)                                                                                    \
    X(JxlEncoderCloseInput)                                                                                \
    X(JxlEncoderProcessOutput)                                                                             \
    X(JxlEncoderSetFrameDistance)                                                                          \
    X(JxlEncoderSetFrameLossless)                                                                          \
    X(JxlEncoderFrameSettingsSetOption)                                                                    \
    X(JxlEncoderInitFrameHeader)                                                                           \
    X(JxlEncoderSetFrameHeader)                                                                            \
    X(JxlEncoderGetError)

// libjxl_threads, a separate library.
#define PXP_JXL_THREAD_FUNCTIONS(X)                                                                        \
    X(JxlThreadParallelRunner)                                                                             \
    X(JxlThreadParallelRunnerCreate)                                                                       \
    X(JxlThreadParallelRunnerDestroy)

#define PXP_JXL_POINTER(name) static __typeof__(name) *pxp_fn_##name;
PXP_JXL_FUNCTIONS(PXP_JXL_POINTER)
PXP_JXL_THREAD_FUNCTIONS(PXP_JXL_POINTER)

static pthread_once_t pxp_jxl_once = PTHREAD_ONCE_INIT;
static int pxp_jxl_loaded;
static char pxp_jxl_error[256];

#if defined(__linux__)
#include <dlfcn.h>

// The SONAMEs of the libjxl the header describes: 0.x releases carry their minor version in the SONAME
// (libjxl.so.0.7); other headers fall back to the development links, which exist wherever the header does.
#if JPEGXL_MAJOR_VERSION == 0 && JPEGXL_MINOR_VERSION == 7
#define PXP_JXL_SONAME "libjxl.so.0.7"
#define PXP_JXL_THREADS_SONAME "libjxl_threads.so.0.7"
#else
#define PXP_JXL_SONAME "libjxl.so"
#define PXP_JXL_THREADS_SONAME "libjxl_threads.so"
#endif

static void *pxp_jxl_open(const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(pxp_jxl_error, sizeof pxp_jxl_error, "libjxl could not be loaded: %s", dlerror());
    }
    return library;
}

static void pxp_jxl_load_once(void) {
    void *library = pxp_jxl_open(PXP_JXL_SONAME);
    if (library == NULL) return;
    void *threads = pxp_jxl_open(PXP_JXL_THREADS_SONAME);
    if (threads == NULL) return;
#define PXP_JXL_LOOKUP_IN(handle, soname, name)                                                            \
    pxp_fn_##name = (__typeof__(name) *)dlsym(handle, #name);                                              \
    if (pxp_fn_##name == NULL) {                                                                           \
        snprintf(pxp_jxl_error, sizeof pxp_jxl_error, "%s has no %s", soname, #name);                      \
        return;                                                                                            \
    }
#define PXP_JXL_LOOKUP(name) PXP_JXL_LOOKUP_IN(library, PXP_JXL_SONAME, name)
#define PXP_JXL_THREADS_LOOKUP(name) PXP_JXL_LOOKUP_IN(threads, PXP_JXL_THREADS_SONAME, name)
    PXP_JXL_FUNCTIONS(PXP_JXL_LOOKUP)
    PXP_JXL_THREAD_FUNCTIONS(PXP_JXL_THREADS_LOOKUP)
    // The version is MAJOR * 1000000 + MINOR * 1000 + PATCH; 0.x changed its ABI with each minor release.
    uint32_t version = pxp_fn_JxlDecoderVersion();
    if (version / 1000000 != JPEGXL_MAJOR_VERSION || (version / 1000) % 1000 != JPEGXL_MINOR_VERSION) {
        snprintf(pxp_jxl_error, sizeof pxp_jxl_error, "%s is version %u, built for %d.%d", PXP_JXL_SONAME,
                 version, JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION);
        return;
    }
    // The handles stay open for the life of the process: the wrappers' pointers point into them.
    pxp_jxl_loaded = 1;
}
#else
static void pxp_jxl_load_once(void) {
#define PXP_JXL_BIND(name) pxp_fn_##name = name;
    PXP_JXL_FUNCTIONS(PXP_JXL_BIND)
    PXP_JXL_THREAD_FUNCTIONS(PXP_JXL_BIND)
    pxp_jxl_loaded = 1;
}
#endif

int pxp_jxl_load(void) {
    pthread_once(&pxp_jxl_once, pxp_jxl_load_once);
    return pxp_jxl_loaded;
}

const char *pxp_jxl_load_error(void) { return pxp_jxl_load() ? NULL : pxp_jxl_error; }

JxlDecoder *pxp_JxlDecoderCreate(void) { return pxp_jxl_load() ? pxp_fn_JxlDecoderCreate(NULL) : NULL; }
JxlEncoder *pxp_JxlEncoderCreate(void) { return pxp_jxl_load() ? pxp_fn_JxlEncoderCreate(NULL) : NULL; }

void *pxp_jxl_runner_create(size_t threads) {
    return pxp_jxl_load() ? pxp_fn_JxlThreadParallelRunnerCreate(NULL, threads) : NULL;
}
void pxp_jxl_runner_destroy(void *runner) { pxp_fn_JxlThreadParallelRunnerDestroy(runner); }
// The runner function's address is only known once libjxl_threads is loaded, hence these two.
JxlDecoderStatus pxp_jxl_decoder_set_runner(JxlDecoder *dec, void *runner) {
    return pxp_fn_JxlDecoderSetParallelRunner(dec, pxp_fn_JxlThreadParallelRunner, runner);
}
JxlEncoderStatus pxp_jxl_encoder_set_runner(JxlEncoder *enc, void *runner) {
    return pxp_fn_JxlEncoderSetParallelRunner(enc, pxp_fn_JxlThreadParallelRunner, runner);
}

void pxp_JxlDecoderDestroy(JxlDecoder *dec) { pxp_fn_JxlDecoderDestroy(dec); }
JxlDecoderStatus pxp_JxlDecoderSubscribeEvents(JxlDecoder *dec, int events_wanted) {
    return pxp_fn_JxlDecoderSubscribeEvents(dec, events_wanted);
}
JxlDecoderStatus pxp_JxlDecoderSetInput(JxlDecoder *dec, const uint8_t *data, size_t size) {
    return pxp_fn_JxlDecoderSetInput(dec, data, size);
}
void pxp_JxlDecoderCloseInput(JxlDecoder *dec) { pxp_fn_JxlDecoderCloseInput(dec); }
JxlDecoderStatus pxp_JxlDecoderProcessInput(JxlDecoder *dec) { return pxp_fn_JxlDecoderProcessInput(dec); }
JxlDecoderStatus pxp_JxlDecoderGetBasicInfo(const JxlDecoder *dec, JxlBasicInfo *info) {
    return pxp_fn_JxlDecoderGetBasicInfo(dec, info);
}
JxlDecoderStatus pxp_JxlDecoderGetICCProfileSize(const JxlDecoder *dec, size_t *size) {
    return pxp_fn_JxlDecoderGetICCProfileSize(dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, size);
}
JxlDecoderStatus pxp_JxlDecoderGetColorAsICCProfile(const JxlDecoder *dec, uint8_t *icc, size_t size) {
    return pxp_fn_JxlDecoderGetColorAsICCProfile(dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, icc, size);
}
JxlDecoderStatus pxp_JxlDecoderImageOutBufferSize(const JxlDecoder *dec, const JxlPixelFormat *format, size_t *size) {
    return pxp_fn_JxlDecoderImageOutBufferSize(dec, format, size);
}
JxlDecoderStatus pxp_JxlDecoderSetImageOutBuffer(
    JxlDecoder *dec, const JxlPixelFormat *format, void *buffer, size_t size) {
    return pxp_fn_JxlDecoderSetImageOutBuffer(dec, format, buffer, size);
}
JxlDecoderStatus pxp_JxlDecoderGetFrameHeader(const JxlDecoder *dec, JxlFrameHeader *header) {
    return pxp_fn_JxlDecoderGetFrameHeader(dec, header);
}
JxlDecoderStatus pxp_JxlDecoderSetKeepOrientation(JxlDecoder *dec, int keep) {
    return pxp_fn_JxlDecoderSetKeepOrientation(dec, keep ? JXL_TRUE : JXL_FALSE);
}
JxlDecoderStatus pxp_JxlDecoderSetUnpremultiplyAlpha(JxlDecoder *dec, int unpremultiply) {
    return pxp_fn_JxlDecoderSetUnpremultiplyAlpha(dec, unpremultiply ? JXL_TRUE : JXL_FALSE);
}
JxlDecoderStatus pxp_JxlDecoderSetJPEGBuffer(JxlDecoder *dec, uint8_t *data, size_t size) {
    return pxp_fn_JxlDecoderSetJPEGBuffer(dec, data, size);
}
size_t pxp_JxlDecoderReleaseJPEGBuffer(JxlDecoder *dec) { return pxp_fn_JxlDecoderReleaseJPEGBuffer(dec); }
JxlDecoderStatus pxp_JxlDecoderGetBoxType(JxlDecoder *dec, char *type, int decompressed) {
    return pxp_fn_JxlDecoderGetBoxType(dec, type, decompressed ? JXL_TRUE : JXL_FALSE);
}
JxlDecoderStatus pxp_JxlDecoderSetBoxBuffer(JxlDecoder *dec, uint8_t *data, size_t size) {
    return pxp_fn_JxlDecoderSetBoxBuffer(dec, data, size);
}
size_t pxp_JxlDecoderReleaseBoxBuffer(JxlDecoder *dec) { return pxp_fn_JxlDecoderReleaseBoxBuffer(dec); }
JxlDecoderStatus pxp_JxlDecoderSetDecompressBoxes(JxlDecoder *dec, int decompress) {
    return pxp_fn_JxlDecoderSetDecompressBoxes(dec, decompress ? JXL_TRUE : JXL_FALSE);
}
JxlDecoderStatus pxp_JxlDecoderSetProgressiveDetail(JxlDecoder *dec, JxlProgressiveDetail detail) {
    return pxp_fn_JxlDecoderSetProgressiveDetail(dec, detail);
}
JxlDecoderStatus pxp_JxlDecoderFlushImage(JxlDecoder *dec) { return pxp_fn_JxlDecoderFlushImage(dec); }
JxlDecoderStatus pxp_JxlDecoderSkipCurrentFrame(JxlDecoder *dec) { return pxp_fn_JxlDecoderSkipCurrentFrame(dec); }

void pxp_JxlEncoderDestroy(JxlEncoder *enc) { pxp_fn_JxlEncoderDestroy(enc); }
JxlEncoderFrameSettings *pxp_JxlEncoderFrameSettingsCreate(JxlEncoder *enc) {
    return pxp_fn_JxlEncoderFrameSettingsCreate(enc, NULL);
}
void pxp_JxlEncoderInitBasicInfo(JxlBasicInfo *info) { pxp_fn_JxlEncoderInitBasicInfo(info); }
JxlEncoderStatus pxp_JxlEncoderSetBasicInfo(JxlEncoder *enc, const JxlBasicInfo *info) {
    return pxp_fn_JxlEncoderSetBasicInfo(enc, info);
}
void pxp_JxlEncoderInitExtraChannelInfo(JxlExtraChannelType type, JxlExtraChannelInfo *info) {
    pxp_fn_JxlEncoderInitExtraChannelInfo(type, info);
}
JxlEncoderStatus pxp_JxlEncoderSetExtraChannelInfo(JxlEncoder *enc, size_t index, const JxlExtraChannelInfo *info) {
    return pxp_fn_JxlEncoderSetExtraChannelInfo(enc, index, info);
}
JxlEncoderStatus pxp_jxl_encoder_set_srgb(JxlEncoder *enc, int is_gray) {
    JxlColorEncoding color;
    pxp_fn_JxlColorEncodingSetToSRGB(&color, is_gray ? JXL_TRUE : JXL_FALSE);
    return pxp_fn_JxlEncoderSetColorEncoding(enc, &color);
}
JxlEncoderStatus pxp_JxlEncoderSetICCProfile(JxlEncoder *enc, const uint8_t *icc, size_t size) {
    return pxp_fn_JxlEncoderSetICCProfile(enc, icc, size);
}
JxlEncoderStatus pxp_JxlEncoderAddImageFrame(
    const JxlEncoderFrameSettings *settings, const JxlPixelFormat *format, const void *buffer, size_t size) {
    return pxp_fn_JxlEncoderAddImageFrame(settings, format, buffer, size);
}
JxlEncoderStatus pxp_JxlEncoderAddJPEGFrame(const JxlEncoderFrameSettings *settings, const uint8_t *data, size_t size) {
    return pxp_fn_JxlEncoderAddJPEGFrame(settings, data, size);
}
JxlEncoderStatus pxp_JxlEncoderStoreJPEGMetadata(JxlEncoder *enc, int store) {
    return pxp_fn_JxlEncoderStoreJPEGMetadata(enc, store ? JXL_TRUE : JXL_FALSE);
}
JxlEncoderStatus pxp_JxlEncoderUseContainer(JxlEncoder *enc, int use) {
    return pxp_fn_JxlEncoderUseContainer(enc, use ? JXL_TRUE : JXL_FALSE);
}
JxlEncoderStatus pxp_JxlEncoderUseBoxes(JxlEncoder *enc) { return pxp_fn_JxlEncoderUseBoxes(enc); }
JxlEncoderStatus pxp_JxlEncoderAddBox(JxlEncoder *enc, const char *type, const uint8_t *contents, size_t size) {
    return pxp_fn_JxlEncoderAddBox(enc, type, contents, size, JXL_FALSE);
}
void pxp_JxlEncoderCloseInput(JxlEncoder *enc) { pxp_fn_JxlEncoderCloseInput(enc); }
JxlEncoderStatus pxp_JxlEncoderProcessOutput(JxlEncoder *enc, uint8_t **next_out, size_t *avail_out) {
    return pxp_fn_JxlEncoderProcessOutput(enc, next_out, avail_out);
}
JxlEncoderStatus pxp_JxlEncoderSetFrameDistance(JxlEncoderFrameSettings *settings, float distance) {
    return pxp_fn_JxlEncoderSetFrameDistance(settings, distance);
}
JxlEncoderStatus pxp_JxlEncoderSetFrameLossless(JxlEncoderFrameSettings *settings, int lossless) {
    return pxp_fn_JxlEncoderSetFrameLossless(settings, lossless ? JXL_TRUE : JXL_FALSE);
}
JxlEncoderStatus pxp_JxlEncoderFrameSettingsSetOption(
    JxlEncoderFrameSettings *settings, JxlEncoderFrameSettingId option, int64_t value) {
    return pxp_fn_JxlEncoderFrameSettingsSetOption(settings, option, value);
}
void pxp_JxlEncoderInitFrameHeader(JxlFrameHeader *header) { pxp_fn_JxlEncoderInitFrameHeader(header); }
JxlEncoderStatus pxp_JxlEncoderSetFrameHeader(JxlEncoderFrameSettings *settings, const JxlFrameHeader *header) {
    return pxp_fn_JxlEncoderSetFrameHeader(settings, header);
}
JxlEncoderError pxp_JxlEncoderGetError(JxlEncoder *enc) { return pxp_fn_JxlEncoderGetError(enc); }
