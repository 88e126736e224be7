#include "hmac_sha256.h"

#include <nettle/hmac.h>
#include <sodium.h>
#include <string.h>

#include "library_loader.h"

_Static_assert(sizeof(struct hmac_sha256_ctx) <= sizeof(((chmac_key *)0)->state), "Nettle's state fits");
_Static_assert(sizeof(crypto_auth_hmacsha256_state) <= sizeof(((chmac_key *)0)->state), "libsodium's state fits");

/* Nettle's entry points, looked up once; unlike the stubs' libraries, Nettle is optional:
   when it cannot be loaded, libsodium computes. Only Nettle's header is used at build time:
   the struct's layout is its ABI (soname 8). */
enum { SET_KEY, UPDATE, DIGEST };
static const char *const names[] = {"nettle_hmac_sha256_set_key", "nettle_hmac_sha256_update", "nettle_hmac_sha256_digest"};
static void *slots[3];
static cll_library nettle = CLL_LIBRARY("libnettle.so.8", names, slots, NULL);

#define NETTLE(slot, type) ((type)slots[slot])
typedef void (*set_key_function)(struct hmac_sha256_ctx *, size_t, const uint8_t *);
typedef void (*update_function)(struct hmac_sha256_ctx *, size_t, const uint8_t *);
typedef void (*digest_function)(struct hmac_sha256_ctx *, size_t, uint8_t *);

int chmac_available(chmac_library library) {
    if (library != CHMAC_NETTLE) return 1;
    return cll_load(&nettle) == 0;
}

void chmac_prepare(chmac_key *prepared, const uint8_t *key, size_t key_length, chmac_library library) {
    memset(prepared, 0, sizeof *prepared);
    if (library != CHMAC_LIBSODIUM) library = chmac_available(CHMAC_NETTLE) ? CHMAC_NETTLE : CHMAC_LIBSODIUM;
    prepared->library = library;
    if (library == CHMAC_NETTLE) {
        NETTLE(SET_KEY, set_key_function)((struct hmac_sha256_ctx *)prepared->state, key_length, key);
    } else {
        crypto_auth_hmacsha256_init((crypto_auth_hmacsha256_state *)prepared->state, key, key_length);
    }
}

void chmac_compute(const chmac_key *prepared, const uint8_t *message, size_t length, uint8_t output[32]) {
    /* A key prepared for Nettle exists only once Nettle was loaded. */
    if (prepared->library == CHMAC_NETTLE) {
        struct hmac_sha256_ctx state;
        memcpy(&state, prepared->state, sizeof state);
        NETTLE(UPDATE, update_function)(&state, length, message);
        NETTLE(DIGEST, digest_function)(&state, 32, output);
        /* digest resets the copy for a next message, which leaves the key's states in it.
           explicit_bzero, not sodium_memzero: Nettle's path never loads libsodium. */
        explicit_bzero(&state, sizeof state);
    } else {
        crypto_auth_hmacsha256_state state;
        memcpy(&state, prepared->state, sizeof state);
        crypto_auth_hmacsha256_update(&state, message, length);
        crypto_auth_hmacsha256_final(&state, output); /* final wipes the whole state */
    }
}

void chmac_wipe(chmac_key *prepared) {
    explicit_bzero(prepared, sizeof *prepared);
}
