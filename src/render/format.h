/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cell formatting shared by the text and TUI renderers. */
#ifndef TV_RENDER_FORMAT_H
#define TV_RENDER_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/column.h"
#include "model/snapshot.h"
#include "util/buf.h"

/* Follows a value that is a lower bound (part of its contribution is known missing). */
#define FORMAT_PARTIAL_MARK "+"

/* Formats a numeric value for display in at most width characters (and
 * n - 1): the usual form, else coarser units ("9.22E"), never digits cut
 * off; "-" when unknown. Returns false, with out all '#', when no honest
 * form fits. String values are left to format_cell. */
bool format_number_fit(const struct column *col, const struct tv_value *v, size_t width, char *out, size_t n);
/* The same in the column's own width. */
void format_number(const struct column *col, const struct tv_value *v, char *out, size_t n);

/* Appends one cell padded or cut to `width` display columns; untrusted
 * strings are sanitized. prefix (tree glyphs) goes before string values.
 * Numbers are never cut: see format_number_fit; a lower bound's mark has
 * to fit with the number. */
void format_cell(struct buf *out, const struct column *col, const struct tv_value *v, size_t width,
		 const char *prefix, bool utf8);

/* Width of a column: its minimal width or its translated header, whichever is wider. */
size_t format_col_width(const struct column *col, bool utf8);

/* The column id of a delay class's percentage ("io_delay"). */
const char *format_delay_id(enum tv_delay_class c);

/* A count of tasks as text into buf (24 bytes suffice): "-" when TV_COUNT_UNKNOWN. Returns buf. */
const char *format_count(char *buf, size_t size, size_t n);
/* The number that picks a count's plural form (any plural one when unknown). */
static inline unsigned long format_count_plural(size_t n)
{
	return n == TV_COUNT_UNKNOWN ? 2 : (unsigned long)n;
}

/* One sentence on a delay step rejected as a kernel counter jump (translated). */
void format_reject(struct buf *out, const struct tv_reject *r);

/* Tree glyphs before a thread row's name. */
const char *format_tree_prefix(bool last, bool utf8);

#endif
