/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc parsers. The samples below are copies of real files from a 6.18
 * x86_64 machine (/proc/self/stat and status of `cat`, /proc/2 for a kernel
 * thread), mutated where a test needs a trap the kernel allows.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/proc/proc_parse.h"

/* /proc/self/stat of `cat`, as read */
static const char self_stat[] =
	"10081 (cat) R 10076 10076 6887 0 -1 4194304 99 0 0 0 0 0 0 0 20 0 1 0 55679 3133440 406 "
	"18446744073709551615 94307825995776 94307826015657 140729305478432 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 "
	"94307826031664 94307826033280 94308228476928 140729305483904 140729305483924 140729305483924 "
	"140729305485291 0\n";

/* /proc/2/stat (kthreadd) */
static const char kthread_stat[] =
	"2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 25 0 0 18446744073709551615 0 0 0 0 0 0 0 "
	"2147483647 0 1 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

/* The same layout as self_stat with the fields a test cares about filled in. */
static size_t make_stat(char *out, size_t cap, int pid, const char *name, size_t name_len, char state,
			unsigned long long utime, unsigned long long stime, int prio, int nice, int threads,
			unsigned long long start)
{
	int n = snprintf(out, cap, "%d (", pid);
	ck_assert_int_gt(n, 0);
	size_t len = (size_t)n;
	ck_assert_uint_lt(len + name_len, cap);
	memcpy(out + len, name, name_len);
	len += name_len;
	n = snprintf(out + len, cap - len,
		     ") %c 10076 10076 6887 0 -1 4194304 99 5 7 3 %llu %llu 0 0 %d %d %d 0 %llu 3133440 406 "
		     "18446744073709551615 94307825995776 94307826015657 140729305478432 0 0 0 0 0 0 0 0 0 17 0 0 0 0 "
		     "0 0 94307826031664 94307826033280 94308228476928 140729305483904 140729305483924 "
		     "140729305483924 140729305485291 0\n",
		     state, utime, stime, prio, nice, threads, start);
	ck_assert_int_gt(n, 0);
	ck_assert_uint_lt(len + (size_t)n, cap);
	return len + (size_t)n;
}

/* /proc/self/status of `cat`, as read */
static const char self_status[] =
	"Name:\tcat\n"
	"Umask:\t0022\n"
	"State:\tR (running)\n"
	"Tgid:\t10082\n"
	"Ngid:\t0\n"
	"Pid:\t10082\n"
	"PPid:\t10076\n"
	"TracerPid:\t0\n"
	"Uid:\t1000\t1001\t1002\t1003\n"
	"Gid:\t0\t0\t0\t0\n"
	"FDSize:\t256\n"
	"Groups:\t \n"
	"NStgid:\t10082\n"
	"NSpid:\t10082\n"
	"NSpgid:\t10076\n"
	"NSsid:\t6887\n"
	"Kthread:\t0\n"
	"VmPeak:\t    3060 kB\n"
	"VmSize:\t    3060 kB\n"
	"VmLck:\t       0 kB\n"
	"VmPin:\t       0 kB\n"
	"VmHWM:\t    1804 kB\n"
	"VmRSS:\t    1796 kB\n"
	"RssAnon:\t     112 kB\n"
	"RssFile:\t    1692 kB\n"
	"RssShmem:\t       0 kB\n"
	"VmData:\t     360 kB\n"
	"VmStk:\t     132 kB\n"
	"VmExe:\t      20 kB\n"
	"VmLib:\t    1528 kB\n"
	"VmPTE:\t      52 kB\n"
	"VmSwap:\t       8 kB\n"
	"HugetlbPages:\t       0 kB\n"
	"CoreDumping:\t0\n"
	"THP_enabled:\t1\n"
	"untag_mask:\t0xffffffffffffffff\n"
	"Threads:\t1\n"
	"SigQ:\t0/96365\n"
	"SigPnd:\t0000000000000000\n"
	"ShdPnd:\t0000000000000000\n"
	"SigBlk:\t0000000000000000\n"
	"SigIgn:\t0000000000000000\n"
	"SigCgt:\t0000000000000000\n"
	"CapInh:\t0000000000000000\n"
	"CapPrm:\t000001fffeffffff\n"
	"CapEff:\t000001fffeffffff\n"
	"CapBnd:\t000001fffeffffff\n"
	"CapAmb:\t0000000000000000\n"
	"NoNewPrivs:\t0\n"
	"Seccomp:\t0\n"
	"Seccomp_filters:\t0\n"
	"Speculation_Store_Bypass:\tvulnerable\n"
	"SpeculationIndirectBranch:\talways enabled\n"
	"Cpus_allowed:\t3\n"
	"Cpus_allowed_list:\t0-1\n"
	"Mems_allowed:\t00000000,00000001\n"
	"Mems_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t17\n"
	"nonvoluntary_ctxt_switches:\t4\n";

