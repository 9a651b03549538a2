/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exit records to the processes they belong to. A record whose thread was
 * still alive when this refresh read it belongs to the next interval; the
 * others complete the process's list of threads gone since the previous
 * refresh with their final counters, or add threads that lived and died in
 * between.
 */
#include <stdlib.h>
#include <string.h>

#include "sample/sampler_priv.h"
#include "sample/taskstats/taskstats.h"
#include "sample/proc/users.h"
#include "view/filter.h"

static struct tv_task *find_proc(struct snapshot *out, int32_t tgid)
{
	return (struct tv_task *)snapshot_find(out, tgid);
}

/* The process a record's thread belonged to, when the kernel did not say (before 5.19). */
static struct tv_task *owner_of(struct snapshot *out, int32_t tid)
{
	struct tv_task *p = find_proc(out, tid);
	if (p)
		return p;
	for (size_t i = 0; i < out->nprocs; i++)
		for (size_t j = 0; j < out->procs[i].nexited; j++)
			if (out->procs[i].exited[j].tid == tid)
				return &out->procs[i];
	return NULL;
}

static void set_final(struct tv_task *e, const struct ts_exit_rec *rec, const struct snapshot *out)
{
	const struct ts_result *r = &rec->m.r;
	e->cpu_ns = r->cpu_ns;
	e->cpu_fine = true;
	e->t_cpu = e->t_ctxt = e->t_delay = rec->mono;
	sampler_apply_ts(e, r, rec->mono);
	if (r->comm[0])
		task_set_comm(e, r->comm, sizeof(r->comm));
	if (e->start_ticks == TV_START_UNKNOWN && r->etime_us != TV_UNKNOWN) {
		double st = (rec->mono + out->boot_offset - (double)r->etime_us / 1e6) * out->hz;
		e->start_ticks = st > 0 ? (uint64_t)st : 0;
	}
}

/* A process that ended, as its last thread's exit record tells; alone: it
 * never had a second thread, and its own record is the group's. */
static void gone_add(struct sampler *s, struct snapshot *out, const struct ts_exit_rec *rec, bool alone)
{
	struct tv_task *v = realloc(out->gone, (out->ngone + 1) * sizeof(*v));
	if (!v)
		return;
	out->gone = v;
	struct tv_task *g = &out->gone[out->ngone++];
	const struct ts_result *last = &rec->m.r, *grp = alone ? &rec->m.r : &rec->m.g;
	task_init(g);
	g->tid = g->tgid = alone ? rec->m.r.tgid : rec->m.tgid;
	g->ppid = last->ppid;
	g->uid = last->uid;
	g->user = last->uid != TV_UNKNOWN ? users_name(s->users, last->uid) : NULL;
	g->state = 'X';
	g->details_read = true;
	task_set_comm(g, last->comm, sizeof(last->comm));
	if (last->etime_us != TV_UNKNOWN && last->pid == g->tgid) {
		double st = (rec->mono + out->boot_offset - (double)last->etime_us / 1e6) * out->hz;
		g->start_ticks = st > 0 ? (uint64_t)st : 0;
	}
	sampler_apply_ts(g, grp, rec->mono);
	/* a group's switch counts include its exited threads only on some kernels */
	if (!alone && !ts_group_counts_exited(s->ts))
		g->ctxt_vol = g->ctxt_invol = TV_UNKNOWN;
	if (ts_group_cpu(s->ts) && grp->cpu_ns != TV_UNKNOWN) {
		g->cpu_ns = grp->cpu_ns;
		g->cpu_fine = true;
	} else if (grp->utime_us != TV_UNKNOWN && grp->stime_us != TV_UNKNOWN) {
		g->cpu_ns = (grp->utime_us + grp->stime_us) * 1000;
	}
	g->t_cpu = rec->mono;
}

/* Returns true when the record must wait for the next refresh. */
struct tv_task *sampler_exited_add(struct tv_task *p)
{
	size_t n = p->nexited;
	if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4...: full */
		struct tv_task *v = realloc(p->exited, (n ? 2 * n : 1) * sizeof(*v));
		if (!v)
			return NULL;
		p->exited = v;
	}
	struct tv_task *e = &p->exited[p->nexited++];
	task_init(e);
	return e;
}

