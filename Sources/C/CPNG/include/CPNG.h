#ifndef CPNG_H
#define CPNG_H
/*
 * libpng reports errors by longjmp. Swift frames must never be jumped over, so the whole
 * write (setjmp, libpng calls, callbacks) lives in C (png_writer.c) and Swift sees a plain
 * return code. The simplified png_image_* API cannot write 1-bit images, which are the
 * smallest for a QR code.
 */
#include <png.h>
#include <stddef.h>
#include <zlib.h>

/// An in-memory PNG being written: bytes grow with realloc; `message` holds libpng's error.
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    char message[160];
} cpng_buffer;

/// Frees the bytes and empties the buffer.
void cpng_buffer_free(cpng_buffer *buffer);

/// Writes a 1-bit grayscale PNG into `out`. `rows` holds `height` rows of ceil(width/8) bytes,
/// most significant bit first, 1 = white. `filters` is a PNG_FILTER_* mask; `level` (0-9),
/// `strategy` (Z_DEFAULT_STRATEGY, Z_FILTERED…) and `mem_level` (1-9) are zlib's. Returns 0 on
/// success; on failure returns -1 with `out->message` set (and `out->data` may need freeing).
int cpng_write_gray1(const unsigned char *rows, unsigned int width, unsigned int height,
                     int filters, int level, int strategy, int mem_level, cpng_buffer *out);

/* libpng (and zlib with it) is loaded on the first call into it (CLibraryLoader says why).
   Loads it now: NULL, or why it cannot be loaded (for a daemon's check at start). */
const char *cpng_load(void);
#endif
