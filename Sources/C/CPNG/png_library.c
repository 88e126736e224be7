/* libpng, loaded on first use: the stubs of the functions qrcheckin calls. libpng names zlib
   itself, so zlib is loaded with it. */
#include "CPNG.h"
#include "library_loader.h"

/* The soname below is the ABI these headers describe. */
_Static_assert(PNG_LIBPNG_VER_SONUM == 16, "libpng16.so.16");

#define PNG_FUNCTIONS(VALUE, VOID, NORETURN)                                                       \
    VALUE(png_structp, png_create_write_struct,                                                    \
          (png_const_charp user_png_ver, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn), \
          (user_png_ver, error_ptr, error_fn, warn_fn))                                            \
    VALUE(png_infop, png_create_info_struct, (png_const_structrp png_ptr), (png_ptr))              \
    VOID(png_destroy_write_struct, (png_structpp png_ptr_ptr, png_infopp info_ptr_ptr), (png_ptr_ptr, info_ptr_ptr)) \
    VALUE(jmp_buf *, png_set_longjmp_fn, (png_structrp png_ptr, png_longjmp_ptr longjmp_fn, size_t jmp_buf_size), \
          (png_ptr, longjmp_fn, jmp_buf_size))                                                     \
    NORETURN(png_longjmp, (png_const_structrp png_ptr, int val), (png_ptr, val))                   \
    NORETURN(png_error, (png_const_structrp png_ptr, png_const_charp error_message), (png_ptr, error_message)) \
    VALUE(png_voidp, png_get_error_ptr, (png_const_structrp png_ptr), (png_ptr))                   \
    VALUE(png_voidp, png_get_io_ptr, (png_const_structrp png_ptr), (png_ptr))                      \
    VOID(png_set_write_fn, (png_structrp png_ptr, png_voidp io_ptr, png_rw_ptr write_data_fn, png_flush_ptr output_flush_fn), \
         (png_ptr, io_ptr, write_data_fn, output_flush_fn))                                        \
    VOID(png_set_IHDR, (png_const_structrp png_ptr, png_inforp info_ptr, png_uint_32 width, png_uint_32 height, \
                        int bit_depth, int color_type, int interlace_method, int compression_method, int filter_method), \
         (png_ptr, info_ptr, width, height, bit_depth, color_type, interlace_method, compression_method, filter_method)) \
    VOID(png_set_filter, (png_structrp png_ptr, int method, int filters), (png_ptr, method, filters)) \
    VOID(png_set_compression_level, (png_structrp png_ptr, int level), (png_ptr, level))           \
    VOID(png_set_compression_strategy, (png_structrp png_ptr, int strategy), (png_ptr, strategy))  \
    VOID(png_set_compression_mem_level, (png_structrp png_ptr, int mem_level), (png_ptr, mem_level)) \
    VOID(png_write_info, (png_structrp png_ptr, png_const_inforp info_ptr), (png_ptr, info_ptr))   \
    VOID(png_write_row, (png_structrp png_ptr, png_const_bytep row), (png_ptr, row))               \
    VOID(png_write_end, (png_structrp png_ptr, png_inforp info_ptr), (png_ptr, info_ptr))          \
    VALUE(int, png_image_write_to_memory, (png_imagep image, void *memory, png_alloc_size_t *PNG_RESTRICT memory_bytes, \
                                           int convert_to_8_bit, const void *buffer, png_int_32 row_stride, \
                                           const void *colormap),                                  \
          (image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap))

CLL_STUBS("libpng16.so.16", PNG_FUNCTIONS, NULL)

const char *cpng_load(void) {
    return cll_load_failure(&cll_this_library);
}
