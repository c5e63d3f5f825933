#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto, for its message digests: SHA-256 through the EVP interface, which picks the
// CPU's SHA extensions (or AVX2) at run time.
#include <openssl/evp.h>
#endif
