#ifndef CPIXPIPE_AVIF_H
#define CPIXPIPE_AVIF_H
// libavif for PixpipeImage's AVIF folder, behind `pxp_` wrappers of the functions it calls. On Linux the
// library is loaded with dlopen on first use, so a process that never meets an AVIF file does not map
// libavif and the AV1 codecs behind it (aom, dav1d, rav1e, SVT-AV1, libgav1, libyuv, abseil: 23 shared
// libraries, 1.5 MB of pages, and their relocations at every start). Elsewhere the wrappers call the
// linked library. Types and constants are libavif's own, from its header.
#include <avif/avif.h>

/// Loads libavif if it is not loaded yet (once per process, thread-safe): 1 when the wrappers below can
/// be called, 0 when the library is missing or of another ABI than the header (see
/// `pxp_avif_load_error`).
int pxp_avif_load(void);

/// Why `pxp_avif_load` failed, or NULL when it did not.
const char *pxp_avif_load_error(void);

// Creators: NULL when the object cannot be made, or when libavif cannot be loaded. Every other wrapper
// takes an object one of them made, so it is only ever called once the library is loaded.
avifDecoder *pxp_avifDecoderCreate(void);
avifEncoder *pxp_avifEncoderCreate(void);
avifImage *pxp_avifImageCreate(uint32_t width, uint32_t height, uint32_t depth, avifPixelFormat yuvFormat);

const char *pxp_avifResultToString(avifResult result);
void pxp_avifDecoderDestroy(avifDecoder *decoder);
void pxp_avifDecoderSetIO(avifDecoder *decoder, avifIO *io);
avifResult pxp_avifDecoderSetIOMemory(avifDecoder *decoder, const uint8_t *data, size_t size);
avifResult pxp_avifDecoderParse(avifDecoder *decoder);
avifResult pxp_avifDecoderNextImage(avifDecoder *decoder);
avifResult pxp_avifDecoderNthImage(avifDecoder *decoder, uint32_t frameIndex);
void pxp_avifEncoderDestroy(avifEncoder *encoder);
avifResult pxp_avifEncoderAddImage(
    avifEncoder *encoder, const avifImage *image, uint64_t durationInTimescales, avifAddImageFlags addImageFlags);
avifResult pxp_avifEncoderFinish(avifEncoder *encoder, avifRWData *output);
void pxp_avifRWDataFree(avifRWData *raw);
void pxp_avifImageDestroy(avifImage *image);
/// libavif 1.x returns a result here, 0.11 nothing; the package ignored it before, and still does.
void pxp_avifImageSetProfileICC(avifImage *image, const uint8_t *icc, size_t iccSize);
/// As `pxp_avifImageSetProfileICC`: the result of libavif 1.x is not used.
void pxp_avifImageSetMetadataExif(avifImage *image, const uint8_t *exif, size_t exifSize);
void pxp_avifRGBImageSetDefaults(avifRGBImage *rgb, const avifImage *image);
avifResult pxp_avifImageRGBToYUV(avifImage *image, const avifRGBImage *rgb);
avifResult pxp_avifImageYUVToRGB(const avifImage *image, avifRGBImage *rgb);
avifBool pxp_avifCropRectConvertCleanApertureBox(
    avifCropRect *cropRect, const avifCleanApertureBox *clap, uint32_t imageW, uint32_t imageH,
    avifPixelFormat yuvFormat, avifDiagnostics *diag);
avifBool pxp_avifCleanApertureBoxConvertCropRect(
    avifCleanApertureBox *clap, const avifCropRect *cropRect, uint32_t imageW, uint32_t imageH,
    avifPixelFormat yuvFormat, avifDiagnostics *diag);

#endif
