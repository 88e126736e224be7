/*
 * floor: the least work each figure of scripts/bench can cost, in C with the daemon's own
 * libraries (docs/BENCHMARKS.md, "The floors"). One program, one subcommand per figure:
 *
 *   floor run OUTPUT_DIR STATE_DIR PERIOD   a rotation: the daemon's floor (same durability)
 *   floor run-plain OUTPUT_DIR STATE_DIR PERIOD   the same without the issue record and the set
 *   floor encode FILE TEXT                   `qrcheckin encode -o FILE TEXT`'s floor
 *   floor version                            start-up: load the same libraries, print a line
 *   floor hmac COUNT                         `verify --stdin`'s floor: HMACs per CPU second
 *
 * `run` is a minimal daemon doing a rotation's work the way qrcheckin does it: HKDF venue key
 * (once), the two HMAC-SHA256s a code needs (token, safe number) via Nettle, the URL,
 * libqrencode (8-bit hint, case-sensitive, level M), a 1-bit grayscale PNG via libpng (no
 * filtering, scale 8, margin 4; zlib level 4, Z_FILTERED, memLevel 6 as PNGEncoder at scale 8),
 * current.txt (UTF-8 half blocks, margin 2, safe number, expiry) and current.json (same keys),
 * and the two durable steps the daemon's guarantees need (docs/STATE.md), each the least a
 * program can do for it:
 *   - the issue record saved before the code is published (so (window, seq) never repeats
 *     after a crash): STATE_DIR/floor-issued, one line, replaced atomically (O_EXCL temporary in
 *     the held state directory, write, fsync, rename, fsync of the directory);
 *   - the three files published as one set (one code in all files, even after a power cut):
 *     written into a fresh OUTPUT_DIR/.generations/N (O_EXCL, write, fchmod, fsync each), that
 *     directory and .generations fsynced, one symlink `current` renamed over the old one, the
 *     output directory fsynced, the set before the previous one removed; current.png,
 *     current.txt, current.json are links into `current`, made once.
 * `floor run-plain` is the floor before those guarantees: each file replaced on its own
 * (O_EXCL temporary, write, fchmod, fsync, rename, fsync of the directory) in the order png,
 * txt, json, nothing saved. No metrics.prom, no log, no peer checks: the floor, not a product.
 *
 * Events, like the daemon: a rotation at each window boundary (timerfd on CLOCK_REALTIME), a
 * control socket OUTPUT_DIR/control.sock where "refresh now" forces a rotation and is answered
 * with the state after it (how scripts/bench forces the daemon's: its shakes are coalesced to
 * one a second), SIGUSR1 = a forced rotation (never coalesced), SIGTERM/SIGINT = stop, and with
 * NOTIFY_SOCKET set a 1 s repeating timer sending "STATUS=... expires in Ns" (the systemd-mode
 * tick: read the timerfd, lstat OUTPUT_DIR/control.sock as the daemon does, sendto, poll).
 *
 * The secret is read from STATE_DIR/secret (hex, as the daemon writes it), so for the same
 * window and sequence the token, URL, safe number, PNG and text are the daemon's, byte for byte
 * (scripts/bench checks that before measuring).
 *
 * `hmac` is one HMAC-SHA256 of the 40-byte token message (docs/TOKEN.md "MACs", venue HALL-1)
 * per verification under a 32-byte key whose padded blocks are hashed once: Nettle's context
 * after set_key is copied per message and the copy wiped, as CHMAC does. No parsing, no output.
 * Nettle is loaded with dlopen when a subcommand needs an HMAC, as qrcheckin loads it, so
 * `floor version` starts with the same three libraries as `qrcheckin --version`.
 *
 * Build: cc -O2 floor.c $(pkg-config --cflags --libs libsodium libqrencode libpng)  (Nettle's header only)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <poll.h>
#include <qrencode.h>
#include <signal.h>
#include <sodium.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <libgen.h>
#include <dlfcn.h>
#include <nettle/hmac.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define SCALE 8
#define PNG_MARGIN 4
#define TEXT_MARGIN 2

static const char *venue = "DEMO";
static const char *base_url = "HTTPS://CHECKIN.EXAMPLE.ORG/C";
static const char *out_dir;
static unsigned char venue_key[32];
static long period;

static void die(const char *what) {
    perror(what);
    exit(1);
}

/* ------------------------------------------------------------------------------- crypto */

