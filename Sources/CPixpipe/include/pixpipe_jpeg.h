#ifndef PIXPIPE_JPEG_H
#define PIXPIPE_JPEG_H
// STUB: the JPEG codec work fills this in.
#endif
