/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Taskstats for one refresh: a group (TGID) query per process, a PID query
 * per thread row; each reply timed when the kernel filled it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "sample/sampler_priv.h"
#include "sample/taskstats/taskstats.h"


void sampler_apply_ts(struct tv_task *t, const struct ts_result *r, double mono)
{
	t->ctxt_vol = r->nvcsw;
	t->ctxt_invol = r->nivcsw;
	t->t_ctxt = mono;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		t->delay[c] = (struct tv_delay){r->delay[c].count, r->delay[c].total_ns};
	t->t_delay = mono;
}

/* The extremes of one thread's delays, for the detail panel. */
static void keep_peaks(struct tv_task *t, const struct ts_result *r)
{
	if (!t->peaks)
		t->peaks = malloc(sizeof(*t->peaks));
	if (!t->peaks)
		return;
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		t->peaks->max_ns[c] = r->delay[c].max_ns;
		t->peaks->min_ns[c] = r->delay[c].min_ns;
	}
}

/*
 * A thread's identity: its TID and its start time from its stat. The age in
 * the reply only tells when to read the stat again: a start it implies more
 * than a few ticks off says the TID may be a new thread's since; the stat
 * says whether it is, and then what was kept of the old one goes.
 */
static uint64_t thread_start(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
			     const struct ts_result *r, double mono, const struct snapshot *out)
{
	if (!th)
		return TV_START_UNKNOWN;
	double est = r->etime_us == TV_UNKNOWN ? NAN
						: (mono + out->boot_offset - (double)r->etime_us / 1e6) * out->hz;
	if (th->start != TV_START_UNKNOWN && !(fabs((double)th->start - est) > SAMPLER_START_SLACK))
		return th->start;
	uint64_t was = th->start;
	sampler_thread_start(s, tp, th);
	if (was != TV_START_UNKNOWN && th->start != was)
		tracked_thread_renew(&s->tr, th);
	return th->start;
}

/* Tasks that started before delay accounting was switched on report zeros: unknown. */
static void mask_before_on(struct tv_task *t, uint64_t on_since)
{
	if (!on_since || t->start_ticks == TV_START_UNKNOWN || t->start_ticks >= on_since)
		return;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		if (c != TV_DELAY_CPU)
			t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
}

/* Drops thread rows whose query failed (gone since listed); they exited.
 * Their tracked threads go too: the next listing would not find them and
 * report the same exit again, in the next interval and without a name (a
 * thread that never answered has none; its exit record, taken in this
 * refresh, names the entry made here). */
static void drop_failed(struct sampler *s, struct tv_task *p, const bool *ok)
{
	struct tracked_proc *tp = tracked_find(&s->tr, p->tgid);
	size_t k = 0;
	for (size_t j = 0; j < p->nthreads_read; j++) {
		if (ok[j]) {
			p->threads[k++] = p->threads[j];
			continue;
		}
		struct tracked_thread *th = tp ? tracked_thread_find(tp, p->threads[j].tid) : NULL;
		if (th)
			tracked_thread_drop(&s->tr, tp, (size_t)(th - tp->threads));
		struct tv_task *e = sampler_exited_add(p);
		if (e) {
			e->is_thread = true;
			e->tid = p->threads[j].tid;
			e->tgid = p->tgid;
			e->ppid = p->ppid;
			e->start_ticks = p->threads[j].start_ticks;
			task_copy_comm(e, &p->threads[j]);
		}
		task_clear(&p->threads[j], 0);
	}
	p->nthreads_read = k;
}

/* Where each reply goes. */
struct ts_targets {
	struct sampler *s;
	struct snapshot *out;
	struct tv_task **task;   /* per query */
	bool *answered;          /* per query */
	uint64_t on_since;
	int32_t peaks_tid;
	bool peaks_only;         /* that thread was read by the BPF pass */
};

