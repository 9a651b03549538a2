/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The metrics exporter over made-up refreshes: group counters that never go
 * down (processes that end with or without an exit record, move between
 * groups, enter the selection, reuse a PID, counters that fall), groups that
 * go and come back, unknown values left out, the control groups' own memory
 * and pressure, the series bound, and the text of both dialects (escaping,
 * exact decimals, headers).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/accum.h"
#include "export/om_format.h"
#include "export/openmetrics.h"
#include "export/pick.h"
#include "model/snapshot.h"
#include "model/task.h"
#include "util/text.h"

#define SEC 1000000000LL
#define HZ 100.0
#define OFFSET 1000.0
#define OLD_START 5000 /* ticks: long before every refresh */

/* ---------------------------------------------------------------- helpers */

static void snap_init(struct snapshot *s, double mono)
{
	memset(s, 0, sizeof(*s));
	s->mono = mono;
	s->wall = 1700000000.0 + mono;
	s->boot_offset = OFFSET;
	s->hz = HZ;
	s->boot_ticks = (mono + OFFSET) * HZ;
	for (int r = 0; r < TV_RES_N; r++)
		pressure_unknown(&s->pressure[r]);
}

/* The start time, in ticks, of a process born at monotonic time t. */
static uint64_t born_at(double mono)
{
	return (uint64_t)((mono + OFFSET) * HZ);
}

/* Appends a control group; add them in path order (the snapshot's is sorted). */
static struct tv_cgroup *add_cg(struct snapshot *s, const char *path, const char *unit, const struct tv_cgroup *parent,
				int64_t mem)
{
	struct tv_cgroup *g = calloc(1, sizeof(*g));
	ck_assert_ptr_nonnull(g);
	g->path = strdup(path);
	g->unit = strdup(unit);
	g->parent = parent;
	g->mem_bytes = mem;
	g->swap_bytes = mem == TV_UNKNOWN ? TV_UNKNOWN : 0;
	cgroup_cpu_unknown(g);
	for (int r = 0; r < TV_RES_N; r++)
		pressure_unknown(&g->psi[r]);
	s->cgroups = realloc(s->cgroups, (s->ncgroups + 1) * sizeof(*s->cgroups));
	ck_assert_ptr_nonnull(s->cgroups);
	s->cgroups[s->ncgroups++] = g;
	return g;
}

static struct tv_task *push(struct tv_task **v, size_t *n)
{
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	ck_assert_ptr_nonnull(*v);
	struct tv_task *t = &(*v)[(*n)++];
	task_init(t);
	return t;
}

/* A live process (add them in tgid order); cpu in ns, the other counters derived from it. */
static struct tv_task *add_proc(struct snapshot *s, int32_t tgid, uint64_t start, const struct tv_cgroup *cg,
				int64_t cpu)
{
	struct tv_task *t = push(&s->procs, &s->nprocs);
	t->tid = t->tgid = tgid;
	t->start_ticks = start;
	t->cgroup = cg;
	t->cpu_ns = cpu;
	t->ctxt_vol = cpu / 1000000;
	t->ctxt_invol = cpu / 2000000;
	t->nthreads = 2;
	task_mem_mut(t)->rss = 100;
	task_mem_mut(t)->size = 1000;
	task_mem_mut(t)->pte = 8;
	task_mem_mut(t)->swap = 0;
	t->delay[TV_DELAY_CPU] = (struct tv_delay){cpu / 10000000, cpu / 10};
	t->cpu_pct = (double)(cpu % 1000);
	char name[TV_COMM_MAX];
	snprintf(name, sizeof(name), "p%d", (int)tgid);
	task_set_comm(t, name, sizeof(name));
	return t;
}

/* A process that ended, as its exit record tells. */
static struct tv_task *add_gone(struct snapshot *s, int32_t tgid, uint64_t start, int64_t cpu)
{
	struct tv_task *t = push(&s->gone, &s->ngone);
	t->tid = t->tgid = tgid;
	t->start_ticks = start;
	t->cpu_ns = cpu;
	t->ctxt_vol = cpu / 1000000;
	t->ctxt_invol = cpu / 2000000;
	t->delay[TV_DELAY_CPU] = (struct tv_delay){cpu / 10000000, cpu / 10};
	return t;
}

static const struct accum_group *group(const struct accum *a, const char *name)
{
	for (size_t i = 0; i < a->ngroups; i++)
		if (strcmp(a->groups[i].name, name) == 0)
			return &a->groups[i];
	return NULL;
}

static int64_t total(const struct accum *a, const char *name, int field)
{
	const struct accum_group *g = group(a, name);
	ck_assert_msg(g != NULL, "no group \"%s\"", name);
	return g->total[field];
}

static bool shown(const struct accum *a, const char *name)
{
	const struct accum_group *g = group(a, name);
	return g && accum_group_shown(g);
}

