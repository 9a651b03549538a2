/*
 * Rates between two snapshots: identity by (tid, start time), newborn tasks,
 * counters that go backwards, process switch rates summed over threads,
 * delay percentages and averages, plugin counters.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "model/delta.h"
#include "model/snapshot.h"
#include "model/task.h"

#define EPS 1e-9

/* prev at t=100 s, cur at t=102 s: a 2 s interval; the previous sample was
 * taken at boot tick 10000 (USER_HZ 100), the current one at 10200 */
#define PREV_MONO 100.0
#define CUR_MONO 102.0
#define PREV_BOOT 10000.0
#define CUR_BOOT 10200.0

static void snap_init(struct snapshot *s, double mono, double boot, size_t nprocs)
{
	memset(s, 0, sizeof(*s));
	s->mono = mono;
	s->wall = 1700000000.0 + mono;
	s->boot_ticks = boot;
	s->nprocs = nprocs;
	s->procs = calloc(nprocs ? nprocs : 1, sizeof(*s->procs));
	ck_assert_ptr_nonnull(s->procs);
	for (size_t i = 0; i < nprocs; i++)
		task_init(&s->procs[i]);
	s->ctxt_from_group = true;
}

static void set_task(struct tv_task *t, int32_t tid, int32_t tgid, uint64_t start, int64_t cpu, int64_t vol,
		     int64_t invol)
{
	t->tid = tid;
	t->tgid = tgid;
	t->is_thread = tid != tgid || t->is_thread;
	t->start_ticks = start;
	t->cpu_ticks = cpu;
	t->ctxt_vol = vol;
	t->ctxt_invol = invol;
	t->state = 'S';
}

/* Gives a process n thread slots (tids filled in by the caller, sorted). */
static struct tv_task *add_threads(struct tv_task *p, size_t n)
{
	p->threads = calloc(n, sizeof(*p->threads));
	ck_assert_ptr_nonnull(p->threads);
	p->nthreads_read = n;
	p->threads_complete = true;
	p->threads_are_rows = true;
	for (size_t i = 0; i < n; i++) {
		task_init(&p->threads[i]);
		p->threads[i].is_thread = true;
	}
	return p->threads;
}

static void colset_plain(struct colset *cs)
{
	ck_assert_int_eq(colset_init(cs), 0);
}

/* ---- the primitives ---- */

