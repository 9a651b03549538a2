/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Human units, and the promise behind the column table: a value always fits
 * its column's width, so the renderer never cuts digits off a number.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "model/value.h"
#include "render/format.h"
#include "util/fmt.h"

static const char *kib(int64_t v)
{
	static char out[32];
	fmt_kib(out, sizeof(out), v);
	return out;
}

static const char *bytes(double v)
{
	static char out[32];
	fmt_bytes(out, sizeof(out), v);
	return out;
}

static const char *count(double v)
{
	static char out[32];
	fmt_count(out, sizeof(out), v);
	return out;
}

static const char *secs(double v)
{
	static char out[32];
	fmt_seconds(out, sizeof(out), v);
	return out;
}

static const char *pct(double v)
{
	static char out[32];
	fmt_percent(out, sizeof(out), v);
	return out;
}

START_TEST(kib_units)
{
	ck_assert_str_eq(kib(0), "0K");
	ck_assert_str_eq(kib(4), "4K");
	ck_assert_str_eq(kib(812), "812K");
	ck_assert_str_eq(kib(999), "999K");
	/* 1000 KiB would take a fifth character: shown as 0.98 MiB rounded */
	ck_assert_str_eq(kib(1000), "1.0M");
	ck_assert_str_eq(kib(1024), "1.0M");
	ck_assert_str_eq(kib(1536), "1.5M");
	ck_assert_str_eq(kib(10188), "9.9M");
	ck_assert_str_eq(kib(10240), "10M");
	ck_assert_str_eq(kib(1022976), "999M");
	ck_assert_str_eq(kib(1024 * 1024), "1.0G");
	ck_assert_str_eq(kib(1536 * 1024), "1.5G");
	ck_assert_str_eq(kib(80LL * 1024 * 1024), "80G");
	ck_assert_str_eq(kib(3LL * 1024 * 1024 * 1024), "3.0T");
	ck_assert_str_eq(kib(INT64_MAX), "8192E");
}
END_TEST

START_TEST(kib_at_most_five_chars)
{
	for (int e = 0; e < 63; e++) {
		int64_t base = (int64_t)1 << e;
		for (int64_t d = -1; d <= 1; d++) {
			int64_t v = base + d;
			if (v < 0)
				continue;
			ck_assert_msg(strlen(kib(v)) <= 5, "%lld KiB -> %s", (long long)v, kib(v));
		}
	}
	for (int64_t v = 990; v < 1100; v++)
		ck_assert_msg(strlen(kib(v)) <= 4, "%lld KiB -> %s", (long long)v, kib(v));
}
END_TEST

START_TEST(bytes_units)
{
	ck_assert_str_eq(bytes(0), "0");
	ck_assert_str_eq(bytes(812), "812");
	ck_assert_str_eq(bytes(4096), "4.0K");
	ck_assert_str_eq(bytes(1.5 * 1024 * 1024), "1.5M");
	ck_assert_str_eq(bytes(200.0 * 1024 * 1024 * 1024), "200G");
}
END_TEST

START_TEST(count_units)
{
	ck_assert_str_eq(count(0), "0");
	ck_assert_str_eq(count(123), "123");
	ck_assert_str_eq(count(0.5), "0.5");
	ck_assert_str_eq(count(12.34), "12.3");
	ck_assert_str_eq(count(99999), "99999");
	ck_assert_str_eq(count(123456), "123k");
	ck_assert_str_eq(count(1234567), "1.23M");
	ck_assert_str_eq(count(12345678), "12.3M");
	ck_assert_str_eq(count(4.5e9), "4.50G");
	for (double v = 0.01; v < 1e15; v *= 1.37)
		ck_assert_msg(strlen(count(v)) <= 6, "%g -> %s", v, count(v));
}
END_TEST

