/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "export/pick.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The CPU a command used in the interval, in its moving average. Its first
 * refresh only notes its counter: that holds its whole past. */
static void score_update(struct accum_group *g, double alpha, double dt)
{
	int64_t cpu = g->total[ACC_CPU_NS];
	if (cpu == TV_UNKNOWN)
		return;
	if (g->cpu_seen != TV_UNKNOWN && cpu >= g->cpu_seen && dt > 0) {
		double rate = (double)(cpu - g->cpu_seen) / 1e9 / dt;
		g->score += alpha * (rate - g->score);
	}
	g->cpu_seen = cpu;
}

/* Only commands of a known group with a process now may be picked. */
static bool eligible(const struct accum_group *g)
{
	return g->live && g->name[0] != '\0';
}

/* The better candidate first: recent CPU, then all CPU counted, then the name. */
static int better(const void *x, const void *y)
{
	const struct accum_group *g = *(const struct accum_group *const *)x;
	const struct accum_group *h = *(const struct accum_group *const *)y;
	if (g->score != h->score)
		return g->score > h->score ? -1 : 1;
	int64_t a = g->total[ACC_CPU_NS], b = h->total[ACC_CPU_NS];
	if (a != b)
		return a > b ? -1 : 1; /* TV_UNKNOWN is negative: last */
	int d = strcmp(g->name, h->name);
	return d ? d : strcmp(g->comm ? g->comm : "", h->comm ? h->comm : "");
}

/* The picked command with a process that used the least CPU lately; NULL if none. */
static struct accum_group *weakest(struct accum *a)
{
	struct accum_group *w = NULL;
	for (size_t i = 0; i < a->ngroups; i++) {
		struct accum_group *g = &a->groups[i];
		if (g->picked && g->live && (!w || better(&w, &g) < 0))
			w = g;
	}
	return w;
}

void pick_update(struct accum *a, size_t n, double dt)
{
	double alpha = dt > 0 && isfinite(dt) ? 1 - exp(-dt / PICK_TAU_S) : 0;
	size_t picked = 0, ncand = 0;
	for (size_t i = 0; i < a->ngroups; i++) {
		struct accum_group *g = &a->groups[i];
		score_update(g, alpha, dt);
		/* one whose last process ended is written once more, with its final counters */
		if (g->picked && (!accum_group_shown(g) || g->name[0] == '\0'))
			g->picked = false;
		if (g->picked)
			picked++;
		else if (eligible(g))
			ncand++;
	}
	if (ncand == 0 || n == 0)
		return;
	struct accum_group **cand = malloc(ncand * sizeof(*cand));
	if (!cand)
		return; /* the picks stay as they were */
	size_t k = 0;
	for (size_t i = 0; i < a->ngroups; i++)
		if (!a->groups[i].picked && eligible(&a->groups[i]))
			cand[k++] = &a->groups[i];
	qsort(cand, ncand, sizeof(*cand), better);
	size_t c = 0;
	for (; c < ncand && picked < n; c++, picked++)
		cand[c]->picked = true;
	/* a place changes hands only for clearly more CPU */
	for (; c < ncand; c++) {
		struct accum_group *w = weakest(a);
		if (!w || !(cand[c]->score > 2 * w->score + PICK_MARGIN))
			break;
		w->picked = false;
		cand[c]->picked = true;
	}
	free(cand);
}
