/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/rows/expset.h"

#include <stdlib.h>
#include <string.h>

void expset_init(struct expset *s)
{
	memset(s, 0, sizeof(*s));
}

void expset_free(struct expset *s)
{
	free(s->v);
	expset_init(s);
}

void expset_clear(struct expset *s)
{
	s->n = 0;
}

/* Index of the first element >= tgid. */
static size_t expset_lower(const struct expset *s, int32_t tgid)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid] < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool expset_has(const struct expset *s, int32_t tgid)
{
	size_t i = expset_lower(s, tgid);
	return i < s->n && s->v[i] == tgid;
}

int expset_add(struct expset *s, int32_t tgid)
{
	size_t i = expset_lower(s, tgid);
	if (i < s->n && s->v[i] == tgid)
		return 0;
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		int32_t *p = realloc(s->v, ncap * sizeof(*p));
		if (!p)
			return -1;
		s->v = p;
		s->cap = ncap;
	}
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->v[i] = tgid;
	s->n++;
	return 0;
}

void expset_remove(struct expset *s, int32_t tgid)
{
	size_t i = expset_lower(s, tgid);
	if (i < s->n && s->v[i] == tgid) {
		memmove(&s->v[i], &s->v[i + 1], (s->n - i - 1) * sizeof(*s->v));
		s->n--;
	}
}

bool expset_query(void *ctx, int32_t tgid)
{
	return expset_has(ctx, tgid);
}