/* /proc/2/status (kthreadd): no Vm* lines at all */
static const char kthread_status[] =
	"Name:\tkthreadd\n"
	"Umask:\t0022\n"
	"State:\tS (sleeping)\n"
	"Tgid:\t2\n"
	"Ngid:\t0\n"
	"Pid:\t2\n"
	"PPid:\t0\n"
	"TracerPid:\t0\n"
	"Uid:\t0\t0\t0\t0\n"
	"Gid:\t0\t0\t0\t0\n"
	"FDSize:\t64\n"
	"Groups:\t \n"
	"NStgid:\t2\n"
	"NSpid:\t2\n"
	"NSpgid:\t0\n"
	"NSsid:\t0\n"
	"Kthread:\t1\n"
	"Threads:\t1\n"
	"SigQ:\t0/96365\n"
	"SigPnd:\t0000000000000000\n"
	"ShdPnd:\t0000000000000000\n"
	"SigBlk:\t0000000000000000\n"
	"SigIgn:\tffffffffffffffff\n"
	"SigCgt:\t0000000000000000\n"
	"CapInh:\t0000000000000000\n"
	"CapPrm:\t000001ffffffffff\n"
	"CapEff:\t000001ffffffffff\n"
	"CapBnd:\t000001ffffffffff\n"
	"CapAmb:\t0000000000000000\n"
	"NoNewPrivs:\t0\n"
	"Seccomp:\t0\n"
	"Seccomp_filters:\t0\n"
	"Speculation_Store_Bypass:\tvulnerable\n"
	"SpeculationIndirectBranch:\talways enabled\n"
	"Cpus_allowed:\t3\n"
	"Cpus_allowed_list:\t0-1\n"
	"Mems_allowed:\t00000000,00000001\n"
	"Mems_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t61\n"
	"nonvoluntary_ctxt_switches:\t0\n";

/* A status with its Name: line replaced (name already escaped as the kernel prints it). */
static char *status_with_name(const char *escaped)
{
	const char *rest = strchr(self_status, '\n');
	size_t n = strlen("Name:\t") + strlen(escaped) + strlen(rest) + 1;
	char *s = malloc(n);
	ck_assert_ptr_nonnull(s);
	snprintf(s, n, "Name:\t%s%s", escaped, rest);
	return s;
}

/* ---- stat ---- */

START_TEST(stat_real_sample)
{
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(self_stat, strlen(self_stat), &st), 0);
	ck_assert_int_eq(st.pid, 10081);
	ck_assert_str_eq(st.comm, "cat");
	ck_assert_int_eq(st.state, 'R');
	ck_assert_int_eq(st.ppid, 10076);
	ck_assert_uint_eq(st.utime, 0);
	ck_assert_uint_eq(st.stime, 0);
	ck_assert_int_eq(st.prio, 20);
	ck_assert_int_eq(st.nice, 0);
	ck_assert_int_eq(st.nthreads, 1);
	ck_assert_uint_eq(st.start_ticks, 55679);
}
END_TEST

