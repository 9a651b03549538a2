/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "view/noted.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static bool group_shown(const struct rows *rows, const char *path)
{
	for (size_t i = 0; i < rows->n; i++) {
		const struct tv_cgroup *g = rows->v[i].task->cgroup;
		if (rows->v[i].group && g && strcmp(g->path, path) == 0)
			return true;
	}
	return false;
}

static size_t pick_all(const struct snapshot *s, size_t *idx)
{
	for (size_t i = 0; i < s->nrejects; i++)
		idx[i] = i;
	return s->nrejects;
}

size_t noted_pick(const struct snapshot *s, const struct rows *rows, size_t *idx)
{
	if (!s->nrejects)
		return 0;
	/* the processes shown, sorted: a storm's rejects cost n log n, not n * m */
	size_t n = 0;
	for (size_t i = 0; i < rows->n; i++)
		n += rows->v[i].group ? rows->v[i].group->nmembers : 1;
	int32_t *tgids = malloc((n ? n : 1) * sizeof(*tgids));
	if (!tgids)
		return pick_all(s, idx);
	n = 0;
	for (size_t i = 0; i < rows->n; i++) {
		const struct row_group *g = rows->v[i].group;
		if (!g) {
			tgids[n++] = rows->v[i].task->tgid;
			continue;
		}
		for (size_t k = 0; k < g->nmembers; k++)
			tgids[n++] = g->members[k]->tgid;
	}
	qsort(tgids, n, sizeof(*tgids), cmp_i32);
	size_t k = 0;
	for (size_t i = 0; i < s->nrejects; i++) {
		const struct tv_reject *r = &s->rejects[i];
		bool shown = r->cgroup ? group_shown(rows, r->cgroup)
				       : bsearch(&r->tgid, tgids, n, sizeof(*tgids), cmp_i32) != NULL;
		if (shown)
			idx[k++] = i;
	}
	free(tgids);
	return k;
}
