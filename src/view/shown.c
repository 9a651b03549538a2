/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shown snapshot of a recorded sample: the live tasks borrowed, the
 * ended ones added after them so a row can tell which it is by address. */
#include "view/shown.h"

#include <stdlib.h>
#include <string.h>

#include "model/delta.h"
#include "model/exited.h"

/* Does the filter (as at recording: PIDs, TIDs, user, control group, text)
 * select p? A process whose group was not recorded matches no group, as live. */
static bool shown_wants(const struct filter *f, const struct tv_task *p)
{
	if (!f)
		return true;
	bool hit = filter_wants_pid(f, p->tgid);
	for (size_t i = 0; !hit && i < p->nthreads_read; i++)
		hit = filter_wants_pid(f, p->threads[i].tid);
	const struct tv_cgroup *g = p->cgroup;
	if (!hit || !filter_wants_uid(f, p->uid) || !filter_matches_cgroup(f, g ? g->path : NULL, g ? g->unit : NULL))
		return false;
	hit = filter_matches_text(f, task_comm(p), p->cmdline);
	for (size_t i = 0; !hit && i < p->nthreads_read; i++)
		hit = filter_matches_text(f, task_comm(&p->threads[i]), NULL);
	return hit;
}

void shown_free(struct shown *v)
{
	for (size_t i = 0; i < v->nmerged; i++)
		free(v->merged[i].v);
	free(v->merged);
	free(v->procs);
	free(v->ended);
	memset(v, 0, sizeof(*v));
}

/* Exited threads become rows under their process (q, p's copy). */
static int shown_add_exited_threads(struct shown *v, struct tv_task *q, const struct tv_task *p)
{
	size_t n = p->nthreads_read + p->nexited;
	struct shown_threads *m = realloc(v->merged, (v->nmerged + 1) * sizeof(*m));
	if (!m)
		return -1;
	v->merged = m;
	struct tv_task *t = malloc(n * sizeof(*t));
	if (!t)
		return -1;
	if (p->nthreads_read)
		memcpy(t, p->threads, p->nthreads_read * sizeof(*t));
	for (size_t j = 0; j < p->nexited; j++) {
		t[p->nthreads_read + j] = p->exited[j];
		t[p->nthreads_read + j].state = 'X';
	}
	m[v->nmerged++] = (struct shown_threads){t, p->nthreads_read, n};
	q->threads = t;
	q->nthreads_read = n;
	return 0;
}

int shown_build(struct shown *v, struct snapshot *prev, struct snapshot *cur, const struct colset *cs,
		const struct filter *f, bool threads)
{
	delta_apply(prev, cur, cs);
	exited_rates(prev, cur, cs);
	memset(v, 0, sizeof(*v));
	v->s = *cur;
	v->procs = calloc(cur->nprocs + cur->ngone + 1, sizeof(*v->procs));
	v->ended = cur->ended ? calloc(cur->ngone + 1, sizeof(*v->ended)) : NULL;
	if (!v->procs || (cur->ended && !v->ended)) {
		shown_free(v);
		return -1;
	}
	size_t n = 0;
	for (size_t i = 0; i < cur->nprocs; i++) {
		const struct tv_task *p = &cur->procs[i];
		if (!shown_wants(f, p))
			continue;
		struct tv_task *q = &v->procs[n++];
		*q = *p;
		if (threads && p->threads_are_rows && p->nexited && shown_add_exited_threads(v, q, p) < 0) {
			shown_free(v);
			return -1;
		}
	}
	v->nlive = n;
	for (size_t i = 0; i < cur->ngone; i++) {
		const struct tv_task *g = &cur->gone[i];
		if (!shown_wants(f, g))
			continue;
		if (v->ended)
			v->ended[n - v->nlive] = cur->ended[i];
		struct tv_task *q = &v->procs[n++];
		*q = *g;
		/* its command line, when it was seen alive */
		const struct tv_task *was = snapshot_find(prev, g->tgid);
		if (!q->cmdline && was && was->start_ticks == g->start_ticks)
			q->cmdline = was->cmdline;
	}
	v->s.procs = v->procs;
	v->s.nprocs = n;
	/* the ended ones among the rows, with their parts: a group's sums take those */
	v->s.gone = v->procs + v->nlive;
	v->s.ngone = n - v->nlive;
	v->s.ended = v->ended;
	return 0;
}

static bool shown_exited(const struct shown *v, const struct tv_task *t)
{
	if (t >= v->procs + v->nlive && t < v->procs + v->s.nprocs)
		return true;
	for (size_t i = 0; i < v->nmerged; i++)
		if (t >= v->merged[i].v + v->merged[i].nlive && t < v->merged[i].v + v->merged[i].n)
			return true;
	return false;
}

void shown_mark(const struct shown *v, struct rows *rows)
{
	for (size_t r = 0; r < rows->n; r++)
		rows->v[r].exited = !rows->v[r].group && shown_exited(v, rows->v[r].task);
}
