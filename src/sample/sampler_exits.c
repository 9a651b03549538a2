/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exit records to the processes they belong to. A record whose thread was
 * still alive when this refresh read it belongs to the next interval; the
 * others complete the process's list of threads gone since the previous
 * refresh with their final counters, or add threads that lived and died in
 * between.
 *
 * Cost: linear in the records, whatever their number. A refresh takes on at
 * most SAMPLER_EXITS_BUDGET of them (the listener keeps no more between two
 * refreshes either); what is left over is dropped and counted as lost. Each
 * record finds its process by binary search and its thread's entry through a
 * hash of this refresh's exited threads by TID; whether a group's last record
 * came is one binary search in a sorted list. (A scan of every list for
 * every record made an exit storm cost the square of its records.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sample/sampler_priv.h"
#include "sample/bpf/bpf_exits.h"
#include "sample/bpf/task_rec_util.h"
#include "sample/taskstats/taskstats.h"
#include "sample/proc/users.h"
#include "view/filter.h"

/* One exited thread of this refresh: procs[proc].exited[idx]. final: an
 * exit record gave its counters (a second record of its TID is another task). */
struct exit_slot {
	int32_t tid; /* 0: free */
	uint32_t proc, idx;
	bool final;
};

struct exit_index {
	struct exit_slot *v;
	size_t mask;
	uint64_t *probes; /* slots looked at, for the cost figures (a test counts them) */
};

/* TIDs come in runs (the kernel hands them out in order): eight in a row share a
 * block of slots, so a storm's records probe neighbouring slots, where a hash of
 * each TID alone made nearly every probe a cache miss; the blocks are hashed */
static size_t slot_hash(int32_t tid, size_t mask)
{
	uint32_t t = (uint32_t)tid;
	return (((t >> 3) * 2654435761u) << 3 | (t & 7)) & mask;
}

/* The first slot of tid in proc (or in any process: proc UINT32_MAX), or the free slot where it would go. */
static struct exit_slot *slot_find(const struct exit_index *x, int32_t tid, uint32_t proc, bool unfinished)
{
	for (size_t i = slot_hash(tid, x->mask);; i = (i + 1) & x->mask) {
		struct exit_slot *e = &x->v[i];
		++*x->probes;
		if (!e->tid)
			return e;
		if (e->tid == tid && (proc == UINT32_MAX || e->proc == proc) && !(unfinished && e->final))
			return e;
	}
}

static void slot_put(struct exit_index *x, int32_t tid, uint32_t proc, uint32_t idx, bool final)
{
	size_t i = slot_hash(tid, x->mask);
	for (++*x->probes; x->v[i].tid; ++*x->probes)
		i = (i + 1) & x->mask;
	x->v[i] = (struct exit_slot){tid, proc, idx, final};
}

/* Room for the exited threads listed so far and one per record, in the
 * sampler's slots (kept from refresh to refresh); false when out of memory. */
static bool index_build(struct sampler *s, struct exit_index *x, const struct snapshot *out, size_t nrecs)
{
	size_t n = nrecs;
	for (size_t i = 0; i < out->nprocs; i++)
		n += out->procs[i].nexited;
	size_t cap = 64;
	while (cap < 2 * n)
		cap *= 2;
	/* a storm that ended gives its room back */
	if (cap > s->nslots || cap * 8 < s->nslots) {
		free(s->slots);
		s->nslots = 0;
		if (!(s->slots = malloc(cap * sizeof(*s->slots))))
			return false;
		s->nslots = cap;
	}
	cap = s->nslots;
	x->v = s->slots;
	memset(x->v, 0, cap * sizeof(*x->v));
	x->mask = cap - 1;
	for (size_t i = 0; i < out->nprocs; i++)
		for (size_t j = 0; j < out->procs[i].nexited; j++)
			if (out->procs[i].exited[j].tid > 0)
				slot_put(x, out->procs[i].exited[j].tid, (uint32_t)i, (uint32_t)j, false);
	return true;
}

static struct tv_task *find_proc(struct snapshot *out, int32_t tgid)
{
	return (struct tv_task *)snapshot_find(out, tgid);
}

/* The process a record's thread belonged to, when the kernel did not say (before 5.19). */
static struct tv_task *owner_of(struct snapshot *out, const struct exit_index *x, int32_t tid)
{
	struct tv_task *p = find_proc(out, tid);
	if (p)
		return p;
	const struct exit_slot *e = slot_find(x, tid, UINT32_MAX, false);
	return e->tid ? &out->procs[e->proc] : NULL;
}

void sampler_apply_final(struct tv_task *t, const struct ts_final *f, double mono)
{
	t->ctxt_vol = f->nvcsw;
	t->ctxt_invol = f->nivcsw;
	t->t_ctxt = mono;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		t->delay[c] = (struct tv_delay){f->delay_count[c], f->delay_ns[c]};
	t->t_delay = mono;
}

/* The start its age gives, in clock ticks: never before the true one (the
 * record is timed when it came, at or after the exit); NAN when not known. */
static double start_estimate(const struct ts_exit_rec *rec, const struct snapshot *out)
{
	if (rec->etime_us == TV_UNKNOWN)
		return NAN;
	return (rec->mono + out->boot_offset - (double)rec->etime_us / 1e6) * out->hz;
}

static void set_final(struct tv_task *e, const struct ts_exit_rec *rec, const struct snapshot *out)
{
	e->cpu_ns = rec->r.cpu_ns;
	e->cpu_fine = true;
	e->t_cpu = rec->mono;
	sampler_apply_final(e, &rec->r, rec->mono);
	if (rec->comm[0])
		task_set_comm(e, rec->comm, sizeof(rec->comm));
	if (e->start_ticks != TV_START_UNKNOWN)
		return;
	double st = start_estimate(rec, out);
	if (rec->start_boot_ns)
		e->start_ticks = boot_ns_ticks(rec->start_boot_ns, (long)llround(out->hz));
	else if (!isnan(st))
		e->start_ticks = st > 0 ? (uint64_t)st : 0;
}

/*
 * The start of the process a record ends: the kernel's own where the exit
 * program read it. Else the start its stat gave while it was alive, when its
 * ending thread started before the last refresh, which read it: no task that
 * took the PID since can have. Else, for a leader's record, the estimate from
 * its age, which is no identity (delta_apply then finds no reading of it).
 */
static uint64_t ended_start(const struct sampler *s, const struct snapshot *out, const struct ts_exit_rec *rec,
			    int32_t tgid)
{
	if (rec->leader_boot_ns)
		return boot_ns_ticks(rec->leader_boot_ns, (long)llround(out->hz));
	double est = start_estimate(rec, out);
	uint64_t known = tracked_gone_start(&s->tr, tgid);
	if (known != TV_START_UNKNOWN && est <= s->prev_boot_ticks && (rec->pid != tgid || (double)known <= est + 1))
		return known;
	if (rec->pid == tgid && !isnan(est))
		return est > 0 ? (uint64_t)est : 0;
	return TV_START_UNKNOWN;
}

/* A process that ended, as its last thread's exit record tells; alone: it
 * never had a second thread, and its own record is the group's. */
static void gone_add(struct sampler *s, struct snapshot *out, const struct ts_exit_rec *rec, bool alone,
		     const struct tv_cgroup *group)
{
	size_t n = out->ngone;
	if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4...: full; doubling, as sampler_exited_add */
		struct tv_task *v = realloc(out->gone, (n ? 2 * n : 1) * sizeof(*v));
		if (!v)
			return;
		out->gone = v;
	}
	struct tv_task *g = &out->gone[out->ngone++];
	const struct ts_final *grp = alone ? &rec->r : ts_exit_group(rec);
	task_init(g);
	g->tid = g->tgid = alone ? rec->tgid : rec->end_tgid;
	g->ppid = rec->ppid;
	g->uid = rec->uid;
	g->user = rec->uid != TV_UNKNOWN ? users_name(s->users, rec->uid) : NULL;
	g->state = 'X';
	g->details_read = true;
	task_set_comm(g, rec->comm, sizeof(rec->comm));
	g->start_ticks = ended_start(s, out, rec, g->tgid);
	g->cgroup = group;
	sampler_apply_final(g, grp, rec->mono);
	/* the record is taken before the last thread's final switch (its death's
	 * schedule, always voluntary), which the parent is credited with at reap */
	if (g->ctxt_vol != TV_UNKNOWN)
		g->ctxt_vol++;
	/* a group's switch counts include its exited threads only on some kernels (the
	 * listener goes on where the client was taken away: then they are unknown) */
	if (!alone && !(s->ts && ts_group_counts_exited(s->ts)))
		g->ctxt_vol = g->ctxt_invol = TV_UNKNOWN;
	if (s->ts && ts_group_cpu(s->ts) && grp->cpu_ns != TV_UNKNOWN) {
		g->cpu_ns = grp->cpu_ns;
		g->cpu_fine = true;
	} else if (grp->utime_us != TV_UNKNOWN && grp->stime_us != TV_UNKNOWN) {
		g->cpu_ns = (grp->utime_us + grp->stime_us) * 1000;
	}
	g->t_cpu = rec->mono;
}

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