static void update(struct accum *a, const struct snapshot *prev, const struct snapshot *cur, bool unseen)
{
	ck_assert_int_eq(accum_update(a, prev, cur, unseen), 0);
}

/* cmds: sums per command with their picks, or NULL */
static char *render(const struct accum *a, const struct accum *cmds, const struct snapshot *cur, enum om_dialect d)
{
	struct buf b;
	buf_init(&b);
	struct openmetrics_opts o = {d, NULL};
	openmetrics_render(&b, a, cmds, cur, &o);
	char *s = strdup(buf_str(&b));
	buf_free(&b);
	return s;
}

static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0, pl = strlen(prefix);
	for (const char *p = s; p && *p;) {
		if (strncmp(p, prefix, pl) == 0)
			n++;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return n;
}

/* Samples: every line that is not a comment. */
static size_t count_series(const char *s)
{
	size_t n = 0;
	for (const char *p = s; p && *p;) {
		if (*p != '#' && *p != '\n')
			n++;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return n;
}

static void add_text(struct buf *b, const char *s)
{
	buf_reset(b);
	om_add_label_value(b, s, strlen(s));
}

/* ---------------------------------------------------------------- text */

START_TEST(decimals_exact)
{
	struct buf b;
	buf_init(&b);
	static const struct {
		int64_t v;
		int scale;
		const char *want;
	} cases[] = {
		{0, 9, "0"},           {1500000000, 9, "1.5"}, {1, 6, "0.000001"}, {12, 0, "12"},
		{-5, 1, "-0.5"},       {1795396307903, 3, "1795396307.903"},
		{INT64_MAX, 9, "9223372036.854775807"},        {INT64_MIN, 0, "-9223372036854775808"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf_reset(&b);
		om_add_decimal(&b, cases[i].v, cases[i].scale);
		ck_assert_str_eq(buf_str(&b), cases[i].want);
	}
	buf_free(&b);
}
END_TEST

START_TEST(label_values_escaped)
{
	struct buf b;
	buf_init(&b);
	/* the format's own escapes for backslash and quote; a newline and '%' as %XX */
	add_text(&b, "a\"b\\c\nd%e");
	ck_assert_str_eq(buf_str(&b), "\"a\\\"b\\\\c%0Ad%25e\"");
	/* a terminal escape, an invalid byte, a C1 control, a bidi override: their bytes as %XX */
	add_text(&b, "x\x1b]0;t\x07y\xff\xc2\x85\xe2\x80\xaez");
	ck_assert_str_eq(buf_str(&b), "\"x%1B]0;t%07y%FF%C2%85%E2%80%AEz\"");
	/* valid UTF-8 stays, U+FFFD too; a sequence cut short does not swallow what follows */
	add_text(&b, "caf\xc3\xa9 \xef\xbf\xbd \xe2\x82");
	ck_assert_str_eq(buf_str(&b), "\"caf\xc3\xa9 \xef\xbf\xbd %E2%82\"");
	add_text(&b, "");
	ck_assert_str_eq(buf_str(&b), "\"\"");
	buf_free(&b);
}
END_TEST

/* Names that differ only in what a label cannot hold as text get distinct
 * values (they all were "dup\uFFFD" once: duplicate series). */
START_TEST(label_values_injective)
{
	static const char *const names[] = {
		"dup\x01", "dup\x02", "dup\xff", "dup\xfe", "dup\xef\xbf\xbd", "dup%01", "dup%", "dup\\x01",
		"dup\n", "dup\\n", "dup%0A", "dup\xc2\x85", "dup\xc2", "dup\xc2\xc2", "dup",
	};
	enum { N = sizeof(names) / sizeof(names[0]) };
	char *vals[N];
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < N; i++) {
		add_text(&b, names[i]);
		vals[i] = strdup(buf_str(&b));
		ck_assert_ptr_nonnull(vals[i]);
		/* valid UTF-8 throughout, no control character */
		for (size_t k = 0; k < b.len;) {
			uint32_t cp;
			size_t n = utf8_decode((const unsigned char *)b.data + k, b.len - k, &cp);
			ck_assert_msg(n > 0 && cp >= 0x20 && cp != 0x7f, "%s: byte %zu", vals[i], k);
			k += n;
		}
	}
	for (size_t i = 0; i < N; i++)
		for (size_t j = i + 1; j < N; j++)
			ck_assert_msg(strcmp(vals[i], vals[j]) != 0, "%zu and %zu both %s", i, j, vals[i]);
	for (size_t i = 0; i < N; i++)
		free(vals[i]);
	buf_free(&b);
}
END_TEST

START_TEST(dialect_headers)
{
	static const struct om_family cnt = {"x_cpu_seconds", OM_COUNTER, "seconds", "CPU\\time\nused"};
	static const struct om_family gau = {"x_rss_bytes", OM_GAUGE, "bytes", "RSS"};
	static const struct om_family none = {"x_never", OM_GAUGE, NULL, "never written"};
	struct om_label l = {"group", "g"};
	struct buf b;
	buf_init(&b);
	struct om_writer w;
	struct om_out om = {&b, OM_OPENMETRICS, NULL, 0}, text = {&b, OM_PROMETHEUS_TEXT, NULL, 0};
	om_family_begin(&w, &om, &none); /* no sample: no trace */
	om_family_begin(&w, &om, &cnt);
	om_sample(&w, &l, 1, 2500000000, 9);
	om_family_begin(&w, &om, &gau);
	om_sample(&w, NULL, 0, 4096, 0);
	om_end(&b, OM_OPENMETRICS);
	ck_assert_str_eq(buf_str(&b), "# HELP x_cpu_seconds CPU\\\\time\\nused\n"
				      "# TYPE x_cpu_seconds counter\n"
				      "# UNIT x_cpu_seconds seconds\n"
				      "x_cpu_seconds_total{group=\"g\"} 2.5\n"
				      "# HELP x_rss_bytes RSS\n"
				      "# TYPE x_rss_bytes gauge\n"
				      "# UNIT x_rss_bytes bytes\n"
				      "x_rss_bytes 4096\n"
				      "# EOF\n");
	buf_reset(&b);
	om_family_begin(&w, &text, &cnt);
	om_sample(&w, &l, 1, 2500000000, 9);
	om_sample(&w, &l, 1, 1, 9);
	om_end(&b, OM_PROMETHEUS_TEXT);
	ck_assert_str_eq(buf_str(&b), "# HELP x_cpu_seconds_total CPU\\\\time\\nused\n"
				      "# TYPE x_cpu_seconds_total counter\n"
				      "x_cpu_seconds_total{group=\"g\"} 2.5\n"
				      "x_cpu_seconds_total{group=\"g\"} 0.000000001\n");
	/* a host's name comes first on every sample, those without labels too */
	struct om_label host = {"host", "web\"1"};
	struct om_out hosted = {&b, OM_OPENMETRICS, &host, 1};
	buf_reset(&b);
	om_family_begin(&w, &hosted, &gau);
	om_sample(&w, NULL, 0, 1, 0);
	om_sample(&w, &l, 1, 2, 0);
	ck_assert_str_eq(buf_str(&b), "# HELP x_rss_bytes RSS\n"
				      "# TYPE x_rss_bytes gauge\n"
				      "# UNIT x_rss_bytes bytes\n"
				      "x_rss_bytes{host=\"web\\\"1\"} 1\n"
				      "x_rss_bytes{host=\"web\\\"1\",group=\"g\"} 2\n");
	buf_free(&b);
}
END_TEST

/* ---------------------------------------------------------------- counters */

/* Two processes in a group, one ends: with its record the final counters
 * count, without one its last values (never less than before). */
START_TEST(ended_process_keeps_group_total)
{
	for (int with_record = 0; with_record <= 1; with_record++) {
		struct snapshot s0, s1, s2;
		snap_init(&s0, 100);
		struct tv_cgroup *g0 = add_cg(&s0, "/a.service", "a.service", NULL, 1 << 20);
		add_proc(&s0, 10, OLD_START, g0, 10 * SEC);
		add_proc(&s0, 20, OLD_START, g0, 5 * SEC);
		snap_init(&s1, 101);
		struct tv_cgroup *g1 = add_cg(&s1, "/a.service", "a.service", NULL, 1 << 20);
		add_proc(&s1, 10, OLD_START, g1, 11 * SEC);
		add_proc(&s1, 20, OLD_START, g1, 6 * SEC);
		struct accum a;
		accum_init(&a);
		update(&a, &s0, &s1, true);
		ck_assert_int_eq(total(&a, "a.service", ACC_CPU_NS), 17 * SEC);
		ck_assert_int_eq(group(&a, "a.service")->g.procs, 2);
		snapshot_free(&s0);

		snap_init(&s2, 102);
		struct tv_cgroup *g2 = add_cg(&s2, "/a.service", "a.service", NULL, 1 << 20);
		add_proc(&s2, 10, OLD_START, g2, 12 * SEC);
		if (with_record)
			add_gone(&s2, 20, OLD_START + 1, 6 * SEC + SEC / 2); /* start from the record: a tick off */
		update(&a, &s1, &s2, true);
		int64_t want = 12 * SEC + (with_record ? 6 * SEC + SEC / 2 : 6 * SEC);
		ck_assert_int_eq(total(&a, "a.service", ACC_CPU_NS), want);
		ck_assert_int_eq(total(&a, "a.service", ACC_CTXT_VOL), want / 1000000);
		ck_assert_int_eq(total(&a, "a.service", ACC_DELAY_NS + TV_DELAY_CPU), want / 10);
		ck_assert_int_eq(group(&a, "a.service")->g.procs, 1);
		ck_assert_uint_eq(a.unseen, 0);
		snapshot_free(&s1);
		snapshot_free(&s2);
		accum_free(&a);
	}
}
END_TEST

/* A final record below what was seen alive (utime+stime are coarser than
 * the live reading), and a live counter that falls: the group never drops. */
START_TEST(never_below_highest_seen)
{
	struct snapshot s0, s1, s2;
	snap_init(&s0, 100);
	add_proc(&s0, 10, OLD_START, NULL, 10 * SEC)->ctxt_vol = 50000;
	add_proc(&s0, 20, OLD_START, NULL, 5 * SEC);
	snap_init(&s1, 101);
	add_proc(&s1, 10, OLD_START, NULL, 10 * SEC)->ctxt_vol = 40000; /* a thread ended: its switches left the live sum */
	add_proc(&s1, 20, OLD_START, NULL, 5 * SEC);
	struct accum a;
	accum_init(&a);
	update(&a, &s0, &s1, true);
	ck_assert_int_eq(total(&a, "", ACC_CTXT_VOL), 50000 + 5000);
	const struct accum_proc *p = accum_find(&a, &s1.procs[0]);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->hw[ACC_CTXT_VOL], 50000);
	snap_init(&s2, 102);
	add_proc(&s2, 10, OLD_START, NULL, 10 * SEC)->ctxt_vol = 45000;
	add_gone(&s2, 20, OLD_START, 4 * SEC); /* its record: below what was seen alive */
	update(&a, &s1, &s2, true);
	ck_assert_int_eq(total(&a, "", ACC_CTXT_VOL), 50000 + 5000);
	ck_assert_int_eq(total(&a, "", ACC_CPU_NS), 15 * SEC);
	snapshot_free(&s0);
	snapshot_free(&s1);
	snapshot_free(&s2);
	accum_free(&a);
}
END_TEST

