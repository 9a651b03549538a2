/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rates between two snapshots: each counter over the time between its own
 * two reads, identity by (tid, start time), newborn tasks, counters that go
 * backwards, process sums over threads and exited threads with lower-bound
 * marks, the plausibility bound on delay steps, plugin counters.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "model/delta.h"
#include "model/exited.h"
#include "model/snapshot.h"
#include "model/task.h"

#define EPS 1e-9
#define MS 1000000LL  /* ns */
#define SEC 1000000000LL

/* prev began at t=100 s, cur at t=102 s; boot time runs 1000 s ahead of the
 * monotonic clock (boot ticks 110000 and 110200 at USER_HZ 100) */
#define PREV_MONO 100.0
#define CUR_MONO 102.0
#define OFFSET 1000.0
#define HZ 100.0
#define PREV_BOOT ((PREV_MONO + OFFSET) * HZ)
#define CUR_BOOT ((CUR_MONO + OFFSET) * HZ)
/* a start time long before both samples */
#define OLD_START 50000

static void snap_init(struct snapshot *s, double mono, size_t nprocs)
{
	memset(s, 0, sizeof(*s));
	s->mono = mono;
	s->wall = 1700000000.0 + mono;
	s->boot_offset = OFFSET;
	s->hz = HZ;
	s->cpu_clock = true;
	s->boot_ticks = (mono + OFFSET) * HZ;
	s->nprocs = nprocs;
	s->procs = calloc(nprocs ? nprocs : 1, sizeof(*s->procs));
	ck_assert_ptr_nonnull(s->procs);
	for (size_t i = 0; i < nprocs; i++)
		task_init(&s->procs[i]);
}

/* A task read at `when` (every counter); cpu in ns. */
static void set_task(struct tv_task *t, double when, int32_t tid, int32_t tgid, uint64_t start, int64_t cpu,
		     int64_t vol, int64_t invol)
{
	t->tid = tid;
	t->tgid = tgid;
	t->is_thread = tid != tgid || t->is_thread;
	t->start_ticks = start;
	t->cpu_ns = cpu;
	t->cpu_fine = t->is_thread;
	t->ctxt_vol = vol;
	t->ctxt_invol = invol;
	t->state = 'S';
	t->nthreads = 1;
	t->t_cpu = t->t_ctxt = t->t_delay = when;
}

static void set_delay(struct tv_task *t, int c, int64_t count, int64_t total)
{
	t->delay[c] = (struct tv_delay){count, total};
}

/* Gives a process n thread slots (tids filled in by the caller, sorted). */
static struct tv_task *add_threads(struct tv_task *p, size_t n)
{
	p->threads = calloc(n, sizeof(*p->threads));
	ck_assert_ptr_nonnull(p->threads);
	p->nthreads_read = n;
	p->nthreads = (int64_t)n;
	p->threads_complete = true;
	p->threads_are_rows = true;
	for (size_t i = 0; i < n; i++) {
		task_init(&p->threads[i]);
		p->threads[i].is_thread = true;
	}
	return p->threads;
}

static struct tv_task *add_exited(struct tv_task *p, size_t n)
{
	p->exited = calloc(n, sizeof(*p->exited));
	ck_assert_ptr_nonnull(p->exited);
	p->nexited = n;
	for (size_t i = 0; i < n; i++) {
		task_init(&p->exited[i]);
		p->exited[i].is_thread = true;
	}
	return p->exited;
}

struct pair {
	struct colset cs;
	struct snapshot prev, cur;
};

static void pair_init(struct pair *p, size_t nprev, size_t ncur)
{
	ck_assert_int_eq(colset_init(&p->cs), 0);
	snap_init(&p->prev, PREV_MONO, nprev);
	snap_init(&p->cur, CUR_MONO, ncur);
}

static void pair_free(struct pair *p)
{
	snapshot_free(&p->prev);
	snapshot_free(&p->cur);
	colset_free(&p->cs);
}

/* ---- the primitives ---- */

START_TEST(rate_primitive)
{
	ck_assert_double_eq_tol(delta_rate(100, 300, 2.0), 100.0, EPS);
	ck_assert_double_eq_tol(delta_rate(5, 5, 2.0), 0.0, EPS);
	ck_assert(isnan(delta_rate(300, 100, 2.0)));       /* backwards */
	ck_assert(isnan(delta_rate(TV_UNKNOWN, 100, 2.0)));
	ck_assert(isnan(delta_rate(100, TV_UNKNOWN, 2.0)));
	/* garbage a plugin or a recording may hold: never a negative or overflowing rate */
	ck_assert(isnan(delta_rate(INT64_MAX, -5, 1.0)));
	ck_assert(isnan(delta_rate(-((int64_t)1 << 62), (int64_t)1 << 62, 1.0)));
	ck_assert(isnan(delta_rate(-5, 10, 1.0)));
	ck_assert(isnan(delta_delay_avg_ms(-((int64_t)1 << 62), 1, -((int64_t)1 << 62), (int64_t)1 << 62)));
	ck_assert(isnan(delta_rate(100, 200, 0.0)));        /* no interval */
	ck_assert(isnan(delta_rate(100, 200, -1.0)));
	ck_assert(isnan(delta_rate(100, 200, NAN)));
}
END_TEST

START_TEST(delay_primitives)
{
	/* 0.5 s of delay in 2 s = 25 % */
	ck_assert_double_eq_tol(delta_delay_pct(1000000000, 1500000000, 2.0), 25.0, EPS);
	/* 0.5 s over 10 events = 50 ms each */
	ck_assert_double_eq_tol(delta_delay_avg_ms(10, 20, 1000000000, 1500000000), 50.0, EPS);
	/* no event in the interval: no average (not 0, not inf) */
	ck_assert(isnan(delta_delay_avg_ms(10, 10, 1000000000, 1000000000)));
	/* total wrapped to 0 while the count kept going */
	ck_assert(isnan(delta_delay_avg_ms(10, 20, 1000000000, 0)));
	ck_assert(isnan(delta_delay_pct(1000000000, 0, 2.0)));
	/* count went backwards: another task */
	ck_assert(isnan(delta_delay_avg_ms(20, 10, 0, 100)));
	ck_assert(isnan(delta_delay_avg_ms(TV_UNKNOWN, 10, 0, 100)));
	ck_assert(isnan(delta_delay_avg_ms(1, 10, TV_UNKNOWN, 100)));
}
END_TEST