/* Returns true when the record must wait for the next refresh. */
static bool attach(struct snapshot *out, struct exit_index *x, const struct ts_exit_rec *rec,
		   const struct sample_opts *o)
{
	int32_t tid = rec->pid;
	struct tv_task *p = rec->tgid > 0 ? find_proc(out, rec->tgid) : owner_of(out, x, tid);
	if (!p)
		return false;
	if (task_find_thread(p, tid))
		return true; /* read alive in this refresh: it ended after */
	uint32_t proc = (uint32_t)(p - out->procs);
	/* a thread listed before and gone now: its first record is its end (one
	 * that came earlier belongs to a task before it, taken by an earlier
	 * refresh); a second record of the TID is a task born since */
	struct exit_slot *e = slot_find(x, tid, proc, true);
	if (e->tid) {
		set_final(&p->exited[e->idx], rec, out);
		e->final = true;
		return false;
	}
	/* an entry only where a row, a sum over the threads or a recording lists it: an
	 * exit storm in a folded process costs a count, not a task each */
	if (!p->threads_complete && !o->keep_exited && !sampler_threads_shown(o, p->tgid)) {
		p->nexited_unlisted++;
		return false;
	}
	struct tv_task *t = sampler_exited_add(p);
	if (!t)
		return false;
	t->is_thread = true;
	t->tid = tid;
	t->tgid = p->tgid;
	t->ppid = p->ppid;
	set_final(t, rec, out);
	slot_put(x, tid, proc, (uint32_t)(p->nexited - 1), true);
	return false;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The processes whose last thread's record (with the group's totals) is among these, sorted. */
