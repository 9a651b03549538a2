/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/snapshot.h"

#include <math.h>
#include <stdlib.h>

void machine_unknown(struct tv_machine *m)
{
	*m = (struct tv_machine){TV_UNKNOWN, 0, NAN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, {NAN, NAN, NAN}};
}

bool machine_load_known(const struct tv_machine *m)
{
	return isfinite(m->load[0]) && isfinite(m->load[1]) && isfinite(m->load[2]);
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->nprocs; i++)
		task_release(&s->procs[i], s->npvals);
	free(s->procs);
	s->procs = NULL;
	s->nprocs = 0;
	for (size_t i = 0; s->gone && i < s->ngone; i++) /* no list: rec_decode_base */
		task_release(&s->gone[i], 0);
	free(s->gone);
	s->gone = NULL;
	s->ngone = 0;
	free(s->ended);
	s->ended = NULL;
	for (size_t i = 0; i < s->ncgroups; i++)
		cgroup_free(s->cgroups[i]);
	free(s->cgroups);
	s->cgroups = NULL;
	s->ncgroups = 0;
	free(s->rejects);
	s->rejects = NULL;
	s->nrejects = 0;
}

void snapshot_drop_exited(struct snapshot *s)
{
	for (size_t i = 0; i < s->nprocs; i++)
		task_drop_exited(&s->procs[i], s->npvals);
}

const struct tv_task *snapshot_find(const struct snapshot *s, int32_t tgid)
{
	size_t lo = 0, hi = s->nprocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int32_t v = s->procs[mid].tgid;
		if (v == tgid)
			return &s->procs[mid];
		if (v < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct tv_task *task_find_thread(const struct tv_task *proc, int32_t tid)
{
	/* threads[] is sorted by tid (the sampler sorts it) */
	size_t lo = 0, hi = proc->nthreads_read;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int32_t v = proc->threads[mid].tid;
		if (v == tid)
			return &proc->threads[mid];
		if (v < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct tv_task *snapshot_task(struct snapshot *s, const struct tv_task *t)
{
	if (t->is_group)
		return NULL;
	const struct tv_task *p = snapshot_find(s, t->tgid);
	if (p && t->is_thread)
		p = task_find_thread(p, t->tid);
	if (!p || p->start_ticks != t->start_ticks)
		return NULL;
	/* the snapshot's own, found through its (mutable) array */
	return (struct tv_task *)p;
}
