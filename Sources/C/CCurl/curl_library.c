/* libcurl, loaded on first use: the stubs of the functions CurlTransport calls, typed shims
   for the two variadic ones, and the bounded collection of a response (CCurl.h says why). */
#define _GNU_SOURCE
#include "CCurl.h"
#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname below is the ABI these headers describe: libcurl4 (OpenSSL). */
_Static_assert(LIBCURL_VERSION_MAJOR == 7 || LIBCURL_VERSION_MAJOR == 8, "libcurl.so.4");

typedef CURLcode (*setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*getinfo_function)(CURL *, CURLINFO, ...);
static setopt_function real_setopt;
static getinfo_function real_getinfo;

/* Runs once, under the loader's lock, right after the stubs' functions were found. */
static int after_load(char *why, size_t size) {
    /* The library is loaded already: RTLD_NOLOAD returns its handle without loading it again. */
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle != NULL) {
        real_setopt = (setopt_function)dlsym(handle, "curl_easy_setopt");
        real_getinfo = (getinfo_function)dlsym(handle, "curl_easy_getinfo");
    }
    if (real_setopt == NULL || real_getinfo == NULL) {
        snprintf(why, size, "it has no function curl_easy_setopt or curl_easy_getinfo");
        return -1;
    }
    /* Once per process, before any transfer, as curl_global_init(3) asks: the loader's lock
       makes it so even if two threads were to start at once. */
    CURLcode (*global_init)(long) = (CURLcode (*)(long))dlsym(handle, "curl_global_init");
    if (global_init == NULL || global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(why, size, "curl_global_init failed");
        return -1;
    }
    return 0;
}

#define CURL_FUNCTIONS(VALUE, VOID, NORETURN)                                                      \
    VALUE(CURL *, curl_easy_init, (void), ())                                                      \
    VOID(curl_easy_cleanup, (CURL * curl), (curl))                                                 \
    VALUE(const char *, curl_easy_strerror, (CURLcode code), (code))                               \
    VALUE(struct curl_slist *, curl_slist_append, (struct curl_slist * list, const char *string), (list, string)) \
    VOID(curl_slist_free_all, (struct curl_slist * list), (list))                                  \
    VALUE(CURLM *, curl_multi_init, (void), ())                                                    \
    VALUE(CURLMcode, curl_multi_cleanup, (CURLM * multi), (multi))                                 \
    VALUE(CURLMcode, curl_multi_add_handle, (CURLM * multi, CURL *easy), (multi, easy))            \
    VALUE(CURLMcode, curl_multi_remove_handle, (CURLM * multi, CURL *easy), (multi, easy))         \
    VALUE(CURLMcode, curl_multi_perform, (CURLM * multi, int *running), (multi, running))          \
    VALUE(CURLMcode, curl_multi_poll, (CURLM * multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *numfds), \
          (multi, extra, count, timeout, numfds))                                                  \
    VALUE(CURLMsg *, curl_multi_info_read, (CURLM * multi, int *queued), (multi, queued))          \
    VALUE(const char *, curl_multi_strerror, (CURLMcode code), (code))

CLL_STUBS("libcurl.so.4", CURL_FUNCTIONS, after_load)

const char *ccurl_load(void) {
    return cll_load_failure(&cll_this_library);
}

CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value) {
    cll_require(&cll_this_library);
    return real_setopt(easy, option, value);
}

CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, const void *value) {
    cll_require(&cll_this_library);
    return real_setopt(easy, option, value);
}

CURLcode ccurl_setopt_off(CURL *easy, CURLoption option, curl_off_t value) {
    cll_require(&cll_this_library);
    return real_setopt(easy, option, value);
}

CURLcode ccurl_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    cll_require(&cll_this_library);
    return real_getinfo(easy, info, value);
}

CURLcode ccurl_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    cll_require(&cll_this_library);
    return real_getinfo(easy, info, value);
}

CURLcode ccurl_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value) {
    cll_require(&cll_this_library);
    return real_getinfo(easy, info, value);
}

int ccurl_message_done(const CURLMsg *message, CURL **easy, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *easy = message->easy_handle;
    *result = message->data.result;
    return 1;
}

void ccurl_buffer_reset(ccurl_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->overflowed = 0;
}

/* libcurl's write and header callbacks: append, or past the limit stop the transfer (or, for a
   buffer that truncates, keep what fits and read on). */
static size_t collect(char *bytes, size_t size, size_t count, void *userdata) {
    ccurl_buffer *buffer = userdata;
    size_t length = size * count;
    size_t kept = length;
    if (length > buffer->limit - buffer->size) {
        buffer->overflowed = 1;
        if (!buffer->truncates) return 0; /* anything but `length` makes libcurl stop with CURLE_WRITE_ERROR */
        kept = buffer->limit - buffer->size;
    }
    if (length == 0) return 0;
    if (kept == 0) return length;
    unsigned char *grown = realloc(buffer->data, buffer->size + kept);
    if (grown == NULL) return 0;
    memcpy(grown + buffer->size, bytes, kept);
    buffer->data = grown;
    buffer->size += kept;
    return length;
}

CURLcode ccurl_collect(CURL *easy, ccurl_buffer *body, ccurl_buffer *headers) {
    cll_require(&cll_this_library);
    curl_write_callback callback = collect;
    CURLcode code;
    if ((code = real_setopt(easy, CURLOPT_WRITEFUNCTION, callback)) != CURLE_OK) return code;
    if ((code = real_setopt(easy, CURLOPT_WRITEDATA, (void *)body)) != CURLE_OK) return code;
    if ((code = real_setopt(easy, CURLOPT_HEADERFUNCTION, callback)) != CURLE_OK) return code;
    return real_setopt(easy, CURLOPT_HEADERDATA, (void *)headers);
}
