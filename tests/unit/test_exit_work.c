/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An exit storm costs each refresh work in proportion to its exit records,
 * never their square: the real sampler, with taskstats and its exit listener
 * (root), beside threads of this test that start and join empty threads as
 * fast as they can. Counted, not timed: the hash slots the records looked at
 * (snapshot self.exit_probes) stay within a few per record and per exited
 * thread, whether a refresh holds a few thousand records or many more, and
 * what is dropped over the budget is counted as lost. Skipped (77) without
 * root or exit records.
 */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "model/column.h"
#include "sample/sampler.h"
#include "sample/taskstats/taskstats.h"
#include "sample/taskstats/taskstats_listen.h"
#include "view/filter.h"

#define STORMERS 2
#define PROBES_PER_RECORD 4 /* a lookup and an insert, each a slot or two at half load */

static atomic_bool stop;
static atomic_long started;

static void *empty(void *arg)
{
	return arg;
}

static void *stormer(void *arg)
{
	(void)arg;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	while (!atomic_load(&stop)) {
		pthread_t t;
		if (pthread_create(&t, &a, empty, NULL) == 0) {
			pthread_join(t, NULL);
			atomic_fetch_add(&started, 1);
		}
	}
	return NULL;
}

static void sleep_s(double s)
{
	struct timespec d = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&d, &d) != 0)
		;
}

/* Until the stormers started n more threads (a busy machine may hold them back). */
static void wait_started(long n)
{
	long want = atomic_load(&started) + n;
	for (int k = 0; k < 60000 && atomic_load(&started) < want; k++)
		sleep_s(0.001);
}

START_TEST(work_grows_with_records_not_their_square)
{
	char *err = NULL, *bad = NULL, self[16];
	struct sampler *s = sampler_new(&err);
	ck_assert_msg(s != NULL, "%s", err ? err : "");
	struct ts_client *ts = ts_open();
	sampler_set_taskstats(s, ts);
	struct filter f;
	filter_init(&f);
	snprintf(self, sizeof(self), "%d", (int)getpid());
	ck_assert_int_eq(filter_add_pids(&f, self, &bad), 0);
	/* as a recorder asks: an entry for every thread that ended */
	struct sample_opts o = {.needs = NEED_STAT | NEED_STATUS | NEED_CTXT | NEED_DELAY, .filter = &f, .keep_exited = true};
	pthread_t th[STORMERS];
	for (int i = 0; i < STORMERS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, stormer, NULL), 0);

	struct snapshot snap;
	ck_assert_int_eq(sampler_take(s, &o, &snap, &err), 0);
	snapshot_free(&snap);
	/* a small interval's records, then one of about ten times as many (or the budget's worth) */
	const long exits[] = {500, 5000, 60000};
	size_t most = 0;
	for (size_t k = 0; k < sizeof(exits) / sizeof(exits[0]); k++) {
		wait_started(exits[k]);
		ck_assert_int_eq(sampler_take(s, &o, &snap, &err), 0);
		ck_assert(snap.exits_watched);
		ck_assert_uint_eq(snap.nprocs, 1);
		size_t exited = snap.procs[0].nexited;
		printf("records %zu, lost %llu, exited threads %zu, slots looked at %llu\n", snap.nexits_seen,
		       (unsigned long long)snap.exits_lost, exited, (unsigned long long)snap.self.exit_probes);
		ck_assert_msg(snap.nexits_seen + snap.exits_lost >= (size_t)exits[k] / 2,
			      "the storm's records came: %zu (+%llu lost) for %ld threads", snap.nexits_seen,
			      (unsigned long long)snap.exits_lost, exits[k]);
		ck_assert_msg(snap.self.exit_probes <= PROBES_PER_RECORD * (snap.nexits_seen + exited) + 64,
			      "%llu slots looked at for %zu records and %zu exited threads",
			      (unsigned long long)snap.self.exit_probes, snap.nexits_seen, exited);
		/* a refresh takes on at most its budget; the rest is lost, and counted */
		ck_assert_uint_le(snap.nexits_seen, 32768);
		ck_assert_uint_le(exited, 32768 + 64);
		if (snap.nexits_seen > most)
			most = snap.nexits_seen;
		snapshot_free(&snap);
	}
	ck_assert_msg(most >= 4000, "a refresh with thousands of records: %zu at most", most);
	atomic_store(&stop, true);
	for (int i = 0; i < STORMERS; i++)
		pthread_join(th[i], NULL);
	sampler_free(s);
	ts_close(ts);
	filter_free(&f);
}
END_TEST

int main(void)
{
	const char *why = NULL;
	struct ts_listener *l = ts_listen_start(&why);
	if (!l) {
		printf("SKIP: no exit records here: %s\n", why);
		return 77;
	}
	ts_listen_stop(l);
	Suite *su = suite_create("exit_work");
	TCase *tc = tcase_create("storm");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, work_grows_with_records_not_their_square);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