START_TEST(rate_primitive)
{
	ck_assert_double_eq_tol(delta_rate(100, 300, 2.0), 100.0, EPS);
	ck_assert_double_eq_tol(delta_rate(5, 5, 2.0), 0.0, EPS);
	ck_assert(isnan(delta_rate(300, 100, 2.0)));       /* backwards */
	ck_assert(isnan(delta_rate(TV_UNKNOWN, 100, 2.0)));
	ck_assert(isnan(delta_rate(100, TV_UNKNOWN, 2.0)));
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

/* ---- whole snapshots ---- */

START_TEST(first_sample_has_no_rates)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot cur;
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&cur.procs[0], 10, 10, 500, 1200, 10, 1);
	delta_apply(NULL, &cur, &cs);
	ck_assert(isnan(cur.procs[0].cpu_pct));
	ck_assert(isnan(cur.procs[0].ctxt_vol_rate));
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(rates_over_two_seconds)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 2);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 2);
	set_task(&prev.procs[0], 10, 10, 500, 1000, 50, 10);
	set_task(&cur.procs[0], 10, 10, 500, 1200, 250, 14);   /* 200 ticks in 2 s: one full CPU */
	set_task(&prev.procs[1], 20, 20, 600, 7, 0, 0);
	set_task(&cur.procs[1], 20, 20, 600, 17, 0, 0);        /* 10 ticks in 2 s: 5 % */
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(cur.procs[0].cpu_pct, 100.0, EPS);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_vol_rate, 100.0, EPS);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_invol_rate, 2.0, EPS);
	ck_assert_double_eq_tol(cur.procs[1].cpu_pct, 5.0, EPS);
	ck_assert_double_eq_tol(cur.procs[1].ctxt_vol_rate, 0.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(multi_cpu_process_above_100)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 0, 0, 0);
	set_task(&cur.procs[0], 10, 10, 500, 700, 0, 0); /* 3.5 CPUs */
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(cur.procs[0].cpu_pct, 350.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(pid_reuse_is_unknown)
{
	/* same PID, other start time, and not born after the previous sample as far
	 * as we can tell: its past is unknown. The old task's counters are smaller
	 * so a wrong pairing would produce a plausible number. */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 100, 10, 10);
	set_task(&cur.procs[0], 10, 10, 501, 150, 20, 20);
	delta_apply(&prev, &cur, &cs);
	ck_assert(isnan(cur.procs[0].cpu_pct));
	ck_assert(isnan(cur.procs[0].ctxt_vol_rate));
	ck_assert(isnan(cur.procs[0].ctxt_invol_rate));
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(pid_reuse_newborn_counts_from_zero)
{
	/* same PID, started after the previous sample: a new task whose whole
	 * total happened in the interval, never a difference with the old one */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 10, 4, 0);
	set_task(&cur.procs[0], 10, 10, 10100, 50, 30, 2);
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(cur.procs[0].cpu_pct, 25.0, EPS);      /* 50 ticks / 2 s, not 40 */
	ck_assert_double_eq_tol(cur.procs[0].ctxt_vol_rate, 15.0, EPS);  /* 30 / 2, not 13 */
	ck_assert_double_eq_tol(cur.procs[0].ctxt_invol_rate, 1.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(counter_reset_is_unknown)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 1000, 500, 50);
	set_task(&cur.procs[0], 10, 10, 500, 900, 100, 60);
	delta_apply(&prev, &cur, &cs);
	ck_assert(isnan(cur.procs[0].cpu_pct));
	ck_assert(isnan(cur.procs[0].ctxt_vol_rate));
	/* the counter that did go forward still gives its rate */
	ck_assert_double_eq_tol(cur.procs[0].ctxt_invol_rate, 5.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(newborn_process)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 2);
	set_task(&prev.procs[0], 10, 10, 500, 0, 0, 0);
	set_task(&cur.procs[0], 10, 10, 500, 0, 0, 0);
	set_task(&cur.procs[1], 30, 30, 10150, 40, 30, 6); /* started 1.5 s after the previous sample */
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(cur.procs[1].cpu_pct, 20.0, EPS);
	ck_assert_double_eq_tol(cur.procs[1].ctxt_vol_rate, 15.0, EPS);
	ck_assert_double_eq_tol(cur.procs[1].ctxt_invol_rate, 3.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(unseen_old_process_is_unknown)
{
	/* absent from the previous sample but older than it (e.g. it was not
	 * readable then): no rate, not its lifetime total */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 0);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&cur.procs[0], 30, 30, 9000, 4000, 30, 6);
	delta_apply(&prev, &cur, &cs);
	ck_assert(isnan(cur.procs[0].cpu_pct));
	ck_assert(isnan(cur.procs[0].ctxt_vol_rate));
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(thread_rates_and_thread_pid_reuse)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 300, 0, 0);
	set_task(&cur.procs[0], 10, 10, 500, 500, 0, 0);
	struct tv_task *pt = add_threads(&prev.procs[0], 2);
	set_task(&pt[0], 10, 10, 500, 100, 0, 0);
	set_task(&pt[1], 11, 10, 600, 200, 0, 0);
	struct tv_task *ct = add_threads(&cur.procs[0], 2);
	set_task(&ct[0], 10, 10, 500, 160, 0, 0);
	set_task(&ct[1], 11, 10, 10100, 30, 0, 0); /* TID 11 reused by a thread born in the interval */
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(ct[0].cpu_pct, 30.0, EPS);
	ck_assert_double_eq_tol(ct[1].cpu_pct, 15.0, EPS); /* 30 ticks of its own, not 30 - 200 */
	ck_assert_double_eq_tol(cur.procs[0].cpu_pct, 100.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(process_ctxt_is_sum_of_thread_rates)
{
	/* without taskstats the process totals are sums over the live threads:
	 * a thread that exits makes the total drop, yet the rate must be the
	 * sum of the remaining threads' rates plus the new thread's */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	prev.ctxt_from_group = cur.ctxt_from_group = false;
	set_task(&prev.procs[0], 10, 10, 500, 0, 1300, 130);
	set_task(&cur.procs[0], 10, 10, 500, 0, 420, 42);
	struct tv_task *pt = add_threads(&prev.procs[0], 3);
	set_task(&pt[0], 10, 10, 500, 0, 100, 10);
	set_task(&pt[1], 11, 10, 600, 0, 200, 20);
	set_task(&pt[2], 12, 10, 700, 0, 1000, 100); /* exits during the interval */
	struct tv_task *ct = add_threads(&cur.procs[0], 3);
	set_task(&ct[0], 10, 10, 500, 0, 140, 14);
	set_task(&ct[1], 11, 10, 600, 0, 260, 26);
	set_task(&ct[2], 13, 10, 10050, 0, 20, 2);   /* new thread */
	delta_apply(&prev, &cur, &cs);
	/* (40 + 60 + 20) / 2 s and (4 + 6 + 2) / 2 s */
	ck_assert_double_eq_tol(cur.procs[0].ctxt_vol_rate, 60.0, EPS);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_invol_rate, 6.0, EPS);
	ck_assert_double_eq_tol(ct[0].ctxt_vol_rate, 20.0, EPS);
	ck_assert_double_eq_tol(ct[1].ctxt_vol_rate, 30.0, EPS);
	ck_assert_double_eq_tol(ct[2].ctxt_vol_rate, 10.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(folded_threads_matched_by_tid)
{
	/* a folded process's threads are read from status alone (no start time):
	 * same TID in the same process is the same thread, a new TID counts from
	 * zero, a counter that went down (TID reused) makes the sum unknown */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	prev.ctxt_from_group = cur.ctxt_from_group = false;
	set_task(&prev.procs[0], 10, 10, 500, 0, 0, 0);
	set_task(&cur.procs[0], 10, 10, 500, 0, 0, 0);
	struct tv_task *pt = add_threads(&prev.procs[0], 2);
	set_task(&pt[0], 10, 10, TV_START_UNKNOWN, TV_UNKNOWN, 100, 10);
	set_task(&pt[1], 11, 10, TV_START_UNKNOWN, TV_UNKNOWN, 200, 20);
	struct tv_task *ct = add_threads(&cur.procs[0], 3);
	set_task(&ct[0], 10, 10, TV_START_UNKNOWN, TV_UNKNOWN, 140, 14);
	set_task(&ct[1], 11, 10, 600, 0, 260, 26); /* unfolded since: start known now */
	set_task(&ct[2], 12, 10, TV_START_UNKNOWN, TV_UNKNOWN, 20, 2);
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_vol_rate, (40 + 60 + 20) / 2.0, EPS);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_invol_rate, (4 + 6 + 2) / 2.0, EPS);
	ck_assert_double_eq_tol(ct[1].ctxt_vol_rate, 30.0, EPS);
	ck_assert(isnan(ct[1].cpu_pct)); /* the old entry had no CPU time */

	pt[1].ctxt_vol = 900; /* TID 11 now has fewer switches than before: another thread */
	delta_apply(&prev, &cur, &cs);
	ck_assert(isnan(cur.procs[0].ctxt_vol_rate));
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(process_ctxt_from_group_uses_process_counters)
{
	/* with taskstats TGID totals (dead threads included) the process's own counters count */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 0, 1300, 130);
	set_task(&cur.procs[0], 10, 10, 500, 0, 1500, 150);
	struct tv_task *pt = add_threads(&prev.procs[0], 1);
	set_task(&pt[0], 10, 10, 500, 0, 100, 10);
	struct tv_task *ct = add_threads(&cur.procs[0], 1);
	set_task(&ct[0], 10, 10, 500, 0, 102, 10);
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_vol_rate, 100.0, EPS);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_invol_rate, 10.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(process_ctxt_unknown_without_complete_threads)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	prev.ctxt_from_group = cur.ctxt_from_group = false;
	set_task(&prev.procs[0], 10, 10, 500, 0, 100, 10);
	set_task(&cur.procs[0], 10, 10, 500, 0, 200, 20);
	/* no thread list this time: a sum over threads cannot be formed */
	delta_apply(&prev, &cur, &cs);
	ck_assert(isnan(cur.procs[0].ctxt_vol_rate));
	ck_assert(isnan(cur.procs[0].ctxt_invol_rate));
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(process_ctxt_unknown_when_a_thread_is_unknown)
{
	/* one thread whose counter went backwards: the sum is unknown, not partial */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	prev.ctxt_from_group = cur.ctxt_from_group = false;
	set_task(&prev.procs[0], 10, 10, 500, 0, 0, 0);
	set_task(&cur.procs[0], 10, 10, 500, 0, 0, 0);
	struct tv_task *pt = add_threads(&prev.procs[0], 2);
	set_task(&pt[0], 10, 10, 500, 0, 100, 10);
	set_task(&pt[1], 11, 10, 600, 0, 200, 20);
	struct tv_task *ct = add_threads(&cur.procs[0], 2);
	set_task(&ct[0], 10, 10, 500, 0, 140, 14);
	set_task(&ct[1], 11, 10, 600, 0, 150, 26);
	delta_apply(&prev, &cur, &cs);
	ck_assert(isnan(cur.procs[0].ctxt_vol_rate));
	ck_assert(isnan(cur.procs[0].ctxt_invol_rate));
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(newborn_process_threads)
{
	/* a process born in the interval: its threads count from zero too */
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 0);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	prev.ctxt_from_group = cur.ctxt_from_group = false;
	set_task(&cur.procs[0], 40, 40, 10020, 60, 12, 4);
	struct tv_task *ct = add_threads(&cur.procs[0], 2);
	set_task(&ct[0], 40, 40, 10020, 40, 8, 2);
	set_task(&ct[1], 41, 40, 10030, 20, 4, 2);
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(cur.procs[0].cpu_pct, 30.0, EPS);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_vol_rate, 6.0, EPS);
	ck_assert_double_eq_tol(cur.procs[0].ctxt_invol_rate, 2.0, EPS);
	ck_assert_double_eq_tol(ct[1].cpu_pct, 10.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

static void set_delay(struct tv_task *t, int cls, int64_t count, int64_t total_ns)
{
	t->delay[cls].count = count;
	t->delay[cls].total_ns = total_ns;
}

START_TEST(delay_pct_and_avg)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 0, 0, 0);
	set_task(&cur.procs[0], 10, 10, 500, 0, 0, 0);
	struct tv_task *p = &prev.procs[0], *c = &cur.procs[0];
	/* cpu: 0.5 s in 10 waits */
	set_delay(p, TV_DELAY_CPU, 10, 1000000000);
	set_delay(c, TV_DELAY_CPU, 20, 1500000000);
	/* io: no event in the interval */
	set_delay(p, TV_DELAY_IO, 5, 7000000);
	set_delay(c, TV_DELAY_IO, 5, 7000000);
	/* swapin: the total wrapped */
	set_delay(p, TV_DELAY_SWAPIN, 5, 900000000);
	set_delay(c, TV_DELAY_SWAPIN, 9, 1000);
	/* irq: 2 ms in one event */
	set_delay(p, TV_DELAY_IRQ, 0, 0);
	set_delay(c, TV_DELAY_IRQ, 1, 2000000);
	/* reclaim: unknown (delay accounting off for this task) stays unknown */
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(c->delay_pct[TV_DELAY_CPU], 25.0, EPS);
	ck_assert_double_eq_tol(c->delay_avg_ms[TV_DELAY_CPU], 50.0, EPS);
	ck_assert_double_eq_tol(c->delay_pct[TV_DELAY_IO], 0.0, EPS);
	ck_assert(isnan(c->delay_avg_ms[TV_DELAY_IO]));
	ck_assert(isnan(c->delay_pct[TV_DELAY_SWAPIN]));
	ck_assert(isnan(c->delay_avg_ms[TV_DELAY_SWAPIN]));
	ck_assert_double_eq_tol(c->delay_pct[TV_DELAY_IRQ], 0.1, EPS);
	ck_assert_double_eq_tol(c->delay_avg_ms[TV_DELAY_IRQ], 2.0, EPS);
	ck_assert(isnan(c->delay_pct[TV_DELAY_RECLAIM]));
	ck_assert(isnan(c->delay_avg_ms[TV_DELAY_RECLAIM]));
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

