/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command lines read by workers off the sampling path: a first request is
 * pending and answered after a wait, a gone task says so, and a cache freed
 * while its workers are starting, idle or reading is never touched again
 * (run under AddressSanitizer, a worker that outlives its cache is a
 * use-after-free report).
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/proc/cmdline.h"
#include "sample/proc/proc_parse.h"

static int open_proc(void)
{
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	return fd;
}

/* This process's start time, as the cache keys it. */
static uint64_t own_start(void)
{
	char buf[1024];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, (size_t)(n > 0 ? n : 0), &st), 0);
	return st.start_ticks;
}

START_TEST(own_command_line_after_a_wait)
{
	int procfd = open_proc();
	struct cmdline_cache *c = cmdline_new(procfd);
	ck_assert_ptr_nonnull(c);
	char *out = NULL;
	bool cut = true;
	uint64_t start = own_start();
	ck_assert_int_eq(cmdline_get(c, getpid(), start, NULL, 60, &out, &cut), CMDLINE_PENDING);
	ck_assert_ptr_null(out);
	ck_assert(cmdline_wait(c, 5.0));
	ck_assert_int_eq(cmdline_get(c, getpid(), start, NULL, 60, &out, &cut), CMDLINE_READY);
	ck_assert_ptr_nonnull(out);
	ck_assert(!cut);
	/* the test's own program name comes first */
	ck_assert_msg(strstr(out, "test_cmdline") != NULL, "read: %s", out);
	free(out);
	ck_assert_uint_ge(cmdline_reads(c), 1);
	/* another start time under the same pid is another task: gone */
	ck_assert_int_eq(cmdline_get(c, getpid(), start + 1, NULL, 60, &out, &cut), CMDLINE_PENDING);
	ck_assert(cmdline_wait(c, 5.0));
	ck_assert_int_eq(cmdline_get(c, getpid(), start + 1, NULL, 60, &out, &cut), CMDLINE_GONE);
	ck_assert_ptr_null(out);
	cmdline_free(c);
	close(procfd);
}
END_TEST

START_TEST(freed_with_workers_starting_idle_or_reading)
{
	int procfd = open_proc();
	uint64_t start = own_start();
	for (int i = 0; i < 300; i++) {
		struct cmdline_cache *c = cmdline_new(procfd);
		ck_assert_ptr_nonnull(c);
		char *out = NULL;
		bool cut;
		/* asks: a worker is started */
		cmdline_get(c, getpid(), start, NULL, 60, &out, &cut);
		/* every third: freed once the worker is idle again */
		if (i % 3 == 1)
			cmdline_wait(c, 5.0);
		free(out);
		cmdline_free(c);
	}
	close(procfd);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("cmdline");
	TCase *tc = tcase_create("cache");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, own_command_line_after_a_wait);
	tcase_add_test(tc, freed_with_workers_starting_idle_or_reading);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