START_TEST(seconds_units)
{
	ck_assert_str_eq(secs(0), "0:00.00");
	ck_assert_str_eq(secs(4.25), "0:04.25");
	ck_assert_str_eq(secs(59.999), "1:00.00");
	ck_assert_str_eq(secs(754.5), "12:34.50");
	ck_assert_str_eq(secs(3600), "1:00:00");
	ck_assert_str_eq(secs(12 * 3600 + 3 * 60 + 44), "12:03:44");
	ck_assert_str_eq(secs(100 * 3600), "4d04h");
	ck_assert_str_eq(secs(-3), "0:00.00");
	ck_assert_str_eq(secs(99999.0 * 86400 + 23 * 3600), "99999d23h");
	ck_assert_str_eq(secs(1e10), "115740d");
}
END_TEST

START_TEST(percent_units)
{
	ck_assert_str_eq(pct(0), "0.0");
	ck_assert_str_eq(pct(12.34), "12.3");
	ck_assert_str_eq(pct(100), "100.0");
	ck_assert_str_eq(pct(999.9), "999.9");
	ck_assert_str_eq(pct(1234.4), "1234");
	ck_assert_str_eq(pct(12800), "12800");
	ck_assert_str_eq(pct(250000), "250k"); /* a delay summed over 2500 waiting threads */
}
END_TEST

/* ---- every numeric value fits its column ---- */

/* The widest values each built-in column can really hold. */
struct range {
	const char *id;
	double lo, hi;
};

static const struct range ranges[] = {
	{"pid", 1, 4194304}, /* PID_MAX_LIMIT */
	{"tgid", 1, 4194304},
	{"ppid", 0, 4194304},
	{"nice", -20, 19},
	{"prio", -100, 39},  /* SCHED_FIFO 99 (migration/N) is -100 */
	{"threads", 1, 4194304},
	{"cpu", 0, 1e6},     /* sum over threads on a many-CPU machine */
	{"time", 0, 1e12},   /* process rows: CPU time of all threads, many CPUs, years */
	{"vm_size", 0, 9.2e18},
	{"vm_rss", 0, 9.2e18},
	{"vm_pte", 0, 9.2e18},
	{"vm_swap", 0, 9.2e18},
	{"rss_virt", 0, 100},
	{"ctxt_vol", 0, 9.2e18},
	{"ctxt_invol", 0, 9.2e18},
	{"ctxt_vol_rate", 0, 1e12},
	{"ctxt_invol_rate", 0, 1e12},
	{"cpu_delay", 0, 1e6},   /* process rows: % summed over thousands of threads */
	{"io_delay", 0, 1e6},
	{"cpu_delay_avg", 0, 1e9}, /* ms: a task stuck for days on a dead NFS server */
	{"io_delay_avg", 0, 1e9},
};

static void check_fits(const struct column *col, double v)
{
	struct tv_value val;
	if (col->type == COL_INT || col->type == COL_KIB)
		val = value_int((int64_t)v);
	else
		val = value_float(v);
	char out[128];
	format_number(col, &val, out, sizeof(out));
	ck_assert_msg(strlen(out) <= (size_t)col->width, "%s: %.17g -> \"%s\" is wider than %d", col->id, v, out,
		      col->width);
}

START_TEST(values_fit_their_columns)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		const struct column *col = colset_find(&cs, ranges[i].id);
		ck_assert_msg(col != NULL, "no column %s", ranges[i].id);
		double lo = ranges[i].lo, hi = ranges[i].hi;
		check_fits(col, lo);
		check_fits(col, hi);
		if (lo < 0)
			for (double v = lo; v < 0; v++)
				check_fits(col, v);
		/* every decade boundary and the values just around it */
		for (double d = 1; d <= hi; d *= 10) {
			static const double around[] = {-1, -0.5, -0.05, -0.005, 0, 0.004, 0.04, 0.4};
			for (size_t k = 0; k < sizeof(around) / sizeof(around[0]); k++) {
				double v = d + around[k];
				if (col->type == COL_INT || col->type == COL_KIB)
					v = floor(v);
				if (v >= lo && v <= hi)
					check_fits(col, v);
				if (-v >= lo && -v <= hi)
					check_fits(col, -v);
			}
		}
		for (double v = lo > 0 ? lo : 0.001; v <= hi; v *= 1.07)
			check_fits(col, v);
	}
	colset_free(&cs);
}
END_TEST

