/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict number parsing for command-line and config values. */
#ifndef TV_UTIL_NUM_H
#define TV_UTIL_NUM_H

#include <stdbool.h>
#include <stdint.h>

/* Whole string must be a decimal integer within [min, max]. */
bool num_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);
/* Whole string must be a finite decimal number (no hex, no inf/nan). */
bool num_parse_double(const char *s, double *out);
/* Hex digits at *pp (no prefix), up to end, into *out (64 bits at most);
 * *pp moves past them. -1 when there is none or it does not fit. */
int num_parse_hex(const char **pp, const char *end, uint64_t *out);

#endif
