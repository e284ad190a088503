#include <openssl/evp.h>
#include "CCrypto.h"

struct ccrypto_digest {
    EVP_MD_CTX *context;
};

static const EVP_MD *ccrypto_md(int algorithm) {
    switch (algorithm) {
    case CCRYPTO_MD5: return EVP_md5();
    case CCRYPTO_SHA1: return EVP_sha1();
    case CCRYPTO_SHA256: return EVP_sha256();
    case CCRYPTO_SHA512: return EVP_sha512();
    default: return NULL;
    }
}

static ccrypto_digest *ccrypto_wrap(EVP_MD_CTX *context) {
    if (context == NULL) return NULL;
    ccrypto_digest *digest = OPENSSL_malloc(sizeof *digest);
    if (digest == NULL) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    digest->context = context;
    return digest;
}

ccrypto_digest *ccrypto_digest_new(int algorithm) {
    const EVP_MD *md = ccrypto_md(algorithm);
    if (md == NULL) return NULL;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return NULL;
    if (EVP_DigestInit_ex(context, md, NULL) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return ccrypto_wrap(context);
}

ccrypto_digest *ccrypto_digest_copy(const ccrypto_digest *digest) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return NULL;
    if (EVP_MD_CTX_copy_ex(context, digest->context) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return ccrypto_wrap(context);
}

int ccrypto_digest_update(ccrypto_digest *digest, const void *bytes, size_t count) {
    if (count == 0) return 1;
    return EVP_DigestUpdate(digest->context, bytes, count) == 1;
}

size_t ccrypto_digest_final(const ccrypto_digest *digest, uint8_t *out) {
    ccrypto_digest *copy = ccrypto_digest_copy(digest);
    if (copy == NULL) return 0;
    unsigned int length = 0;
    int ok = EVP_DigestFinal_ex(copy->context, out, &length);
    ccrypto_digest_free(copy);
    return ok == 1 ? (size_t)length : 0;
}

void ccrypto_digest_free(ccrypto_digest *digest) {
    if (digest == NULL) return;
    EVP_MD_CTX_free(digest->context);
    OPENSSL_free(digest);
}