START_TEST(unknown_is_a_dash)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	struct tv_value u = value_unknown();
	for (size_t i = 0; i < cs.n; i++) {
		char out[32];
		format_number(&cs.cols[i], &u, out, sizeof(out));
		ck_assert_str_eq(out, "-");
	}
	colset_free(&cs);
}
END_TEST

START_TEST(format_number_by_type)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	char out[64];
	struct tv_value v = value_int(1796);
	format_number(colset_find(&cs, "vm_rss"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "1.8M");
	v = value_int(4194304);
	format_number(colset_find(&cs, "pid"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "4194304");
	v = value_int(-100);
	format_number(colset_find(&cs, "prio"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "-100");
	v = value_float(12.345);
	format_number(colset_find(&cs, "cpu"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "12.3");
	v = value_float(0.0049);
	format_number(colset_find(&cs, "io_delay_avg"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "0.00");
	v = value_float(12.345);
	format_number(colset_find(&cs, "io_delay_avg"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "12.3");
	v = value_float(4.25);
	format_number(colset_find(&cs, "time"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "0:04.25");
	/* too many digits for the column: scaled, never cut */
	v = value_int(1500000000);
	format_number(colset_find(&cs, "ctxt_vol"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "1.50G");
	v = value_int(12345678);
	format_number(colset_find(&cs, "ctxt_vol"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "12345678");
	v = value_int(123456);
	format_number(colset_find(&cs, "threads"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "123k");
	v = value_float(3 * 3600e3);
	format_number(colset_find(&cs, "io_delay_avg"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "10.8M");
	v = value_float(2500);
	format_number(colset_find(&cs, "ctxt_vol_rate"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "2500");
	colset_free(&cs);
}
END_TEST

START_TEST(cell_right_aligned_number)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	const struct column *col = colset_find(&cs, "cpu");
	struct buf b;
	buf_init(&b);
	struct tv_value v = value_float(5.0);
	format_cell(&b, col, &v, 6, NULL, true);
	ck_assert_str_eq(buf_str(&b), "   5.0");
	buf_reset(&b);
	v = value_unknown();
	format_cell(&b, col, &v, 6, NULL, true);
	ck_assert_str_eq(buf_str(&b), "     -");
	buf_free(&b);
	colset_free(&cs);
}
END_TEST

START_TEST(cell_lower_bound_marked)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	struct tv_task t;
	task_init(&t);
	t.ctxt_vol_rate = 130;
	t.ctxt_invol_rate = 4;
	t.partial = TV_PART_BIT(TV_PART_CTXT_VOL_RATE);
	struct buf b;
	buf_init(&b);
	struct tv_value v = column_value(colset_find(&cs, "ctxt_vol_rate"), &t);
	ck_assert(v.partial);
	format_cell(&b, colset_find(&cs, "ctxt_vol_rate"), &v, 6, NULL, true);
	ck_assert_str_eq(buf_str(&b), "  130+");
	buf_reset(&b);
	v = column_value(colset_find(&cs, "ctxt_invol_rate"), &t);
	ck_assert(!v.partial);
	format_cell(&b, colset_find(&cs, "ctxt_invol_rate"), &v, 6, NULL, true);
	ck_assert_str_eq(buf_str(&b), "     4");
	/* unknown stays "-", never "-+" */
	t.ctxt_vol_rate = NAN;
	buf_reset(&b);
	v = column_value(colset_find(&cs, "ctxt_vol_rate"), &t);
	ck_assert(!v.partial);
	format_cell(&b, colset_find(&cs, "ctxt_vol_rate"), &v, 6, NULL, true);
	ck_assert_str_eq(buf_str(&b), "     -");
	buf_free(&b);
	colset_free(&cs);
}
END_TEST

START_TEST(cell_string_with_prefix)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	const struct column *col = colset_find(&cs, "comm");
	struct buf b;
	buf_init(&b);
	struct tv_value v = value_str("a\x1b[2Jb");
	format_cell(&b, col, &v, 12, format_tree_prefix(true, false), false);
	ck_assert_str_eq(buf_str(&b), "`- a\\e[2Jb  ");
	buf_reset(&b);
	format_cell(&b, col, &v, 5, format_tree_prefix(false, false), false);
	ck_assert_str_eq(buf_str(&b), "|- a ");
	buf_free(&b);
	colset_free(&cs);
}
END_TEST

/* ---- a number is never shown wrong, whatever the width ---- */

/* Units of a column type, as fmt_fit and the usual forms write them. */
static double unit_factor(enum col_type t, const char *u)
{
	static const char *const dec[] = {"", "k", "M", "G", "T", "P", "E"};
	static const char *const bin[] = {"", "K", "M", "G", "T", "P", "E"};
	static const char *const kib[] = {"K", "M", "G", "T", "P", "E"};
	if (t == COL_KIB) {
		for (int i = 0; i < 6; i++)
			if (strcmp(u, kib[i]) == 0)
				return ldexp(1, 10 * i);
		return NAN;
	}
	if (t == COL_BYTES) {
		for (int i = 0; i < 7; i++)
			if (strcmp(u, bin[i]) == 0)
				return ldexp(1, 10 * i);
		return NAN;
	}
	if (t == COL_SECONDS) {
		static const char *const tu[] = {"s", "h", "d", "kd", "Md", "Gd", "Td", "Pd", "Ed"};
		static const double tf[] = {1, 3600, 86400, 86400e3, 86400e6, 86400e9, 86400e12, 86400e15, 86400e18};
		for (int i = 0; i < 9; i++)
			if (strcmp(u, tu[i]) == 0)
				return tf[i];
		return NAN;
	}
	for (int i = 0; i < 7; i++)
		if (strcmp(u, dec[i]) == 0)
			return pow(1000, i);
	return NAN;
}

/* Reads back a shown number: its value and the half-step of its last digit. */
static bool shown_value(enum col_type t, const char *s, long double *val, long double *tol)
{
	int a, b, c;
	char rest[16];
	/* the usual forms of CPU time: m:ss.cc, h:mm:ss, NdHHh */
	if (t == COL_SECONDS && sscanf(s, "%d:%d.%d%1s", &a, &b, &c, rest) == 3 && strlen(s) > 5 &&
	    s[strlen(s) - 3] == '.') {
		*val = a * 60 + b + c / 100.0;
		*tol = 0.005;
		return true;
	}
	if (t == COL_SECONDS && sscanf(s, "%d:%d:%d%1s", &a, &b, &c, rest) == 3) {
		*val = a * 3600.0 + b * 60 + c;
		*tol = 1; /* whole seconds, truncated */
		return true;
	}
	if (t == COL_SECONDS && sscanf(s, "%dd%dh%1s", &a, &b, rest) == 2) {
		*val = a * 86400.0 + b * 3600.0;
		*tol = 3600;
		return true;
	}
	char *end;
	long double m = strtold(s, &end);
	if (end == s)
		return false;
	const char *dot = memchr(s, '.', (size_t)(end - s));
	const char *e = memchr(s, 'e', (size_t)(end - s));
	int decimals = dot ? (int)((e ? e : end) - dot - 1) : 0;
	int exp10 = e ? atoi(e + 1) : 0;
	double f = unit_factor(t, end);
	if (isnan(f))
		return false;
	*val = m * f;
	*tol = 0.5L * powl(10, exp10 - decimals) * f;
	return true;
}

static void check_cell(const struct column *col, double v, bool is_int, bool partial, size_t width)
{
	struct tv_value val = is_int ? value_int((int64_t)v) : value_float(v);
	if (is_int && v >= 9.2233720368547758e18)
		val = value_int(INT64_MAX);
	if (is_int && v <= -9.2233720368547758e18)
		val = value_int(INT64_MIN + 1);
	val.partial = partial;
	double truth = is_int ? (double)val.i : v;
	struct buf b;
	buf_init(&b);
	format_cell(&b, col, &val, width, NULL, true);
	const char *cell = buf_str(&b);
	ck_assert_msg(strlen(cell) == width, "%s %.17g in %zu: \"%s\" is not %zu wide", col->id, truth, width, cell, width);
	const char *p = cell + strspn(cell, " ");
	if (*p == '#') {
		/* all hashes, and only where no honest form can fit */
		ck_assert_msg(strspn(p, "#") == strlen(p), "%s: \"%s\"", col->id, cell);
		ck_assert_msg(width < 7, "%s %.17g in %zu columns: nothing shown", col->id, truth, width);
		buf_free(&b);
		return;
	}
	char num[64];
	snprintf(num, sizeof(num), "%s", p);
	size_t len = strlen(num);
	while (len && num[len - 1] == ' ')
		num[--len] = '\0';
	/* the mark of a lower bound is always there, never a cut digit's place */
	if (partial) {
		ck_assert_msg(len && num[len - 1] == '+', "%s %.17g in %zu: \"%s\" lost its +", col->id, truth, width, cell);
		num[--len] = '\0';
	}
	long double shown, tol;
	ck_assert_msg(shown_value(col->type, num, &shown, &tol), "%s %.17g in %zu: \"%s\" unreadable", col->id, truth,
		      width, cell);
	ck_assert_msg(fabsl(shown - truth) <= tol * 1.000001L + fabsl(truth) * 1e-12L,
		      "%s %.17g in %zu columns shows \"%s\" (%.17Lg)", col->id, truth, width, cell, shown);
	buf_free(&b);
}

START_TEST(never_a_wrong_number)
{
	static const double ints[] = {0, 1, -1, 7, 42, -20, 99, 100, 999, 1000, 1023, 1024, 9999, 99999, 100000,
				      123456, -123456, 999999, 1000000, 1234567, 99999999, 4194304, 1e9, 1.5e9,
				      -2.5e12, 1e15, 4.5e15, 1e18, 9.2233720368547758e18, -9.2233720368547758e18};
	static const double floats[] = {0, 0.004, 0.05, 0.5, 1.25, 9.995, 12.34, -3.5, 99.96, 999.5, 1234.5,
					 99999.4, 123456.7, -123456.7, 5e6, 1e9, 3.3e13, 1e18, 7e20, 1e21, 4e25,
					 -1e300, 1.7976931348623157e308};
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	/* every type, as built-in columns and as plugin columns of any width have them */
	static const enum col_type types[] = {COL_INT, COL_KIB, COL_BYTES, COL_PERCENT, COL_RATE, COL_SECONDS, COL_MS,
					      COL_FLOAT};
	for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
		struct column col = {.id = "synthetic", .header = "X", .type = types[ti], .width = 1};
		bool is_int = col.type == COL_INT || col.type == COL_KIB || col.type == COL_BYTES;
		for (size_t w = 1; w <= 24; w++) {
			for (int partial = 0; partial <= 1; partial++) {
				const double *vals = is_int ? ints : floats;
				size_t nv = is_int ? sizeof(ints) / sizeof(ints[0]) : sizeof(floats) / sizeof(floats[0]);
				for (size_t i = 0; i < nv; i++) {
					if (col.type == COL_SECONDS && vals[i] < 0)
						continue; /* CPU time: never negative */
					check_cell(&col, vals[i], is_int, partial, w);
					if (!is_int)
						check_cell(&col, vals[i], false, partial, w);
				}
				/* integers shown by float columns (plugin values, sums) */
				if (!is_int)
					for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
						if (col.type != COL_SECONDS || ints[i] >= 0)
							check_cell(&col, ints[i], true, partial, w);
			}
		}
	}
	colset_free(&cs);
}
END_TEST

START_TEST(int64_extremes_in_narrow_columns)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	char out[64];
	struct tv_value v = value_int(INT64_MAX);
	format_number(colset_find(&cs, "pid"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "9.22E");
	format_number(colset_find(&cs, "ctxt_vol"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "9.22E");
	v = value_int(-INT64_MAX);
	format_number(colset_find(&cs, "nice"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "-9E");
	v = value_int(123456);
	format_number(colset_find(&cs, "nice"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "###"); /* no honest form in 3 columns */
	v = value_int(-1024);
	format_number(colset_find(&cs, "vm_pte"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "-1.0M");
	/* a lower bound's mark takes a column: the number gets coarser, not cut */
	struct buf b;
	buf_init(&b);
	v = value_float(99999);
	v.partial = true;
	format_cell(&b, colset_find(&cs, "ctxt_vol_rate"), &v, 6, NULL, true);
	ck_assert_str_eq(buf_str(&b), "99999+");
	buf_reset(&b);
	v = value_float(123456);
	v.partial = true;
	format_cell(&b, colset_find(&cs, "cpu"), &v, 5, NULL, true);
	ck_assert_str_eq(buf_str(&b), "123k+");
	buf_reset(&b);
	v = value_float(1.7976931348623157e308);
	format_cell(&b, colset_find(&cs, "cpu"), &v, 5, NULL, true);
	ck_assert_str_eq(buf_str(&b), "2e308");
	/* an infinite value measures nothing: unknown, never "inf" nor "-+" */
	buf_reset(&b);
	v = value_float(-INFINITY);
	v.partial = true;
	format_cell(&b, colset_find(&cs, "cpu"), &v, 5, NULL, true);
	ck_assert_str_eq(buf_str(&b), "    -");
	buf_free(&b);
	colset_free(&cs);
}
END_TEST


/* A rejected step prints apart from its bound (5.93 s against 5.9 s read
 * "grew by 5.9 s, more than ... (5.9 s)"). */
START_TEST(reject_step_and_bound_apart)
{
	struct buf b;
	buf_init(&b);
	struct tv_reject r = {.tid = 7, .cls = TV_DELAY_IO, .step_s = 5.93, .bound_s = 5.9};
	format_reject(&b, &r);
	ck_assert_msg(strstr(buf_str(&b), "5.93 s") && strstr(buf_str(&b), "(5.90 s)"), "%s", buf_str(&b));
	buf_reset(&b);
	r = (struct tv_reject){.tid = 7, .cpu = true, .step_s = 2.0004, .bound_s = 2.0};
	format_reject(&b, &r);
	ck_assert_msg(strstr(buf_str(&b), "2.0004 s") && strstr(buf_str(&b), "(2.0000 s)"), "%s", buf_str(&b));
	buf_reset(&b);
	r.step_s = 9.5;
	format_reject(&b, &r);
	ck_assert_msg(strstr(buf_str(&b), "9.50 s") && strstr(buf_str(&b), "(2.00 s)"), "%s", buf_str(&b));
	buf_free(&b);
}
END_TEST

static Suite *fmt_suite(void)
{
	Suite *s = suite_create("fmt");
	TCase *tc = tcase_create("units");
	tcase_add_test(tc, kib_units);
	tcase_add_test(tc, kib_at_most_five_chars);
	tcase_add_test(tc, bytes_units);
	tcase_add_test(tc, count_units);
	tcase_add_test(tc, seconds_units);
	tcase_add_test(tc, percent_units);
	suite_add_tcase(s, tc);

	tc = tcase_create("columns");
	tcase_add_test(tc, values_fit_their_columns);
	tcase_add_test(tc, unknown_is_a_dash);
	tcase_add_test(tc, format_number_by_type);
	tcase_add_test(tc, cell_right_aligned_number);
	tcase_add_test(tc, cell_lower_bound_marked);
	tcase_add_test(tc, cell_string_with_prefix);
	tcase_add_test(tc, int64_extremes_in_narrow_columns);
	tcase_add_test(tc, never_a_wrong_number);
	tcase_add_test(tc, reject_step_and_bound_apart);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fmt_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
