/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The threads of a process: listed from task/ only when their number changed
 * or one of them is gone, and read where the view shows them or a process sum
 * needs them. Without taskstats, a thread's schedstat (kept open) gives its
 * CPU time in ns and its run-queue wait; its status, for the switch counts,
 * is read only when schedstat moved (a thread that neither ran nor waited to
 * run has not switched), and, where the view says which rows are on screen,
 * only for those: on a busy machine every thread runs, and status costs
 * more than schedstat.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/column.h"
#include "sample/proc/cpuclock.h"
#include "sample/proc/proc_read.h"
#include "sample/sampler_priv.h"
#include "sample/memory/stacks.h"
#include "util/clock.h"

/*
 * How long a process seen churning threads keeps its summed rates marked as
 * lower bounds, in seconds of time (not refreshes: -d does not change it).
 * Threads that start and end between two refreshes leave no trace without
 * exit records, so a refresh that happens to see none proves nothing; a
 * sighting every few seconds keeps the mark. 5 s spans five refreshes at
 * the default interval, and a process that stopped churning is exact again
 * soon after.
 */
#define CHURN_WINDOW_S 5.0

static int cmp_tid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

void sampler_thread_start(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th)
{
	if (th->tid == tp->pid && tp->start != TV_START_UNKNOWN) {
		th->start = tp->start; /* the leader's is the process's, read already */
		return;
	}
	char path[64];
	snprintf(path, sizeof(path), "%d/task/%d/stat", tp->pid, th->tid);
	ssize_t n = sampler_read(s, NULL, path);
	struct proc_stat st;
	if (n > 0 && proc_parse_stat(s->buf, (size_t)n, &st) == 0)
		th->start = st.start_ticks;
}

/*
 * Lists task/ into tp->threads: new threads added, with their start time, the
 * ones no longer there marked unseen. Returns 1 when a thread new since an
 * earlier listing was found, 0 when none, -1 when task/ could not be read.
 */
static int threads_list(struct sampler *s, struct tracked_proc *tp)
{
	if (tp->fd_task < 0) {
		char path[32];
		snprintf(path, sizeof(path), "%d/task", tp->pid);
		tp->fd_task = fd_budget_open(&s->tr.fds, s->procfd, path);
		if (tp->fd_task < 0) {
			/* over budget or gone: list through a fresh descriptor */
			int fd = openat(s->procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return -1;
			tp->fd_task = fd;
			s->tr.fds.used++;
		}
		s->io.opens++;
	} else if (lseek(tp->fd_task, 0, SEEK_SET) < 0) {
		return -1;
	}
	s->io.lists++;
	/* the first listing of a process finds its threads, not their births */
	bool before = tp->nthreads > 0;
	int born = 0;
	for (size_t i = 0; i < tp->nthreads; i++)
		tp->threads[i].seen = false;
	char *buf = s->buf;
	for (;;) {
		ssize_t n = getdents64(tp->fd_task, buf, SAMPLER_READ_CAP);
		if (n < 0) {
			fd_budget_close(&s->tr.fds, &tp->fd_task);
			return -1;
		}
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(void *)(buf + off);
			off += de->d_reclen;
			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			int32_t tid = (int32_t)atoi(de->d_name);
			struct tracked_thread *th = tracked_thread_find(tp, tid);
			if (!th) {
				th = tracked_thread_add(tp, tid);
				born |= before;
			}
			if (th)
				th->seen = true;
		}
	}
	tp->threads_listed = true;
	tracked_thread_fit(tp);
	/* the new ones' start times (after the listing: the reads reuse its buffer): a TID
	 * reused by a later thread is told apart by it (model/delta.c) */
	for (size_t i = 0; i < tp->nthreads; i++)
		if (tp->threads[i].seen && tp->threads[i].start == TV_START_UNKNOWN)
			sampler_thread_start(s, tp, &tp->threads[i]);
	return born;
}

