/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable byte buffer for building output lines. */
#ifndef TV_UTIL_BUF_H
#define TV_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data;
	size_t len;
	size_t cap;
	int oom; /* set once an allocation failed; later appends are dropped */
};

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
void buf_add(struct buf *b, const void *p, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_pad(struct buf *b, char c, size_t n);
const char *buf_str(struct buf *b); /* NUL-terminated view */

#endif
