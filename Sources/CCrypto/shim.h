#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian's libssl-dev): SHA-256 for project fingerprints and HMAC-SHA256
// for the keyed-hash tokens of redacted exports. Never a hand-written hash.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#endif