/* The thread's switches and name from its status (the leader's from the process's, already read). */
static int thread_status(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
			 const struct lead_status *lead, struct tv_task *t)
{
	const struct proc_status *ps = &lead->ps;
	struct proc_status own;
	double when = lead->when;
	if (th->tid != tp->pid || ps->ctxt_vol == TV_UNKNOWN) {
		char path[64];
		snprintf(path, sizeof(path), "%d/task/%d/status", tp->pid, th->tid);
		ssize_t n = sampler_read_timed(s, NULL, path, &when);
		if (n < 0 || proc_parse_status(s->buf, (size_t)n, &own) < 0)
			return -1;
		ps = &own;
	}
	th->vol = ps->ctxt_vol;
	th->invol = ps->ctxt_invol;
	th->have_status = true;
	th->named = true;
	tracked_copy_name(th->comm, sizeof(th->comm), ps->name);
	/* a thread new since the last refresh had no name at thread_init: the
	 * row takes it now, not from a later read it may not live to see */
	task_set_comm(t, th->comm, sizeof(th->comm));
	t->state = ps->state;
	t->ctxt_vol = th->vol;
	t->ctxt_invol = th->invol;
	t->t_ctxt = when;
	return 0;
}

/*
 * Without taskstats: CPU time and run-queue wait from schedstat; switches
 * from status when schedstat moved since it was last read (same runtime, same
 * number of runs: no switch in between) and want says the row needs them,
 * else the counts known from then, still true now, or unknown: a thread that
 * ran since has switched by an amount not read. Its status is read once in
 * any case, for its name. Returns -1 when the thread is gone.
 */
int sampler_thread_schedstat(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
			     struct proc_schedstat *ss, double *when)
{
	char path[64];
	snprintf(path, sizeof(path), "%d/task/%d/schedstat", tp->pid, th->tid);
	ssize_t n = sampler_read_timed(s, &th->fd_sched, path, when);
	if (n < 0)
		return -1;
	if (proc_parse_schedstat(s->buf, (size_t)n, ss) < 0)
		*ss = (struct proc_schedstat){TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN};
	return 0;
}

static int thread_read_proc(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
			    const struct lead_status *lead, struct tv_task *t, bool want)
{
	struct proc_schedstat ss;
	double when;
	if (sampler_thread_schedstat(s, tp, th, &ss, &when) < 0)
		return -1;
	t->cpu_ns = ss.runtime_ns;
	t->cpu_fine = true;
	t->t_cpu = when;
	t->delay[TV_DELAY_CPU] = (struct tv_delay){ss.pcount, ss.run_delay_ns};
	t->t_delay = when;
	bool moved = ss.runtime_ns == TV_UNKNOWN || ss.runtime_ns != th->runtime || ss.pcount != th->pcount;
	th->runtime = ss.runtime_ns;
	th->pcount = ss.pcount;
	if (moved)
		th->have_status = false;
	/* the leader's counts come with the process's status, read already */
	want |= th->tid == tp->pid && lead->ps.ctxt_vol != TV_UNKNOWN;
	if (!th->have_status && (want || !th->named)) {
		if (thread_status(s, tp, th, lead, t) < 0)
			return -1;
		/* one that did not run since the last read is on no CPU; one
		 * asleep now was most likely not on one at the read either */
		tp->oncpu += moved && (t->state == 'R' || t->state == '?');
	} else if (th->have_status) {
		t->ctxt_vol = th->vol;
		t->ctxt_invol = th->invol;
		t->t_ctxt = when;
	} else {
		/* ran, not read: counts unknown (task_init), its state too */
		tp->oncpu += moved;
	}
	return 0;
}

/* Whether the view needs the switch counts of thread tid of process tgid (sample_opts.rows_limited). */
static bool status_wanted(const struct sample_opts *o, int32_t tgid, int32_t tid)
{
	if (!o->rows_limited)
		return true;
	return (o->nrows_tgids && bsearch(&tgid, o->rows_tgids, o->nrows_tgids, sizeof(tgid), cmp_tid)) ||
	       (o->nrows_tids && bsearch(&tid, o->rows_tids, o->nrows_tids, sizeof(tid), cmp_tid));
}

/* A thread gone since the previous refresh, its final counters unknown until an exit record says. */
static int exited_add(struct tv_task *p, const struct tracked_thread *th)
{
	struct tv_task *e = sampler_exited_add(p);
	if (!e)
		return -1;
	e->is_thread = true;
	e->tid = th->tid;
	e->tgid = p->tgid;
	e->ppid = p->ppid;
	e->start_ticks = th->start;
	task_set_comm(e, th->comm, sizeof(th->comm));
	return 0;
}

