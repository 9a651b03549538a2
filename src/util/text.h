/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Safe rendering of untrusted bytes (task names, command lines) for a terminal. */
#ifndef TV_UTIL_TEXT_H
#define TV_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* Decodes one UTF-8 sequence at s (n bytes available). Returns its length and
 * stores the code point, or returns 0 for an invalid/truncated sequence. */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
size_t utf8_encode(uint32_t cp, char out[4]);

/* Appends a printable rendering of raw bytes: control characters as \n, \t,
 * \e, \xNN; backslash as \\; invalid UTF-8 as U+FFFD; a code point that is
 * not an assigned, printable character of known width (text_cp_width() 0)
 * as \uXXXX or \UXXXXXXXX. When utf8 is false,
 * non-ASCII is shown as '?' (for non-UTF-8 terminals). Stops once the
 * rendering would exceed max_cols display columns (SIZE_MAX for no limit).
 * Returns the display width appended. */
size_t text_sanitize(struct buf *out, const char *s, size_t len, size_t max_cols, bool utf8);

/* Appends fmt (a translated message with one "%s") with raw bytes s, sanitized
 * as above, in place of the "%s"; nothing when the translation lost it. */
void text_sanitize_in(struct buf *out, const char *fmt, const char *s, size_t max_cols, bool utf8);

/* The same for taskview's own text (key names, messages): a backslash there
 * is just a backslash, the rest is escaped as above. */
size_t text_sanitize_own(struct buf *out, const char *s, size_t len, size_t max_cols, bool utf8);

/* Display width of a code point shown as is: 1 or 2 columns; 0 for one
 * that is escaped instead (see text_width_gen.py for which). */
int text_cp_width(uint32_t cp);

/* Width the sanitized form of s would take. */
size_t text_width(const char *s, size_t len, bool utf8);

/* Appends s sanitized and padded/truncated to exactly cols display columns. */
void text_fit(struct buf *out, const char *s, size_t cols, bool left_align, bool utf8);

/* Whether the locale's character set (LC_CTYPE, as set by setlocale) is
 * UTF-8: the utf8 argument above for text written to a stream. */
bool text_locale_utf8(void);

/* ASCII case-insensitive substring search over raw bytes (with UTF-8 left as is). */
bool text_contains_icase(const char *hay, const char *needle);

#endif
