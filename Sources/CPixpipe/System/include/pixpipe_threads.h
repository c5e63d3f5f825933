#ifndef PIXPIPE_THREADS_H
#define PIXPIPE_THREADS_H
// Thread calls that Swift's Glibc module does not export (they need _GNU_SOURCE).

/// Names the calling thread as `top -H`, `ps -L` and debuggers show it (at most 15 bytes are kept on
/// Linux; longer names are cut). Returns 0, or an error number.
int pxp_set_current_thread_name(const char *name);

#endif
