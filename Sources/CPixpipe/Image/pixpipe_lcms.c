#include "pixpipe_lcms.h"

#include <lcms2.h>
#include <pthread.h>
#include <stdio.h>

// One message per thread: lcms2 calls the handler on the thread of the failing call, so a thread-local
// buffer needs no lock and never mixes two threads' failures.
static _Thread_local char last_message[256];
static _Thread_local int has_message;

static void record(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context;
    snprintf(last_message, sizeof last_message, "%s (lcms2 error %u)", text ? text : "unknown error", (unsigned)code);
    has_message = 1;
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void install(void) { cmsSetLogErrorHandler(record); }

void pxp_lcms_install_error_handler(void) { pthread_once(&install_once, install); }

void pxp_lcms_clear_error(void) { has_message = 0; }

const char *pxp_lcms_last_error(void) { return has_message ? last_message : NULL; }
