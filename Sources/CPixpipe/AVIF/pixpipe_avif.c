#include "CPixpipeAVIF.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Every libavif function the wrappers call. Each pointer's type is taken from the header's own
// declaration (`__typeof__`), so a wrapper whose call does not fit the installed header fails to compile.
#define PXP_AVIF_FUNCTIONS(X)                                                                              \
    X(avifVersion)                                                                                         \
    X(avifDecoderCreate)                                                                                   \
    X(avifEncoderCreate)                                                                                   \
    X(avifImageCreate)                                                                                     \
    X(avifResultToString)                                                                                  \
    X(avifDecoderDestroy)                                                                                  \
    X(avifDecoderSetIO)                                                                                    \
    X(avifDecoderSetIOMemory)                                                                              \
    X(avifDecoderParse)                                                                                    \
    X(avifDecoderNextImage)                                                                                \
    X(avifDecoderNthImage)                                                                                 \
    X(avifEncoderDestroy)                                                                                  \
    X(avifEncoderAddImage)                                                                                 \
    X(avifEncoderFinish)                                                                                   \
    X(avifRWDataFree)                                                                                      \
    X(avifImageDestroy)                                                                                    \
    X(avifImageSetProfileICC)                                                                              \
    X(avifImageSetMetadataExif)                                                                            \
    X(avifRGBImageSetDefaults)                                                                             \
    X(avifImageRGBToYUV)                                                                                   \
    X(avifImageYUVToRGB)                                                                                   \
    X(avifCropRectConvertCleanApertureBox)                                                                 \
    X(avifCleanApertureBoxConvertCropRect)

#define PXP_AVIF_POINTER(name) static __typeof__(name) *pxp_fn_##name;
PXP_AVIF_FUNCTIONS(PXP_AVIF_POINTER)

static pthread_once_t pxp_avif_once = PTHREAD_ONCE_INIT;
static int pxp_avif_loaded;
static char pxp_avif_error[256];

#if defined(__linux__)
#include <dlfcn.h>

// The SONAME of the libavif the header describes: 16 for every 1.x release, 15 for 0.11. Other headers
// fall back to the development link `libavif.so`, which exists wherever the header does.
#if AVIF_VERSION_MAJOR == 1
#define PXP_AVIF_SONAME "libavif.so.16"
#elif AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define PXP_AVIF_SONAME "libavif.so.15"
#else
#define PXP_AVIF_SONAME "libavif.so"
#endif

// Whether the loaded library's version has the header's ABI: the same major version, and for 0.x
// (which changed its ABI with each minor release) the same minor.
static int pxp_avif_version_fits(const char *version) {
    int major = -1, minor = -1;
    if (version == NULL || sscanf(version, "%d.%d", &major, &minor) != 2) return 0;
    if (major != AVIF_VERSION_MAJOR) return 0;
    return major > 0 || minor == AVIF_VERSION_MINOR;
}

