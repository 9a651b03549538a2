/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsers of /proc/stat, meminfo, loadavg and uptime for the TUI header. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "sample/proc/system.h"

static const char stat_text[] =
	"cpu  100 5 50 1000 10 1 2 3 0 0\n"
	"cpu0 60 5 30 500 5 1 1 2 0 0\n"
	"cpu1 40 0 20 500 5 0 1 1 0 0\n"
	"intr 12345 0 0\n"
	"ctxt 999\n"
	"btime 1700000000\n"
	"processes 4242\n";

START_TEST(stat_lines)
{
	struct sys_info s = {0};
	ck_assert_int_eq(system_parse_stat(stat_text, &s), 0);
	ck_assert_uint_eq(s.ncpu, 2);
	ck_assert_uint_eq(s.all.user, 100);
	ck_assert_uint_eq(s.all.steal, 3);
	ck_assert_uint_eq(s.cpu[1].system, 20);
	system_free(&s);
	/* old kernels: fewer fields; the rest stay zero */
	ck_assert_int_eq(system_parse_stat("cpu 1 2 3 4\ncpu0 1 2 3 4\n", &s), 0);
	ck_assert_uint_eq(s.all.idle, 4);
	ck_assert_uint_eq(s.all.iowait, 0);
	system_free(&s);
	/* not a stat file */
	ck_assert_int_eq(system_parse_stat("garbage\n", &s), -1);
	ck_assert_int_eq(system_parse_stat("", &s), -1);
	ck_assert_int_eq(system_parse_stat("cpuX 1 2\ncpu", &s), -1);
	system_free(&s);
}
END_TEST

/* A host's CPU time for the hosts' screen: the first line alone, busy ticks without idle, iowait or steal. */
START_TEST(cpu_all_busy)
{
	struct sys_cpu c;
	ck_assert_int_eq(system_parse_cpu_all(stat_text, &c), 0);
	ck_assert_uint_eq(system_cpu_busy(&c), 100 + 5 + 50 + 1 + 2);
	/* a read cut after the first line still has it */
	ck_assert_int_eq(system_parse_cpu_all("cpu  7 0 3 9", &c), 0);
	ck_assert_uint_eq(system_cpu_busy(&c), 10);
	/* the line must come first: per-CPU lines or garbage are not the sum */
	ck_assert_int_eq(system_parse_cpu_all("cpu0 1 2 3 4\ncpu  1 2 3 4\n", &c), -1);
	ck_assert_int_eq(system_parse_cpu_all("", &c), -1);
	ck_assert_int_eq(system_parse_cpu_all("intr 1\n", &c), -1);
}
END_TEST

START_TEST(many_cpus)
{
	static char big[200000];
	size_t off = (size_t)snprintf(big, sizeof(big), "cpu 1 1 1 1\n");
	for (int i = 0; i < 1000; i++)
		off += (size_t)snprintf(big + off, sizeof(big) - off, "cpu%d 1 2 3 4 5 6 7 8 9 10\n", i);
	struct sys_info s = {0};
	ck_assert_int_eq(system_parse_stat(big, &s), 0);
	ck_assert_uint_eq(s.ncpu, 1000);
	ck_assert_uint_eq(s.cpu[999].steal, 8);
	system_free(&s);
}
END_TEST

START_TEST(cpu_usage)
{
	struct sys_cpu a = {100, 0, 50, 1000, 0, 0, 0, 0};
	struct sys_cpu b = {150, 0, 75, 1075, 0, 0, 0, 0};
	struct sys_cpu_use u;
	system_cpu_use(&a, &b, &u);
	ck_assert_double_eq_tol(u.user, 50.0 / 150.0, 1e-9);
	ck_assert_double_eq_tol(u.system, 25.0 / 150.0, 1e-9);
	ck_assert_double_eq_tol(u.total, 75.0 / 150.0, 1e-9);
	/* no time passed, or counters went back (hot-plug): nothing, not garbage */
	system_cpu_use(&a, &a, &u);
	ck_assert_double_eq(u.total, 0);
	system_cpu_use(&b, &a, &u);
	ck_assert_double_eq(u.total, 0);
}
END_TEST

