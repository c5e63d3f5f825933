#ifndef PIXPIPE_LCMS_H
#define PIXPIPE_LCMS_H
// Little CMS's error messages, captured instead of lost. lcms2 reports a failure twice: the call returns
// NULL or FALSE, and its log handler gets a message. The handler installed here keeps the message of the
// calling thread (lcms2 calls it synchronously, on the thread that made the failing call) until Swift
// takes it for the typed error; nothing is printed and nothing aborts.

/// Installs the recording handler as lcms2's global one. Idempotent and thread-safe.
void pxp_lcms_install_error_handler(void);

/// Forgets this thread's last message; call before an lcms2 call whose failure will be reported.
void pxp_lcms_clear_error(void);

/// This thread's last lcms2 message since `pxp_lcms_clear_error`, or NULL. Valid until the next lcms2 call
/// on this thread.
const char *pxp_lcms_last_error(void);

#endif
