#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto, for its message digests: SHA-256 through the EVP interface, which picks the
// CPU's SHA extensions (or AVX2) at run time.
//
// The one-shot SHA-256 of a short text (a URL's or a name's fingerprint, several per item of a list) uses
// the low-level SHA256_Init/Update/Final on a context on the stack instead: 54 ns against EVP_Digest's
// 145 ns for a 40-byte URL (no context allocated and freed, no provider dispatch), with the same block
// function. Those calls are deprecated in OpenSSL 3 but kept by it; the define leaves their declarations
// without the deprecation attribute, so Swift imports them without warnings.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>
#endif
