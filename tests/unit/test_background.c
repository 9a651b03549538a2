/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sampling on a thread of its own: a request is answered through the
 * notify descriptor, the newest request wins, options are copied (the
 * caller may change or free its own at once), stopping with work pending
 * is clean.
 */
#include <check.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/column.h"
#include "sample/background.h"
#include "sample/sampler.h"

static struct sampler *new_sampler(void)
{
	char *err = NULL;
	struct sampler *s = sampler_new(&err);
	ck_assert_msg(s != NULL, "%s", err ? err : "");
	return s;
}

/* Waits for a result and takes it. */
static unsigned wait_take(struct background *b, struct snapshot *out)
{
	for (int i = 0; i < 500; i++) {
		struct pollfd p = {.fd = background_fd(b), .events = POLLIN};
		poll(&p, 1, 20);
		char *err = NULL;
		unsigned t = background_take(b, out, &err);
		ck_assert_ptr_null(err);
		if (t)
			return t;
	}
	ck_abort_msg("no sample within 10 s");
	return 0;
}

START_TEST(request_and_take)
{
	struct sampler *s = new_sampler();
	struct background *b = background_start(s);
	ck_assert_ptr_nonnull(b);
	struct filter f;
	filter_init(&f);
	char *bad = NULL;
	char self[16];
	snprintf(self, sizeof(self), "%d", (int)getpid());
	ck_assert_int_eq(filter_add_pids(&f, self, &bad), 0);
	int32_t expanded[1] = {(int32_t)getpid()};
	struct sample_opts o = {.needs = NEED_STAT | NEED_STATUS, .filter = &f, .expanded_list = expanded,
				.nexpanded = 1};
	unsigned t1 = background_request(b, &o, 0);
	ck_assert_uint_ne(t1, 0);
	/* the request is a copy: the caller's filter may go at once */
	filter_free(&f);
	expanded[0] = 0;
	struct snapshot snap;
	ck_assert_uint_eq(wait_take(b, &snap), t1);
	ck_assert_uint_eq(snap.nprocs, 1);
	ck_assert_int_eq(snap.procs[0].tgid, (int32_t)getpid());
	ck_assert(snap.procs[0].threads_are_rows); /* unfolded: its threads were read */
	snapshot_free(&snap);
	ck_assert(!background_busy(b));
	ck_assert(background_stop(b, 30));
	sampler_free(s);
}
END_TEST

START_TEST(newest_request_wins)
{
	struct sampler *s = new_sampler();
	struct background *b = background_start(s);
	struct sample_opts o = {.needs = NEED_STAT};
	unsigned last = 0;
	for (int i = 0; i < 5; i++)
		last = background_request(b, &o, 0);
	struct snapshot snap;
	unsigned t;
	/* earlier ones may have been taken already; the last one always is */
	do {
		t = wait_take(b, &snap);
		ck_assert(snap.nprocs > 1);
		snapshot_free(&snap);
	} while (t != last);
	ck_assert(background_stop(b, 30));
	sampler_free(s);
}
END_TEST

START_TEST(callback_is_refused_and_stop_with_work)
{
	struct sampler *s = new_sampler();
	struct background *b = background_start(s);
	struct sample_opts cb = {.needs = NEED_STAT, .expanded = (bool (*)(void *, int32_t))1};
	ck_assert_uint_eq(background_request(b, &cb, 0), 0);
	struct sample_opts o = {.needs = NEED_STAT | NEED_STATUS | NEED_CMDLINE};
	ck_assert_uint_ne(background_request(b, &o, 0), 0);
	ck_assert_uint_ne(background_request(b, &o, 0), 0);
	ck_assert(background_stop(b, 30)); /* a sample in progress ends, the waiting one is dropped */
	sampler_free(s);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("background");
	TCase *tc = tcase_create("thread");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, request_and_take);
	tcase_add_test(tc, newest_request_wins);
	tcase_add_test(tc, callback_is_refused_and_stop_with_work);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