START_TEST(stat_fields_in_place)
{
	/* distinct values in each field the parser reads: a miscounted field shows */
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 4321, "worker", 6, 'D', 12345, 678, -51, -20, 17,
			       18446744073709551ull);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_int_eq(st.pid, 4321);
	ck_assert_int_eq(st.state, 'D');
	ck_assert_uint_eq(st.utime, 12345);
	ck_assert_uint_eq(st.stime, 678);
	/* the process's own faults, not its children's */
	ck_assert_uint_eq(st.minflt, 99);
	ck_assert_uint_eq(st.majflt, 7);
	ck_assert_int_eq(st.prio, -51);
	ck_assert_int_eq(st.nice, -20);
	ck_assert_int_eq(st.nthreads, 17);
	ck_assert_uint_eq(st.start_ticks, 18446744073709551ull);
}
END_TEST

START_TEST(stat_name_with_fake_fields)
{
	/* a process can name itself so that a naive parser reads the wrong state */
	static const char name[] = "evil) R (x";
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 77, name, strlen(name), 'S', 5, 6, 20, 0, 1, 999);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_str_eq(st.comm, name);
	ck_assert_int_eq(st.state, 'S');
	ck_assert_int_eq(st.ppid, 10076);
	ck_assert_uint_eq(st.utime, 5);
	ck_assert_uint_eq(st.stime, 6);
	ck_assert_uint_eq(st.start_ticks, 999);
}
END_TEST

START_TEST(stat_name_ending_in_paren_and_numbers)
{
	static const char name[] = ") 1 2 3 ()";
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 78, name, strlen(name), 'T', 1, 2, 20, 5, 3, 4242);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_str_eq(st.comm, name);
	ck_assert_int_eq(st.state, 'T');
	ck_assert_int_eq(st.nice, 5);
	ck_assert_int_eq(st.nthreads, 3);
	ck_assert_uint_eq(st.start_ticks, 4242);
}
END_TEST

START_TEST(stat_name_with_spaces_and_newline)
{
	static const char name[] = "Web Content\nx y";
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 79, name, strlen(name), 'S', 300, 40, 20, 0, 29, 5000);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_str_eq(st.comm, name);
	ck_assert_int_eq(st.state, 'S');
	ck_assert_uint_eq(st.utime, 300);
	ck_assert_int_eq(st.nthreads, 29);
}
END_TEST

START_TEST(stat_empty_name)
{
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 80, "", 0, 'S', 7, 8, 20, 0, 1, 31);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_str_eq(st.comm, "");
	ck_assert_int_eq(st.state, 'S');
	ck_assert_uint_eq(st.utime, 7);
	ck_assert_uint_eq(st.start_ticks, 31);
}
END_TEST

START_TEST(stat_kernel_thread)
{
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(kthread_stat, strlen(kthread_stat), &st), 0);
	ck_assert_int_eq(st.pid, 2);
	ck_assert_str_eq(st.comm, "kthreadd");
	ck_assert_int_eq(st.state, 'S');
	ck_assert_int_eq(st.ppid, 0);
	ck_assert_uint_eq(st.start_ticks, 25);
}
END_TEST

START_TEST(stat_long_kernel_thread_name)
{
	/* kernel threads may carry up to 64 bytes of name */
	char name[65];
	memset(name, 'k', 64);
	name[64] = '\0';
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 81, name, 64, 'I', 0, 0, 20, 0, 1, 12);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_str_eq(st.comm, name);
	ck_assert_int_eq(st.state, 'I');
}
END_TEST

START_TEST(stat_zombie)
{
	char buf[1024];
	size_t len = make_stat(buf, sizeof(buf), 82, "defunct", 7, 'Z', 3, 1, 20, 0, 1, 700);
	struct proc_stat st;
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_int_eq(st.state, 'Z');
	ck_assert_uint_eq(st.utime, 3);
}
END_TEST

