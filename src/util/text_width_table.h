/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The code points shown as they are, with their width in columns; generated
 * from the Unicode Character Database by text_width_gen.py. */
#ifndef TV_UTIL_TEXT_WIDTH_TABLE_H
#define TV_UTIL_TEXT_WIDTH_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct text_width_range {
	uint32_t first, last;
	uint8_t width; /* 1 or 2 */
};

/* Sorted, not overlapping; a code point in none is never shown as is. */
extern const struct text_width_range text_width_ranges[];
extern const size_t text_width_nranges;
/* The Unicode version the table was made from, e.g. "15.0.0". */
extern const char text_width_unicode_version[];

#endif