START_TEST(delay_bound_primitive)
{
	/* a thread 10 s old: at most 10 s plus two ticks and a millisecond */
	ck_assert_double_eq_tol(delta_delay_bound(10.0, 1, 100.0), 10.021, EPS);
	/* three threads of a process 10 s old */
	ck_assert_double_eq_tol(delta_delay_bound(10.0, 3, 100.0), 30.063, EPS);
	ck_assert(isinf(delta_delay_bound(NAN, 1, 100.0)));
	ck_assert(isinf(delta_delay_bound(10.0, 0, 100.0)));
}
END_TEST

/* ---- whole snapshots ---- */

START_TEST(first_sample_has_no_rates)
{
	struct pair p;
	pair_init(&p, 0, 1);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 12 * SEC, 10, 1);
	delta_apply(NULL, &p.cur, &p.cs);
	ck_assert(isnan(p.cur.procs[0].cpu_pct));
	ck_assert(isnan(p.cur.procs[0].ctxt_vol_rate));
	pair_free(&p);
}
END_TEST

START_TEST(rates_over_two_seconds)
{
	struct pair p;
	pair_init(&p, 2, 2);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 10 * SEC, 50, 10);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 12 * SEC, 250, 14); /* 2 s of CPU in 2 s */
	set_task(&p.prev.procs[1], PREV_MONO, 20, 20, OLD_START, 70 * MS, 0, 0);
	set_task(&p.cur.procs[1], CUR_MONO, 20, 20, OLD_START, 170 * MS, 0, 0);   /* 0.1 s in 2 s: 5 % */
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(p.cur.procs[0].cpu_pct, 100.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[0].ctxt_vol_rate, 100.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[0].ctxt_invol_rate, 2.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[1].cpu_pct, 5.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[1].ctxt_vol_rate, 0.0, EPS);
	pair_free(&p);
}
END_TEST

/*
 * The refresh began at 102 s but this task was read 0.5 s later (a busy
 * machine, many processes before it), and 0.1 s late last time: its
 * interval is 2.4 s, not 2 s.
 */
START_TEST(each_counter_over_its_own_interval)
{
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *o = &p.prev.procs[0], *c = &p.cur.procs[0];
	set_task(o, PREV_MONO + 0.1, 10, 10, OLD_START, 0, 1000, 0);
	set_task(c, CUR_MONO + 0.5, 10, 10, OLD_START, 0, 3400, 0);
	/* the switch counts came from a later reply than the CPU time */
	o->t_ctxt = PREV_MONO + 0.2;
	c->t_ctxt = CUR_MONO + 0.6;
	o->cpu_ns = 1 * SEC;
	c->cpu_ns = 1 * SEC + 1200 * MS; /* 1.2 s of CPU over 2.4 s */
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(c->cpu_pct, 50.0, 1e-6);
	ck_assert_double_eq_tol(c->ctxt_vol_rate, 1000.0, 1e-6); /* 2400 over 2.4 s */
	pair_free(&p);
}
END_TEST

START_TEST(multi_cpu_process_above_100)
{
	struct pair p;
	pair_init(&p, 1, 1);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 7 * SEC, 0, 0); /* 3.5 CPUs */
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(p.cur.procs[0].cpu_pct, 350.0, EPS);
	pair_free(&p);
}
END_TEST

START_TEST(pid_reuse_is_unknown)
{
	/* same PID, other start time, and not born after the previous sample as far
	 * as we can tell: its past is unknown */
	struct pair p;
	pair_init(&p, 1, 1);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 10 * SEC, 50, 0);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START + 1, 12 * SEC, 60, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(p.cur.procs[0].cpu_pct));
	ck_assert(isnan(p.cur.procs[0].ctxt_vol_rate));
	pair_free(&p);
}
END_TEST

START_TEST(pid_reuse_newborn_counts_from_zero)
{
	/* same PID, started after the previous sample: a new task whose whole
	 * counters belong to the interval */
	struct pair p;
	pair_init(&p, 1, 1);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 400 * MS, 17, 0);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, (uint64_t)PREV_BOOT + 50, 500 * MS, 30, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(p.cur.procs[0].cpu_pct, 25.0, EPS);     /* 0.5 s / 2 s, not 0.1 s */
	ck_assert_double_eq_tol(p.cur.procs[0].ctxt_vol_rate, 15.0, EPS); /* 30 / 2, not 13 / 2 */
	pair_free(&p);
}
END_TEST

START_TEST(counter_reset_is_unknown)
{
	struct pair p;
	pair_init(&p, 1, 1);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 10 * SEC, 50, 10);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 12 * SEC, 40, 12);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(p.cur.procs[0].ctxt_vol_rate));
	/* the counter that did go forward still gives its rate */
	ck_assert_double_eq_tol(p.cur.procs[0].ctxt_invol_rate, 1.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[0].cpu_pct, 100.0, EPS);
	pair_free(&p);
}
END_TEST

START_TEST(ticks_and_nanoseconds_do_not_mix)
{
	/* a CPU time from clock ticks last time and from nanoseconds now is no rate */
	struct pair p;
	pair_init(&p, 1, 1);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 10 * SEC, 0, 0);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 11 * SEC, 0, 0);
	p.cur.procs[0].cpu_fine = true;
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(p.cur.procs[0].cpu_pct));
	pair_free(&p);
}
END_TEST

START_TEST(newborn_process)
{
	struct pair p;
	pair_init(&p, 1, 2);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	/* started 1.5 s after the previous sample began */
	set_task(&p.cur.procs[1], CUR_MONO, 30, 30, (uint64_t)PREV_BOOT + 150, 400 * MS, 30, 6);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(p.cur.procs[1].cpu_pct, 20.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[1].ctxt_vol_rate, 15.0, EPS);
	pair_free(&p);
}
END_TEST