/* A process moving to another group leaves what it counted behind, and the
 * new group counts only what it does from then on. */
START_TEST(moved_process)
{
	struct snapshot s0, s1, s2;
	snap_init(&s0, 100);
	struct tv_cgroup *a0 = add_cg(&s0, "/a", "a", NULL, TV_UNKNOWN);
	struct tv_cgroup *b0 = add_cg(&s0, "/b", "b", NULL, TV_UNKNOWN);
	add_proc(&s0, 10, OLD_START, a0, 10 * SEC);
	add_proc(&s0, 20, OLD_START, b0, 1 * SEC);
	snap_init(&s1, 101);
	struct tv_cgroup *a1 = add_cg(&s1, "/a", "a", NULL, TV_UNKNOWN);
	struct tv_cgroup *b1 = add_cg(&s1, "/b", "b", NULL, TV_UNKNOWN);
	add_proc(&s1, 10, OLD_START, a1, 11 * SEC);
	add_proc(&s1, 20, OLD_START, b1, 1 * SEC);
	struct accum a;
	accum_init(&a);
	update(&a, &s0, &s1, true);
	snap_init(&s2, 102);
	add_cg(&s2, "/a", "a", NULL, TV_UNKNOWN);
	struct tv_cgroup *b2 = add_cg(&s2, "/b", "b", NULL, TV_UNKNOWN);
	add_proc(&s2, 10, OLD_START, b2, 12 * SEC);
	add_proc(&s2, 20, OLD_START, b2, 1 * SEC);
	update(&a, &s1, &s2, true);
	ck_assert_int_eq(total(&a, "a", ACC_CPU_NS), 11 * SEC);
	ck_assert_int_eq(total(&a, "b", ACC_CPU_NS), 1 * SEC + 1 * SEC);
	ck_assert(shown(&a, "a")); /* shown once more with what it kept */
	ck_assert_int_eq(group(&a, "a")->g.procs, 0);
	ck_assert_int_eq(group(&a, "a")->g.threads, 0);
	ck_assert_int_eq(group(&a, "b")->g.procs, 2);
	snapshot_free(&s0);
	snapshot_free(&s1);
	snapshot_free(&s2);
	accum_free(&a);
}
END_TEST