START_TEST(stat_truncated)
{
	/* every cut before the start time is reached must be refused, never read past the end */
	const char *start = strstr(self_stat, " 55679 ");
	ck_assert_ptr_nonnull(start);
	size_t need = (size_t)(start - self_stat) + 1; /* up to the first digit of the start time */
	for (size_t cut = 0; cut <= need; cut++) {
		char *copy = malloc(cut ? cut : 1); /* exact size: a read past the end shows under a checker */
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, self_stat, cut);
		struct proc_stat st;
		ck_assert_msg(proc_parse_stat(copy, cut, &st) == -1, "accepted a stat cut to %zu bytes", cut);
		free(copy);
	}
}
END_TEST

START_TEST(stat_garbage)
{
	static const char *const bad[] = {
		"",
		"(",
		")",
		"()",
		"12",
		"12 (x)",
		"12 (x) R",
		"12 (x) R ",
		"12 )x( R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n",
		"12 (x) R abc 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n",
		"x (y) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n",
		"12 (x) R 1 2 3 4 5 6 7 8 9 10 -- 12 13 14 15 16 17 18 19 20\n",
		"\xff\xfe\x00\x01 garbage",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct proc_stat st;
		size_t len = strlen(bad[i]);
		ck_assert_msg(proc_parse_stat(bad[i], len, &st) == -1, "accepted garbage #%zu", i);
	}
}
END_TEST

/* ---- io ---- */

START_TEST(io_real_sample)
{
	static const char io[] = "rchar: 4157\nwchar: 1020\nsyscr: 11\nsyscw: 5\nread_bytes: 40960\n"
				 "write_bytes: 1073741824000\ncancelled_write_bytes: 4096\n";
	struct proc_io v;
	ck_assert_int_eq(proc_parse_io(io, strlen(io), &v), 0);
	ck_assert_int_eq(v.read_bytes, 40960); /* not rchar */
	ck_assert_int_eq(v.write_bytes, 1073741824000LL);
}
END_TEST

START_TEST(io_garbage_is_unknown)
{
	static const char *const bad[] = {
		"", "read_bytes: 1\n", "write_bytes: 1\n", "read_bytes: x\nwrite_bytes: 1\n",
		"read_bytes: -1\nwrite_bytes: 1\n", "read_bytes: 99999999999999999999\nwrite_bytes: 1\n",
		"read_bytes 1\nwrite_bytes 2\n", "xread_bytes: 1\nwrite_bytes: 2\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct proc_io v;
		ck_assert_msg(proc_parse_io(bad[i], strlen(bad[i]), &v) == -1, "accepted #%zu", i);
		ck_assert_int_eq(v.read_bytes, TV_UNKNOWN);
		ck_assert_int_eq(v.write_bytes, TV_UNKNOWN);
	}
	/* a last line without its newline */
	struct proc_io v;
	ck_assert_int_eq(proc_parse_io("read_bytes: 7\nwrite_bytes: 9", 28, &v), 0);
	ck_assert_int_eq(v.write_bytes, 9);
}
END_TEST

/* ---- status ---- */

START_TEST(status_real_sample)
{
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(self_status, strlen(self_status), &ps), 0);
	ck_assert_str_eq(ps.name, "cat");
	ck_assert_int_eq(ps.state, 'R');
	ck_assert_int_eq(ps.tgid, 10082);
	ck_assert_int_eq(ps.ppid, 10076);
	ck_assert_int_eq(ps.threads, 1);
	ck_assert_int_eq(ps.vm_size, 3060);
	ck_assert_int_eq(ps.vm_rss, 1796); /* not VmHWM's 1804 */
	ck_assert_int_eq(ps.vm_hwm, 1804);
	ck_assert_int_eq(ps.vm_pte, 52);
	ck_assert_int_eq(ps.vm_swap, 8);
	ck_assert_int_eq(ps.vm_stk, 132);
	ck_assert_int_eq(ps.ctxt_vol, 17);
	ck_assert_int_eq(ps.ctxt_invol, 4);
}
END_TEST

