#ifndef SILK_CCURL_SHIM_H
#define SILK_CCURL_SHIM_H
#include <curl/curl.h>

/* libcurl's setopt and getinfo are variadic, which Swift cannot call: one typed wrapper per
   argument type Silk's HTTP client passes. */

typedef size_t (*silk_curl_write_fn)(char *, size_t, size_t, void *);

static inline CURLcode silk_curl_set_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode silk_curl_set_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode silk_curl_set_write(CURL *h, CURLoption o, silk_curl_write_fn f) { return curl_easy_setopt(h, o, f); }
static inline CURLMcode silk_curlm_set_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLcode silk_curl_get_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode silk_curl_get_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode silk_curl_get_ptr(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }

#endif
