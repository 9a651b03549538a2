/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock_timed_read: a read's time is the middle of it; a read held up is taken again. */
#include <check.h>
#include <stdlib.h>
#include <time.h>

#include "util/clock.h"

/* A read that is held up (a 5 ms nap) its first `slow` times, and returns its count. */
struct fake {
	int calls, slow;
	double start[8], end[8];
};

static ssize_t fake_read(void *ctx)
{
	struct fake *f = ctx;
	f->start[f->calls] = clock_now(CLOCK_MONOTONIC);
	if (f->calls < f->slow)
		nanosleep(&(struct timespec){0, 5000000}, NULL);
	f->end[f->calls] = clock_now(CLOCK_MONOTONIC);
	return ++f->calls;
}

START_TEST(held_up_read_taken_again)
{
	struct fake f = {.slow = 2};
	double when;
	unsigned again;
	ssize_t n = clock_timed_read(fake_read, &f, &when, &again);
	double after = clock_now(CLOCK_MONOTONIC);
	/* at least the two held up; a loaded machine may hold up the third too */
	ck_assert_uint_ge(again, 2);
	ck_assert_int_eq(n, (ssize_t)again + 1);
	/* the time is the last read's: after the one before it ended */
	ck_assert(when > f.end[again - 1] && when < after);
}
END_TEST

START_TEST(tries_bounded)
{
	struct fake f = {.slow = 8};
	double when;
	unsigned again;
	ck_assert_int_eq(clock_timed_read(fake_read, &f, &when, &again), CLOCK_READ_TRIES);
	double after = clock_now(CLOCK_MONOTONIC);
	ck_assert_uint_eq(again, CLOCK_READ_TRIES - 1);
	/* held up every time: the last one's time */
	ck_assert(when > f.end[CLOCK_READ_TRIES - 2] && when < after);
}
END_TEST

static ssize_t failing_read(void *ctx)
{
	int *calls = ctx;
	++*calls;
	nanosleep(&(struct timespec){0, 5000000}, NULL);
	return -2;
}

START_TEST(error_not_taken_again)
{
	int calls = 0;
	double when;
	unsigned again;
	ck_assert_int_eq(clock_timed_read(failing_read, &calls, &when, &again), -2);
	ck_assert_int_eq(calls, 1);
	ck_assert_uint_eq(again, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("timed read");
	tcase_add_test(tc, held_up_read_taken_again);
	tcase_add_test(tc, tries_bounded);
	tcase_add_test(tc, error_not_taken_again);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
