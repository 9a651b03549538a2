/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * delta_apply over stand-in snapshots: ended processes as processes, exited
 * threads as the threads of a stand-in of their process. The stand-ins
 * borrow the tasks, so the rates land in cur's own lists.
 */
#include "model/exited.h"

#include <stdlib.h>
#include <string.h>

#include "model/delta.h"

static void take_rejects(struct snapshot *cur, struct snapshot *tmp)
{
	if (tmp->nrejects) {
		struct tv_reject *v = realloc(cur->rejects, (cur->nrejects + tmp->nrejects) * sizeof(*v));
		if (v) {
			memcpy(v + cur->nrejects, tmp->rejects, tmp->nrejects * sizeof(*v));
			cur->rejects = v;
			cur->nrejects += tmp->nrejects;
		}
	}
	free(tmp->rejects);
}

/* A snapshot with cur's times and other tasks. */
static struct snapshot stand_in(const struct snapshot *cur, struct tv_task *procs, size_t n)
{
	struct snapshot s;
	memset(&s, 0, sizeof(s));
	s.mono = cur->mono;
	s.wall = cur->wall;
	s.boot_ticks = cur->boot_ticks;
	s.boot_offset = cur->boot_offset;
	s.hz = cur->hz;
	s.procs = procs;
	s.nprocs = n;
	return s;
}

void exited_rates(const struct snapshot *prev, struct snapshot *cur, const struct colset *cs)
{
	if (!prev)
		return;
	if (cur->ngone) {
		struct snapshot g = stand_in(cur, cur->gone, cur->ngone);
		delta_apply(prev, &g, cs);
		take_rejects(cur, &g);
	}
	size_t n = 0;
	for (size_t i = 0; i < cur->nprocs; i++)
		n += cur->procs[i].nexited > 0;
	if (!n)
		return;
	struct tv_task *v = calloc(n, sizeof(*v));
	if (!v)
		return;
	size_t k = 0;
	for (size_t i = 0; i < cur->nprocs; i++) {
		const struct tv_task *p = &cur->procs[i];
		if (!p->nexited)
			continue;
		/* the process as it was, its exited threads as its threads; its
		 * own counters unknown, so that its rates (done already) are not
		 * measured again */
		struct tv_task *q = &v[k++];
		*q = *p;
		q->cpu_ns = q->ctxt_vol = q->ctxt_invol = TV_UNKNOWN;
		for (int c = 0; c < TV_DELAY_NCLASS; c++)
			q->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
		q->pvals = NULL;
		q->cmdline = NULL;
		q->peaks = NULL;
		q->mem_own = false; /* p's, borrowed */
		q->threads = p->exited;
		q->nthreads_read = p->nexited;
		q->exited = NULL;
		q->nexited = 0;
		q->threads_complete = false;
	}
	struct snapshot t = stand_in(cur, v, n);
	delta_apply(prev, &t, cs);
	take_rejects(cur, &t);
	free(v);
}
