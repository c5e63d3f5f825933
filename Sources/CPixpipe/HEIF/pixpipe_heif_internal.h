#ifndef PIXPIPE_HEIF_INTERNAL_H
#define PIXPIPE_HEIF_INTERNAL_H
// Wrappers only the HEVC decoder plugin (pixpipe_heif_hevc.c) calls; kept out of the module's header.
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

struct heif_error pxp_heif_register_decoder(struct heif_context *ctx, const struct heif_decoder_plugin *plugin);

#endif