/* Memory and command line of a process whose leader exited before its other threads. */
static void zombie_leader(struct sampler *s, struct tracked_proc *tp, struct tv_task *p)
{
	for (size_t i = 0; i < tp->nthreads; i++) {
		const struct tracked_thread *th = &tp->threads[i];
		if (!th->seen || th->tid == tp->pid)
			continue;
		char path[64];
		struct proc_status ps;
		snprintf(path, sizeof(path), "%d/task/%d/status", tp->pid, th->tid);
		ssize_t n = sampler_read(s, NULL, path);
		if (n < 0 || proc_parse_status(s->buf, (size_t)n, &ps) < 0 || ps.state == 'Z')
			continue;
		sampler_memory_from_status(p, &ps);
		tp->live_tid = th->tid; /* the command line is read from this one */
		return;
	}
}

static void thread_init(struct tv_task *t, const struct tv_task *p, const struct tracked_thread *th)
{
	task_init(t);
	t->is_thread = true;
	t->tid = th->tid;
	t->tgid = p->tgid;
	t->ppid = p->ppid;
	t->start_ticks = th->start;
	t->uid = p->uid;
	t->user = p->user;
	t->nthreads = p->nthreads;
	t->mem = p->mem; /* borrowed: the address space is the process's */
	if (th->comm[0])
		task_set_comm(t, th->comm, sizeof(th->comm));
	else if (th->tid == p->tgid)
		task_copy_comm(t, p);
}

/* Without exit records: a thread of tp seen to start or end now. */
static void churn_note(struct tracked_proc *tp, bool ts, double now)
{
	if (!ts)
		tp->churn_seen = now;
}

/*
 * A process seen churning within the window: threads may have started and
 * ended unseen in this interval, so its switch rates and CPU wait, sums over
 * the threads seen, are lower bounds. Its CPU time is not: the process's CPU
 * clock counts exited threads.
 */
static void churn_mark(const struct tracked_proc *tp, struct tv_task *p, double now)
{
	if (tp->churn_seen > 0 && now - tp->churn_seen <= CHURN_WINDOW_S)
		p->partial |= TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_INVOL_RATE) |
			      TV_PART_BIT(TV_PART_DELAY + TV_DELAY_CPU);
}

/*
 * Threads that ended between two refreshes without being seen still leave
 * their CPU time in the process's clock: what the clock counts beyond the
 * live threads' runtimes (dead) only grows when a thread ends. Read before
 * the threads, it is at most what ended threads ran by then; read after
 * them, at least that. A lower bound now above the upper bound of the
 * previous refresh proves that a thread ended in between. The schedstat of a
 * thread on a CPU lags its clock by up to a tick (10 ms at HZ=100): that
 * much per thread that may have been on one is no proof.
 */
#define DEAD_TICK_NS 10000000
#define DEAD_SLACK_NS 200000  /* what the other reads can leave over, ns */

static bool ended_unseen(struct tracked_proc *tp, const struct tv_task *p)
{
	int64_t live = 0, clock_ns;
	double when;
	bool ok = p->cpu_fine && p->cpu_ns != TV_UNKNOWN && p->nthreads_read > 0;
	for (size_t i = 0; ok && i < p->nthreads_read; i++) {
		if (p->threads[i].cpu_ns == TV_UNKNOWN)
			ok = false;
		else
			live += p->threads[i].cpu_ns;
	}
	if (!ok || cpuclock_read(p->tgid, &clock_ns, &when) < 0) {
		tp->dead_known = false;
		return false;
	}
	int64_t before = p->cpu_ns - live;
	size_t ncpu = (size_t)cpuclock_online_cpus();
	size_t n = tp->oncpu;
	int64_t slack = (int64_t)(n < ncpu ? n : ncpu) * DEAD_TICK_NS + DEAD_SLACK_NS;
	bool ended = tp->dead_known && before > tp->dead_after + slack;
	tp->dead_after = clock_ns - live;
	tp->dead_known = true;
	return ended;
}

