/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Open addressing over a power-of-two table, at most half full. */
#include "record/strings.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	char *s;
	size_t len;
	uint64_t hash;
};

struct rec_strings {
	struct entry *v;
	size_t cap, n, bytes;
	bool limited, full;
};

static uint64_t hash_of(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

struct rec_strings *rec_strings_new(void)
{
	struct rec_strings *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->cap = 64;
	st->v = calloc(st->cap, sizeof(*st->v));
	if (!st->v) {
		free(st);
		return NULL;
	}
	return st;
}

void rec_strings_free(struct rec_strings *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->cap; i++)
		free(st->v[i].s);
	free(st->v);
	free(st);
}

static struct entry *slot_for(struct entry *v, size_t cap, const char *s, size_t len, uint64_t h)
{
	for (size_t i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!v[i].s || (v[i].hash == h && v[i].len == len && memcmp(v[i].s, s, len) == 0))
			return &v[i];
}

static int grow(struct rec_strings *st)
{
	size_t cap = st->cap * 2;
	struct entry *v = calloc(cap, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < st->cap; i++)
		if (st->v[i].s)
			*slot_for(v, cap, st->v[i].s, st->v[i].len, st->v[i].hash) = st->v[i];
	free(st->v);
	st->v = v;
	st->cap = cap;
	return 0;
}

const char *rec_strings_get(struct rec_strings *st, const char *s, size_t len)
{
	uint64_t h = hash_of(s, len);
	struct entry *e = slot_for(st->v, st->cap, s, len, h);
	if (e->s)
		return e->s;
	if (st->limited && (st->n >= REC_STRINGS_MAX || len >= REC_STRINGS_MAX_BYTES - st->bytes)) {
		st->full = true;
		return NULL;
	}
	if (2 * (st->n + 1) > st->cap) {
		if (grow(st) < 0)
			return NULL;
		e = slot_for(st->v, st->cap, s, len, h);
	}
	e->s = malloc(len + 1);
	if (!e->s)
		return NULL;
	memcpy(e->s, s, len);
	e->s[len] = '\0';
	e->len = len;
	e->hash = h;
	st->n++;
	st->bytes += len + 1;
	return e->s;
}

void rec_strings_limit(struct rec_strings *st)
{
	st->limited = true;
}

bool rec_strings_full(const struct rec_strings *st)
{
	return st->full;
}
