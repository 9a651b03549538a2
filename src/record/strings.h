/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strings shared by every replayed sample (user names, states, messages):
 * stored once, alive until the set is freed. */
#ifndef TV_RECORD_STRINGS_H
#define TV_RECORD_STRINGS_H

#include <stddef.h>

struct rec_strings;

struct rec_strings *rec_strings_new(void);
void rec_strings_free(struct rec_strings *st);
/* The stored copy of the len bytes at s (NUL-terminated), or NULL when out of memory. */
const char *rec_strings_get(struct rec_strings *st, const char *s, size_t len);

#endif
