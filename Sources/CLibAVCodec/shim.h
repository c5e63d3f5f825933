#ifndef CLIBAVCODEC_SHIM_H
#define CLIBAVCODEC_SHIM_H
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
#endif
