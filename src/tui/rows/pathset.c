/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/rows/pathset.h"

#include <stdlib.h>
#include <string.h>

void pathset_init(struct pathset *s)
{
	memset(s, 0, sizeof(*s));
}

void pathset_clear(struct pathset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	s->n = 0;
}

void pathset_free(struct pathset *s)
{
	pathset_clear(s);
	free(s->v);
	pathset_init(s);
}

/* Index of the first element >= path. */
static size_t pathset_lower(const struct pathset *s, const char *path)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(s->v[mid], path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool pathset_has(const struct pathset *s, const char *path)
{
	size_t i = pathset_lower(s, path);
	return i < s->n && strcmp(s->v[i], path) == 0;
}

int pathset_add(struct pathset *s, const char *path)
{
	size_t i = pathset_lower(s, path);
	if (i < s->n && strcmp(s->v[i], path) == 0)
		return 0;
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		char **p = realloc(s->v, ncap * sizeof(*p));
		if (!p)
			return -1;
		s->v = p;
		s->cap = ncap;
	}
	char *copy = strdup(path);
	if (!copy)
		return -1;
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->v[i] = copy;
	s->n++;
	return 0;
}

void pathset_remove(struct pathset *s, const char *path)
{
	size_t i = pathset_lower(s, path);
	if (i >= s->n || strcmp(s->v[i], path) != 0)
		return;
	free(s->v[i]);
	memmove(&s->v[i], &s->v[i + 1], (s->n - i - 1) * sizeof(*s->v));
	s->n--;
}

bool pathset_query(void *ctx, const char *path)
{
	return pathset_has(ctx, path);
}