/* Nettle's HMAC-SHA256 entry points (its header's names are macros). */
static struct {
    void (*set_key)(struct hmac_sha256_ctx *, size_t, const uint8_t *);
    void (*update)(struct hmac_sha256_ctx *, size_t, const uint8_t *);
    void (*digest)(struct hmac_sha256_ctx *, size_t, uint8_t *);
} hmac256;

static void load_nettle(void) {
    void *nettle = dlopen("libnettle.so.8", RTLD_NOW | RTLD_LOCAL);
    if (nettle == NULL) { fprintf(stderr, "floor: %s\n", dlerror()); exit(1); }
    hmac256.set_key = (void (*)(struct hmac_sha256_ctx *, size_t, const uint8_t *))dlsym(nettle, "nettle_hmac_sha256_set_key");
    hmac256.update = (void (*)(struct hmac_sha256_ctx *, size_t, const uint8_t *))dlsym(nettle, "nettle_hmac_sha256_update");
    hmac256.digest = (void (*)(struct hmac_sha256_ctx *, size_t, uint8_t *))dlsym(nettle, "nettle_hmac_sha256_digest");
    if (!hmac256.set_key || !hmac256.update || !hmac256.digest) { fprintf(stderr, "floor: libnettle has no HMAC-SHA256\n"); exit(1); }
}

static void hmac(const unsigned char *key, size_t key_len, const unsigned char *msg, size_t len, unsigned char out[32]) {
    struct hmac_sha256_ctx state;
    hmac256.set_key(&state, key_len, key);
    hmac256.update(&state, len, msg);
    hmac256.digest(&state, 32, out);
    sodium_memzero(&state, sizeof state);
}

static void derive_venue_key(const unsigned char *secret, size_t secret_len) {
    unsigned char prk[32], info[64];
    hmac((const unsigned char *)"QRCHECKIN-V1", 12, secret, secret_len, prk);
    size_t n = 0;
    memcpy(info, "VENUE-KEY:", 10), n = 10;
    memcpy(info + n, venue, strlen(venue)), n += strlen(venue);
    info[n++] = 1;
    hmac(prk, 32, info, n, venue_key);
}

static void put_be(unsigned char *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
}

/* label || 0 || '1' || len(venue) || venue || period u32 || window i64 [|| sequence u32] */
static size_t context(unsigned char *m, const char *label, int64_t window) {
    size_t n = strlen(label), v = strlen(venue);
    memcpy(m, label, n);
    m[n++] = 0;
    m[n++] = '1';
    m[n++] = (unsigned char)v;
    memcpy(m + n, venue, v), n += v;
    put_be(m + n, (uint64_t)period, 4), n += 4;
    put_be(m + n, (uint64_t)window, 8), n += 8;
    return n;
}

static const char *syllables[32] = {"가", "거", "고", "구", "나", "너", "노", "누", "다", "더", "도",
                                    "두", "라", "러", "로", "루", "마", "머", "모", "무", "바", "버",
                                    "보", "부", "사", "서", "소", "수", "자", "저", "조", "주"};

/* ------------------------------------------------------------------------------ output */

typedef struct {
    unsigned char *data;
    size_t size, capacity;
} buffer;

static void png_write_cb(png_structp png, png_bytep bytes, png_size_t length) {
    buffer *b = png_get_io_ptr(png);
    if (b->size + length > b->capacity) {
        while (b->capacity < b->size + length) b->capacity = b->capacity ? b->capacity * 2 : 4096;
        b->data = realloc(b->data, b->capacity);
        if (!b->data) die("realloc");
    }
    memcpy(b->data + b->size, bytes, length);
    b->size += length;
}

static void png_flush_cb(png_structp png) { (void)png; }