static void set_io(struct tv_task *t, double when, int64_t rd, int64_t wr)
{
	struct tv_mem *m = task_mem_mut(t);
	ck_assert_ptr_nonnull(m);
	m->io_read = rd;
	m->io_write = wr;
	m->t_io = when;
}

/* A process's I/O rates: its own counters' change over the time between
 * their own two reads; from zero for one born in the interval; unknown
 * where the file was not read. */
START_TEST(io_rates_over_their_own_reads)
{
	struct pair p;
	pair_init(&p, 2, 3);
	for (int i = 0; i < 2; i++) {
		set_task(&p.prev.procs[i], PREV_MONO, 10 * (i + 1), 10 * (i + 1), OLD_START, 0, 0, 0);
		set_task(&p.cur.procs[i], CUR_MONO, 10 * (i + 1), 10 * (i + 1), OLD_START, 0, 0, 0);
	}
	set_io(&p.prev.procs[0], PREV_MONO + 0.1, 1000, 5000);
	set_io(&p.cur.procs[0], CUR_MONO + 0.5, 1000 + 4800, 5000 + 2400); /* 2.4 s apart */
	set_io(&p.prev.procs[1], PREV_MONO, 0, 0); /* and not read now */
	set_task(&p.cur.procs[2], CUR_MONO, 30, 30, (uint64_t)PREV_BOOT + 150, 0, 0, 0);
	set_io(&p.cur.procs[2], CUR_MONO, 8192, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(task_mem(&p.cur.procs[0])->io_read_rate, 2000.0, 1e-3);
	ck_assert_double_eq_tol(task_mem(&p.cur.procs[0])->io_write_rate, 1000.0, 1e-3);
	ck_assert(isnan(task_mem(&p.cur.procs[1])->io_read_rate));
	ck_assert(isnan(task_mem(&p.cur.procs[1])->io_write_rate));
	ck_assert_double_eq_tol(task_mem(&p.cur.procs[2])->io_read_rate, 4096.0, 1e-3);
	ck_assert_double_eq_tol(task_mem(&p.cur.procs[2])->io_write_rate, 0.0, 1e-3);
	pair_free(&p);
}
END_TEST

/* The rates of a process's exited threads are taken over a stand-in that
 * borrows the process's memory block: its I/O rates stay the process's, and
 * nothing is allocated for the stand-in (a sanitizer build reports a leak) */
START_TEST(exited_threads_leave_io_rates_alone)
{
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_io(po, PREV_MONO, 0, 0);
	set_io(pc, CUR_MONO, 4096, 2048);
	set_task(&add_threads(po, 1)[0], PREV_MONO, 12, 10, OLD_START, 0, 10, 0);
	set_task(&add_exited(pc, 1)[0], CUR_MONO - 1.0, 12, 10, OLD_START, 0, 20, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	const struct tv_mem *m = pc->mem;
	exited_rates(&p.prev, &p.cur, &p.cs);
	ck_assert_ptr_eq(pc->mem, m);
	ck_assert_double_eq_tol(task_mem(pc)->io_read_rate, 2048.0, 1e-3);
	ck_assert_double_eq_tol(task_mem(pc)->io_write_rate, 1024.0, 1e-3);
	ck_assert_double_eq_tol(pc->exited[0].ctxt_vol_rate, 10.0, 1e-6);
	pair_free(&p);
}
END_TEST

START_TEST(unseen_old_process_is_unknown)
{
	/* absent from the previous sample but older than it (e.g. it was not
	 * selected then): no rate */
	struct pair p;
	pair_init(&p, 0, 1);
	set_task(&p.cur.procs[0], CUR_MONO, 30, 30, OLD_START, 4 * SEC, 30, 6);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(p.cur.procs[0].cpu_pct));
	ck_assert(isnan(p.cur.procs[0].ctxt_vol_rate));
	pair_free(&p);
}
END_TEST

/* ---- processes as sums of their threads ---- */

START_TEST(process_is_the_sum_of_its_thread_rows)
{
	/*
	 * Two threads read at different moments: each rate over its own
	 * interval; the process row is their sum exactly, not a rate of its
	 * own group counters read at yet another moment.
	 */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	/* its own CPU time grew 1.5 s in 2 s: the threads' sum agrees */
	set_task(po, PREV_MONO, 10, 10, OLD_START, 3 * SEC, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 4 * SEC + 500 * MS, 9999, 0); /* a group counter: not used */
	pc->threads_are_rows = true;
	struct tv_task *ot = add_threads(po, 2), *ct = add_threads(pc, 2);
	set_task(&ot[0], PREV_MONO + 0.01, 10, 10, OLD_START, 1 * SEC, 100, 5);
	ot[0].is_thread = true;
	set_task(&ot[1], PREV_MONO + 0.02, 11, 10, OLD_START, 2 * SEC, 1000, 50);
	set_task(&ct[0], CUR_MONO + 0.01, 10, 10, OLD_START, 1 * SEC + 500 * MS, 2100, 9);
	ct[0].is_thread = true;
	set_task(&ct[1], CUR_MONO + 0.52, 11, 10, OLD_START, 2 * SEC + 1250 * MS, 4000, 60);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(ct[0].ctxt_vol_rate, 1000.0, 1e-6);   /* 2000 / 2.0 s */
	ck_assert_double_eq_tol(ct[1].ctxt_vol_rate, 1200.0, 1e-6);   /* 3000 / 2.5 s */
	ck_assert_double_eq_tol(ct[1].cpu_pct, 50.0, 1e-6);           /* 1.25 s / 2.5 s */
	ck_assert_double_eq_tol(pc->ctxt_vol_rate, 2200.0, 1e-6);
	ck_assert_double_eq_tol(pc->ctxt_invol_rate, 2.0 + 4.0, 1e-6);
	ck_assert_double_eq_tol(pc->cpu_pct, 25.0 + 50.0, 1e-6);
	ck_assert_uint_eq(pc->partial, 0);
	pair_free(&p);
}
END_TEST

START_TEST(own_cpu_beats_a_sum_short_of_it)
{
	/*
	 * Threads that started and ended between the two samples leave no row,
	 * but their CPU time is in the process's own (its CPU clock): where the
	 * live threads' sum falls short of it, the process shows its own rate,
	 * exact, not the sum.
	 */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 3 * SEC, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 4 * SEC, 0, 0); /* 50 % */
	pc->threads_are_rows = true;
	struct tv_task *ot = add_threads(po, 1), *ct = add_threads(pc, 1);
	set_task(&ot[0], PREV_MONO, 10, 10, OLD_START, 1 * SEC, 0, 0);
	set_task(&ct[0], CUR_MONO, 10, 10, OLD_START, 1 * SEC + 200 * MS, 0, 0); /* 10 % */
	/* the sampler saw the sign of it (the clock's time beyond the live
	 * threads grew, or exit records came): the churn mark */
	pc->partial = TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_DELAY + TV_DELAY_CPU);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(ct[0].cpu_pct, 10.0, 1e-6);
	ck_assert_double_eq_tol(pc->cpu_pct, 50.0, 1e-6);
	ck_assert(!(pc->partial & TV_PART_BIT(TV_PART_CPU)));
	/* no sign of an ended thread: clock and sum count the same threads, read
	 * at other moments (a busy machine held taskview off between them): the
	 * rows add up */
	pc->partial = 0;
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(pc->cpu_pct, 10.0, 1e-6);
	p.cur.procs[0].nexited_unlisted = 1; /* a thread that ended, counted */
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(pc->cpu_pct, 50.0, 1e-6);
	pc->nexited_unlisted = 0;
	/* exit records watched, some lost in the interval: a thread's may be among them */
	p.cur.exits_watched = true;
	p.cur.exits_lost = 1;
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(pc->cpu_pct, 50.0, 1e-6);
	p.cur.exits_lost = 0;
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(pc->cpu_pct, 10.0, 1e-6);
	p.cur.exits_watched = false;
	/* replayed from a file made before the clock was read: the sum, as it showed */
	p.cur.cpu_clock = false;
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(pc->cpu_pct, 10.0, 1e-6);
	pair_free(&p);
}
END_TEST

