#ifndef CLIBCURL_SHIM_H
#define CLIBCURL_SHIM_H
#include <curl/curl.h>
#endif