/* Born since the previous refresh: all of it counts. Older but new to the
 * selection (a filter it now matches): only what it does from now on. PID
 * reuse: a new identity. */
START_TEST(newcomers_and_pid_reuse)
{
	struct snapshot s0, s1, s2;
	snap_init(&s0, 100);
	add_proc(&s0, 10, OLD_START, NULL, 10 * SEC);
	snap_init(&s1, 101);
	add_proc(&s1, 10, OLD_START, NULL, 10 * SEC);
	struct accum a;
	accum_init(&a);
	update(&a, &s0, &s1, true);
	ck_assert_int_eq(total(&a, "", ACC_CPU_NS), 10 * SEC);
	snap_init(&s2, 102);
	add_proc(&s2, 10, born_at(101.5), NULL, SEC / 4); /* PID 10 again: a new process */
	add_proc(&s2, 30, born_at(101.2), NULL, SEC / 2);
	add_proc(&s2, 40, OLD_START, NULL, 100 * SEC);
	update(&a, &s1, &s2, true);
	ck_assert_int_eq(total(&a, "", ACC_CPU_NS), 10 * SEC + SEC / 4 + SEC / 2);
	ck_assert_int_eq(group(&a, "")->g.procs, 3);
	snapshot_free(&s0);
	snapshot_free(&s1);

	/* the old one's increments count from then on */
	snap_init(&s1, 103);
	add_proc(&s1, 10, born_at(101.5), NULL, SEC / 4);
	add_proc(&s1, 30, born_at(101.2), NULL, SEC / 2);
	add_proc(&s1, 40, OLD_START, NULL, 101 * SEC);
	update(&a, &s2, &s1, true);
	ck_assert_int_eq(total(&a, "", ACC_CPU_NS), 10 * SEC + SEC / 4 + SEC / 2 + SEC);
	snapshot_free(&s2);
	snapshot_free(&s1);
	accum_free(&a);
}
END_TEST

