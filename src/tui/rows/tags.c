/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/rows/tags.h"

#include <stdlib.h>
#include <string.h>

void tags_init(struct tags *g)
{
	memset(g, 0, sizeof(*g));
}

void tags_free(struct tags *g)
{
	free(g->v);
	tags_init(g);
}

static bool tag_is(const struct tag *k, const struct tv_task *t)
{
	return k->tid == t->tid && k->thread == t->is_thread && k->start_ticks == t->start_ticks;
}

bool tags_has(const struct tags *g, const struct tv_task *t)
{
	for (size_t i = 0; i < g->n; i++)
		if (tag_is(&g->v[i], t))
			return true;
	return false;
}

int tags_add(struct tags *g, const struct tv_task *t)
{
	if (tags_has(g, t))
		return 0;
	struct tag *v = realloc(g->v, (g->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	g->v = v;
	g->v[g->n++] = (struct tag){t->tid, t->tgid, t->is_thread, t->start_ticks};
	return 0;
}

bool tags_toggle(struct tags *g, const struct tv_task *t)
{
	for (size_t i = 0; i < g->n; i++)
		if (tag_is(&g->v[i], t)) {
			g->v[i] = g->v[--g->n];
			return false;
		}
	return tags_add(g, t) == 0;
}

static bool tag_alive(const struct tag *k, const struct snapshot *s)
{
	const struct tv_task *p = snapshot_find(s, k->tgid);
	if (!p)
		return false;
	if (!k->thread)
		return p->start_ticks == k->start_ticks;
	/* a thread not read this time (its process folded) keeps its tag */
	if (!p->threads_are_rows)
		return true;
	const struct tv_task *th = task_find_thread(p, k->tid);
	return th && th->start_ticks == k->start_ticks;
}

void tags_prune(struct tags *g, const struct snapshot *s)
{
	size_t w = 0;
	for (size_t i = 0; i < g->n; i++)
		if (tag_alive(&g->v[i], s))
			g->v[w++] = g->v[i];
	g->n = w;
}