START_TEST(cpu_above_the_machine_is_rejected)
{
	/*
	 * On 2 CPUs a process cannot run more than 4 s in 2 s, a thread not
	 * more than 2 s: a larger step was timed wrong or is another task's.
	 * It is unknown, and the sample says why. A hair above the bound (the
	 * timing of the reads) is the bound.
	 */
	struct pair p;
	pair_init(&p, 2, 2);
	p.cur.ncpus = 2;
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 4 * SEC + 500 * MS, 0, 0); /* 225 % */
	set_task(&p.prev.procs[1], PREV_MONO, 20, 20, OLD_START, 0, 0, 0);
	set_task(&p.cur.procs[1], CUR_MONO, 20, 20, OLD_START, 4 * SEC + 10 * MS, 0, 0); /* 200.5 % */
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(p.cur.procs[0].cpu_pct));
	ck_assert_uint_eq(p.cur.nrejects, 1);
	ck_assert(p.cur.rejects[0].cpu);
	ck_assert_int_eq(p.cur.rejects[0].tid, 10);
	ck_assert_double_eq_tol(p.cur.rejects[0].bound_s, 4.0, 1e-9);
	ck_assert_double_eq_tol(p.cur.procs[1].cpu_pct, 200.0, 1e-9);
	pair_free(&p);
}
END_TEST

START_TEST(exited_thread_with_final_counters_is_counted)
{
	/* thread 12 exited in the interval; the exit record gave its final counters */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	struct tv_task *ot = add_threads(po, 2), *ct = add_threads(pc, 1);
	set_task(&ot[0], PREV_MONO, 10, 10, OLD_START, 0, 100, 0);
	ot[0].is_thread = true;
	set_task(&ot[1], PREV_MONO, 12, 10, OLD_START, 0, 1000, 0);
	set_task(&ct[0], CUR_MONO, 10, 10, OLD_START, 0, 300, 0);
	ct[0].is_thread = true;
	struct tv_task *ex = add_exited(pc, 2);
	set_task(&ex[0], CUR_MONO - 1.0, 12, 10, OLD_START, 0, 1600, 0);   /* 600 more before it ended */
	/* 13 came and went between the two samples: not in the earlier list */
	set_task(&ex[1], CUR_MONO - 0.5, 13, 10, (uint64_t)PREV_BOOT + 20, 0, 50, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	/* (200 + 600 + 50) over the process's 2 s */
	ck_assert_double_eq_tol(pc->ctxt_vol_rate, 425.0, 1e-6);
	ck_assert_uint_eq(pc->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE), 0);
	pair_free(&p);
}
END_TEST

/* A pair where prev lists a thread that had ended in its own interval. */
static void pair_with_ended_before(struct pair *p)
{
	pair_init(p, 1, 1);
	struct tv_task *po = &p->prev.procs[0], *pc = &p->cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	struct tv_task *ot = add_threads(po, 1), *ct = add_threads(pc, 1);
	set_task(&ot[0], PREV_MONO, 10, 10, OLD_START, 100, 100, 5);
	set_task(&ct[0], CUR_MONO, 10, 10, OLD_START, 400, 300, 9);
	ot[0].is_thread = ct[0].is_thread = true;
	set_task(&add_exited(po, 1)[0], PREV_MONO - 0.5, 11, 10, OLD_START, 70, 40, 2);
}

/* A screen frees a sample's exited lists once its rates are derived
 * (snapshot_drop_exited): the next interval's rates never read them. */
