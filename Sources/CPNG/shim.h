#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
/*
 * libpng reports errors by longjmp. Swift frames must never be jumped over, so the whole
 * write (setjmp, libpng calls, callbacks) lives here in C and Swift sees a plain return code.
 * The simplified png_image_* API cannot write 1-bit images, which are the smallest for a QR code.
 */
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/// An in-memory PNG being written: bytes grow with realloc; `message` holds libpng's error.
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    char message[160];
} cpng_buffer;

static inline void cpng_buffer_free(cpng_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}

static inline void cpng_write_callback(png_structp png, png_bytep bytes, png_size_t length) {
    cpng_buffer *buffer = (cpng_buffer *)png_get_io_ptr(png);
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
}

static inline void cpng_flush_callback(png_structp png) { (void)png; }

static inline void cpng_error_callback(png_structp png, png_const_charp message) {
    cpng_buffer *buffer = (cpng_buffer *)png_get_error_ptr(png);
    strncpy(buffer->message, message, sizeof buffer->message - 1);
    buffer->message[sizeof buffer->message - 1] = '\0';
    png_longjmp(png, 1);
}

static inline void cpng_warning_callback(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Writes a 1-bit grayscale PNG into `out`. `rows` holds `height` rows of ceil(width/8) bytes,
/// most significant bit first, 1 = white. `filters` is a PNG_FILTER_* mask; `level` (0-9),
/// `strategy` (Z_DEFAULT_STRATEGY, Z_FILTERED…) and `mem_level` (1-9) are zlib's. Returns 0 on
/// success; on failure returns -1 with `out->message` set (and `out->data` may need freeing).
static inline int cpng_write_gray1(const unsigned char *rows, unsigned int width, unsigned int height,
                                   int filters, int level, int strategy, int mem_level,
                                   cpng_buffer *out) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, out, cpng_error_callback,
                                              cpng_warning_callback);
    if (png == NULL) {
        strcpy(out->message, "cannot create a PNG writer");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        strcpy(out->message, "cannot create PNG info");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    const size_t stride = ((size_t)width + 7) / 8;
    png_set_write_fn(png, out, cpng_write_callback, cpng_flush_callback);
    png_set_IHDR(png, info, width, height, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_set_compression_mem_level(png, mem_level);
    png_write_info(png, info);
    for (unsigned int y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rows + (size_t)y * stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

#endif
