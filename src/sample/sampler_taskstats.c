/*
 * Taskstats for one refresh: a group (TGID) query per process, a PID query
 * per thread row; each reply timed when the kernel filled it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "sample/sampler_priv.h"
#include "sample/taskstats.h"

/* ticks a start time estimated from a reply's age may differ from the first estimate */
#define START_SLACK_TICKS 3

static void apply_common(struct tv_task *t, const struct ts_query *q)
{
	t->ctxt_vol = q->r.nvcsw;
	t->ctxt_invol = q->r.nivcsw;
	t->t_ctxt = q->mono;
	memcpy(t->delay, q->r.delay, sizeof(t->delay));
	t->t_delay = q->mono;
}

/*
 * A thread's identity from its age in the reply: the start it implies stays
 * within a few ticks of the first one while it is the same thread; a TID
 * reused by a new thread since gives a later start.
 */
static uint64_t thread_start(struct tracked_thread *th, const struct ts_query *q, const struct snapshot *out)
{
	if (q->r.etime_us == TV_UNKNOWN)
		return th ? th->start : TV_START_UNKNOWN;
	double est = (q->mono + out->boot_offset - (double)q->r.etime_us / 1e6) * out->hz;
	uint64_t e = est > 0 ? (uint64_t)llround(est) : 0;
	if (!th)
		return e;
	if (th->start == TV_START_UNKNOWN || fabs((double)th->start - est) > START_SLACK_TICKS)
		th->start = e;
	return th->start;
}

/* Tasks that started before delay accounting was switched on report zeros: unknown. */
static void mask_before_on(struct tv_task *t, uint64_t on_since)
{
	if (!on_since || t->start_ticks == TV_START_UNKNOWN || t->start_ticks >= on_since)
		return;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		if (c != TV_DELAY_CPU)
			t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN};
}

/* Drops thread rows whose query failed (gone since listed); they exited. */
static void drop_failed(struct tv_task *p, const bool *ok, const struct snapshot *out)
{
	(void)out;
	size_t k = 0;
	for (size_t j = 0; j < p->nthreads_read; j++) {
		if (ok[j]) {
			p->threads[k++] = p->threads[j];
			continue;
		}
		struct tv_task *v = realloc(p->exited, (p->nexited + 1) * sizeof(*v));
		if (v) {
			p->exited = v;
			struct tv_task *e = &p->exited[p->nexited++];
			task_init(e);
			e->is_thread = true;
			e->tid = p->threads[j].tid;
			e->tgid = p->tgid;
			e->ppid = p->ppid;
			e->start_ticks = p->threads[j].start_ticks;
			memcpy(e->comm, p->threads[j].comm, sizeof(e->comm));
		}
		task_clear(&p->threads[j], 0);
	}
	p->nthreads_read = k;
}

void sampler_taskstats(struct sampler *s, const struct sample_opts *o, struct snapshot *out)
{
	/* group replies for the processes' switches and delays; thread rows
	 * take every counter from their own replies */
	bool groups = o->needs & (NEED_CTXT | NEED_DELAY);
	size_t nq = 0;
	for (size_t i = 0; i < out->nprocs; i++)
		nq += groups + (out->procs[i].threads_are_rows ? out->procs[i].nthreads_read : 0);
	if (nq == 0)
		return;
	struct ts_query *q = calloc(nq ? nq : 1, sizeof(*q));
	if (!q)
		return;
	size_t k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		const struct tv_task *p = &out->procs[i];
		if (groups)
			q[k++] = (struct ts_query){.id = p->tgid, .tgid = true};
		for (size_t j = 0; p->threads_are_rows && j < p->nthreads_read; j++)
			q[k++] = (struct ts_query){.id = p->threads[j].tid};
	}
	s->io.queries += nq;
	if (ts_query_batch(s->ts, q, nq) < 0) {
		free(q);
		return;
	}
	uint64_t on_since = ts_acct_on_since(s->ts);
	k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		if (groups) {
			if (q[k].ok) {
				apply_common(p, &q[k]);
				mask_before_on(p, on_since);
			}
			k++;
		}
		if (!p->threads_are_rows)
			continue;
		struct tracked_proc *tp = tracked_find(&s->tr, p->tgid);
		bool *ok = calloc(p->nthreads_read ? p->nthreads_read : 1, sizeof(*ok));
		for (size_t j = 0; j < p->nthreads_read; j++, k++) {
			struct tv_task *t = &p->threads[j];
			if (!q[k].ok)
				continue;
			if (ok)
				ok[j] = true;
			struct tracked_thread *th = tp ? tracked_thread_find(tp, t->tid) : NULL;
			apply_common(t, &q[k]);
			t->cpu_ns = q[k].r.cpu_run_real_ns;
			t->cpu_fine = true;
			t->t_cpu = q[k].mono;
			t->start_ticks = thread_start(th, &q[k], out);
			if (q[k].r.comm[0]) {
				memcpy(t->comm, q[k].r.comm, sizeof(q[k].r.comm));
				if (th)
					memcpy(th->comm, q[k].r.comm, sizeof(q[k].r.comm));
			}
			mask_before_on(t, on_since);
		}
		if (ok)
			drop_failed(p, ok, out);
		free(ok);
	}
	free(q);
}
