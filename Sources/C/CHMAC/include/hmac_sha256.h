#ifndef CHMAC_HMAC_SHA256_H
#define CHMAC_HMAC_SHA256_H
/* HMAC-SHA256 from Nettle when it can be loaded, else from libsodium: the same bytes either way.

   Why Nettle: its SHA-256 uses the CPU's SHA extensions where there are any (Debian's build
   picks the code at run time); an HMAC of a token's 40 bytes under a keyed state runs at
   7.7-8.0 M/s on one core here, libsodium's portable C at 2.1 M/s, and `verify --stdin` spent
   60 % of its instructions there.

   Why dlopen, not a link: linking libnettle costs every process ~550 symbol relocations at
   start (`qrcheckin --version` 0.97 -> 1.40 M instructions), and most commands never compute
   an HMAC. The library is loaded on the first key prepared, once per process. */
#include <stddef.h>
#include <stdint.h>

/* A key prepared for many messages: its padded blocks already hashed. Room for either
   library's state (Nettle's hmac_sha256_ctx, libsodium's crypto_auth_hmacsha256_state),
   opaque to callers. */
typedef struct {
    _Alignas(16) unsigned char state[512];
    int library;  /* a chmac_library value: the one that prepared it */
} chmac_key;

/* Which library computes. */
typedef enum {
    CHMAC_FASTEST = 0,    /* Nettle when it loads, else libsodium */
    CHMAC_NETTLE = 1,
    CHMAC_LIBSODIUM = 2,
} chmac_library;

/* Whether `library` can compute here (CHMAC_NETTLE: libnettle.so.8 loads; loads it once). */
int chmac_available(chmac_library library);

/* Prepares `key` (any length; longer than a block is hashed first, RFC 2104) for `library`
   (CHMAC_NETTLE when it is not available: libsodium). */
void chmac_prepare(chmac_key *prepared, const uint8_t *key, size_t key_length, chmac_library library);

/* The 32-byte HMAC of `message` under a prepared key; the key stays as it was, and the copy
   of its state this used is wiped. Safe from several threads on one key. */
void chmac_compute(const chmac_key *prepared, const uint8_t *message, size_t length, uint8_t output[32]);

/* Wipes a prepared key. */
void chmac_wipe(chmac_key *prepared);
#endif