static void on_reply(void *ctx, size_t i, struct ts_result *r, double mono)
{
	struct ts_targets *tg = ctx;
	struct tv_task *t = tg->task[i];
	tg->answered[i] = true;
	if (t->is_thread && t->tid == tg->peaks_tid && tg->peaks_only) {
		keep_peaks(t, r); /* its counters are the BPF pass's, of the same moment as the others' */
		return;
	}
	sampler_apply_ts(t, r, mono);
	/* a group reply's CPU time misses the last slices of threads that
	 * ended (added at their exit, before those are counted): the process's
	 * comes from its CPU clock */
	if (t->is_thread) {
		if (t->tid == tg->peaks_tid)
			keep_peaks(t, r);
		struct tracked_proc *tp = tracked_find(&tg->s->tr, t->tgid);
		struct tracked_thread *th = tp ? tracked_thread_find(tp, t->tid) : NULL;
		t->cpu_ns = r->cpu_ns;
		t->cpu_fine = true;
		t->t_cpu = mono;
		t->start_ticks = thread_start(tg->s, tp, th, r, mono, tg->out);
		if (r->comm[0]) {
			task_set_comm(t, r->comm, sizeof(r->comm));
			if (th)
				tracked_copy_name(th->comm, sizeof(th->comm), r->comm);
		}
	}
	mask_before_on(t, tg->on_since);
}

/* A thread row is asked unless the BPF pass read it; the one whose delay extremes are kept always is. */
static bool thread_asked(const struct tv_task *p, const struct tv_task *t, int32_t peaks_tid)
{
	return !p->threads_bpf || t->tid == peaks_tid;
}

/*
 * A process whose threads the BPF pass read: its switch totals are their sum
 * at that pass. A group reply sums the same (the live threads' counts), but
 * at its own moment: its process row and its thread rows then disagreed.
 */
static void switches_of_pass(struct tv_task *p)
{
	if (p->threads_bpf && p->threads_complete)
		sampler_switch_sums(p);
}

void sampler_taskstats(struct sampler *s, const struct sample_opts *o, struct snapshot *out)
{
	/* group replies for the processes' switches and delays; thread rows
	 * take every counter from their own replies */
	bool groups = o->needs & (NEED_CTXT | NEED_DELAY);
	size_t nq = 0;
	uint64_t on_since = ts_acct_on_since(s->ts);
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		for (size_t j = 0; p->threads_bpf && j < p->nthreads_read; j++)
			mask_before_on(&p->threads[j], on_since);
		for (size_t j = 0; p->threads_are_rows && j < p->nthreads_read; j++)
			nq += thread_asked(p, &p->threads[j], o->peaks_tid);
		nq += groups;
	}
	if (nq == 0)
		return;
	struct ts_request *req = calloc(nq, sizeof(*req));
	struct ts_targets tg = {
		.s = s,
		.out = out,
		.task = calloc(nq, sizeof(*tg.task)),
		.answered = calloc(nq, sizeof(*tg.answered)),
		.on_since = on_since,
		.peaks_tid = o->peaks_tid,
	};
	if (!req || !tg.task || !tg.answered)
		goto out;
	size_t k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		if (groups) {
			tg.task[k] = p;
			req[k++] = (struct ts_request){p->tgid, true};
		}
		for (size_t j = 0; p->threads_are_rows && j < p->nthreads_read; j++) {
			if (!thread_asked(p, &p->threads[j], o->peaks_tid))
				continue;
			/* the one thread of a BPF-read process asked (its extremes) */
			tg.peaks_only |= p->threads_bpf && p->threads[j].tid == o->peaks_tid;
			tg.task[k] = &p->threads[j];
			req[k++] = (struct ts_request){p->threads[j].tid, false};
		}
	}
	s->io.queries += nq;
	if (ts_query_each(s->ts, req, nq, on_reply, &tg) < 0)
		goto out;
	/* thread rows that got no answer ended since they were listed */
	k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		k += groups;
		if (!p->threads_are_rows || p->threads_bpf) {
			/* read by BPF: a thread gone was not among its records; its
			 * one query (delay extremes) tells nothing more */
			for (size_t j = 0; p->threads_are_rows && j < p->nthreads_read; j++)
				k += thread_asked(p, &p->threads[j], o->peaks_tid);
			continue;
		}
		bool *ok = &tg.answered[k];
		k += p->nthreads_read;
		drop_failed(tg.s, p, ok);
	}
	for (size_t i = 0; i < out->nprocs; i++)
		switches_of_pass(&out->procs[i]);
out:
	free(req);
	free(tg.task);
	free(tg.answered);
}