START_TEST(status_effective_uid)
{
	/* Uid: real effective saved fs */
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(self_status, strlen(self_status), &ps), 0);
	ck_assert_int_eq(ps.euid, 1001);
}
END_TEST

START_TEST(status_kernel_thread)
{
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(kthread_status, strlen(kthread_status), &ps), 0);
	ck_assert_str_eq(ps.name, "kthreadd");
	ck_assert_int_eq(ps.state, 'S');
	ck_assert_int_eq(ps.euid, 0);
	/* no Vm lines: unknown, not 0 */
	ck_assert_int_eq(ps.vm_size, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_rss, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_pte, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_swap, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_stk, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_hwm, TV_UNKNOWN);
	ck_assert_int_eq(ps.ctxt_vol, 61);
	ck_assert_int_eq(ps.ctxt_invol, 0);
}
END_TEST

START_TEST(status_zombie)
{
	/* a zombie keeps its Name/State/Uid lines but loses every Vm line */
	struct buf_s { char d[4096]; size_t n; } z = {.n = 0};
	const char *p = self_status;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t l = (size_t)(nl - p) + 1;
		if (strncmp(p, "Vm", 2) != 0 && strncmp(p, "Rss", 3) != 0) {
			if (strncmp(p, "State:", 6) == 0) {
				static const char zs[] = "State:\tZ (zombie)\n";
				memcpy(z.d + z.n, zs, sizeof(zs) - 1);
				z.n += sizeof(zs) - 1;
			} else {
				memcpy(z.d + z.n, p, l);
				z.n += l;
			}
		}
		p = nl + 1;
	}
	ck_assert_ptr_null(strstr(z.d, "VmPTE"));
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(z.d, z.n, &ps), 0);
	ck_assert_int_eq(ps.state, 'Z');
	ck_assert_str_eq(ps.name, "cat");
	ck_assert_int_eq(ps.vm_size, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_rss, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_pte, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_swap, TV_UNKNOWN);
	ck_assert_int_eq(ps.ctxt_vol, 17);
}
END_TEST

START_TEST(status_name_escapes)
{
	/* the kernel prints a newline in the name as \n and a backslash as \\ */
	char *s = status_with_name("a\\nb\\\\c\\\\n");
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(s, strlen(s), &ps), 0);
	ck_assert_str_eq(ps.name, "a\nb\\c\\n");
	/* the rest of the file is still read after the odd name */
	ck_assert_int_eq(ps.vm_pte, 52);
	free(s);
}
END_TEST

START_TEST(status_name_with_spaces_and_parens)
{
	char *s = status_with_name("evil) R (x  y");
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(s, strlen(s), &ps), 0);
	ck_assert_str_eq(ps.name, "evil) R (x  y");
	ck_assert_int_eq(ps.state, 'R');
	free(s);
}
END_TEST

START_TEST(status_empty_name)
{
	char *s = status_with_name("");
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(s, strlen(s), &ps), 0);
	ck_assert_str_eq(ps.name, "");
	ck_assert_int_eq(ps.tgid, 10082);
	free(s);
}
END_TEST

START_TEST(status_no_name_is_error)
{
	const char *rest = strchr(self_status, '\n') + 1;
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(rest, strlen(rest), &ps), -1);
	ck_assert_int_eq(proc_parse_status("", 0, &ps), -1);
	ck_assert_int_eq(proc_parse_status("garbage without colon", 21, &ps), -1);
}
END_TEST

START_TEST(status_truncated)
{
	/* every prefix either fails (no Name yet) or gives known-or-unknown values, never junk */
	size_t total = strlen(self_status);
	for (size_t cut = 0; cut <= total; cut++) {
		char *copy = malloc(cut ? cut : 1);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, self_status, cut);
		struct proc_status ps;
		int r = proc_parse_status(copy, cut, &ps);
		if (cut < strlen("Name:"))
			ck_assert_int_eq(r, -1);
		if (r == 0) {
			ck_assert(ps.vm_pte == TV_UNKNOWN || ps.vm_pte == 5 || ps.vm_pte == 52);
			ck_assert(ps.ctxt_invol == TV_UNKNOWN || ps.ctxt_invol == 4);
		}
		free(copy);
	}
}
END_TEST

