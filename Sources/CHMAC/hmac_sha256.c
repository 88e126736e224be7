#include "hmac_sha256.h"

#include <dlfcn.h>
#include <nettle/hmac.h>
#include <pthread.h>
#include <sodium.h>
#include <string.h>

_Static_assert(sizeof(struct hmac_sha256_ctx) <= sizeof(((chmac_key *)0)->state), "Nettle's state fits");
_Static_assert(sizeof(crypto_auth_hmacsha256_state) <= sizeof(((chmac_key *)0)->state), "libsodium's state fits");

/* Nettle's entry points, resolved once; all NULL when libnettle could not be loaded. Only
   Nettle's header is used at build time: the struct's layout is its ABI (soname 8). */
static struct {
    void (*set_key)(struct hmac_sha256_ctx *, size_t, const uint8_t *);
    void (*update)(struct hmac_sha256_ctx *, size_t, const uint8_t *);
    void (*digest)(struct hmac_sha256_ctx *, size_t, uint8_t *);
} nettle;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libnettle.so.8", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    void *set_key = dlsym(library, "nettle_hmac_sha256_set_key");
    void *update = dlsym(library, "nettle_hmac_sha256_update");
    void *digest = dlsym(library, "nettle_hmac_sha256_digest");
    if (set_key == NULL || update == NULL || digest == NULL) return;  /* kept loaded: harmless */
    nettle.set_key = (void (*)(struct hmac_sha256_ctx *, size_t, const uint8_t *))set_key;
    nettle.update = (void (*)(struct hmac_sha256_ctx *, size_t, const uint8_t *))update;
    nettle.digest = (void (*)(struct hmac_sha256_ctx *, size_t, uint8_t *))digest;
}

int chmac_available(chmac_library library) {
    if (library != CHMAC_NETTLE) return 1;
    pthread_once(&loaded, load);
    return nettle.digest != NULL;
}

void chmac_prepare(chmac_key *prepared, const uint8_t *key, size_t key_length, chmac_library library) {
    memset(prepared, 0, sizeof *prepared);
    if (library != CHMAC_LIBSODIUM) library = chmac_available(CHMAC_NETTLE) ? CHMAC_NETTLE : CHMAC_LIBSODIUM;
    prepared->library = library;
    if (library == CHMAC_NETTLE) {
        nettle.set_key((struct hmac_sha256_ctx *)prepared->state, key_length, key);
    } else {
        crypto_auth_hmacsha256_init((crypto_auth_hmacsha256_state *)prepared->state, key, key_length);
    }
}

void chmac_compute(const chmac_key *prepared, const uint8_t *message, size_t length, uint8_t output[32]) {
    /* A key prepared for Nettle exists only once Nettle was loaded. */
    if (prepared->library == CHMAC_NETTLE) {
        struct hmac_sha256_ctx state;
        memcpy(&state, prepared->state, sizeof state);
        nettle.update(&state, length, message);
        nettle.digest(&state, 32, output);
        /* digest resets the copy for a next message, which leaves the key's states in it. */
        sodium_memzero(&state, sizeof state);
    } else {
        crypto_auth_hmacsha256_state state;
        memcpy(&state, prepared->state, sizeof state);
        crypto_auth_hmacsha256_update(&state, message, length);
        crypto_auth_hmacsha256_final(&state, output);  /* final wipes the whole state */
    }
}

void chmac_wipe(chmac_key *prepared) {
    sodium_memzero(prepared, sizeof *prepared);
}
