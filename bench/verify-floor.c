/* The floor for `qrcheckin verify --stdin`: libsodium HMAC-SHA256 of the same message a token
 * verification authenticates (docs/TOKEN.md "MACs": context ‖ u32be(seq), 40 bytes for venue
 * HALL-1), keyed with a 32-byte venue key, one call per verification, nothing else: no parsing,
 * no base32, no output. Prints verifications (HMACs) per CPU second on one thread, the
 * message length and a byte that keeps the compiler from dropping the loop.
 *
 * Usage: verify-floor COUNT            (build: cc -O2 verify-floor.c -lsodium)
 */
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);  /* CPU time: robust on a busy machine */
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    long count = argc > 1 ? atol(argv[1]) : 1000000;
    if (sodium_init() < 0 || count <= 0) return 70;
    unsigned char key[32], mac[32], message[64];
    for (int i = 0; i < 32; i++) key[i] = (unsigned char)i;
    static const char label[] = "QRCHECKIN-TOKEN";
    static const char venue[] = "HALL-1";
    size_t length = 0;
    memcpy(message, label, sizeof label - 1); length += sizeof label - 1;
    message[length++] = 0;
    message[length++] = '1';
    message[length++] = (unsigned char)(sizeof venue - 1);
    memcpy(message + length, venue, sizeof venue - 1); length += sizeof venue - 1;
    uint32_t period = 15;
    for (int i = 3; i >= 0; i--) message[length++] = (unsigned char)(period >> (8 * i));
    size_t window_at = length;
    length += 8 + 4;
    unsigned char sink = 0;
    double start = now();
    for (long n = 0; n < count; n++) {
        uint64_t window = 113333333u + (uint64_t)(n % 3);
        for (int i = 7; i >= 0; i--) message[window_at + 7 - i] = (unsigned char)(window >> (8 * i));
        uint32_t seq = (uint32_t)n;
        for (int i = 3; i >= 0; i--) message[window_at + 8 + 3 - i] = (unsigned char)(seq >> (8 * i));
        crypto_auth_hmacsha256(mac, message, length, key);
        sink ^= mac[0];
    }
    double elapsed = now() - start;
    printf("%.0f %zu %u\n", (double)count / elapsed, length, sink);
    return 0;
}