START_TEST(delay_of_newborn_thread)
{
	struct colset cs;
	colset_plain(&cs);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 1);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 1);
	set_task(&prev.procs[0], 10, 10, 500, 0, 0, 0);
	set_task(&cur.procs[0], 10, 10, 500, 0, 0, 0);
	struct tv_task *pt = add_threads(&prev.procs[0], 1);
	set_task(&pt[0], 10, 10, 500, 0, 0, 0);
	struct tv_task *ct = add_threads(&cur.procs[0], 2);
	set_task(&ct[0], 10, 10, 500, 0, 0, 0);
	set_task(&ct[1], 11, 10, 10100, 0, 0, 0);
	set_delay(&ct[1], TV_DELAY_IO, 4, 200000000); /* 0.2 s in 4 waits since it started */
	delta_apply(&prev, &cur, &cs);
	ck_assert_double_eq_tol(ct[1].delay_pct[TV_DELAY_IO], 10.0, EPS);
	ck_assert_double_eq_tol(ct[1].delay_avg_ms[TV_DELAY_IO], 50.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
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
	struct colset cs;
	colset_plain(&cs);
	ck_assert_int_ge(add_plugin_column(&cs, "io_read_rate", true, 0), 0);
	ck_assert_int_ge(add_plugin_column(&cs, "fd_count", false, 1), 0);
	struct snapshot prev, cur;
	snap_init(&prev, PREV_MONO, PREV_BOOT, 4);
	snap_init(&cur, CUR_MONO, CUR_BOOT, 5);
	prev.npvals = cur.npvals = 2;
	for (int i = 0; i < 4; i++) {
		set_task(&prev.procs[i], 10 + i, 10 + i, 500, 0, 0, 0);
		set_task(&cur.procs[i], 10 + i, 10 + i, 500, 0, 0, 0);
	}
	/* 10: 4096 bytes per second */
	set_pval(&prev.procs[0], 2, 0, true, 1000);
	set_pval(&cur.procs[0], 2, 0, true, 9192);
	set_pval(&prev.procs[0], 2, 1, true, 7);
	set_pval(&cur.procs[0], 2, 1, true, 9);
	/* 11: the counter went backwards */
	set_pval(&prev.procs[1], 2, 0, true, 5000);
	set_pval(&cur.procs[1], 2, 0, true, 100);
	/* 12: unknown last time */
	set_pval(&prev.procs[2], 2, 0, false, 0);
	set_pval(&cur.procs[2], 2, 0, true, 100);
	/* 13: no plugin values at all last time */
	set_pval(&cur.procs[3], 2, 0, true, 100);
	/* 14: born in the interval */
	set_task(&cur.procs[4], 14, 14, 10100, 0, 0, 0);
	set_pval(&cur.procs[4], 2, 0, true, 600);
	delta_apply(&prev, &cur, &cs);
	ck_assert(cur.procs[0].pvals[0].known);
	ck_assert_double_eq_tol(cur.procs[0].pvals[0].f, 4096.0, EPS);
	/* a non-counter keeps its raw value */
	ck_assert(cur.procs[0].pvals[1].known);
	ck_assert_int_eq(cur.procs[0].pvals[1].i, 9);
	ck_assert(!cur.procs[1].pvals[0].known);
	ck_assert(!cur.procs[2].pvals[0].known);
	ck_assert(!cur.procs[3].pvals[0].known);
	ck_assert(cur.procs[4].pvals[0].known);
	ck_assert_double_eq_tol(cur.procs[4].pvals[0].f, 300.0, EPS);
	snapshot_free(&prev);
	snapshot_free(&cur);
	colset_free(&cs);
}
END_TEST