/* Started and ended between two refreshes: counted in the group "" when the
 * selection allows, never when it was older than the previous refresh. */
START_TEST(unseen_exits)
{
	for (int allowed = 0; allowed <= 1; allowed++) {
		struct snapshot s0, s1;
		snap_init(&s0, 100);
		struct tv_cgroup *g0 = add_cg(&s0, "/a", "a", NULL, TV_UNKNOWN);
		add_proc(&s0, 10, OLD_START, g0, SEC);
		snap_init(&s1, 101);
		struct tv_cgroup *g1 = add_cg(&s1, "/a", "a", NULL, TV_UNKNOWN);
		add_proc(&s1, 10, OLD_START, g1, SEC);
		add_gone(&s1, 50, born_at(100.3), SEC / 10);
		add_gone(&s1, 51, born_at(100.4), SEC / 5);
		add_gone(&s1, 52, OLD_START, 7 * SEC);              /* never seen though older: not ours */
		add_gone(&s1, 53, TV_START_UNKNOWN, 7 * SEC);       /* cannot tell */
		struct accum a;
		accum_init(&a);
		update(&a, &s0, &s1, allowed);
		if (allowed) {
			ck_assert_int_eq(total(&a, "", ACC_CPU_NS), SEC / 10 + SEC / 5);
			ck_assert_uint_eq(a.unseen, 2);
			ck_assert(shown(&a, ""));
			ck_assert_int_eq(group(&a, "")->g.procs, 0);
		} else {
			ck_assert_ptr_null(group(&a, ""));
			ck_assert_uint_eq(a.unseen, 0);
		}
		ck_assert_int_eq(total(&a, "a", ACC_CPU_NS), SEC);
		snapshot_free(&s0);
		snapshot_free(&s1);
		accum_free(&a);
	}
}
END_TEST

/* A group that loses its last process is shown once more, then not; its
 * counters continue when processes of that name come back within the hour,
 * and start again after. */
START_TEST(group_goes_and_comes_back)
{
	enum { N = 7 };
	static const double when[N] = {100, 101, 102, 103, 104, 105, 105 + ACCUM_KEEP_S + 1};
	static const bool want_shown[N] = {false, true, true, true, true, false, true};
	static const int64_t want_total[N] = {0, 3 * SEC, 3 * SEC, 4 * SEC, 4 * SEC, 4 * SEC, SEC / 2};
	struct snapshot s[N];
	struct accum a;
	accum_init(&a);
	for (int i = 0; i < N; i++) {
		snap_init(&s[i], when[i]);
		struct tv_cgroup *g = add_cg(&s[i], "/job.service", "job.service", NULL, TV_UNKNOWN);
		if (i <= 1)
			add_proc(&s[i], 10, OLD_START, g, 3 * SEC);
		if (i == 3)
			add_proc(&s[i], 11, born_at(102.5), g, SEC);
		if (i == 6)
			add_proc(&s[i], 12, born_at(when[i] - 0.5), g, SEC / 2);
		if (i == 0)
			continue;
		update(&a, &s[i - 1], &s[i], true);
		ck_assert_msg(shown(&a, "job.service") == want_shown[i], "refresh %d", i);
		ck_assert_int_eq(total(&a, "job.service", ACC_CPU_NS), want_total[i]);
		if (i == 5) {
			char *text = render(&a, NULL, &s[i], OM_OPENMETRICS);
			ck_assert_msg(strstr(text, "job.service") == NULL, "a group gone is still shown:\n%s", text);
			free(text);
		}
		snapshot_free(&s[i - 1]);
	}
	snapshot_free(&s[N - 1]);
	accum_free(&a);
}
END_TEST

