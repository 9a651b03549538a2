/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a refresh without taskstats reads per thread, counted on this test's
 * own threads in the real /proc: with the rows on screen given
 * (sample_opts.rows_limited), a thread that ran costs its schedstat, and
 * its status only when its row, or its process's, is on screen. A count
 * not read is unknown, never the old one shown as now. Counts, not time:
 * the threads are waited for until each has run.
 */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/column.h"
#include "sample/sampler.h"

#define NWAKE 6

static atomic_long woke[NWAKE];
static atomic_int tids[NWAKE + 1]; /* the wakers', then the sleeper's */
static atomic_bool stop;

static void *waker(void *arg)
{
	long i = (long)arg;
	tids[i] = gettid();
	while (!atomic_load(&stop)) {
		struct timespec d = {0, 1000000};
		nanosleep(&d, NULL);
		atomic_fetch_add(&woke[i], 1);
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	tids[NWAKE] = gettid();
	for (;;)
		pause();
	return NULL;
}

/* Until every waker ran again (it has switched since the last sample). */
static void wait_all_ran(void)
{
	long before[NWAKE];
	for (int i = 0; i < NWAKE; i++)
		before[i] = atomic_load(&woke[i]);
	for (int k = 0; k < 10000; k++) {
		int moved = 0;
		for (int i = 0; i < NWAKE; i++)
			moved += atomic_load(&woke[i]) > before[i] + 1;
		if (moved == NWAKE)
			return;
		usleep(1000);
	}
	ck_abort_msg("the threads did not run within 10 s");
}

static void start_threads(void)
{
	pthread_t t;
	for (long i = 0; i < NWAKE; i++)
		ck_assert_int_eq(pthread_create(&t, NULL, waker, (void *)i), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, sleeper, NULL), 0);
	for (int k = 0; k < 10000; k++) {
		int up = 0;
		for (int i = 0; i <= NWAKE; i++)
			up += atomic_load(&tids[i]) != 0;
		if (up == NWAKE + 1)
			return;
		usleep(1000);
	}
	ck_abort_msg("the threads did not start");
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static const struct tv_task *thread_of(const struct snapshot *s, int32_t tid)
{
	ck_assert_uint_eq(s->nprocs, 1);
	const struct tv_task *p = &s->procs[0];
	for (size_t i = 0; i < p->nthreads_read; i++)
		if (p->threads[i].tid == tid)
			return &p->threads[i];
	ck_abort_msg("thread %d not read", (int)tid);
	return NULL;
}

struct rig {
	struct sampler *s;
	struct filter f;
	struct sample_opts o;
	int32_t shown[2];
};

static void rig_init(struct rig *r)
{
	char *err = NULL, *bad = NULL, self[16];
	r->s = sampler_new(&err);
	ck_assert_msg(r->s != NULL, "%s", err ? err : "");
	filter_init(&r->f);
	snprintf(self, sizeof(self), "%d", (int)getpid());
	ck_assert_int_eq(filter_add_pids(&r->f, self, &bad), 0);
	/* two wakers' rows on screen */
	r->shown[0] = tids[0];
	r->shown[1] = tids[1];
	qsort(r->shown, 2, sizeof(r->shown[0]), cmp_i32);
	/* no sampler_set_taskstats: the /proc path, as for a user */
	r->o = (struct sample_opts){.needs = NEED_STAT | NEED_STATUS | NEED_CTXT | NEED_DELAY, .filter = &r->f,
				    .all_threads = true, .rows_limited = true, .rows_tids = r->shown, .nrows_tids = 2};
}

static void rig_take(struct rig *r, struct snapshot *out)
{
	char *err = NULL;
	ck_assert_int_eq(sampler_take(r->s, &r->o, out, &err), 0);
}

static void rig_free(struct rig *r)
{
	filter_free(&r->f);
	sampler_free(r->s);
}

START_TEST(status_for_rows_on_screen_only)
{
	start_threads();
	struct rig r;
	rig_init(&r);
	struct snapshot a, b, c;
	rig_take(&r, &a); /* every thread's status once, for its name */
	for (int i = 0; i <= NWAKE; i++)
		ck_assert_int_ne(thread_of(&a, tids[i])->ctxt_vol, TV_UNKNOWN);
	wait_all_ran();
	rig_take(&r, &b);
	wait_all_ran();
	r.o.rows_limited = false; /* every row: batch output, a sort by switches */
	rig_take(&r, &c);
	/* the same files but for the status of each waker off screen */
	ck_assert_uint_eq(c.self.reads - b.self.reads, NWAKE - 2);
	/* what a user sees: the rows on screen have their counts, a thread
	 * that ran off screen has none (not the first sample's), the sleeper
	 * did not run, so its counts of then are still true */
	for (int i = 0; i < NWAKE; i++) {
		const struct tv_task *t = thread_of(&b, tids[i]);
		if (i < 2)
			ck_assert_int_ge(t->ctxt_vol, thread_of(&a, tids[i])->ctxt_vol + 1);
		else
			ck_assert_int_eq(t->ctxt_vol, TV_UNKNOWN);
		ck_assert_int_ne(t->cpu_ns, TV_UNKNOWN); /* schedstat, for a CPU sort: every row */
		ck_assert_int_ne(thread_of(&c, tids[i])->ctxt_vol, TV_UNKNOWN);
	}
	ck_assert_int_eq(thread_of(&b, tids[NWAKE])->ctxt_vol, thread_of(&a, tids[NWAKE])->ctxt_vol);
	/* the process row off screen: its sum is unknown, not a part of it */
	ck_assert_int_eq(b.procs[0].ctxt_vol, TV_UNKNOWN);
	ck_assert_int_ne(c.procs[0].ctxt_vol, TV_UNKNOWN);
	snapshot_free(&a);
	snapshot_free(&b);
	snapshot_free(&c);
	rig_free(&r);
}
END_TEST

START_TEST(process_row_on_screen_sums_every_thread)
{
	start_threads();
	struct rig r;
	rig_init(&r);
	int32_t self = (int32_t)getpid();
	struct snapshot a, b;
	rig_take(&r, &a);
	r.o.nrows_tids = 0;
	r.o.rows_tgids = &self;
	r.o.nrows_tgids = 1;
	wait_all_ran();
	rig_take(&r, &b);
	/* every waker's status: the process row's sum needs them all */
	ck_assert_int_ne(b.procs[0].ctxt_vol, TV_UNKNOWN);
	ck_assert_int_gt(b.procs[0].ctxt_vol, a.procs[0].ctxt_vol);
	for (int i = 0; i < NWAKE; i++)
		ck_assert_int_ne(thread_of(&b, tids[i])->ctxt_vol, TV_UNKNOWN);
	snapshot_free(&a);
	snapshot_free(&b);
	rig_free(&r);
}
END_TEST

int main(void)
{
	/* the /proc reader's counts: as root the BPF pass would read these threads instead */
	setenv("TASKVIEW_READER", "proc", 1);
	Suite *s = suite_create("sampler_reads");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, status_for_rows_on_screen_only);
	tcase_add_test(tc, process_row_on_screen_sums_every_thread);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