static int32_t *group_ends(const struct ts_exit_rec *a, size_t na, const struct ts_exit_rec *b, size_t nb,
			   size_t *n)
{
	int32_t *v = malloc((na + nb + 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; v && i < na + nb; i++) {
		int32_t t = (i < na ? &a[i] : &b[i - na])->end_tgid;
		if (t > 0)
			v[(*n)++] = t;
	}
	if (v && *n > 1)
		qsort(v, *n, sizeof(*v), cmp_i32);
	return v;
}

/* Keeps a record (its entries) for the next refresh; dropped when out of memory, as the listener drops them. */
static void pending_add(struct sampler *s, const struct ts_exit_rec *rec)
{
	size_t k = ts_exit_entries(rec);
	if (s->npending + k > s->pending_cap) {
		size_t cap = s->pending_cap ? s->pending_cap * 2 : 16;
		struct ts_exit_rec *v = realloc(s->pending, cap * sizeof(*v));
		if (!v)
			return;
		s->pending = v;
		s->pending_cap = cap;
	}
	memcpy(&s->pending[s->npending], rec, k * sizeof(*rec));
	s->npending += k;
}

/* How many of the n entries of v fit in budget entries, a record's entries kept
 * together; the records left out are added to *lost. */
static size_t entries_within(const struct ts_exit_rec *v, size_t n, size_t budget, uint64_t *lost)
{
	size_t keep = 0;
	while (keep < n && keep + ts_exit_entries(&v[keep]) <= budget)
		keep += ts_exit_entries(&v[keep]);
	for (size_t i = keep; i < n; i += ts_exit_entries(&v[i]))
		++*lost;
	return keep;
}

bool sampler_exits_watched(const struct sampler *s)
{
	return (s->listen || s->bexits) && s->listen_passes > 0;
}

/* A control group of the refresh by the id an exit record names it by. */
struct group_id {
	uint64_t id;
	const struct tv_cgroup *g;
};

static int cmp_group_id(const void *a, const void *b)
{
	uint64_t x = ((const struct group_id *)a)->id, y = ((const struct group_id *)b)->id;
	return (x > y) - (x < y);
}

/* out's groups whose id is known, sorted by it; NULL when none (or out of memory: no group is found). */
static struct group_id *group_ids(const struct snapshot *out, size_t *n)
{
	*n = 0;
	struct group_id *v = out->ncgroups ? malloc(out->ncgroups * sizeof(*v)) : NULL;
	for (size_t i = 0; v && i < out->ncgroups; i++)
		if (out->cgroups[i]->id)
			v[(*n)++] = (struct group_id){out->cgroups[i]->id, out->cgroups[i]};
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_group_id);
	return v;
}

static const struct tv_cgroup *group_of_id(const struct group_id *v, size_t n, uint64_t id)
{
	struct group_id key = {id, NULL};
	const struct group_id *g = id && n ? bsearch(&key, v, n, sizeof(*v), cmp_group_id) : NULL;
	return g ? g->g : NULL;
}