void sampler_switch_sums(struct tv_task *p)
{
	int64_t vol = 0, invol = 0;
	double when = 0;
	for (size_t i = 0; i < p->nthreads_read; i++) {
		const struct tv_task *t = &p->threads[i];
		if (t->ctxt_vol == TV_UNKNOWN || t->ctxt_invol == TV_UNKNOWN)
			return;
		vol += t->ctxt_vol;
		invol += t->ctxt_invol;
		when = t->t_ctxt > when ? t->t_ctxt : when;
	}
	if (!p->nthreads_read)
		return;
	p->ctxt_vol = vol;
	p->ctxt_invol = invol;
	p->t_ctxt = when;
}

/* The process's switch counts and CPU wait as sums over its live threads. */
static void sums_from_threads(struct tv_task *p)
{
	int64_t cnt = 0, tot = 0;
	bool ok_cpu = p->nthreads_read > 0;
	double when = 0;
	for (size_t i = 0; i < p->nthreads_read; i++) {
		const struct tv_task *t = &p->threads[i];
		const struct tv_delay *d = &t->delay[TV_DELAY_CPU];
		if (d->count == TV_UNKNOWN || d->total_ns == TV_UNKNOWN)
			ok_cpu = false;
		else {
			cnt += d->count;
			tot += d->total_ns;
		}
		when = t->t_ctxt > when ? t->t_ctxt : when;
	}
	p->live_sums = true;
	sampler_switch_sums(p);
	if (ok_cpu) {
		p->delay[TV_DELAY_CPU] = (struct tv_delay){cnt, tot};
		p->t_delay = when;
	}
}

