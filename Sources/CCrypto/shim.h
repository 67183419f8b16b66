#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian's libssl-dev): SHA-256 for project fingerprints and HMAC-SHA256
// for the keyed-hash tokens of redacted exports. Never a hand-written hash.
//
// The token hasher keeps SHA-256 states after the HMAC key's pads (`SHA256_CTX`, copied per
// token: RFC 2104's precomputation) through the SHA256_Init/Update/Final functions, which
// OpenSSL 3 marks deprecated in favour of EVP; the EVP route allocates and frees a context per
// copy, about a third of a token's cost. They stay in OpenSSL 3's libcrypto; this only
// silences the deprecation attributes.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#endif
