/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON (RFC 8259) writing helpers. */
#ifndef TV_UTIL_JSON_H
#define TV_UTIL_JSON_H

#include <stddef.h>

#include "util/buf.h"

/* Appends a quoted JSON string: control characters as \u00XX (or the short
 * escapes); DEL, C1 controls, the bidi controls and U+2028/U+2029 as \uXXXX;
 * invalid UTF-8 bytes replaced by U+FFFD; other valid UTF-8 kept as is. */
void json_add_string(struct buf *b, const char *s, size_t len);
/* Appends a number with up to `decimals` fraction digits; NaN/inf as null. */
void json_add_double(struct buf *b, double v, int decimals);

#endif
