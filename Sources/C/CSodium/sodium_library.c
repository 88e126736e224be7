/* libsodium, loaded on first use: the stubs of the functions qrcheckin calls. Loading it runs
   sodium_init() (which libsodium requires before any other call), so every stub finds it
   initialised. */
#include <stdio.h>

#include "CSodium.h"
#include "library_loader.h"

/* libsodium 1.0.x, library version 10, is soname 23. */
_Static_assert(SODIUM_LIBRARY_VERSION_MAJOR == 10, "libsodium.so.23");

#define SODIUM_FUNCTIONS(VALUE, VOID, NORETURN)                                                    \
    VALUE(int, sodium_init, (void), ())                                                            \
    VALUE(int, crypto_auth_hmacsha256_init, (crypto_auth_hmacsha256_state * state, const unsigned char *key, size_t keylen), \
          (state, key, keylen))                                                                    \
    VALUE(int, crypto_auth_hmacsha256_update, (crypto_auth_hmacsha256_state * state, const unsigned char *in, unsigned long long inlen), \
          (state, in, inlen))                                                                      \
    VALUE(int, crypto_auth_hmacsha256_final, (crypto_auth_hmacsha256_state * state, unsigned char *out), (state, out)) \
    VALUE(int, crypto_generichash, (unsigned char *out, size_t outlen, const unsigned char *in, unsigned long long inlen, \
                                    const unsigned char *key, size_t keylen),                      \
          (out, outlen, in, inlen, key, keylen))                                                   \
    VALUE(int, crypto_verify_16, (const unsigned char *x, const unsigned char *y), (x, y))         \
    VALUE(int, crypto_secretbox_easy, (unsigned char *c, const unsigned char *m, unsigned long long mlen, \
                                       const unsigned char *n, const unsigned char *k),           \
          (c, m, mlen, n, k))                                                                      \
    VALUE(int, crypto_secretbox_open_easy, (unsigned char *m, const unsigned char *c, unsigned long long clen, \
                                            const unsigned char *n, const unsigned char *k),      \
          (m, c, clen, n, k))                                                                      \
    VOID(randombytes_buf, (void *const buf, const size_t size), (buf, size))                       \
    VALUE(int, sodium_memcmp, (const void *const b1_, const void *const b2_, size_t len), (b1_, b2_, len)) \
    VOID(sodium_memzero, (void *const pnt, const size_t len), (pnt, len))                          \
    VALUE(char *, sodium_bin2base64, (char *const b64, const size_t b64_maxlen, const unsigned char *const bin, \
                                      const size_t bin_len, const int variant),                     \
          (b64, b64_maxlen, bin, bin_len, variant))                                                \
    VALUE(int, sodium_base642bin, (unsigned char *const bin, const size_t bin_maxlen, const char *const b64, \
                                   const size_t b64_len, const char *const ignore, size_t *const bin_len, \
                                   const char **const b64_end, const int variant),                 \
          (bin, bin_maxlen, b64, b64_len, ignore, bin_len, b64_end, variant))                      \
    VALUE(int, crypto_pwhash_str, (char out[crypto_pwhash_STRBYTES], const char *const passwd,        \
                                   unsigned long long passwdlen, unsigned long long opslimit, size_t memlimit), \
          (out, passwd, passwdlen, opslimit, memlimit))                                            \
    VALUE(int, crypto_pwhash_str_verify, (const char str[crypto_pwhash_STRBYTES], const char *const passwd, \
                                          unsigned long long passwdlen),                           \
          (str, passwd, passwdlen))                                                                \
    VALUE(int, crypto_pwhash_str_needs_rehash, (const char str[crypto_pwhash_STRBYTES],             \
                                                unsigned long long opslimit, size_t memlimit),     \
          (str, opslimit, memlimit))

static int initialise(char *why, size_t size);

CLL_STUBS("libsodium.so.23", SODIUM_FUNCTIONS, initialise)

static int initialise(char *why, size_t size) {
    /* 1 means "already initialised": fine. Only fails without any OS random source. */
    if (CLL_REAL_(sodium_init)() >= 0) return 0;
    snprintf(why, size, "sodium_init failed (no random source from the kernel?)");
    return -1;
}

const char *csodium_load(void) {
    return cll_load_failure(&cll_this_library);
}