static void encode_png(const QRcode *qr, buffer *out) {
    int span = qr->width + 2 * PNG_MARGIN, width = span * SCALE, stride = (width + 7) / 8;
    unsigned char *row = malloc(stride);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (!png || !info || setjmp(png_jmpbuf(png))) die("libpng");
    png_set_write_fn(png, out, png_write_cb, png_flush_cb);
    png_set_IHDR(png, info, width, width, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, 4);  /* PNGCompression.scaleEight */
    png_set_compression_strategy(png, Z_FILTERED);
    png_set_compression_mem_level(png, 6);
    png_write_info(png, info);
    for (int my = 0; my < span; my++) {
        memset(row, 0xFF, stride);
        int y = my - PNG_MARGIN;
        if (y >= 0 && y < qr->width) {
            for (int x = 0; x < qr->width; x++) {
                if (!(qr->data[y * qr->width + x] & 1)) continue;
                int px = (x + PNG_MARGIN) * SCALE;  /* SCALE 8: one whole byte a module */
                row[px >> 3] = 0;
            }
        }
        for (int i = 0; i < SCALE; i++) png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
}

static int dark(const QRcode *qr, int r, int c) {
    r -= TEXT_MARGIN, c -= TEXT_MARGIN;
    return r >= 0 && r < qr->width && c >= 0 && c < qr->width && (qr->data[r * qr->width + c] & 1);
}

static size_t render_text(const QRcode *qr, char *out, const char *safe, int64_t expires) {
    int span = qr->width + 2 * TEXT_MARGIN;
    char *p = out;
    for (int r = 0; r < span; r += 2) {
        for (int c = 0; c < span; c++) {
            int top = !dark(qr, r, c), bottom = r + 1 < span ? !dark(qr, r + 1, c) : 1;
            if (top && bottom) memcpy(p, "\xE2\x96\x88", 3), p += 3;
            else if (top) memcpy(p, "\xE2\x96\x80", 3), p += 3;
            else if (bottom) memcpy(p, "\xE2\x96\x84", 3), p += 3;
            else *p++ = ' ';
        }
        *p++ = '\n';
    }
    time_t t = (time_t)expires;
    struct tm tm;
    gmtime_r(&t, &tm);
    p += sprintf(p, "%s\nexpires %04d-%02d-%02dT%02d:%02d:%02dZ\n", safe, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                 tm.tm_hour, tm.tm_min, tm.tm_sec);
    return (size_t)(p - out);
}

static void atomic_write(const char *name, const void *data, size_t size) {
    char path[4096], tmp[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    snprintf(tmp, sizeof tmp, "%s/.%s.%d.%u.tmp", out_dir, name, (int)getpid(), randombytes_random());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) die(tmp);
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("write");
        p += n, size -= (size_t)n;
    }
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) die("fsync");
    close(fd);
    if (rename(tmp, path) != 0) die("rename");
    int dir = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) fsync(dir), close(dir);
}

/* The durable steps (`run`; `run-plain` skips them): held directories, the set being written. */
static int durable = 1;
static int state_fd = -1, out_fd = -1, generations_fd = -1, set_fd = -1;
static uint64_t generation = 0;

static void write_all(int fd, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("write");
        p += n, size -= (size_t)n;
    }
}

