#ifndef CPIXPIPE_JXL_H
#define CPIXPIPE_JXL_H
// libjxl for PixpipeImage's JXL folder, behind `pxp_` wrappers of the functions it calls. On Linux the
// library (and libjxl_threads) is loaded with dlopen on first use, so a process that never meets a JPEG XL
// file does not map libjxl, libhwy, libbrotli and libstdc++. Elsewhere the wrappers call the linked library.
// Types and constants are libjxl's own, from its header.
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>

/// Loads libjxl and libjxl_threads if they are not loaded yet (once per process, thread-safe): 1 when the
/// wrappers below can be called, 0 when a library is missing or of another version than the header.
int pxp_jxl_load(void);

/// Why `pxp_jxl_load` failed, or NULL when it did not.
const char *pxp_jxl_load_error(void);

// Creators: NULL when the library cannot be loaded. Every other wrapper takes an object one of them made.
JxlDecoder *pxp_JxlDecoderCreate(void);
JxlEncoder *pxp_JxlEncoderCreate(void);

/// A thread pool of `threads` workers for one decoder or encoder (NULL when it cannot be made).
void *pxp_jxl_runner_create(size_t threads);
void pxp_jxl_runner_destroy(void *runner);
/// Attaches `runner` (from `pxp_jxl_runner_create`) to the decoder or encoder.
JxlDecoderStatus pxp_jxl_decoder_set_runner(JxlDecoder *dec, void *runner);
JxlEncoderStatus pxp_jxl_encoder_set_runner(JxlEncoder *enc, void *runner);

void pxp_JxlDecoderDestroy(JxlDecoder *dec);
JxlDecoderStatus pxp_JxlDecoderSubscribeEvents(JxlDecoder *dec, int events_wanted);
JxlDecoderStatus pxp_JxlDecoderSetInput(JxlDecoder *dec, const uint8_t *data, size_t size);
void pxp_JxlDecoderCloseInput(JxlDecoder *dec);
JxlDecoderStatus pxp_JxlDecoderProcessInput(JxlDecoder *dec);
JxlDecoderStatus pxp_JxlDecoderGetBasicInfo(const JxlDecoder *dec, JxlBasicInfo *info);
JxlDecoderStatus pxp_JxlDecoderGetICCProfileSize(const JxlDecoder *dec, size_t *size);
JxlDecoderStatus pxp_JxlDecoderGetColorAsICCProfile(const JxlDecoder *dec, uint8_t *icc, size_t size);
JxlDecoderStatus pxp_JxlDecoderImageOutBufferSize(const JxlDecoder *dec, const JxlPixelFormat *format, size_t *size);
JxlDecoderStatus pxp_JxlDecoderSetImageOutBuffer(
    JxlDecoder *dec, const JxlPixelFormat *format, void *buffer, size_t size);
JxlDecoderStatus pxp_JxlDecoderGetFrameHeader(const JxlDecoder *dec, JxlFrameHeader *header);
JxlDecoderStatus pxp_JxlDecoderSetKeepOrientation(JxlDecoder *dec, int keep);
JxlDecoderStatus pxp_JxlDecoderSetUnpremultiplyAlpha(JxlDecoder *dec, int unpremultiply);
JxlDecoderStatus pxp_JxlDecoderSetJPEGBuffer(JxlDecoder *dec, uint8_t *data, size_t size);
size_t pxp_JxlDecoderReleaseJPEGBuffer(JxlDecoder *dec);
JxlDecoderStatus pxp_JxlDecoderGetBoxType(JxlDecoder *dec, char *type, int decompressed);
JxlDecoderStatus pxp_JxlDecoderSetBoxBuffer(JxlDecoder *dec, uint8_t *data, size_t size);
size_t pxp_JxlDecoderReleaseBoxBuffer(JxlDecoder *dec);
JxlDecoderStatus pxp_JxlDecoderSetDecompressBoxes(JxlDecoder *dec, int decompress);
JxlDecoderStatus pxp_JxlDecoderSetProgressiveDetail(JxlDecoder *dec, JxlProgressiveDetail detail);
JxlDecoderStatus pxp_JxlDecoderFlushImage(JxlDecoder *dec);
JxlDecoderStatus pxp_JxlDecoderSkipCurrentFrame(JxlDecoder *dec);

void pxp_JxlEncoderDestroy(JxlEncoder *enc);
JxlEncoderFrameSettings *pxp_JxlEncoderFrameSettingsCreate(JxlEncoder *enc);
void pxp_JxlEncoderInitBasicInfo(JxlBasicInfo *info);
JxlEncoderStatus pxp_JxlEncoderSetBasicInfo(JxlEncoder *enc, const JxlBasicInfo *info);
void pxp_JxlEncoderInitExtraChannelInfo(JxlExtraChannelType type, JxlExtraChannelInfo *info);
JxlEncoderStatus pxp_JxlEncoderSetExtraChannelInfo(JxlEncoder *enc, size_t index, const JxlExtraChannelInfo *info);
/// sRGB (or the gray sRGB curve when `is_gray`) as the encoded colour space.
JxlEncoderStatus pxp_jxl_encoder_set_srgb(JxlEncoder *enc, int is_gray);
JxlEncoderStatus pxp_JxlEncoderSetICCProfile(JxlEncoder *enc, const uint8_t *icc, size_t size);
JxlEncoderStatus pxp_JxlEncoderAddImageFrame(
    const JxlEncoderFrameSettings *settings, const JxlPixelFormat *format, const void *buffer, size_t size);
JxlEncoderStatus pxp_JxlEncoderAddJPEGFrame(const JxlEncoderFrameSettings *settings, const uint8_t *data, size_t size);
JxlEncoderStatus pxp_JxlEncoderStoreJPEGMetadata(JxlEncoder *enc, int store);
JxlEncoderStatus pxp_JxlEncoderUseContainer(JxlEncoder *enc, int use);
JxlEncoderStatus pxp_JxlEncoderUseBoxes(JxlEncoder *enc);
/// Adds an uncompressed metadata box (`type` is four characters, as "Exif" or "xml ").
JxlEncoderStatus pxp_JxlEncoderAddBox(JxlEncoder *enc, const char *type, const uint8_t *contents, size_t size);
void pxp_JxlEncoderCloseInput(JxlEncoder *enc);
JxlEncoderStatus pxp_JxlEncoderProcessOutput(JxlEncoder *enc, uint8_t **next_out, size_t *avail_out);
JxlEncoderStatus pxp_JxlEncoderSetFrameDistance(JxlEncoderFrameSettings *settings, float distance);
JxlEncoderStatus pxp_JxlEncoderSetFrameLossless(JxlEncoderFrameSettings *settings, int lossless);
JxlEncoderStatus pxp_JxlEncoderFrameSettingsSetOption(
    JxlEncoderFrameSettings *settings, JxlEncoderFrameSettingId option, int64_t value);
void pxp_JxlEncoderInitFrameHeader(JxlFrameHeader *header);
JxlEncoderStatus pxp_JxlEncoderSetFrameHeader(JxlEncoderFrameSettings *settings, const JxlFrameHeader *header);
JxlEncoderError pxp_JxlEncoderGetError(JxlEncoder *enc);

#endif