/* What this refresh's exit records are looked up with. */
struct exit_pass {
	struct sampler *s;
	const struct sample_opts *o;
	struct snapshot *out;
	const struct filter *sel;
	struct exit_index x;
	const int32_t *ends; /* group_ends */
	size_t nends;
	struct group_id *ids; /* out's groups by id */
	size_t nids;
};

static void exit_apply(struct exit_pass *ep, const struct ts_exit_rec *rec)
{
	struct snapshot *out = ep->out;
	bool later = attach(out, &ep->x, rec, ep->o);
	/* the group's last thread: the process ended, after this refresh
	 * read it if it is in it (then the record is the next one's) */
	bool group_end = rec->end_tgid > 0;
	later |= group_end && snapshot_find(out, rec->end_tgid);
	/* a process that never had a second thread: the kernel sends no
	 * group totals, its own record ends it (a leader that exits before
	 * its threads leaves its process listed, or a group record) */
	const struct tv_task *live = snapshot_find(out, rec->tgid);
	bool alone = !group_end && rec->tgid > 0 && rec->pid == rec->tgid && (!live || live->nthreads == 1) &&
		     !bsearch(&rec->tgid, ep->ends, ep->nends, sizeof(*ep->ends), cmp_i32);
	later |= alone && live;
	int32_t tgid = alone ? rec->tgid : rec->end_tgid;
	const struct filter *sel = ep->sel;
	if (!later && (group_end || alone) && filter_wants_pid(sel, tgid) &&
	    (!sel || sel->uid == TV_UNKNOWN || rec->uid == sel->uid))
		gone_add(ep->s, out, rec, alone, group_of_id(ep->ids, ep->nids, rec->cgroup_id));
	if (later)
		pending_add(ep->s, rec);
}

void sampler_exits(struct sampler *s, const struct sample_opts *o, struct snapshot *out, const struct filter *sel)
{
	out->exits_watched = sampler_exits_watched(s);
	out->exits_why = sampler_exits_unwatched(s);
	out->exits_source = !out->exits_watched ? NULL : s->bexits ? "bpf" : "netlink";
	if (!s->listen && !s->bexits)
		return;
	s->listen_passes++;
	struct ts_exit_rec *recs = NULL;
	uint64_t lost = 0;
	size_t n = s->bexits ? bpf_exits_take(s->bexits, &recs, &lost) : ts_listen_take(s->listen, &recs, &lost);
	/* last refresh's pending records are read from here; this refresh's go to the other array */
	struct ts_exit_rec *old = s->pending;
	size_t nold = s->npending, old_cap = s->pending_cap;
	s->pending = s->pending_room;
	s->pending_cap = s->pending_room_cap;
	s->npending = 0;
	s->pending_room = old;
	s->pending_room_cap = old_cap;
	/* the budget: the records waiting from the last refresh first, then the new ones in order */
	nold = entries_within(old, nold, SAMPLER_EXITS_BUDGET, &lost);
	n = entries_within(recs, n, SAMPLER_EXITS_BUDGET - nold, &lost);
	out->exits_lost = lost;
	out->nexits_seen = 0;
	struct exit_pass ep = {.s = s, .o = o, .out = out, .sel = sel, .x = {.probes = &s->io.exit_probes}};
	ep.ids = nold + n ? group_ids(out, &ep.nids) : NULL; /* sorted only when a record needs it */
	int32_t *ends = group_ends(old, nold, recs, n, &ep.nends);
	ep.ends = ends;
	if (!ends || !index_build(s, &ep.x, out, nold + n)) {
		for (size_t i = 0; i < nold + n; i += ts_exit_entries(i < nold ? &old[i] : &recs[i - nold]))
			out->exits_lost++;
	} else {
		for (size_t i = 0; i < nold; i += ts_exit_entries(&old[i]))
			exit_apply(&ep, &old[i]);
		for (size_t i = 0; i < n; i += ts_exit_entries(&recs[i])) {
			exit_apply(&ep, &recs[i]);
			out->nexits_seen++;
		}
	}
	free(ends);
	free(ep.ids);
	if (s->bexits)
		bpf_exits_give_back(s->bexits, recs);
	else
		ts_listen_give_back(s->listen, recs);
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
		uint32_t ended = p->nexited + p->nexited_unlisted;
		if (group_live_only && ended > 0)
			tp->exit_seen = true;
		if ((live_sums || group_live_only) && tp->exit_seen)
			p->partial |= TV_PART_BIT(TV_PART_CTXT_VOL) | TV_PART_BIT(TV_PART_CTXT_INVOL);
		/* records dropped in this interval: the exited threads that complete a sum may be among them */
		if (group_live_only && (ended > 0 || out->exits_lost > 0) && !p->threads_are_rows)
			p->partial |= TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_INVOL_RATE);
	}
}