/* Nothing selected (a user without processes): the system's metrics only. */
START_TEST(empty_selection)
{
	struct snapshot s0, s1, s2;
	snap_init(&s0, 100);
	snap_init(&s1, 101);
	snap_init(&s2, 102);
	struct accum a;
	accum_init(&a);
	update(&a, &s0, &s1, true);
	update(&a, &s1, &s2, true);
	ck_assert_uint_eq(a.ngroups, 0);
	char *text = render(&a, NULL, &s2, OM_OPENMETRICS);
	ck_assert_ptr_null(strstr(text, "group=\""));
	ck_assert_ptr_nonnull(strstr(text, "taskview_sample_timestamp_seconds 1700000102\n"));
	free(text);
	snapshot_free(&s0);
	snapshot_free(&s1);
	snapshot_free(&s2);
	accum_free(&a);
}
END_TEST

/* ---------------------------------------------------------------- rendering */

/* Unknown values are left out, never written as 0. A process whose group
 * is unknown has no group series: its CPU is the unattributed counter. */
START_TEST(unknown_left_out)
{
	struct snapshot s0, s1;
	struct snapshot *ss[2] = {&s0, &s1};
	for (int k = 0; k < 2; k++) {
		snap_init(ss[k], 100 + k);
		struct tv_cgroup *cg = add_cg(ss[k], "/a", "a", NULL, TV_UNKNOWN);
		struct tv_task *t = add_proc(ss[k], 10, OLD_START, cg, (k + 1) * SEC);
		for (int c = 0; c < TV_DELAY_NCLASS; c++)
			t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
		t->ctxt_vol = TV_UNKNOWN;
		task_mem_mut(t)->swap = TV_UNKNOWN;
		add_proc(ss[k], 11, OLD_START, NULL, (k + 3) * SEC);
	}
	s1.pressure[TV_RES_IO].some_known = true;
	s1.pressure[TV_RES_IO].some_us = 1500;
	struct accum a, c;
	accum_init(&a);
	accum_init_commands(&c);
	update(&a, &s0, &s1, true);
	update(&c, &s0, &s1, false);
	pick_update(&c, 5, 1.0);
	char *text = render(&a, &c, &s1, OM_OPENMETRICS);
	ck_assert_ptr_null(strstr(text, "delay"));
	ck_assert_ptr_null(strstr(text, "taskview_group_voluntary"));
	ck_assert_ptr_null(strstr(text, "taskview_command_voluntary"));
	ck_assert_ptr_null(strstr(text, "swap_bytes{group=\"a\""));
	ck_assert_ptr_null(strstr(text, "cgroup_memory"));
	ck_assert_ptr_null(strstr(text, "exit_records")); /* the listener never ran */
	ck_assert_ptr_nonnull(strstr(text, "taskview_exits_watched 0\n"));
	ck_assert_ptr_nonnull(strstr(text, "taskview_group_involuntary_context_switches_total{group=\"a\"} 1000\n"));
	ck_assert_ptr_nonnull(strstr(text, "taskview_group_cpu_seconds_total{group=\"a\"} 2\n"));
	ck_assert_ptr_nonnull(strstr(text, "taskview_pressure_some_seconds_total{resource=\"io\"} 0.0015\n"));
	ck_assert_ptr_null(strstr(text, "resource=\"cpu\""));
	ck_assert_ptr_nonnull(strstr(text, "taskview_command_cpu_seconds_total{group=\"a\",comm=\"p10\"} 2\n"));
	ck_assert_ptr_nonnull(strstr(text, "taskview_command_resident_memory_bytes{group=\"a\",comm=\"p10\"} 102400\n"));
	/* every series names a group: the unknown one's CPU is counted apart */
	ck_assert_ptr_null(strstr(text, "group=\"\""));
	ck_assert_ptr_null(strstr(text, "p11"));
	ck_assert_ptr_nonnull(strstr(text, "taskview_unattributed_cpu_seconds_total 4\n"));
	free(text);
	snapshot_free(&s0);
	snapshot_free(&s1);
	accum_free(&a);
	accum_free(&c);
}
END_TEST

/* Memory from the groups' own control groups: the unit's top only (a
 * sub-group of the same unit is inside it), two separate tops summed, one
 * unknown top makes it unknown; pressure only from a single top. */