static int cmp_task_tid(const void *a, const void *b)
{
	const struct tv_task *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * The names of the threads of a folded process (sample_opts.thread_names: a
 * filter or a search matches them). Threads summed without taskstats have
 * theirs from status already; else task/TID/comm is read, only while asked.
 */
static void thread_names(struct sampler *s, struct tracked_proc *tp, struct tv_task *p, bool known)
{
	size_t n = 0;
	for (size_t i = 0; i < tp->nthreads; i++)
		n += tp->threads[i].seen;
	p->tnames = calloc(n + 1, sizeof(*p->tnames)); /* and the end: TID 0 */
	if (!p->tnames)
		return;
	size_t k = 0;
	for (size_t i = 0; i < tp->nthreads; i++) {
		struct tracked_thread *th = &tp->threads[i];
		if (!th->seen)
			continue;
		if (!known || !th->comm[0]) {
			char path[64];
			snprintf(path, sizeof(path), "%d/task/%d/comm", tp->pid, th->tid);
			ssize_t got = sampler_read(s, NULL, path);
			if (got <= 0)
				continue; /* gone */
			if (s->buf[got - 1] == '\n')
				s->buf[got - 1] = '\0';
			tracked_copy_name(th->comm, sizeof(th->comm), s->buf);
		}
		struct tv_tname *tn = &p->tnames[k++];
		tn->tid = th->tid;
		tracked_copy_name(tn->name, sizeof(tn->name), th->comm);
	}
}

void sampler_threads_read(struct sampler *s, const struct sample_opts *o, struct tv_task *p,
			  const struct lead_status *lead)
{
	bool shown = sampler_threads_shown(o, p->tgid);
	bool ts = sampler_ts_usable(s);
	/* without taskstats, the process's switches and CPU wait are its threads' sums */
	bool sums = !ts && (o->needs & (NEED_CTXT | NEED_DELAY));
	bool zombie = p->state == 'Z' && p->nthreads > 1;
	bool names = o->thread_names && !shown && p->nthreads > 1;
	/* stack columns: every thread's, for the process's sums */
	bool stacks = (o->needs & NEED_STACK) != 0;
	struct tracked_proc *tp = tracked_find(&s->tr, p->tgid);
	if (stacks && p->kthread)
		p->stack_why = TV_STACK_KERNEL;
	stacks &= !p->kthread;
	if (!tp || (!shown && !sums && !zombie && !names && !stacks))
		return;
	tp->live_tid = 0;
	tp->oncpu = 0;
	bool listed = false;
	/* the BPF pass lists and reads every thread at once, where it runs */
	const struct task_rec_key *recs = NULL;
	size_t nrecs = 0;
	bool bpf = (shown || sums) && !zombie && sampler_bpf_group(s, p->tgid, &recs, &nrecs);

	if (bpf) {
		if (sampler_bpf_list(tp, recs, nrecs))
			churn_note(tp, ts, lead->when);
		tp->threads_listed = false; /* task/ was not listed: list it when /proc is read again */
		listed = true;
	} else if (p->nthreads == 1 && !zombie) {
		/* a single thread is the leader: nothing to list */
		if (tp->nthreads != 1 || tp->threads[0].tid != p->tgid) {
			if (tp->nthreads > 0)
				churn_note(tp, ts, lead->when); /* the others ended */
			while (tp->nthreads)
				tracked_thread_drop(&s->tr, tp, tp->nthreads - 1);
			struct tracked_thread *th = tracked_thread_add(tp, p->tgid);
			if (th)
				th->start = tp->start;
		}
		if (tp->nthreads)
			tp->threads[0].seen = true;
		tp->threads_listed = false;
	} else if ((ts && !(stacks && !shown && !sums && !zombie && !names && stacks_quiet(tp))) ||
		   !tp->threads_listed || tp->listed_count != p->nthreads) {
		/* with taskstats there are no kept files whose failure tells an exit:
		 * list, unless only the stacks need the threads and none ran (a
		 * thread that starts or ends takes CPU time) */
		int born = threads_list(s, tp);
		if (born < 0)
			return;
		if (born)
			churn_note(tp, ts, lead->when);
		tp->listed_count = p->nthreads;
		listed = true;
	} else {
		for (size_t i = 0; i < tp->nthreads; i++)
			tp->threads[i].seen = true;
	}
	if (zombie)
		zombie_leader(s, tp, p);
	if (!shown && !sums && !stacks) {
		if (names)
			thread_names(s, tp, p, false);
		return;
	}

	/* exact: a thread found only on a second listing grows it */
	size_t cap = tp->nthreads ? tp->nthreads : 1, n = 0;
	p->threads = malloc(cap * sizeof(*p->threads));
	if (!p->threads)
		return;
	for (int round = 0; round < 2; round++) {
		bool failed = false;
		for (size_t i = 0; i < tp->nthreads;) {
			struct tracked_thread *th = &tp->threads[i];
			if (th->done) {
				i++;
				continue;
			}
			if (!th->seen) {
				/* listed before, not now: it exited */
				exited_add(p, th);
				tracked_thread_drop(&s->tr, tp, i);
				tp->exit_seen = true;
				churn_note(tp, ts, lead->when);
				continue;
			}
			if (n == cap) {
				struct tv_task *v = realloc(p->threads, 2 * cap * sizeof(*v));
				if (!v)
					break;
				p->threads = v;
				cap *= 2;
			}
			struct tv_task *t = &p->threads[n];
			thread_init(t, p, th);
			if (bpf ? sampler_bpf_thread(s, tp, th, recs, nrecs, t) < 0
				: !ts && thread_read_proc(s, tp, th, lead, t, status_wanted(o, p->tgid, th->tid)) < 0) {
				exited_add(p, th);
				tracked_thread_drop(&s->tr, tp, i);
				tp->exit_seen = true;
				churn_note(tp, ts, lead->when);
				failed = true;
				continue;
			}
			th->done = true;
			n++;
			i++;
		}
		/* a thread gone: others may be new; list again and read those */
		int born = !failed || listed ? -1 : threads_list(s, tp);
		if (born < 0)
			break;
		if (born)
			churn_note(tp, ts, lead->when);
		listed = true;
		tp->listed_count = p->nthreads;
		for (size_t i = 0; i < tp->nthreads; i++)
			tp->threads[i].seen |= tp->threads[i].done; /* read alive: gone, if at all, next time */
	}
	for (size_t i = 0; i < tp->nthreads; i++)
		tp->threads[i].done = false;
	qsort(p->threads, n, sizeof(*p->threads), cmp_task_tid);
	p->nthreads_read = n;
	s->threads_now += n;
	p->threads_complete = true;
	p->threads_are_rows = shown;
	p->threads_bpf = bpf;
	if (!ts) {
		sums_from_threads(p);
		if (ended_unseen(tp, p)) {
			tp->exit_seen = true;
			churn_note(tp, ts, lead->when);
		}
		churn_mark(tp, p, lead->when);
	}
	if (stacks)
		stacks_read(s, tp, p);
	if (names)
		thread_names(s, tp, p, true);
}
