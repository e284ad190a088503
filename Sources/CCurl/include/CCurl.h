#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

/* Typed, non-variadic wrappers around libcurl's variadic calls. Nothing else lives here. */

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);
typedef int (*ccurl_seek_callback)(void *context, curl_off_t offset, int origin);
typedef int (*ccurl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *context);

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
/* A blob option (CAINFO_BLOB, ...): libcurl copies the bytes. */
CURLcode ccurl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length);
CURLcode ccurl_easy_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback);
CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, ccurl_xferinfo_callback callback);
CURLcode ccurl_easy_setopt_seek_callback(CURL *handle, ccurl_seek_callback callback);
CURLcode ccurl_easy_setopt_debug_callback(CURL *handle, ccurl_debug_callback callback);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/* A share handle holding one cookie store for the easy handles given it (CURLOPT_SHARE); used
   from one thread, so no lock functions. NULL when libcurl cannot make one. */
CURLSH *ccurl_share_cookies(void);

/* Macro constants Swift cannot import. */
int ccurl_pause_all(void);
int ccurl_pause_cont(void);
size_t ccurl_write_pause(void);
size_t ccurl_read_abort(void);
size_t ccurl_read_pause(void);
int ccurl_seekfunc_ok(void);
int ccurl_seekfunc_fail(void);
int ccurl_seekfunc_cantseek(void);

#endif