START_TEST(meminfo)
{
	struct sys_mem m;
	system_parse_meminfo("MemTotal:       16000000 kB\n"
			     "MemFree:         2000000 kB\n"
			     "MemAvailable:    8000000 kB\n"
			     "Buffers:          100000 kB\n"
			     "Cached:          5000000 kB\n"
			     "SwapCached:            0 kB\n"
			     "SwapTotal:       4000000 kB\n"
			     "SwapFree:        3000000 kB\n",
			     &m);
	ck_assert_int_eq(m.total, 16000000);
	ck_assert_int_eq(m.available, 8000000);
	ck_assert_int_eq(m.cached, 5000000); /* not SwapCached */
	ck_assert_int_eq(m.swap_free, 3000000);
	system_parse_meminfo("MemTotal: 99999999999999999999 kB\nMemFree: 9223372036854775807 kB\n", &m);
	ck_assert_int_eq(m.total, -1); /* past int64: unknown, not saturated */
	ck_assert_int_eq(m.free, INT64_MAX);
	system_parse_meminfo("MemTotal: lots\nnonsense\n", &m);
	ck_assert_int_eq(m.total, -1);
	ck_assert_int_eq(m.swap_total, -1);
}
END_TEST

START_TEST(loadavg_uptime)
{
	double l[3] = {-1, -1, -1}, up = -1;
	ck_assert_int_eq(system_parse_loadavg("0.10 1.50 12.25 2/345 6789\n", l), 0);
	ck_assert_double_eq_tol(l[2], 12.25, 1e-9);
	ck_assert_int_eq(system_parse_loadavg("0.1 0.2\n", l), -1);
	ck_assert_int_eq(system_parse_loadavg("inf nan 0x10\n", l), -1);
	ck_assert_double_eq_tol(l[0], 0.10, 1e-9); /* untouched on error */
	ck_assert_int_eq(system_parse_uptime("12345.67 890.12\n", &up), 0);
	ck_assert_double_eq_tol(up, 12345.67, 1e-6);
	ck_assert_int_eq(system_parse_uptime("-5 1\n", &up), -1);
}
END_TEST

/* What the fuzzer found: strtod took exponents and hex, so "1e999" was an
 * infinite uptime, and a huge one made the header's (long) cast undefined. */
START_TEST(non_finite_out_of_range)
{
	double l[3] = {1, 2, 3}, up = 7;
	const char *bad_load[] = {
		"1e999 0.1 0.2 1/2 3\n", "0x1p99999 0.1 0.2\n", "0.1 inf 0.2\n", "0.1 0.2 nan\n",
		"1e3 0.1 0.2\n", "0.5x 0.1 0.2\n", "0. 0.1 0.2\n", "20000000 0.1 0.2\n",
	};
	for (size_t i = 0; i < sizeof(bad_load) / sizeof(bad_load[0]); i++)
		ck_assert_msg(system_parse_loadavg(bad_load[i], l) == -1, "accepted %s", bad_load[i]);
	ck_assert_double_eq(l[0], 1);
	const char *bad_up[] = {
		"1e999 1\n", "9e300 1\n", "0x10 1\n", "inf 1\n", "nan\n", "1.5e3 1\n", "2000000000000 1\n",
	};
	for (size_t i = 0; i < sizeof(bad_up) / sizeof(bad_up[0]); i++)
		ck_assert_msg(system_parse_uptime(bad_up[i], &up) == -1, "accepted %s", bad_up[i]);
	/* 400 digits overflow to infinity in any accumulation */
	char digits[410];
	memset(digits, '9', 400);
	strcpy(digits + 400, " 1\n");
	ck_assert_int_eq(system_parse_uptime(digits, &up), -1);
	ck_assert_double_eq(up, 7);
	/* the bounds themselves, and more fraction digits than a double holds */
	ck_assert_int_eq(system_parse_uptime("1000000000000", &up), 0);
	ck_assert_double_eq(up, SYSTEM_UPTIME_MAX);
	ck_assert_int_eq(system_parse_uptime("3.14159265358979323846264338327950288 0\n", &up), 0);
	ck_assert_double_eq_tol(up, 3.14159265358979, 1e-12);
	ck_assert_int_eq(system_parse_loadavg("10000000 0 0.00\n", l), 0);
	ck_assert_double_eq(l[0], SYSTEM_LOAD_MAX);
}
END_TEST

START_TEST(live_read)
{
	struct sys_info s = {0};
	system_read(&s);
	ck_assert_uint_ge(s.ncpu, 1);
	ck_assert_int_gt(s.mem.total, 0);
	ck_assert(s.uptime > 0);
	system_read(&s); /* reading again reuses the struct */
	ck_assert_uint_ge(s.ncpu, 1);
	system_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tui_system");
	TCase *tc = tcase_create("system");
	tcase_add_test(tc, stat_lines);
	tcase_add_test(tc, cpu_all_busy);
	tcase_add_test(tc, many_cpus);
	tcase_add_test(tc, cpu_usage);
	tcase_add_test(tc, meminfo);
	tcase_add_test(tc, loadavg_uptime);
	tcase_add_test(tc, non_finite_out_of_range);
	tcase_add_test(tc, live_read);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