START_TEST(dropped_exited_lists_leave_the_next_rates_alone)
{
	struct pair kept, dropped;
	pair_with_ended_before(&kept);
	pair_with_ended_before(&dropped);
	snapshot_drop_exited(&dropped.prev);
	ck_assert_ptr_null(dropped.prev.procs[0].exited);
	ck_assert_uint_eq(dropped.prev.procs[0].nexited, 1);
	delta_apply(&kept.prev, &kept.cur, &kept.cs);
	delta_apply(&dropped.prev, &dropped.cur, &dropped.cs);
	const struct tv_task *a = &kept.cur.procs[0], *b = &dropped.cur.procs[0];
	ck_assert_double_eq_tol(a->ctxt_vol_rate, 100.0, 1e-9);
	ck_assert_double_eq(a->ctxt_vol_rate, b->ctxt_vol_rate);
	ck_assert_double_eq(a->ctxt_invol_rate, b->ctxt_invol_rate);
	ck_assert_double_eq(a->threads[0].cpu_pct, b->threads[0].cpu_pct);
	ck_assert_uint_eq(a->partial, b->partial);
	pair_free(&kept);
	pair_free(&dropped);
}
END_TEST

/* A control group of path p as a snapshot holds one (freed with it). */
static struct tv_cgroup *add_group(struct snapshot *s, const char *path)
{
	struct tv_cgroup *g = calloc(1, sizeof(*g));
	ck_assert_ptr_nonnull(g);
	g->path = strdup(path);
	g->unit = strdup(path);
	cgroup_cpu_unknown(g);
	g->index = s->ncgroups;
	s->cgroups = realloc(s->cgroups, (s->ncgroups + 1) * sizeof(*s->cgroups));
	ck_assert_ptr_nonnull(s->cgroups);
	s->cgroups[s->ncgroups++] = g;
	return g;
}

/* Processes that ended in the interval count in their group's sums with what
 * they did over it: from their reading at the previous refresh, or from zero
 * when they started since; one whose start is not the one read is no reading. */
START_TEST(ended_processes_part_of_the_interval)
{
	struct pair p;
	pair_init(&p, 2, 0);
	add_group(&p.prev, "/a");
	struct tv_cgroup *ca = add_group(&p.cur, "/a");
	/* 20 read at the previous refresh, in /a; 30 read too, started at another tick */
	set_task(&p.prev.procs[0], PREV_MONO, 20, 20, OLD_START, 0, 100, 10);
	p.prev.procs[0].cgroup = p.prev.cgroups[0];
	set_task(&p.prev.procs[1], PREV_MONO, 30, 30, OLD_START, 0, 100, 10);
	p.prev.procs[1].cgroup = p.prev.cgroups[0];
	p.cur.gone = calloc(3, sizeof(*p.cur.gone));
	ck_assert_ptr_nonnull(p.cur.gone);
	p.cur.ngone = 3;
	for (int i = 0; i < 3; i++)
		task_init(&p.cur.gone[i]);
	/* 20 ended: 300 more switches; 40 started since (its group named by its record): 50 */
	set_task(&p.cur.gone[0], CUR_MONO - 1.0, 20, 20, OLD_START, 0, 400, 10);
	set_task(&p.cur.gone[1], CUR_MONO - 0.5, 40, 40, (uint64_t)PREV_BOOT + 20, 0, 50, 4);
	p.cur.gone[1].cgroup = ca;
	/* 30: another task under the PID (not the start read): no reading of it, nor its group */
	set_task(&p.cur.gone[2], CUR_MONO - 0.2, 30, 30, OLD_START + 7, 0, 5, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_ptr_nonnull(p.cur.ended);
	/* over the 2 s interval, up to this refresh */
	ck_assert_ptr_eq(p.cur.gone[0].cgroup, ca);
	ck_assert_double_eq_tol(p.cur.ended[0].ctxt_vol_rate, 150.0, 1e-9);
	ck_assert_double_eq_tol(p.cur.ended[0].ctxt_invol_rate, 0.0, 1e-9);
	ck_assert_double_eq_tol(p.cur.ended[1].ctxt_vol_rate, 25.0, 1e-9);
	ck_assert_double_eq_tol(p.cur.ended[1].ctxt_invol_rate, 2.0, 1e-9);
	ck_assert_ptr_null(p.cur.gone[2].cgroup);
	ck_assert(isnan(p.cur.ended[2].ctxt_vol_rate));
	pair_free(&p);
}
END_TEST

/* A process that ended under a PID read at the previous refresh with another
 * start: counted from zero where its start is the kernel's (the exit program),
 * unknown where it is an estimate from its age, which may be that very process. */
START_TEST(ended_under_a_reused_pid)
{
	const char *sources[] = {"bpf", "netlink", NULL};
	for (int k = 0; k < 3; k++) {
		struct pair p;
		pair_init(&p, 1, 0);
		set_task(&p.prev.procs[0], PREV_MONO, 30, 30, OLD_START, 0, 100, 10);
		p.cur.exits_source = sources[k];
		p.cur.gone = calloc(1, sizeof(*p.cur.gone));
		ck_assert_ptr_nonnull(p.cur.gone);
		p.cur.ngone = 1;
		task_init(&p.cur.gone[0]);
		set_task(&p.cur.gone[0], CUR_MONO - 0.2, 30, 30, (uint64_t)PREV_BOOT + 10, 0, 5, 0);
		delta_apply(&p.prev, &p.cur, &p.cs);
		ck_assert_ptr_nonnull(p.cur.ended);
		if (k == 0)
			ck_assert_double_eq_tol(p.cur.ended[0].ctxt_vol_rate, 2.5, 1e-9);
		else
			ck_assert(isnan(p.cur.ended[0].ctxt_vol_rate));
		pair_free(&p);
	}
}
END_TEST

START_TEST(exited_thread_unknown_makes_a_lower_bound)
{
	/* without exit records the thread that left took its last switches with it */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 3 * SEC, 0, 0); /* group CPU time: dead threads in */
	pc->live_sums = true;
	struct tv_task *ot = add_threads(po, 2), *ct = add_threads(pc, 1);
	set_task(&ot[0], PREV_MONO, 10, 10, OLD_START, 1 * SEC, 100, 0);
	ot[0].is_thread = true;
	set_task(&ot[1], PREV_MONO, 12, 10, OLD_START, 1 * SEC, 1000, 0);
	set_task(&ct[0], CUR_MONO, 10, 10, OLD_START, 2 * SEC, 300, 0);
	ct[0].is_thread = true;
	struct tv_task *ex = add_exited(pc, 1);
	ex[0].tid = 12;
	ex[0].tgid = 10;
	ex[0].start_ticks = OLD_START;
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(pc->ctxt_vol_rate, 100.0, 1e-6);
	ck_assert(pc->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE));
	ck_assert(pc->partial & TV_PART_BIT(TV_PART_CTXT_INVOL_RATE));
	/* the process's own CPU time (exited threads included) stands, exact */
	ck_assert(!(pc->partial & TV_PART_BIT(TV_PART_CPU)));
	ck_assert_double_eq_tol(pc->cpu_pct, 150.0, 1e-6);
	/* the rendered value says so */
	struct tv_value v = column_value(colset_find(&p.cs, "ctxt_vol_rate"), pc);
	ck_assert(v.partial);
	pair_free(&p);
}
END_TEST