/* The issue record, saved and synced before anything shows the code. */
static void save_record(int64_t window, uint32_t sequence) {
    char line[128], tmp[64];
    int len = snprintf(line, sizeof line, "issued = %s %ld %lld %u\n", venue, period, (long long)window, sequence);
    snprintf(tmp, sizeof tmp, ".floor-issued.%d.tmp", (int)getpid());
    int fd = openat(state_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
    if (fd < 0) die("record");
    write_all(fd, line, (size_t)len);
    if (fsync(fd) != 0) die("fsync record");
    close(fd);
    if (renameat(state_fd, tmp, state_fd, "floor-issued") != 0) die("rename record");
    if (fsync(state_fd) != 0) die("fsync state directory");
}

/* A fresh generation directory for the next set. */
static void begin_set(void) {
    char name[32];
    snprintf(name, sizeof name, "%llu", (unsigned long long)++generation);
    if (mkdirat(generations_fd, name, 0755) != 0) die("mkdir generation");
    set_fd = openat(generations_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (set_fd < 0) die("open generation");
}

static void set_write(const char *name, const void *data, size_t size) {
    int fd = openat(set_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) die(name);
    write_all(fd, data, size);
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) die("fsync");
    close(fd);
}

/* The set made durable, then switched in by one rename; the set before the previous goes. */
static void finish_set(void) {
    char target[64], name[32];
    if (fsync(set_fd) != 0 || fsync(generations_fd) != 0) die("fsync set");
    close(set_fd);
    snprintf(target, sizeof target, ".generations/%llu", (unsigned long long)generation);
    if (symlinkat(target, out_fd, ".current.tmp") != 0 || renameat(out_fd, ".current.tmp", out_fd, "current") != 0)
        die("switch");
    if (fsync(out_fd) != 0) die("fsync output directory");
    if (generation > 2) {
        snprintf(name, sizeof name, "%llu", (unsigned long long)(generation - 2));
        int old = openat(generations_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (old >= 0) {
            unlinkat(old, "current.png", 0), unlinkat(old, "current.txt", 0), unlinkat(old, "current.json", 0);
            close(old);
            unlinkat(generations_fd, name, AT_REMOVEDIR);
        }
    }
}

/* At start: held directories, and the readers' links into `current` (made once). */
static void open_durable(const char *state_dir) {
    state_fd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    out_fd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (state_fd < 0 || out_fd < 0) die("open directories");
    mkdirat(out_fd, ".generations", 0755);
    generations_fd = openat(out_fd, ".generations", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (generations_fd < 0) die("open .generations");
    static const char *files[] = {"current.png", "current.txt", "current.json"};
    for (int i = 0; i < 3; i++) {
        char target[64];
        snprintf(target, sizeof target, "current/%s", files[i]);
        unlinkat(out_fd, files[i], 0);
        if (symlinkat(target, out_fd, files[i]) != 0) die("link");
    }
}

/* One file of the code: into the set (`run`) or replaced on its own (`run-plain`). */
static void publish_file(const char *name, const void *data, size_t size) {
    if (durable) set_write(name, data, size);
    else atomic_write(name, data, size);
}

static char safe_number[32];
static char json[2048];      /* the last current.json, for control replies */
static size_t json_length;

static void rotate(int64_t window, uint32_t sequence) {
    unsigned char msg[128], mac[32], payload[25];
    size_t n = context(msg, "QRCHECKIN-TOKEN", window);
    put_be(msg + n, sequence, 4), n += 4;
    hmac(venue_key, 32, msg, n, mac);
    put_be(payload, (uint64_t)window, 8);
    put_be(payload + 8, sequence, 4);
    memcpy(payload + 12, mac, 13);
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    char token[42] = "1";
    for (int g = 0; g < 5; g++) {
        uint64_t group = 0;
        for (int i = 0; i < 5; i++) group = group << 8 | payload[g * 5 + i];
        for (int i = 0; i < 8; i++) token[1 + g * 8 + i] = alphabet[(group >> (35 - 5 * i)) & 31];
    }
    token[41] = 0;
    char url[512];
    snprintf(url, sizeof url, "%s/%s/%s", base_url, venue, token);

    n = context(msg, "QRCHECKIN-SAFE-NUMBER", window);
    hmac(venue_key, 32, msg, n, mac);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | mac[i];
    unsigned first = v % 100; v /= 100;
    unsigned s1 = v % 32; v /= 32;
    unsigned second = v % 100; v /= 100;
    unsigned s2 = v % 32;
    snprintf(safe_number, sizeof safe_number, "%02u%s%02u%s", first, syllables[s1], second, syllables[s2]);

    if (durable) save_record(window, sequence), begin_set();
    QRcode *qr = QRcode_encodeString(url, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!qr) die("QRcode_encodeString");
    buffer png = {0};
    encode_png(qr, &png);
    publish_file("current.png", png.data, png.size);
    free(png.data);

    int64_t issued = window * period, expires = (window + 1) * period;
    static char text[64 * 1024];
    publish_file("current.txt", text, render_text(qr, text, safe_number, expires));
    QRcode_free(qr);

    int len = snprintf(json, sizeof json,
                       "{\"version\":1,\"state\":\"running\",\"venue\":\"%s\",\"url\":\"%s\",\"token\":\"%s\","
                       "\"safeNumber\":\"%s\",\"window\":%lld,\"seq\":%u,\"issuedAt\":%lld,\"expiresAt\":%lld,"
                       "\"period\":%ld,\"shake\":\"on\",\"refresh\":\"auto\",\"health\":\"ok\",\"reason\":null,"
                       "\"updatedAt\":%lld,\"pid\":%d}\n",
                       venue, url, token, safe_number, (long long)window, sequence, (long long)issued,
                       (long long)expires, period, (long long)time(NULL), (int)getpid());
    json_length = (size_t)len;
    publish_file("current.json", json, json_length);
    if (durable) finish_set();
}

/* A control request: one line in, one reply out, the connection closed. "refresh now" rotates
   (a forced rotation asked for the way qrcheckin's operators and scripts/bench do) and is
   answered with the state after it, as the daemon answers; anything else gets an error. */
static void serve(int listener, int64_t window, uint32_t *sequence) {
    int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (client < 0) return;
    char request[256];
    size_t got = 0;
    while (got < sizeof request - 1) {
        ssize_t n = read(client, request + got, sizeof request - 1 - got);
        if (n <= 0) break;
        got += (size_t)n;
        if (memchr(request, '\n', got)) break;
    }
    request[got] = 0;
    char reply[4096];
    int len;
    if (strncmp(request, "refresh now\n", 12) == 0) {
        rotate(window, ++*sequence);
        len = snprintf(reply, sizeof reply, "{\"ok\":true,\"state\":%.*s}\n", (int)json_length - 1, json);
    } else {
        len = snprintf(reply, sizeof reply, "{\"ok\":false,\"error\":\"unknown request\"}\n");
    }
    if (write(client, reply, (size_t)len) < 0) { /* the client went away: nothing to do */ }
    close(client);
}

/* -------------------------------------------------------------------------------- main */

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void arm_boundary(int fd, int64_t window) {
    struct itimerspec spec = {.it_value = {.tv_sec = (time_t)((window + 1) * period)}};
    if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL) != 0) die("timerfd_settime");
}

static int run_daemon(char **argv) {
    out_dir = argv[0];
    period = atol(argv[2]);
    char secret_path[4096], hex[4096];
    snprintf(secret_path, sizeof secret_path, "%s/secret", argv[1]);
    FILE *f = fopen(secret_path, "r");
    if (!f) die(secret_path);
    size_t hex_len = fread(hex, 1, sizeof hex - 1, f);
    fclose(f);
    unsigned char secret[2048];
    size_t secret_len = 0;
    for (size_t i = 0; i + 1 < hex_len && hexval(hex[i]) >= 0 && hexval(hex[i + 1]) >= 0; i += 2)
        secret[secret_len++] = (unsigned char)(hexval(hex[i]) << 4 | hexval(hex[i + 1]));
    derive_venue_key(secret, secret_len);
    mkdir(out_dir, 0755);
    if (durable) open_durable(argv[1]);

    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGUSR1), sigaddset(&mask, SIGTERM), sigaddset(&mask, SIGINT);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    int boundary = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
    if (sfd < 0 || boundary < 0) die("signalfd/timerfd");

    int notify = -1, tick = -1;
    struct sockaddr_un notify_addr = {.sun_family = AF_UNIX};
    socklen_t notify_len = 0;
    const char *notify_path = getenv("NOTIFY_SOCKET");
    if (notify_path && *notify_path) {
        notify = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        strncpy(notify_addr.sun_path, notify_path, sizeof notify_addr.sun_path - 1);
        if (notify_addr.sun_path[0] == '@') notify_addr.sun_path[0] = 0;
        notify_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(notify_path));
        tick = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
        struct itimerspec spec = {.it_value = {.tv_sec = 1}, .it_interval = {.tv_sec = 1}};
        timerfd_settime(tick, 0, &spec, NULL);
    }

    int64_t window = (int64_t)time(NULL) / period;
    uint32_t sequence = 0;
    rotate(window, sequence);
    arm_boundary(boundary, window);
    if (notify >= 0) sendto(notify, "READY=1", 7, MSG_NOSIGNAL, (struct sockaddr *)&notify_addr, notify_len);

    /* The control socket, OUTPUT_DIR/control.sock, as the daemon's (no peer checks: the floor). */
    struct sockaddr_un control = {.sun_family = AF_UNIX};
    snprintf(control.sun_path, sizeof control.sun_path, "%s/control.sock", out_dir);
    unlink(control.sun_path);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&control, sizeof control) != 0 || listen(listener, 16) != 0)
        die("control socket");

    struct pollfd fds[4] = {{.fd = sfd, .events = POLLIN}, {.fd = boundary, .events = POLLIN},
                            {.fd = listener, .events = POLLIN}, {.fd = tick, .events = POLLIN}};
    for (;;) {
        if (poll(fds, tick >= 0 ? 4 : 3, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll");
        }
        uint64_t expirations;
        if (fds[0].revents & POLLIN) {
            struct signalfd_siginfo info;
            while (read(sfd, &info, sizeof info) == sizeof info) {
                if (info.ssi_signo != SIGUSR1) {
                    unlink(control.sun_path);
                    return 0;
                }
                rotate(window, ++sequence);
            }
        }
        if (fds[2].revents & POLLIN) serve(listener, window, &sequence);
        if ((fds[1].revents & POLLIN) && read(boundary, &expirations, sizeof expirations) == sizeof expirations) {
            int64_t now = (int64_t)time(NULL) / period;
            if (now != window) window = now, sequence = 0, rotate(window, sequence);
            arm_boundary(boundary, window);
        }
        if (tick >= 0 && (fds[3].revents & POLLIN) && read(tick, &expirations, sizeof expirations) == sizeof expirations) {
            char line[256];
            struct timespec now;
            struct stat info;
            /* The daemon checks each tick that its control socket still exists (one lstat). */
            snprintf(line, sizeof line, "%s/control.sock", out_dir);
            lstat(line, &info);
            clock_gettime(CLOCK_REALTIME, &now);
            long left = (long)((window + 1) * period - now.tv_sec);
            int len = snprintf(line, sizeof line, "STATUS=%s %s seq %u, expires in %lds", venue, safe_number, sequence, left);
            sendto(notify, line, (size_t)len, MSG_NOSIGNAL, (struct sockaddr *)&notify_addr, notify_len);
        }
    }
}