static Suite *delta_suite(void)
{
	Suite *s = suite_create("delta");
	TCase *tc = tcase_create("primitives");
	tcase_add_test(tc, rate_primitive);
	tcase_add_test(tc, delay_primitives);
	suite_add_tcase(s, tc);

	tc = tcase_create("identity");
	tcase_add_test(tc, first_sample_has_no_rates);
	tcase_add_test(tc, rates_over_two_seconds);
	tcase_add_test(tc, multi_cpu_process_above_100);
	tcase_add_test(tc, pid_reuse_is_unknown);
	tcase_add_test(tc, pid_reuse_newborn_counts_from_zero);
	tcase_add_test(tc, counter_reset_is_unknown);
	tcase_add_test(tc, newborn_process);
	tcase_add_test(tc, unseen_old_process_is_unknown);
	tcase_add_test(tc, thread_rates_and_thread_pid_reuse);
	suite_add_tcase(s, tc);

	tc = tcase_create("ctxt");
	tcase_add_test(tc, process_ctxt_is_sum_of_thread_rates);
	tcase_add_test(tc, folded_threads_matched_by_tid);
	tcase_add_test(tc, process_ctxt_from_group_uses_process_counters);
	tcase_add_test(tc, process_ctxt_unknown_without_complete_threads);
	tcase_add_test(tc, process_ctxt_unknown_when_a_thread_is_unknown);
	tcase_add_test(tc, newborn_process_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("delay");
	tcase_add_test(tc, delay_pct_and_avg);
	tcase_add_test(tc, delay_of_newborn_thread);
	suite_add_tcase(s, tc);

	tc = tcase_create("plugin");
	tcase_add_test(tc, plugin_counter_becomes_rate);
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