START_TEST(live_sum_never_gives_its_own_rate)
{
	/*
	 * A process total summed over live threads drops when one exits; when a
	 * thread's own change is unknown there is no sum, and the difference of
	 * the live totals must not stand in for it.
	 */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 0, 1100, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 0, 1300, 0);
	po->live_sums = pc->live_sums = true;
	struct tv_task *ot = add_threads(po, 1), *ct = add_threads(pc, 1);
	set_task(&ot[0], PREV_MONO, 10, 10, OLD_START, 0, 1100, 0);
	ot[0].is_thread = true;
	set_task(&ct[0], CUR_MONO, 10, 10, OLD_START, 0, TV_UNKNOWN, 0);
	ct[0].is_thread = true;
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(pc->ctxt_vol_rate));
	pair_free(&p);
}
END_TEST

START_TEST(group_counters_when_threads_are_not_read)
{
	/* a folded process with taskstats group totals (dead threads included) */
	struct pair p;
	pair_init(&p, 1, 1);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 0, 1000, 100);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 0, 1400, 120);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(p.cur.procs[0].ctxt_vol_rate, 200.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[0].ctxt_invol_rate, 10.0, EPS);
	pair_free(&p);
}
END_TEST

START_TEST(threads_of_a_newly_listed_process_fall_back_to_the_group)
{
	/* unfolded since the previous sample: its threads have no past yet */
	struct pair p;
	pair_init(&p, 1, 1);
	set_task(&p.prev.procs[0], PREV_MONO, 10, 10, OLD_START, 1 * SEC, 1000, 100);
	set_task(&p.cur.procs[0], CUR_MONO, 10, 10, OLD_START, 2 * SEC, 1400, 120);
	struct tv_task *ct = add_threads(&p.cur.procs[0], 1);
	set_task(&ct[0], CUR_MONO, 11, 10, OLD_START, 0, 500, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(ct[0].ctxt_vol_rate));
	ck_assert_double_eq_tol(p.cur.procs[0].ctxt_vol_rate, 200.0, EPS);
	ck_assert_double_eq_tol(p.cur.procs[0].cpu_pct, 50.0, EPS);
	pair_free(&p);
}
END_TEST

START_TEST(newborn_threads_count_from_zero)
{
	/* 12 is new (not in the complete earlier list); 11 reused a TID with a new start */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	struct tv_task *ot = add_threads(po, 1), *ct = add_threads(pc, 2);
	set_task(&ot[0], PREV_MONO, 11, 10, OLD_START, 5 * SEC, 5000, 0);
	set_task(&ct[0], CUR_MONO, 11, 10, (uint64_t)PREV_BOOT + 100, 300 * MS, 40, 0);
	set_task(&ct[1], CUR_MONO, 12, 10, TV_START_UNKNOWN, 100 * MS, 20, 0);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(ct[0].cpu_pct, 15.0, 1e-6);
	ck_assert_double_eq_tol(ct[1].ctxt_vol_rate, 10.0, 1e-6);
	ck_assert_double_eq_tol(pc->ctxt_vol_rate, 30.0, 1e-6);
	pair_free(&p);
}
END_TEST

START_TEST(newborn_process_threads)
{
	/* a process born in the interval: its threads count from zero too */
	struct pair p;
	pair_init(&p, 0, 1);
	struct tv_task *pc = &p.cur.procs[0];
	set_task(pc, CUR_MONO, 10, 10, (uint64_t)PREV_BOOT + 10, 200 * MS, 0, 0);
	pc->live_sums = true;
	struct tv_task *ct = add_threads(pc, 2);
	set_task(&ct[0], CUR_MONO, 10, 10, TV_START_UNKNOWN, 100 * MS, 30, 2);
	ct[0].is_thread = true;
	set_task(&ct[1], CUR_MONO, 11, 10, TV_START_UNKNOWN, 100 * MS, 10, 2);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(pc->ctxt_vol_rate, 20.0, 1e-6);
	ck_assert_double_eq_tol(pc->ctxt_invol_rate, 2.0, 1e-6);
	pair_free(&p);
}
END_TEST

/* ---- delays ---- */