START_TEST(status_malformed_numbers)
{
	static const char s[] =
		"Name:\tx\n"
		"VmSize:\t   kB\n"
		"VmRSS:\t\n"
		"VmPTE:\tabc kB\n"
		"VmSwap:\t    -\n"
		"Uid:\n"
		"voluntary_ctxt_switches:\t12\n";
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(s, strlen(s), &ps), 0);
	ck_assert_int_eq(ps.vm_size, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_rss, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_pte, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_swap, TV_UNKNOWN);
	ck_assert_int_eq(ps.euid, TV_UNKNOWN);
	ck_assert_int_eq(ps.ctxt_vol, 12);
	ck_assert_int_eq(ps.ctxt_invol, TV_UNKNOWN);
}
END_TEST

START_TEST(status_similar_keys_not_confused)
{
	/* VmPTE must not be taken from a key that merely starts the same way */
	static const char s[] =
		"Name:\tx\n"
		"VmPTEx:\t99 kB\n"
		"VmSwapCache:\t77 kB\n"
		"Vm:\t1 kB\n";
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(s, strlen(s), &ps), 0);
	ck_assert_int_eq(ps.vm_pte, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_swap, TV_UNKNOWN);
}
END_TEST

START_TEST(status_numbers_exact_or_unknown)
{
	/* the extremes of a signed 64-bit field come out exactly; one more does
	 * not fit and is unknown, never wrapped around */
	static const char s[] =
		"Name:\tx\n"
		"VmSize:\t9223372036854775807 kB\n"
		"VmRSS:\t9223372036854775808 kB\n"
		"VmPTE:\t18446744073709551616 kB\n"
		"VmSwap:\t99999999999999999999 kB\n"
		"VmStk:\t-9223372036854775807 kB\n"
		"VmHWM:\t-9223372036854775809 kB\n"
		"voluntary_ctxt_switches:\t-9223372036854775808\n"
		"nonvoluntary_ctxt_switches:\t000000000000000000000000000000042\n";
	struct proc_status ps;
	ck_assert_int_eq(proc_parse_status(s, strlen(s), &ps), 0);
	ck_assert_int_eq(ps.vm_size, INT64_MAX);
	ck_assert_int_eq(ps.vm_rss, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_pte, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_swap, TV_UNKNOWN);
	ck_assert_int_eq(ps.vm_stk, -INT64_MAX);
	ck_assert_int_eq(ps.vm_hwm, TV_UNKNOWN);
	ck_assert_int_eq(ps.ctxt_vol, INT64_MIN);
	ck_assert_int_eq(ps.ctxt_invol, 42);
}
END_TEST

START_TEST(stat_numbers_exact_or_refused)
{
	char buf[1024];
	struct proc_stat st;
	/* the largest unsigned 64-bit tick counts are read exactly */
	size_t len = make_stat(buf, sizeof(buf), 7, "x", 1, 'S', 18446744073709551615ull, 18446744073709551614ull,
			       20, 0, 1, 18446744073709551615ull);
	ck_assert_int_eq(proc_parse_stat(buf, len, &st), 0);
	ck_assert_uint_eq(st.utime, UINT64_MAX);
	ck_assert_uint_eq(st.stime, UINT64_MAX - 1);
	ck_assert_uint_eq(st.start_ticks, UINT64_MAX);
	/* one more does not fit: the line is refused instead of wrapping to 0 */
	len = make_stat(buf, sizeof(buf), 7, "x", 1, 'S', 1, 2, 20, 0, 1, 3);
	char *u = strstr(buf, " 1 2 0 0 20 ");
	ck_assert_ptr_nonnull(u);
	char big[1024];
	snprintf(big, sizeof(big), "%.*s 18446744073709551616%s", (int)(u - buf), buf, u + 2);
	ck_assert_int_eq(proc_parse_stat(big, strlen(big), &st), -1);
	/* the most negative thread count is no overflow */
	snprintf(big, sizeof(big), "%.*s 1 2 0 0 20 0 -9223372036854775808%s", (int)(u - buf), buf,
		 strstr(buf, " 0 3 3133440"));
	ck_assert_int_eq(proc_parse_stat(big, strlen(big), &st), 0);
	ck_assert_int_eq(st.nthreads, INT64_MIN);
	snprintf(big, sizeof(big), "%.*s 1 2 0 0 20 0 -9223372036854775809%s", (int)(u - buf), buf,
		 strstr(buf, " 0 3 3133440"));
	ck_assert_int_eq(proc_parse_stat(big, strlen(big), &st), -1);
}
END_TEST

