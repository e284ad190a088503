#ifndef CCRYPTO_H
#define CCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/* Message digests from OpenSSL's libcrypto (which libcurl loads already), behind an opaque
   handle: Swift sees four calls, not OpenSSL's headers. */

/* The algorithms, by number: 0 MD5, 1 SHA-1, 2 SHA-256, 3 SHA-512. */
enum { CCRYPTO_MD5 = 0, CCRYPTO_SHA1 = 1, CCRYPTO_SHA256 = 2, CCRYPTO_SHA512 = 3 };

/* The longest digest, in bytes (SHA-512). */
enum { CCRYPTO_MAX_DIGEST = 64 };

typedef struct ccrypto_digest ccrypto_digest;

/* A new digest of algorithm, or NULL (an unknown algorithm, or no memory). */
ccrypto_digest *ccrypto_digest_new(int algorithm);

/* A new digest in the same state as digest, or NULL (no memory). */
ccrypto_digest *ccrypto_digest_copy(const ccrypto_digest *digest);

/* Adds count bytes at bytes; returns 1, or 0 on failure. */
int ccrypto_digest_update(ccrypto_digest *digest, const void *bytes, size_t count);

/* Writes the digest of everything added to out (CCRYPTO_MAX_DIGEST bytes of room) and returns
   its length, or 0 on failure; digest is left as it was, so more may be added after. */
size_t ccrypto_digest_final(const ccrypto_digest *digest, uint8_t *out);

void ccrypto_digest_free(ccrypto_digest *digest);

#endif