START_TEST(cgroup_memory_and_pressure)
{
	struct snapshot s0, s1;
	struct tv_cgroup *cg[2][6];
	struct snapshot *ss[2] = {&s0, &s1};
	for (int k = 0; k < 2; k++) {
		struct snapshot *s = ss[k];
		snap_init(s, 100 + k);
		struct tv_cgroup *root = add_cg(s, "/", "/", NULL, TV_UNKNOWN);
		cg[k][0] = add_cg(s, "/a.service", "a.service", root, 1000);
		cg[k][1] = add_cg(s, "/a.service/worker", "a.service", cg[k][0], 400);
		cg[k][2] = add_cg(s, "/one/c", "c", root, 10);
		cg[k][3] = add_cg(s, "/two/c", "c", root, 20);
		cg[k][4] = add_cg(s, "/u.scope", "u.scope", root, TV_UNKNOWN);
		cg[k][0]->psi[TV_RES_MEMORY].some_known = true;
		cg[k][0]->psi[TV_RES_MEMORY].some_us = 2000000;
		cg[k][2]->psi[TV_RES_CPU].some_known = cg[k][3]->psi[TV_RES_CPU].some_known = true;
		add_proc(s, 10, OLD_START, cg[k][1], SEC);
		add_proc(s, 11, OLD_START, cg[k][2], SEC);
		add_proc(s, 12, OLD_START, cg[k][3], SEC);
		add_proc(s, 13, OLD_START, cg[k][4], SEC);
	}
	struct accum a;
	accum_init(&a);
	update(&a, &s0, &s1, true);
	ck_assert_int_eq(group(&a, "a.service")->g.cg_mem_bytes, 1000);
	ck_assert_int_eq(group(&a, "c")->g.cg_mem_bytes, 30);
	ck_assert_int_eq(group(&a, "u.scope")->g.cg_mem_bytes, TV_UNKNOWN);
	ck_assert_ptr_null(group(&a, "/")); /* no process of its own */
	char *text = render(&a, NULL, &s1, OM_OPENMETRICS);
	ck_assert_ptr_nonnull(strstr(text, "taskview_group_cgroup_memory_bytes{group=\"a.service\"} 1000\n"));
	ck_assert_ptr_nonnull(strstr(text, "taskview_group_cgroup_memory_bytes{group=\"c\"} 30\n"));
	ck_assert_ptr_nonnull(
		strstr(text, "taskview_group_pressure_some_seconds_total{group=\"a.service\",resource=\"memory\"} 2\n"));
	ck_assert_ptr_null(strstr(text, "group=\"c\",resource="));
	ck_assert_ptr_null(strstr(text, "cgroup_memory_bytes{group=\"u.scope\"}"));
	ck_assert_ptr_nonnull(strstr(text, "taskview_group_processes{group=\"u.scope\"} 1\n"));
	free(text);
	snapshot_free(&s0);
	snapshot_free(&s1);
	accum_free(&a);
}
END_TEST

/* Every value known: the exposition holds exactly the documented number of
 * series; --top sums a group's processes of one name; both dialects carry
 * the same samples. */
START_TEST(series_bound_and_top)
{
	struct snapshot s0, s1;
	struct snapshot *ss[2] = {&s0, &s1};
	for (int k = 0; k < 2; k++) {
		struct snapshot *s = ss[k];
		snap_init(s, 100 + k);
		s->exits_watched = true;
		for (int r = 0; r < TV_RES_N; r++) {
			s->pressure[r].some_known = s->pressure[r].full_known = true;
			s->pressure[r].some_us = s->pressure[r].full_us = 5;
		}
		struct tv_cgroup *g[3] = {add_cg(s, "/a", "a", NULL, 1), add_cg(s, "/b", "b", NULL, 2),
					  add_cg(s, "/c", "c", NULL, 3)};
		for (int i = 0; i < 3; i++)
			for (int r = 0; r < TV_RES_N; r++) {
				g[i]->psi[r].some_known = g[i]->psi[r].full_known = true;
				g[i]->psi[r].some_us = g[i]->psi[r].full_us = 7;
			}
		for (int p = 0; p < 6; p++) {
			struct tv_task *t = add_proc(s, 100 + p, OLD_START, g[p % 3], (p + 1) * SEC + k * SEC);
			for (int c = 0; c < TV_DELAY_NCLASS; c++)
				t->delay[c] = (struct tv_delay){p, p * 1000};
			if (p == 3) /* a second p100 in group a */
				task_set_comm(t, "p100", 5);
		}
	}
	add_gone(&s1, 200, born_at(100.5), SEC / 4); /* lived between the two: unattributed */
	struct accum a, c;
	accum_init(&a);
	accum_init_commands(&c);
	update(&a, &s0, &s1, true);
	update(&c, &s0, &s1, false);
	pick_update(&c, 2, 1.0);
	char *om = render(&a, &c, &s1, OM_OPENMETRICS);
	char *text = render(&a, &c, &s1, OM_PROMETHEUS_TEXT);
	ck_assert_uint_eq(count_series(om), openmetrics_max_series(2, 3));
	ck_assert_uint_eq(count_series(text), openmetrics_max_series(2, 3));
	ck_assert_uint_eq(openmetrics_max_series(0, 1), 11 + 33);
	ck_assert_uint_eq(openmetrics_max_series(10, 50), 11 + 33 * 50 + 25 * 10);
	/* the two with the most CPU on the first sample: a/p100 (2 + 5 s), c/p105 (7 s) */
	ck_assert_ptr_nonnull(strstr(om, "taskview_command_cpu_seconds_total{group=\"a\",comm=\"p100\"} 7\n"));
	ck_assert_ptr_nonnull(strstr(om, "taskview_command_processes{group=\"a\",comm=\"p100\"} 2\n"));
	ck_assert_ptr_nonnull(strstr(om, "taskview_command_threads{group=\"a\",comm=\"p100\"} 4\n"));
	ck_assert_ptr_nonnull(strstr(om, "taskview_command_cpu_seconds_total{group=\"c\",comm=\"p105\"} 7\n"));
	ck_assert_uint_eq(count_lines(om, "taskview_command_threads{"), 2);
	ck_assert_ptr_nonnull(strstr(om, "taskview_unattributed_cpu_seconds_total 0.25\n"));
	ck_assert_ptr_null(strstr(om, "group=\"\""));
	/* same samples, different headers */
	ck_assert_uint_eq(count_lines(om, "# UNIT "), count_lines(om, "# TYPE ") - 13);
	ck_assert_uint_eq(count_lines(text, "# UNIT "), 0);
	ck_assert_ptr_nonnull(strstr(om, "\n# EOF\n"));
	ck_assert_ptr_null(strstr(text, "# EOF"));
	ck_assert_ptr_nonnull(strstr(om, "# TYPE taskview_group_cpu_seconds counter\n"));
	ck_assert_ptr_nonnull(strstr(text, "# TYPE taskview_group_cpu_seconds_total counter\n"));
	free(om);
	free(text);
	snapshot_free(&s0);
	snapshot_free(&s1);
	accum_free(&a);
	accum_free(&c);
}
END_TEST

