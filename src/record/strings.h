/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strings shared by every replayed sample (user names, states, messages):
 * stored once, alive until the set is freed. */
#ifndef TV_RECORD_STRINGS_H
#define TV_RECORD_STRINGS_H

#include <stdbool.h>
#include <stddef.h>

struct rec_strings;

/* The most a limited set keeps (a remote's stream: rec_strings_limit): far
 * past the user names and messages of any machine, short of what a stream of
 * made-up ones could cost. */
#define REC_STRINGS_MAX 65536
#define REC_STRINGS_MAX_BYTES (8u << 20)

struct rec_strings *rec_strings_new(void);
void rec_strings_free(struct rec_strings *st);
/* From now on st keeps at most REC_STRINGS_MAX strings of REC_STRINGS_MAX_BYTES
 * (a set is not limited otherwise: a recorder's names last as long as it runs). */
void rec_strings_limit(struct rec_strings *st);
/* The stored copy of the len bytes at s (NUL-terminated), or NULL when out of
 * memory or when a new one would pass the set's limits. */
const char *rec_strings_get(struct rec_strings *st, const char *s, size_t len);
/* Whether a string was refused for the set's limits. */
bool rec_strings_full(const struct rec_strings *st);

#endif
