/* The 1-bit PNG writer: setjmp, libpng's calls and its callbacks, all in C (CPNG.h says why). */
#include "CPNG.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

void cpng_buffer_free(cpng_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}

static void cpng_write_callback(png_structp png, png_bytep bytes, png_size_t length) {
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

static void cpng_flush_callback(png_structp png) { (void)png; }

static void cpng_error_callback(png_structp png, png_const_charp message) {
    cpng_buffer *buffer = (cpng_buffer *)png_get_error_ptr(png);
    strncpy(buffer->message, message, sizeof buffer->message - 1);
    buffer->message[sizeof buffer->message - 1] = '\0';
    png_longjmp(png, 1);
}

static void cpng_warning_callback(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int cpng_write_gray1(const unsigned char *rows, unsigned int width, unsigned int height,
                     int filters, int level, int strategy, int mem_level, cpng_buffer *out) {
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
