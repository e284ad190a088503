#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/* Typed wrappers for what Swift cannot import from zlib (function-like macros). Nothing else. */

/* `inflateInit2` with windowBits 15 + 16: the stream must be gzip-wrapped (RFC 1952). */
int czlib_inflate_init_gzip(z_stream *stream);

#endif
