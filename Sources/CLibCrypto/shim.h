#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto, for SHA-256: the block function picks the CPU's SHA extensions (or AVX2) at run time.
//
// Pixpipe calls the low-level SHA256_Init/Update/Final on a context it holds, not the EVP interface: the
// same block function without a context allocated per digest or an algorithm looked up by name (54 ns
// against EVP_Digest's 145 ns for a 40-byte URL).
// Those calls are deprecated in OpenSSL 3 but kept by it; the define leaves their declarations without the
// deprecation attribute, so Swift imports them without warnings.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#endif