static bool attach(struct snapshot *out, const struct ts_exit_rec *rec)
{
	int32_t tid = rec->m.pid;
	struct tv_task *p = rec->m.r.tgid > 0 ? find_proc(out, rec->m.r.tgid) : owner_of(out, tid);
	if (!p)
		return false;
	if (task_find_thread(p, tid))
		return true; /* read alive in this refresh: it ended after */
	for (size_t j = 0; j < p->nexited; j++) {
		if (p->exited[j].tid == tid) {
			set_final(&p->exited[j], rec, out);
			return false;
		}
	}
	struct tv_task *e = sampler_exited_add(p);
	if (!e)
		return false;
	e->is_thread = true;
	e->tid = tid;
	e->tgid = p->tgid;
	e->ppid = p->ppid;
	set_final(e, rec, out);
	return false;
}

/* Is there a record of tgid's last thread with the group's totals among these? */
static bool group_record_of(const struct ts_exit_rec *a, size_t na, const struct ts_exit_rec *b, size_t nb,
			    int32_t tgid)
{
	for (size_t i = 0; i < na + nb; i++)
		if ((i < na ? &a[i] : &b[i - na])->m.tgid == tgid)
			return true;
	return false;
}

void sampler_exits(struct sampler *s, struct snapshot *out, const struct filter *sel)
{
	out->exits_watched = s->listen != NULL && s->listen_passes > 0;
	out->exits_why = sampler_exits_unwatched(s);
	if (!s->listen)
		return;
	s->listen_passes++;
	struct ts_exit_rec *recs = NULL;
	uint64_t lost = 0;
	size_t n = ts_listen_take(s->listen, &recs, &lost);
	out->exits_lost = lost;
	struct ts_exit_rec *old = s->pending;
	size_t nold = s->npending;
	s->pending = NULL;
	s->npending = 0;
	size_t cap = 0;
	for (size_t i = 0; i < nold + n; i++) {
		const struct ts_exit_rec *rec = i < nold ? &old[i] : &recs[i - nold];
		out->nexits_seen += i >= nold;
		bool later = attach(out, rec);
		/* the group's last thread: the process ended, after this refresh
		 * read it if it is in it (then the record is the next one's) */
		bool group_end = rec->m.tgid > 0;
		later |= group_end && snapshot_find(out, rec->m.tgid);
		/* a process that never had a second thread: the kernel sends no
		 * group totals, its own record ends it (a leader that exits before
		 * its threads leaves its process listed, or a group record) */
		const struct tv_task *live = snapshot_find(out, rec->m.r.tgid);
		bool alone = !group_end && rec->m.r.tgid > 0 && rec->m.pid == rec->m.r.tgid &&
			     (!live || live->nthreads == 1) && !group_record_of(old, nold, recs, n, rec->m.r.tgid);
		later |= alone && live;
		int32_t tgid = alone ? rec->m.r.tgid : rec->m.tgid;
		if (!later && (group_end || alone) && filter_wants_pid(sel, tgid) &&
		    (!sel || sel->uid == TV_UNKNOWN || rec->m.r.uid == sel->uid))
			gone_add(s, out, rec, alone);
		if (!later)
			continue;
		if (s->npending == cap) {
			cap = cap ? cap * 2 : 16;
			struct ts_exit_rec *v = realloc(s->pending, cap * sizeof(*v));
			if (!v)
				continue;
			s->pending = v;
		}
		s->pending[s->npending++] = *rec;
	}
	free(old);
	free(recs);
}

void sampler_partial_totals(struct sampler *s, struct snapshot *out)
{
	bool group_live_only = sampler_ts_usable(s) && !ts_group_counts_exited(s->ts);
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		struct tracked_proc *tp = tracked_find(&s->tr, p->tgid);
		if (!tp)
			continue;
		/* totals summed over live threads, or a group reply that leaves
		 * exited threads out: from the first exit seen on, they miss it */
		bool live_sums = !sampler_ts_usable(s) && p->threads_complete;
		if (group_live_only && p->nexited > 0)
			tp->exit_seen = true;
		if ((live_sums || group_live_only) && tp->exit_seen)
			p->partial |= TV_PART_BIT(TV_PART_CTXT_VOL) | TV_PART_BIT(TV_PART_CTXT_INVOL);
		if (group_live_only && p->nexited > 0 && !p->threads_are_rows)
			p->partial |= TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_INVOL_RATE);
	}
}