/* ---- cmdline ---- */

START_TEST(cmdline_args_joined)
{
	static const char raw[] = "/usr/bin/python3\0-m\0http.server\0";
	char out[64];
	size_t n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, sizeof(out), NULL);
	ck_assert_str_eq(out, "/usr/bin/python3 -m http.server");
	ck_assert_uint_eq(n, strlen(out));
}
END_TEST

START_TEST(cmdline_embedded_and_trailing_nuls)
{
	/* an empty argument in the middle stays visible as a double space; trailing NULs go */
	static const char raw[] = "sh\0-c\0\0echo hi\0\0\0";
	char out[64];
	size_t n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, sizeof(out), NULL);
	ck_assert_str_eq(out, "sh -c  echo hi");
	ck_assert_uint_eq(n, 14);
}
END_TEST

START_TEST(cmdline_no_trailing_nul)
{
	/* setproctitle-style rewrites drop the final NUL */
	static const char raw[] = "postgres: writer process";
	char out[64];
	size_t n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, sizeof(out), NULL);
	ck_assert_str_eq(out, raw);
	ck_assert_uint_eq(n, sizeof(raw) - 1);
}
END_TEST

START_TEST(cmdline_empty)
{
	char out[16];
	memset(out, 'X', sizeof(out));
	ck_assert_uint_eq(proc_parse_cmdline("", 0, true, out, sizeof(out), NULL), 0);
	ck_assert_str_eq(out, "");
	memset(out, 'X', sizeof(out));
	ck_assert_uint_eq(proc_parse_cmdline("\0\0\0", 3, true, out, sizeof(out), NULL), 0);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(cmdline_truncated_to_capacity)
{
	static const char raw[] = "abcdef\0ghij\0";
	char out[8];
	bool cut = false;
	memset(out, 'X', sizeof(out));
	size_t n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, sizeof(out), &cut);
	/* cut, and it shows: the mark ends what fits */
	ck_assert(cut);
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(out, "abcd" PROC_CMDLINE_CUT_MARK);
	/* exactly fits: no mark */
	n = proc_parse_cmdline(raw, 6, true, out, 7, &cut);
	ck_assert(!cut);
	ck_assert_str_eq(out, "abcdef");
	n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, 7, &cut);
	ck_assert(cut);
	ck_assert_str_eq(out, "abc" PROC_CMDLINE_CUT_MARK);
	/* too small for the mark: cut all the same, and said so */
	n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, 3, &cut);
	ck_assert(cut);
	ck_assert_str_eq(out, "");
	/* no capacity: nothing written, nothing returned */
	ck_assert_uint_eq(proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, 0, &cut), 0);
}
END_TEST