/* ------------------------------------------------------------------------ other floors */

/* One QR, one PNG, one atomic write (fsync of file and directory, as the daemon's writer). */
static int encode_file(char **argv) {
    char dir_copy[4096], base_copy[4096];
    snprintf(dir_copy, sizeof dir_copy, "%s", argv[0]);
    snprintf(base_copy, sizeof base_copy, "%s", argv[0]);
    out_dir = dirname(dir_copy);
    QRcode *qr = QRcode_encodeString(argv[1], 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!qr) die("QRcode_encodeString");
    buffer png = {0};
    encode_png(qr, &png);
    atomic_write(basename(base_copy), png.data, png.size);
    free(png.data);
    QRcode_free(qr);
    return 0;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);  /* CPU time: robust on a busy machine */
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Prints verifications (HMACs) per CPU second, the message length and a byte that keeps the
   compiler from dropping the loop. */
static int hmac_rate(long count) {
    unsigned char key[32], mac[32], message[64];
    for (int i = 0; i < 32; i++) key[i] = (unsigned char)i;
    static const char label[] = "QRCHECKIN-TOKEN", hall[] = "HALL-1";
    size_t length = 0;
    memcpy(message, label, sizeof label - 1), length += sizeof label - 1;
    message[length++] = 0;
    message[length++] = '1';
    message[length++] = (unsigned char)(sizeof hall - 1);
    memcpy(message + length, hall, sizeof hall - 1), length += sizeof hall - 1;
    put_be(message + length, 15, 4), length += 4;
    size_t window_at = length;
    length += 8 + 4;
    struct hmac_sha256_ctx keyed;
    hmac256.set_key(&keyed, sizeof key, key);
    unsigned char sink = 0;
    double start = cpu_seconds();
    for (long n = 0; n < count; n++) {
        put_be(message + window_at, 113333333u + (uint64_t)(n % 3), 8);
        put_be(message + window_at + 8, (uint64_t)n, 4);
        struct hmac_sha256_ctx state = keyed;
        hmac256.update(&state, length, message);
        hmac256.digest(&state, 32, mac);
        sodium_memzero(&state, sizeof state);  /* digest leaves the key's states in the copy */
        sink ^= mac[0];
    }
    double elapsed = cpu_seconds() - start;
    printf("%.0f %zu %u\n", (double)count / elapsed, length, sink);
    return 0;
}

int main(int argc, char **argv) {
    if (sodium_init() < 0) die("sodium_init");
    if (argc == 5 && strcmp(argv[1], "run") == 0) return load_nettle(), run_daemon(argv + 2);
    if (argc == 5 && strcmp(argv[1], "run-plain") == 0) return durable = 0, load_nettle(), run_daemon(argv + 2);
    if (argc == 4 && strcmp(argv[1], "encode") == 0) return encode_file(argv + 2);
    if (argc == 2 && strcmp(argv[1], "version") == 0) {
        /* Referencing each library keeps it loaded and bound, as in the daemon. */
        printf("floor 1 (libqrencode %s, libpng %s, libsodium %s)\n", QRcode_APIVersionString(),
               png_get_libpng_ver(NULL), sodium_version_string());
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "hmac") == 0 && atol(argv[2]) > 0) return load_nettle(), hmac_rate(atol(argv[2]));
    fprintf(stderr, "usage: floor run|run-plain OUTPUT_DIR STATE_DIR PERIOD | encode FILE TEXT | version | hmac COUNT\n");
    return 64;
}