START_TEST(delay_pct_and_avg)
{
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *o = &p.prev.procs[0], *c = &p.cur.procs[0];
	set_task(o, PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(c, CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_delay(o, TV_DELAY_CPU, 10, 1 * SEC);
	set_delay(c, TV_DELAY_CPU, 20, 1 * SEC + 500 * MS);
	set_delay(o, TV_DELAY_IO, 3, 100 * MS);
	set_delay(c, TV_DELAY_IO, 3, 100 * MS);
	set_delay(o, TV_DELAY_SWAPIN, 3, 100 * MS);
	set_delay(c, TV_DELAY_SWAPIN, 4, 0);
	set_delay(o, TV_DELAY_IRQ, 1, 1 * MS);
	set_delay(c, TV_DELAY_IRQ, 2, 3 * MS);
	delta_apply(&p.prev, &p.cur, &p.cs);
	/* cpu: 0.5 s in 10 waits */
	ck_assert_double_eq_tol(c->delay_pct[TV_DELAY_CPU], 25.0, EPS);
	ck_assert_double_eq_tol(c->delay_avg_ms[TV_DELAY_CPU], 50.0, EPS);
	/* io: no event in the interval */
	ck_assert_double_eq_tol(c->delay_pct[TV_DELAY_IO], 0.0, EPS);
	ck_assert(isnan(c->delay_avg_ms[TV_DELAY_IO]));
	/* swapin: the total wrapped */
	ck_assert(isnan(c->delay_pct[TV_DELAY_SWAPIN]));
	/* irq: 2 ms in one event */
	ck_assert_double_eq_tol(c->delay_avg_ms[TV_DELAY_IRQ], 2.0, EPS);
	/* reclaim: unknown (delay accounting off for this task) stays unknown */
	ck_assert(isnan(c->delay_pct[TV_DELAY_RECLAIM]));
	pair_free(&p);
}
END_TEST

START_TEST(delay_jump_beyond_lifetime_is_rejected)
{
	/*
	 * A process 100 s old with two threads: its I/O wait total cannot grow
	 * by more than ~200 s in any interval. A step by the uptime (7 h) is a
	 * kernel counter jump: unknown, and the sample says so. Its CPU wait,
	 * within bounds, stays.
	 */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *o = &p.prev.procs[0], *c = &p.cur.procs[0];
	uint64_t start = (uint64_t)((CUR_MONO + OFFSET - 100.0) * HZ);
	set_task(o, PREV_MONO, 10, 10, start, 0, 0, 0);
	set_task(c, CUR_MONO, 10, 10, start, 0, 0, 0);
	o->nthreads = c->nthreads = 2;
	set_delay(o, TV_DELAY_IO, 5, 1 * SEC);
	set_delay(c, TV_DELAY_IO, 6, 1 * SEC + 25000LL * SEC);
	set_delay(o, TV_DELAY_CPU, 5, 1 * SEC);
	set_delay(c, TV_DELAY_CPU, 9, 2 * SEC);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert(isnan(c->delay_pct[TV_DELAY_IO]));
	ck_assert(isnan(c->delay_avg_ms[TV_DELAY_IO]));
	ck_assert_double_eq_tol(c->delay_pct[TV_DELAY_CPU], 50.0, EPS);
	ck_assert_uint_eq(p.cur.nrejects, 1);
	ck_assert_int_eq(p.cur.rejects[0].tid, 10);
	ck_assert_int_eq(p.cur.rejects[0].cls, TV_DELAY_IO);
	ck_assert_double_eq_tol(p.cur.rejects[0].step_s, 25000.0, 1e-6);
	ck_assert(p.cur.rejects[0].bound_s < 250.0);
	pair_free(&p);
}
END_TEST

START_TEST(long_wait_ending_in_the_interval_is_kept)
{
	/* a thread 60 s old whose 30 s wait (begun before) ends now: 1500 % is real */
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *o = &p.prev.procs[0], *c = &p.cur.procs[0];
	uint64_t start = (uint64_t)((CUR_MONO + OFFSET - 60.0) * HZ);
	set_task(o, PREV_MONO, 10, 10, start, 0, 0, 0);
	set_task(c, CUR_MONO, 10, 10, start, 0, 0, 0);
	set_delay(o, TV_DELAY_IO, 1, 0);
	set_delay(c, TV_DELAY_IO, 2, 30 * SEC);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(c->delay_pct[TV_DELAY_IO], 1500.0, EPS);
	ck_assert_uint_eq(p.cur.nrejects, 0);
	pair_free(&p);
}
END_TEST

START_TEST(delay_of_newborn_thread)
{
	struct pair p;
	pair_init(&p, 1, 1);
	struct tv_task *po = &p.prev.procs[0], *pc = &p.cur.procs[0];
	set_task(po, PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	set_task(pc, CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	struct tv_task *ot = add_threads(po, 1), *ct = add_threads(pc, 2);
	set_task(&ot[0], PREV_MONO, 10, 10, OLD_START, 0, 0, 0);
	ot[0].is_thread = true;
	set_delay(&ot[0], TV_DELAY_IO, 0, 0);
	set_task(&ct[0], CUR_MONO, 10, 10, OLD_START, 0, 0, 0);
	ct[0].is_thread = true;
	set_delay(&ct[0], TV_DELAY_IO, 0, 0);
	set_task(&ct[1], CUR_MONO, 11, 10, (uint64_t)PREV_BOOT + 100, 0, 0, 0);
	set_delay(&ct[1], TV_DELAY_IO, 4, 200 * MS); /* 0.2 s in 4 waits since it started */
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(ct[1].delay_pct[TV_DELAY_IO], 10.0, 1e-6);
	ck_assert_double_eq_tol(ct[1].delay_avg_ms[TV_DELAY_IO], 50.0, 1e-6);
	ck_assert_double_eq_tol(pc->delay_pct[TV_DELAY_IO], 10.0, 1e-6);
	ck_assert_double_eq_tol(pc->delay_avg_ms[TV_DELAY_IO], 50.0, 1e-6);
	pair_free(&p);
}
END_TEST

/* ---- plugin counters ---- */

static int add_plugin_column(struct colset *cs, const char *id, bool counter, int slot)
{
	struct column col = {
		.id = id, .header = "P", .desc = "plugin value", .type = counter ? COL_RATE : COL_INT,
		.width = 6, .align = COL_ALIGN_RIGHT, .needs = NEED_PLUGIN, .cost = "", .get = NULL,
		.arg = slot, .applies = COL_ROWS_BOTH, .counter = counter,
	};
	return colset_add(cs, &col);
}

static void set_pval(struct tv_task *t, size_t npvals, size_t slot, bool known, int64_t v)
{
	if (!t->pvals) {
		t->pvals = calloc(npvals, sizeof(*t->pvals));
		ck_assert_ptr_nonnull(t->pvals);
	}
	t->pvals[slot].known = known;
	t->pvals[slot].i = v;
}

START_TEST(plugin_counter_becomes_rate)
{
	struct pair p;
	pair_init(&p, 4, 5);
	ck_assert_int_ge(add_plugin_column(&p.cs, "io.read_rate", true, 0), 0);
	ck_assert_int_ge(add_plugin_column(&p.cs, "fd_count", false, 1), 0);
	p.prev.npvals = p.cur.npvals = 2;
	for (int i = 0; i < 4; i++) {
		set_task(&p.prev.procs[i], PREV_MONO, 10 + i, 10 + i, OLD_START, 0, 0, 0);
		set_task(&p.cur.procs[i], CUR_MONO, 10 + i, 10 + i, OLD_START, 0, 0, 0);
	}
	/* 10: 4096 bytes per second */
	set_pval(&p.prev.procs[0], 2, 0, true, 1000);
	set_pval(&p.cur.procs[0], 2, 0, true, 9192);
	set_pval(&p.prev.procs[0], 2, 1, true, 7);
	set_pval(&p.cur.procs[0], 2, 1, true, 9);
	/* 11: the counter went backwards */
	set_pval(&p.prev.procs[1], 2, 0, true, 5000);
	set_pval(&p.cur.procs[1], 2, 0, true, 100);
	/* 12: unknown last time */
	set_pval(&p.prev.procs[2], 2, 0, false, 0);
	set_pval(&p.cur.procs[2], 2, 0, true, 100);
	/* 13: no plugin values at all last time */
	set_pval(&p.cur.procs[3], 2, 0, true, 100);
	/* 14: born in the interval */
	set_task(&p.cur.procs[4], CUR_MONO, 14, 14, (uint64_t)PREV_BOOT + 100, 0, 0, 0);
	set_pval(&p.cur.procs[4], 2, 0, true, 600);
	delta_apply(&p.prev, &p.cur, &p.cs);
	ck_assert_double_eq_tol(p.cur.procs[0].pvals[0].f, 4096.0, EPS);
	/* a non-counter keeps its raw value */
	ck_assert(p.cur.procs[0].pvals[1].known);
	ck_assert_int_eq(p.cur.procs[0].pvals[1].i, 9);
	ck_assert(isnan(p.cur.procs[1].pvals[0].f));
	ck_assert(isnan(p.cur.procs[2].pvals[0].f));
	ck_assert(isnan(p.cur.procs[3].pvals[0].f));
	ck_assert_double_eq_tol(p.cur.procs[4].pvals[0].f, 300.0, EPS);
	pair_free(&p);
}
END_TEST

START_TEST(plugin_counter_recovers_after_an_unknown_rate)
{
	/*
	 * Three refreshes: the counter went backwards once (no rate), then moves
	 * on normally: the third interval has a rate again. The raw value stays
	 * known whatever became of the rate.
	 */
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_ge(add_plugin_column(&cs, "ctr", true, 0), 0);
	struct snapshot s[3];
	int64_t v[3] = {5000, 100, 300};
	for (int i = 0; i < 3; i++) {
		snap_init(&s[i], PREV_MONO + 2.0 * i, 1);
		s[i].npvals = 1;
		set_task(&s[i].procs[0], s[i].mono, 10, 10, OLD_START, 0, 0, 0);
		set_pval(&s[i].procs[0], 1, 0, true, v[i]);
		if (i)
			delta_apply(&s[i - 1], &s[i], &cs);
	}
	ck_assert(isnan(s[1].procs[0].pvals[0].f));
	ck_assert(s[1].procs[0].pvals[0].known);
	ck_assert_double_eq_tol(s[2].procs[0].pvals[0].f, 100.0, EPS);
	for (int i = 0; i < 3; i++)
		snapshot_free(&s[i]);
	colset_free(&cs);
}
END_TEST

static Suite *delta_suite(void)
{
	Suite *s = suite_create("delta");
	TCase *tc = tcase_create("primitives");
	tcase_add_test(tc, rate_primitive);
	tcase_add_test(tc, delay_primitives);
	tcase_add_test(tc, delay_bound_primitive);
	suite_add_tcase(s, tc);

	tc = tcase_create("identity");
	tcase_add_test(tc, first_sample_has_no_rates);
	tcase_add_test(tc, rates_over_two_seconds);
	tcase_add_test(tc, each_counter_over_its_own_interval);
	tcase_add_test(tc, multi_cpu_process_above_100);
	tcase_add_test(tc, pid_reuse_is_unknown);
	tcase_add_test(tc, pid_reuse_newborn_counts_from_zero);
	tcase_add_test(tc, counter_reset_is_unknown);
	tcase_add_test(tc, ticks_and_nanoseconds_do_not_mix);
	tcase_add_test(tc, newborn_process);
	tcase_add_test(tc, io_rates_over_their_own_reads);
	tcase_add_test(tc, exited_threads_leave_io_rates_alone);
	tcase_add_test(tc, unseen_old_process_is_unknown);
	suite_add_tcase(s, tc);

	tc = tcase_create("sums");
	tcase_add_test(tc, process_is_the_sum_of_its_thread_rows);
	tcase_add_test(tc, own_cpu_beats_a_sum_short_of_it);
	tcase_add_test(tc, cpu_above_the_machine_is_rejected);
	tcase_add_test(tc, exited_thread_with_final_counters_is_counted);
	tcase_add_test(tc, exited_thread_unknown_makes_a_lower_bound);
	tcase_add_test(tc, dropped_exited_lists_leave_the_next_rates_alone);
	tcase_add_test(tc, ended_processes_part_of_the_interval);
	tcase_add_test(tc, ended_under_a_reused_pid);
	tcase_add_test(tc, live_sum_never_gives_its_own_rate);
	tcase_add_test(tc, group_counters_when_threads_are_not_read);
	tcase_add_test(tc, threads_of_a_newly_listed_process_fall_back_to_the_group);
	tcase_add_test(tc, newborn_threads_count_from_zero);
	tcase_add_test(tc, newborn_process_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("delay");
	tcase_add_test(tc, delay_pct_and_avg);
	tcase_add_test(tc, delay_jump_beyond_lifetime_is_rejected);
	tcase_add_test(tc, long_wait_ending_in_the_interval_is_kept);
	tcase_add_test(tc, delay_of_newborn_thread);
	suite_add_tcase(s, tc);

	tc = tcase_create("plugin");
	tcase_add_test(tc, plugin_counter_becomes_rate);
	tcase_add_test(tc, plugin_counter_recovers_after_an_unknown_rate);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(delta_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