START_TEST(cmdline_read_buffer_full_is_marked)
{
	/* the read filled its buffer: more may follow, and the mark says so */
	static const char raw[] = "sleep\0" "100\0";
	char out[64];
	bool cut = false;
	size_t n = proc_parse_cmdline(raw, sizeof(raw) - 1, false, out, sizeof(out), &cut);
	ck_assert(cut);
	ck_assert_str_eq(out, "sleep 100" PROC_CMDLINE_CUT_MARK);
	ck_assert_uint_eq(n, strlen(out));
	/* a whole file that fits is not */
	n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, sizeof(out), &cut);
	ck_assert(!cut);
	ck_assert_str_eq(out, "sleep 100");
	/* a full buffer of empty arguments: what follows is still missing */
	n = proc_parse_cmdline("\0\0\0", 3, false, out, sizeof(out), &cut);
	ck_assert(cut);
	ck_assert_str_eq(out, PROC_CMDLINE_CUT_MARK);
}
END_TEST

START_TEST(cmdline_cut_keeps_utf8_whole)
{
	/* "x" then three characters of 2, 3 and 4 bytes, cut at every place */
	static const char raw[] = "x\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
	for (size_t cap = 5; cap < sizeof(raw) + 4; cap++) {
		char out[32];
		bool cut;
		size_t n = proc_parse_cmdline(raw, sizeof(raw) - 1, true, out, cap, &cut);
		ck_assert_uint_lt(n, cap);
		ck_assert_uint_eq(n, strlen(out));
		ck_assert(cut == (sizeof(raw) - 1 >= cap));
		size_t body = cut ? n - strlen(PROC_CMDLINE_CUT_MARK) : n;
		/* the kept part is a prefix that ends on a character boundary */
		ck_assert_msg(memcmp(out, raw, body) == 0, "cap %zu: not a prefix", cap);
		ck_assert_msg(body == 1 || body == 3 || body == 6 || body == 10, "cap %zu: %zu bytes kept", cap, body);
	}
}
END_TEST

static Suite *proc_parse_suite(void)
{
	Suite *s = suite_create("proc_parse");
	TCase *tc = tcase_create("stat");
	tcase_add_test(tc, stat_real_sample);
	tcase_add_test(tc, stat_fields_in_place);
	tcase_add_test(tc, stat_name_with_fake_fields);
	tcase_add_test(tc, stat_name_ending_in_paren_and_numbers);
	tcase_add_test(tc, stat_name_with_spaces_and_newline);
	tcase_add_test(tc, stat_empty_name);
	tcase_add_test(tc, stat_kernel_thread);
	tcase_add_test(tc, stat_long_kernel_thread_name);
	tcase_add_test(tc, stat_zombie);
	tcase_add_test(tc, stat_truncated);
	tcase_add_test(tc, stat_garbage);
	suite_add_tcase(s, tc);

	tc = tcase_create("status");
	tcase_add_test(tc, status_real_sample);
	tcase_add_test(tc, status_effective_uid);
	tcase_add_test(tc, status_kernel_thread);
	tcase_add_test(tc, status_zombie);
	tcase_add_test(tc, status_name_escapes);
	tcase_add_test(tc, status_name_with_spaces_and_parens);
	tcase_add_test(tc, status_empty_name);
	tcase_add_test(tc, status_no_name_is_error);
	tcase_add_test(tc, status_truncated);
	tcase_add_test(tc, status_malformed_numbers);
	tcase_add_test(tc, status_similar_keys_not_confused);
	tcase_add_test(tc, status_numbers_exact_or_unknown);
	tcase_add_test(tc, stat_numbers_exact_or_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("cmdline");
	tcase_add_test(tc, cmdline_args_joined);
	tcase_add_test(tc, cmdline_embedded_and_trailing_nuls);
	tcase_add_test(tc, cmdline_no_trailing_nul);
	tcase_add_test(tc, cmdline_empty);
	tcase_add_test(tc, cmdline_truncated_to_capacity);
	tcase_add_test(tc, cmdline_read_buffer_full_is_marked);
	tcase_add_test(tc, cmdline_cut_keeps_utf8_whole);
	tcase_add_test(tc, io_real_sample);
	tcase_add_test(tc, io_garbage_is_unknown);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(proc_parse_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