static size_t picked(const struct accum *c, char *names, size_t cap)
{
	size_t n = 0;
	names[0] = '\0';
	for (size_t i = 0; i < c->ngroups; i++)
		if (c->groups[i].picked) {
			n++;
			strncat(names, c->groups[i].comm, cap - strlen(names) - 2);
			strcat(names, " ");
		}
	return n;
}

/* Twelve commands of about the same CPU, their ranking changing every
 * sample (one a little above): the four picked stay the same. One that uses clearly more takes a
 * place; one whose processes end is written once more, then its place goes
 * to another. */
START_TEST(picks_stay)
{
	enum { NCMD = 12, TOP = 4, STEPS = 60 };
	struct snapshot s[2];
	int64_t cpu[NCMD + 1] = {0};
	struct accum c;
	accum_init_commands(&c);
	char first[256], now[256];
	bool hot_picked = false;
	int hot_from = 30, end_at = 50;
	for (int k = 0; k < STEPS; k++) {
		struct snapshot *cur = &s[k % 2], *prev = &s[(k + 1) % 2];
		snap_init(cur, 100 + k);
		struct tv_cgroup *cg = add_cg(cur, "/g", "g", NULL, TV_UNKNOWN);
		for (int i = 0; i <= NCMD; i++) {
			/* 5 to 9 % of a CPU, another order every sample */
			int64_t rate = (5 + (i * 7 + k * 13) % 5) * SEC / 100;
			if (i == 0)
				rate = SEC / 10; /* 10 %: picked from the start */
			if (i == NCMD)
				rate = k >= hot_from ? SEC / 2 : 0;
			cpu[i] += rate;
			if (i == 0 && k >= end_at)
				continue; /* p100 ended */
			add_proc(cur, 100 + i, OLD_START, cg, cpu[i]);
		}
		if (k > 0) {
			update(&c, prev, cur, false);
			pick_update(&c, TOP, 1.0);
			ck_assert_uint_eq(picked(&c, now, sizeof(now)), TOP);
			if (k == 1)
				strcpy(first, now);
			else if (k < hot_from)
				ck_assert_str_eq(now, first);
			bool hot = strstr(now, "p112 ") != NULL;
			ck_assert(!hot_picked || hot); /* once in, it stays */
			hot_picked |= hot;
			if (k == end_at) /* its last process ended: written once more */
				ck_assert_ptr_nonnull(strstr(now, "p100 "));
			if (k > end_at)
				ck_assert_ptr_null(strstr(now, "p100 "));
			snapshot_free(prev);
		}
	}
	ck_assert(hot_picked);
	ck_assert_ptr_nonnull(strstr(first, "p100 ")); /* the most CPU on the first sample */
	snapshot_free(&s[(STEPS - 1) % 2]);
	accum_free(&c);
}
END_TEST

static Suite *openmetrics_suite(void)
{
	Suite *s = suite_create("openmetrics");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, decimals_exact);
	tcase_add_test(tc, label_values_escaped);
	tcase_add_test(tc, label_values_injective);
	tcase_add_test(tc, dialect_headers);
	tcase_add_test(tc, ended_process_keeps_group_total);
	tcase_add_test(tc, never_below_highest_seen);
	tcase_add_test(tc, moved_process);
	tcase_add_test(tc, newcomers_and_pid_reuse);
	tcase_add_test(tc, unseen_exits);
	tcase_add_test(tc, group_goes_and_comes_back);
	tcase_add_test(tc, empty_selection);
	tcase_add_test(tc, unknown_left_out);
	tcase_add_test(tc, cgroup_memory_and_pressure);
	tcase_add_test(tc, series_bound_and_top);
	tcase_add_test(tc, picks_stay);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(openmetrics_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
