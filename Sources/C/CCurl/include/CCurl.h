#ifndef CCURL_H
#define CCURL_H
/* libcurl (Debian's libcurl4, the OpenSSL flavour), loaded on the first call into it
   (CLibraryLoader says why): only `qrcheckin report` and the server's webhook deliveries ever
   call it, so the daemon and every other command never map it, nor OpenSSL with it.

   curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, and a stub
   cannot forward them. Typed shims below call the real functions instead. The response's body
   and header lines are collected here, in C, into bounded buffers: a callback that would go
   past the bound stops the transfer (CURLE_WRITE_ERROR), and `overflowed` says why; or, with
   `truncates`, keeps the first `limit` bytes, reads the rest without keeping it, and sets
   `overflowed` (a webhook's delivery log keeps the first kilobyte of any answer). */
#include <curl/curl.h>
#include <stddef.h>

/* A growing byte buffer that refuses to pass `limit` bytes (or, `truncates`, drops what passes). */
typedef struct ccurl_buffer {
    unsigned char *data;
    size_t size;
    size_t limit;
    int overflowed;
    int truncates;
} ccurl_buffer;

/* Frees the bytes and empties the buffer (the limit stays). */
void ccurl_buffer_reset(ccurl_buffer *buffer);

/* Collects the response body into `body` and its header lines (CRLF kept) into `headers`. */
CURLcode ccurl_collect(CURL *easy, ccurl_buffer *body, ccurl_buffer *headers);

/* curl_easy_setopt for a long, a pointer (a string, a curl_slist) or an off_t. */
CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, const void *value);
CURLcode ccurl_setopt_off(CURL *easy, CURLoption option, curl_off_t value);

/* curl_easy_getinfo for a long, a pointer (CURLINFO_PRIVATE) or microseconds (curl_off_t). */
CURLcode ccurl_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode ccurl_getinfo_pointer(CURL *easy, CURLINFO info, void **value);
CURLcode ccurl_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value);

/* The fields of a finished transfer's CURLMsg (a union Swift cannot read). */
int ccurl_message_done(const CURLMsg *message, CURL **easy, CURLcode *result);

/* Loads libcurl now and runs curl_global_init: NULL, or why it cannot be loaded. */
const char *ccurl_load(void);
#endif
