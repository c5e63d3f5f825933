#ifndef PIXPIPE_PNG_H
#define PIXPIPE_PNG_H
// STUB: the PNG codec work fills this in.
#endif
