#ifndef PIXPIPE_CURL_H
#define PIXPIPE_CURL_H
// Non-variadic wrappers for libcurl's variadic option and info calls, which Swift cannot call,
// plus constants for the macros Swift does not import. Each wrapper fixes the argument type that
// libcurl reads for the option, so a Swift caller cannot pass the wrong width by accident.
#include <curl/curl.h>

// MARK: Easy handle options

/// Sets an option whose argument is a `long` (flags, counts, millisecond timeouts).
CURLcode pxp_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// Sets an option whose argument is a pointer (strings, which libcurl copies; user data; slists).
CURLcode pxp_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// Sets an option whose argument is a `curl_off_t` (the `_LARGE` sizes and offsets).
CURLcode pxp_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// Sets CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION (both use the write callback signature).
CURLcode pxp_curl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback);
/// Sets CURLOPT_XFERINFOFUNCTION.
CURLcode pxp_curl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);
/// Sets CURLOPT_OPENSOCKETFUNCTION.
CURLcode pxp_curl_easy_setopt_opensocket_function(CURL *handle, curl_opensocket_callback callback);
/// Sets CURLOPT_CLOSESOCKETFUNCTION.
CURLcode pxp_curl_easy_setopt_closesocket_function(CURL *handle, curl_closesocket_callback callback);

// MARK: Easy handle information

/// Reads a `long` information (response code, redirect count).
CURLcode pxp_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// Reads a `double` information (the older timing values).
CURLcode pxp_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
/// Reads a `curl_off_t` information (the `_T` sizes and microsecond times).
CURLcode pxp_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
/// Reads a string information; the string belongs to the handle and lives until its next transfer.
CURLcode pxp_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);

// MARK: Multi handle options

/// Sets a multi option whose argument is a `long` (connection caps, multiplexing).
CURLMcode pxp_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// MARK: Constants for macros that do not import

/// `CURL_GLOBAL_DEFAULT`, for curl_global_init.
static const long pxp_curl_global_default = CURL_GLOBAL_DEFAULT;
/// `CURL_SOCKET_BAD`, the value an open-socket callback returns on failure.
static const curl_socket_t pxp_curl_socket_bad = CURL_SOCKET_BAD;
/// `CURL_ERROR_SIZE`, the size of the buffer CURLOPT_ERRORBUFFER writes into.
static const int pxp_curl_error_size = CURL_ERROR_SIZE;
/// `CURLPIPE_MULTIPLEX`, for CURLMOPT_PIPELINING.
static const long pxp_curl_pipe_multiplex = CURLPIPE_MULTIPLEX;
/// `CURL_HTTP_VERSION_2TLS`: HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
static const long pxp_curl_http_version_2tls = CURL_HTTP_VERSION_2TLS;
/// `CURL_HTTP_VERSION_1_1`.
static const long pxp_curl_http_version_1_1 = CURL_HTTP_VERSION_1_1;
/// `CURL_NETRC_IGNORED`: ~/.netrc is never read.
static const long pxp_curl_netrc_ignored = CURL_NETRC_IGNORED;
/// `CURLOPT_XFERINFODATA`, which some headers only define as an alias macro.
static const CURLoption pxp_curlopt_xferinfodata = CURLOPT_XFERINFODATA;
/// `CURLOPT_WRITEDATA`.
static const CURLoption pxp_curlopt_writedata = CURLOPT_WRITEDATA;
/// `CURLOPT_HEADERDATA`.
static const CURLoption pxp_curlopt_headerdata = CURLOPT_HEADERDATA;

#endif