static void pxp_avif_load_once(void) {
    void *library = dlopen(PXP_AVIF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(pxp_avif_error, sizeof pxp_avif_error, "libavif could not be loaded: %s", dlerror());
        return;
    }
#define PXP_AVIF_LOOKUP(name)                                                                              \
    pxp_fn_##name = (__typeof__(name) *)dlsym(library, #name);                                             \
    if (pxp_fn_##name == NULL) {                                                                           \
        snprintf(pxp_avif_error, sizeof pxp_avif_error, "%s has no %s", PXP_AVIF_SONAME, #name);           \
        return;                                                                                            \
    }
    PXP_AVIF_FUNCTIONS(PXP_AVIF_LOOKUP)
    const char *version = pxp_fn_avifVersion();
    if (!pxp_avif_version_fits(version)) {
        snprintf(pxp_avif_error, sizeof pxp_avif_error, "%s is version %s, built for %d.%d", PXP_AVIF_SONAME,
                 version ? version : "?", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
        return;
    }
    // The handle stays open for the life of the process: the wrappers' pointers point into it.
    pxp_avif_loaded = 1;
}
#else
static void pxp_avif_load_once(void) {
#define PXP_AVIF_BIND(name) pxp_fn_##name = name;
    PXP_AVIF_FUNCTIONS(PXP_AVIF_BIND)
    pxp_avif_loaded = 1;
}
#endif

int pxp_avif_load(void) {
    pthread_once(&pxp_avif_once, pxp_avif_load_once);
    return pxp_avif_loaded;
}

const char *pxp_avif_load_error(void) {
    return pxp_avif_load() ? NULL : pxp_avif_error;
}

avifDecoder *pxp_avifDecoderCreate(void) { return pxp_avif_load() ? pxp_fn_avifDecoderCreate() : NULL; }
avifEncoder *pxp_avifEncoderCreate(void) { return pxp_avif_load() ? pxp_fn_avifEncoderCreate() : NULL; }
avifImage *pxp_avifImageCreate(uint32_t width, uint32_t height, uint32_t depth, avifPixelFormat yuvFormat) {
    return pxp_avif_load() ? pxp_fn_avifImageCreate(width, height, depth, yuvFormat) : NULL;
}

const char *pxp_avifResultToString(avifResult result) { return pxp_fn_avifResultToString(result); }
void pxp_avifDecoderDestroy(avifDecoder *decoder) { pxp_fn_avifDecoderDestroy(decoder); }
void pxp_avifDecoderSetIO(avifDecoder *decoder, avifIO *io) { pxp_fn_avifDecoderSetIO(decoder, io); }
avifResult pxp_avifDecoderSetIOMemory(avifDecoder *decoder, const uint8_t *data, size_t size) {
    return pxp_fn_avifDecoderSetIOMemory(decoder, data, size);
}
avifResult pxp_avifDecoderParse(avifDecoder *decoder) { return pxp_fn_avifDecoderParse(decoder); }
avifResult pxp_avifDecoderNextImage(avifDecoder *decoder) { return pxp_fn_avifDecoderNextImage(decoder); }
avifResult pxp_avifDecoderNthImage(avifDecoder *decoder, uint32_t frameIndex) {
    return pxp_fn_avifDecoderNthImage(decoder, frameIndex);
}
void pxp_avifEncoderDestroy(avifEncoder *encoder) { pxp_fn_avifEncoderDestroy(encoder); }
avifResult pxp_avifEncoderAddImage(
    avifEncoder *encoder, const avifImage *image, uint64_t durationInTimescales, avifAddImageFlags addImageFlags) {
    return pxp_fn_avifEncoderAddImage(encoder, image, durationInTimescales, addImageFlags);
}
avifResult pxp_avifEncoderFinish(avifEncoder *encoder, avifRWData *output) {
    return pxp_fn_avifEncoderFinish(encoder, output);
}
void pxp_avifRWDataFree(avifRWData *raw) { pxp_fn_avifRWDataFree(raw); }
void pxp_avifImageDestroy(avifImage *image) { pxp_fn_avifImageDestroy(image); }
void pxp_avifImageSetProfileICC(avifImage *image, const uint8_t *icc, size_t iccSize) {
    (void)pxp_fn_avifImageSetProfileICC(image, icc, iccSize);
}
void pxp_avifImageSetMetadataExif(avifImage *image, const uint8_t *exif, size_t exifSize) {
    (void)pxp_fn_avifImageSetMetadataExif(image, exif, exifSize);
}
void pxp_avifRGBImageSetDefaults(avifRGBImage *rgb, const avifImage *image) {
    pxp_fn_avifRGBImageSetDefaults(rgb, image);
}
avifResult pxp_avifImageRGBToYUV(avifImage *image, const avifRGBImage *rgb) {
    return pxp_fn_avifImageRGBToYUV(image, rgb);
}
avifResult pxp_avifImageYUVToRGB(const avifImage *image, avifRGBImage *rgb) {
    return pxp_fn_avifImageYUVToRGB(image, rgb);
}
avifBool pxp_avifCropRectConvertCleanApertureBox(
    avifCropRect *cropRect, const avifCleanApertureBox *clap, uint32_t imageW, uint32_t imageH,
    avifPixelFormat yuvFormat, avifDiagnostics *diag) {
    return pxp_fn_avifCropRectConvertCleanApertureBox(cropRect, clap, imageW, imageH, yuvFormat, diag);
}
avifBool pxp_avifCleanApertureBoxConvertCropRect(
    avifCleanApertureBox *clap, const avifCropRect *cropRect, uint32_t imageW, uint32_t imageH,
    avifPixelFormat yuvFormat, avifDiagnostics *diag) {
    return pxp_fn_avifCleanApertureBoxConvertCropRect(clap, cropRect, imageW, imageH, yuvFormat, diag);
}
