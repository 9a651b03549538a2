/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Human-readable number formatting, shared by the text and TUI renderers. */
#ifndef TV_UTIL_FMT_H
#define TV_UTIL_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* KiB → "812K", "1.5G", "80G"; at most 5 characters for values < 1000 PiB. */
void fmt_kib(char *out, size_t n, int64_t kib);
/* bytes → "0", "812", "4.0K", "1.5M" */
void fmt_bytes(char *out, size_t n, double bytes);
/* counts and rates: "123", "12.3k", "4.56M" (at most 6 characters) */
void fmt_count(char *out, size_t n, double v);
/* CPU seconds → "0:04.25" (m:ss.cc), "12:03:44" (h:mm:ss), "3d04h" or "123456d" */
void fmt_seconds(char *out, size_t n, double s);
/* percent with one decimal below 1000, integer above, "250k" from 100000 */
void fmt_percent(char *out, size_t n, double pct);

/* The units fmt_fit scales a value into. */
enum fmt_scale {
	FMT_DECIMAL, /* "", k, M, G, T, P, E (powers of 1000) */
	FMT_BYTES,   /* "", K, M, G, T, P, E (powers of 1024) */
	FMT_KIB,     /* K, M, G, T, P, E (v in KiB) */
	FMT_SECONDS, /* s, h, d, then kd, Md, ... (thousands of days) */
};

/*
 * v in at most width characters, for a column too narrow for the usual
 * form: in the smallest unit of scale whose mantissa has at most three
 * integer digits, with as many decimals (up to two) as fit; then in
 * exponent form ("1.5e25"). A value is rounded, never cut: returns false,
 * with out empty, when no form fits. whole: v is an integer whose exact
 * digits were already tried, so its own unit is skipped.
 */
bool fmt_fit(char *out, size_t n, double v, enum fmt_scale scale, bool whole, size_t width);

#endif
