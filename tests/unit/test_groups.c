/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The group view: control groups above their processes, nested groups under
 * their parent, each group's row the sum of its shown processes (lower
 * bounds marked as in the tree), its memory the group's own; the columns
 * on group rows, the JSON group rows, the indented text, the detail lines.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "model/snapshot.h"
#include "render/detail.h"
#include "render/json.h"
#include "render/text.h"
#include "view/filter.h"
#include "view/rows.h"

/*
 *   /                         1 (cpu 1)
 *   /system.slice
 *   /system.slice/a.service   10 (cpu 20), 11 (cpu 30, a lower bound); memory 1 MiB, cpu pressure 12.5%
 *   /system.slice/b.service   20 (cpu 5); no memory controller
 *   /user.slice               30 (cpu unknown)
 *   no group                  40 (cpu 2)
 */
static struct snapshot snap;
static struct colset cs;

static struct tv_cgroup *group(const char *path, const char *unit)
{
	struct tv_cgroup *g = calloc(1, sizeof(*g));
	ck_assert_ptr_nonnull(g);
	g->path = strdup(path);
	g->unit = strdup(unit);
	g->mem_bytes = g->swap_bytes = TV_UNKNOWN;
	cgroup_cpu_unknown(g);
	for (int r = 0; r < TV_RES_N; r++)
		pressure_unknown(&g->psi[r]);
	return g;
}

static struct tv_task *proc(size_t i, int32_t pid, double cpu, int g)
{
	struct tv_task *t = &snap.procs[i];
	task_init(t);
	t->tid = t->tgid = pid;
	t->ppid = 1;
	t->cpu_pct = cpu;
	t->nthreads = 1;
	t->ctxt_vol = 100;
	t->ctxt_vol_rate = 10;
	t->cgroup = g >= 0 ? snap.cgroups[g] : NULL;
	char name[TV_COMM_MAX];
	snprintf(name, sizeof(name), "p%d", pid);
	task_set_comm(t, name, sizeof(name));
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		t->delay_pct[c] = 0;
		t->delay_avg_ms[c] = NAN;
	}
	return t;
}

static void setup(void)
{
	ck_assert_int_eq(colset_init(&cs), 0);
	memset(&snap, 0, sizeof(snap));
	/* no process ended unseen: sums over the processes are exact where
	 * theirs are (the groups here have no cpu.stat, as under cgroup v1) */
	snap.exits_watched = true;
	snap.ncgroups = 5;
	snap.cgroups = calloc(snap.ncgroups, sizeof(*snap.cgroups));
	ck_assert_ptr_nonnull(snap.cgroups);
	snap.cgroups[0] = group("/", "/");
	snap.cgroups[1] = group("/system.slice", "system.slice");
	snap.cgroups[2] = group("/system.slice/a.service", "a.service");
	snap.cgroups[3] = group("/system.slice/b.service", "b.service");
	snap.cgroups[4] = group("/user.slice", "user.slice");
	for (size_t i = 0; i < snap.ncgroups; i++)
		snap.cgroups[i]->index = i;
	snap.cgroups[1]->parent = snap.cgroups[4]->parent = snap.cgroups[0];
	snap.cgroups[2]->parent = snap.cgroups[3]->parent = snap.cgroups[1];
	struct tv_cgroup *a = snap.cgroups[2];
	a->mem_bytes = 1048576;
	a->swap_bytes = 0;
	a->psi[TV_RES_CPU].some_known = a->psi[TV_RES_CPU].full_known = true;
	a->psi[TV_RES_CPU].some_pct = 12.5;
	a->psi[TV_RES_CPU].full_pct = 1.0;
	a->psi[TV_RES_CPU].some_avg10 = 10.25;
	a->psi[TV_RES_CPU].full_avg10 = 0.5;
	a->psi[TV_RES_CPU].some_us = 123456;
	a->psi[TV_RES_CPU].full_us = 789;
	snap.cgroups[3]->mem_why = "no memory controller here";
	snap.nprocs = 6;
	snap.procs = calloc(snap.nprocs, sizeof(*snap.procs));
	ck_assert_ptr_nonnull(snap.procs);
	proc(0, 1, 1, 0);
	struct tv_task *t = proc(1, 10, 20, 2);
	t->nthreads = 2;
	t->delay_pct[TV_DELAY_CPU] = 5;
	t->delay_avg_ms[TV_DELAY_CPU] = 1.0;
	t = proc(2, 11, 30, 2);
	t->partial = TV_PART_BIT(TV_PART_CPU);
	t->delay_pct[TV_DELAY_CPU] = 3;
	t->delay_avg_ms[TV_DELAY_CPU] = 0.5;
	proc(3, 20, 5, 3);
	proc(4, 30, NAN, 4);
	proc(5, 40, 2, -1);
}

static void teardown(void)
{
	snapshot_free(&snap);
	colset_free(&cs);
}

static struct view_opts opts(void)
{
	return (struct view_opts){.cs = &cs, .sort_col = colset_index(&cs, "cpu"), .groups = true};
}

/* "g/:0 p1:1 ..." : g and the group's name or p and the PID, the depth, L for a last row. */
static char *rows_str(const struct rows *r)
{
	static char out[512];
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < r->n; i++) {
		const struct row *w = &r->v[i];
		if (w->group)
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%sg%s", i ? " " : "", w->task->cgroup->unit);
		else
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%c%d", i ? " " : "", w->is_thread ? 't' : 'p',
					      w->task->tid);
		n += (size_t)snprintf(out + n, sizeof(out) - n, ":%u%s%s", w->depth, w->last ? "L" : "",
				      w->collapsed ? "C" : "");
	}
	return out;
}

static const struct row *group_row(const struct rows *r, const char *unit)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].group && strcmp(r->v[i].task->cgroup->unit, unit) == 0)
			return &r->v[i];
	ck_abort_msg("no row for group %s", unit);
	return NULL;
}

static struct tv_value col(const char *id, const struct tv_task *t)
{
	const struct column *c = colset_find(&cs, id);
	ck_assert_ptr_nonnull(c);
	return column_value(c, t);
}

START_TEST(groups_nest_above_processes)
{
	struct view_opts vo = opts();
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	/* a group's own processes, then its nested groups, each level by CPU
	 * (unknown last); processes without a group last at the top */
	ck_assert_str_eq(rows_str(&r), "g/:0 p1:1 gsystem.slice:1 ga.service:2 p11:3 p10:3L gb.service:2L p20:3L "
				       "guser.slice:1L p30:2L p40:0L");
	for (size_t i = 0; i < r.n; i++)
		ck_assert(r.v[i].tree);
	ck_assert_uint_eq(r.ngroups, 5);
	rows_free(&r);
	/* reversed: ascending, unknown still last */
	vo.reverse = true;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "g/:0 p1:1 gsystem.slice:1 gb.service:2 p20:3L ga.service:2L p10:3 p11:3L "
				       "guser.slice:1L p30:2L p40:0L");
	rows_free(&r);
}
END_TEST

START_TEST(group_sums_its_members)
{
	struct view_opts vo = opts();
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	const struct row *a = group_row(&r, "a.service");
	const struct tv_task *t = a->task;
	ck_assert(t->is_group);
	ck_assert_uint_eq(a->group->nmembers, 2);
	ck_assert_int_eq(a->group->members[0]->tgid, 10);
	ck_assert_int_eq(a->group->members[1]->tgid, 11);
	/* 20 + 30, a lower bound: 11's CPU misses an exited thread */
	ck_assert_double_eq_tol(t->cpu_pct, 50.0, 1e-9);
	ck_assert(t->partial & TV_PART_BIT(TV_PART_CPU));
	ck_assert(col("cpu", t).partial);
	ck_assert_int_eq(t->ctxt_vol, 200);
	ck_assert_double_eq_tol(t->ctxt_vol_rate, 20.0, 1e-9);
	ck_assert_int_eq(t->nthreads, 3);
	/* delays: shares add up; the average is total delay over total events:
	 * 5 / 1 ms + 3 / 0.5 ms = 11 events, 8 % of the interval */
	ck_assert_double_eq_tol(t->delay_pct[TV_DELAY_CPU], 8.0, 1e-6);
	ck_assert_double_eq_tol(t->delay_avg_ms[TV_DELAY_CPU], 8.0 / 11.0, 1e-6);
	/* memory is the group's own, never a sum of RSS */
	ck_assert_int_eq(task_mem(t)->rss, 1024);
	ck_assert_int_eq(task_mem(t)->swap, 0);
	/* b: exact, its memory unknown */
	t = group_row(&r, "b.service")->task;
	ck_assert_double_eq_tol(t->cpu_pct, 5.0, 1e-9);
	ck_assert(!(t->partial & TV_PART_BIT(TV_PART_CPU)));
	ck_assert_int_eq(task_mem(t)->rss, TV_UNKNOWN);
	ck_assert_int_eq(col("vm_rss", t).kind, TV_V_UNKNOWN);
	/* nested groups count in their parent: 50 + 5, and in the root 1 + 55;
	 * 30's unknown CPU makes the root's a lower bound */
	t = group_row(&r, "system.slice")->task;
	ck_assert_double_eq_tol(t->cpu_pct, 55.0, 1e-9);
	ck_assert_uint_eq(group_row(&r, "system.slice")->group->nmembers, 3);
	t = group_row(&r, "/")->task;
	ck_assert_double_eq_tol(t->cpu_pct, 56.0, 1e-9);
	ck_assert(t->partial & TV_PART_BIT(TV_PART_CPU));
	ck_assert_uint_eq(group_row(&r, "/")->group->nmembers, 5);
	/* a group of unknowns only: unknown, not 0 */
	t = group_row(&r, "user.slice")->task;
	ck_assert(isnan(t->cpu_pct));
	ck_assert_int_eq(col("cpu", t).kind, TV_V_UNKNOWN);
	rows_free(&r);
}
END_TEST

START_TEST(group_cpu_is_its_own_cpu_stat)
{
	/*
	 * A group with a cpu.stat shows its own count, which holds the
	 * processes that lived less than a refresh: not the sum of those seen
	 * (50+), and exact. Without one, where a process may have ended unseen
	 * (no exit listener), the sum is a lower bound.
	 */
	struct tv_cgroup *a = snap.cgroups[2];
	a->cpu_usage_us = 7500000;
	a->cpu_pct = 80.0;
	struct view_opts vo = opts();
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	const struct tv_task *t = group_row(&r, "a.service")->task;
	ck_assert_double_eq_tol(t->cpu_pct, 80.0, 1e-9);
	ck_assert(!(t->partial & TV_PART_BIT(TV_PART_CPU)));
	ck_assert_int_eq(t->cpu_ns, 7500000000LL);
	ck_assert_str_eq(col("time", t).kind == TV_V_FLOAT ? "known" : "unknown", "known");
	t = group_row(&r, "b.service")->task;
	ck_assert_double_eq_tol(t->cpu_pct, 5.0, 1e-9);
	ck_assert(!(t->partial & TV_PART_BIT(TV_PART_CPU)));
	rows_free(&r);
	snap.exits_watched = false;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	t = group_row(&r, "b.service")->task;
	ck_assert_double_eq_tol(t->cpu_pct, 5.0, 1e-9);
	ck_assert(t->partial & TV_PART_BIT(TV_PART_CPU));
	ck_assert(!(group_row(&r, "a.service")->task->partial & TV_PART_BIT(TV_PART_CPU)));
	rows_free(&r);
}
END_TEST

START_TEST(ended_processes_make_rates_lower_bounds)
{
	/*
	 * A group's members are its live processes: one that ended in the
	 * interval (seen by the exit listener, or possibly unseen without it,
	 * or among records lost) is not in the sums, and its switches, delays
	 * and CPU are missing from them. Those rates are marked; the group's
	 * own cpu.stat stays exact, and the totals are the live members'.
	 */
	struct tv_cgroup *a = snap.cgroups[2];
	a->cpu_usage_us = 7500000;
	a->cpu_pct = 80.0;
	struct view_opts vo = opts();
	const bool watched[] = {true, true, false, true};
	const size_t gone[] = {0, 1, 0, 0};
	const uint64_t lost[] = {0, 0, 0, 3};
	for (int k = 0; k < 4; k++) {
		snap.exits_watched = watched[k];
		snap.ngone = gone[k];
		snap.exits_lost = lost[k];
		bool short_of = k > 0;
		struct rows r;
		ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
		const struct tv_task *t = group_row(&r, "b.service")->task;
		ck_assert_double_eq_tol(t->ctxt_vol_rate, 10.0, 1e-9);
		ck_assert_msg(!!(t->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE)) == short_of, "case %d", k);
		ck_assert(!!(t->partial & TV_PART_BIT(TV_PART_DELAY + TV_DELAY_CPU)) == short_of);
		ck_assert(!!(t->partial & TV_PART_BIT(TV_PART_CPU)) == short_of);
		ck_assert(!(t->partial & TV_PART_BIT(TV_PART_CTXT_VOL)));
		t = group_row(&r, "a.service")->task;
		ck_assert(!(t->partial & TV_PART_BIT(TV_PART_CPU)));
		ck_assert(!!(t->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE)) == short_of);
		/* an average over missing events is not known */
		ck_assert(isnan(t->delay_avg_ms[TV_DELAY_CPU]) == short_of);
		rows_free(&r);
	}
	snap.ngone = 0;
	snap.exits_lost = 0;
	snap.exits_watched = true;
}
END_TEST

/* A process that ended in the interval, its part of it derived (snapshot.ended):
 * in its group's sums and its ancestors', exact; one of no group known leaves
 * every group a lower bound, one whose part is unknown its own group. */
START_TEST(ended_processes_count_in_their_group)
{
	struct tv_task ended[2];
	struct tv_ended part[2];
	for (int i = 0; i < 2; i++) {
		task_init(&ended[i]);
		ended[i].tid = ended[i].tgid = 50 + i;
		ended[i].state = 'X';
		part[i] = (struct tv_ended){.cpu_pct = 3.0, .ctxt_vol_rate = 7.0, .ctxt_invol_rate = 1.0};
		for (int c = 0; c < TV_DELAY_NCLASS; c++)
			part[i].delay_avg_ms[c] = NAN; /* no events */
	}
	ended[0].cgroup = snap.cgroups[3]; /* b.service */
	ended[1].cgroup = snap.cgroups[4]; /* user.slice */
	snap.gone = ended;
	snap.ngone = 2;
	snap.ended = part;
	struct view_opts vo = opts();
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	const struct tv_task *b = group_row(&r, "b.service")->task;
	ck_assert_double_eq_tol(b->ctxt_vol_rate, 10.0 + 7.0, 1e-9);
	ck_assert_double_eq_tol(b->cpu_pct, 5.0 + 3.0, 1e-9);
	ck_assert(!(b->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE)));
	ck_assert_int_eq(b->ctxt_vol, 100); /* totals are the live members' */
	const struct tv_task *sys = group_row(&r, "system.slice")->task;
	ck_assert_double_eq_tol(sys->ctxt_vol_rate, 3 * 10.0 + 7.0, 1e-9);
	const struct tv_task *a = group_row(&r, "a.service")->task;
	ck_assert_double_eq_tol(a->ctxt_vol_rate, 2 * 10.0, 1e-9);
	ck_assert(!(a->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE)));
	rows_free(&r);
	/* its part unknown: its group's and its ancestors' sums fall short, not the others' */
	part[0].ctxt_vol_rate = NAN;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert(group_row(&r, "b.service")->task->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE));
	ck_assert(group_row(&r, "system.slice")->task->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE));
	ck_assert(!(group_row(&r, "a.service")->task->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE)));
	rows_free(&r);
	/* in no group known: any group may miss it */
	part[0].ctxt_vol_rate = 7.0;
	ended[1].cgroup = NULL;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert(group_row(&r, "a.service")->task->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE));
	rows_free(&r);
	snap.gone = NULL;
	snap.ended = NULL;
	snap.ngone = 0;
}
END_TEST

static void set_io(struct tv_task *t, float rd, float wr)
{
	struct tv_mem *m = task_mem_mut(t);
	ck_assert_ptr_nonnull(m);
	m->io_read_rate = rd;
	m->io_write_rate = wr;
}

/* IOR/s and IOW/s of a group: its members' sums, a lower bound where a
 * member's are unknown (another user's process) or one ended unseen. */
START_TEST(group_io_rates_sum_its_members)
{
	set_io(&snap.procs[1], 2048, 1000); /* a.service */
	set_io(&snap.procs[3], 4096, 0);    /* b.service; 11 in a.service not read */
	struct view_opts vo = opts();
	for (int k = 0; k < 2; k++) {
		snap.ngone = (size_t)k;
		struct rows r;
		ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
		const struct tv_task *a = group_row(&r, "a.service")->task, *b = group_row(&r, "b.service")->task;
		ck_assert_double_eq_tol(col("io_read_rate", a).f, 2048, 1e-9);
		ck_assert_double_eq_tol(col("io_write_rate", a).f, 1000, 1e-9);
		ck_assert(col("io_read_rate", a).partial && col("io_write_rate", a).partial);
		ck_assert_double_eq_tol(col("io_read_rate", b).f, 4096, 1e-9);
		ck_assert_int_eq(col("io_write_rate", b).partial, k == 1);
		/* nested: system.slice sums both; a group with none known is unknown */
		ck_assert_double_eq_tol(col("io_read_rate", group_row(&r, "system.slice")->task).f, 6144, 1e-9);
		ck_assert_int_eq(col("io_read_rate", group_row(&r, "user.slice")->task).kind, TV_V_UNKNOWN);
		rows_free(&r);
	}
	snap.ngone = 0;
}
END_TEST

START_TEST(group_row_columns)
{
	struct view_opts vo = opts();
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	const struct tv_task *g = group_row(&r, "a.service")->task;
	const struct tv_task *p = &snap.procs[1];
	/* a group has no PID, user or state of its own */
	ck_assert_int_eq(col("pid", g).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(col("ppid", g).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(col("state", g).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(col("time", g).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(col("vm_pte", g).kind, TV_V_UNKNOWN);
	/* its names */
	ck_assert_str_eq(col("command", g).s, "a.service");
	ck_assert_str_eq(col("comm", g).s, "a.service");
	ck_assert_str_eq(col("cgroup", g).s, "/system.slice/a.service");
	ck_assert_str_eq(col("unit", g).s, "a.service");
	/* pressure: the group's own; unknown on process rows */
	ck_assert_double_eq_tol(col("cpu_pressure", g).f, 12.5, 1e-9);
	ck_assert_double_eq_tol(col("cpu_pressure_full", g).f, 1.0, 1e-9);
	ck_assert_int_eq(col("io_pressure", g).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(col("cpu_pressure", p).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(col("memory_pressure_full", p).kind, TV_V_UNKNOWN);
	ck_assert_str_eq(col("cgroup", p).s, "/system.slice/a.service");
	rows_free(&r);
}
END_TEST

static bool collapse_system(void *ctx, const char *path)
{
	(void)ctx;
	return strcmp(path, "/system.slice") == 0;
}

START_TEST(collapsed_group_keeps_its_sums)
{
	struct view_opts vo = opts();
	vo.group_collapsed = collapse_system;
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "g/:0 p1:1 gsystem.slice:1C guser.slice:1L p30:2L p40:0L");
	const struct row *s = group_row(&r, "system.slice");
	ck_assert(s->has_children);
	ck_assert_double_eq_tol(s->task->cpu_pct, 55.0, 1e-9);
	rows_free(&r);
}
END_TEST

START_TEST(filters_pick_the_members)
{
	struct filter f;
	filter_init(&f);
	struct view_opts vo = opts();
	vo.filter = &f;
	struct rows r;
	/* the cgroup filter matches the path or the name of a process's group */
	ck_assert_int_eq(filter_set_cgroup(&f, "A.SERV"), 0);
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "g/:0L gsystem.slice:1L ga.service:2L p11:3 p10:3L");
	/* the root sums what is shown */
	ck_assert_double_eq_tol(group_row(&r, "/")->task->cpu_pct, 50.0, 1e-9);
	rows_free(&r);
	/* a part of the path: everything under system.slice; a process without
	 * a group is not in it */
	ck_assert_int_eq(filter_set_cgroup(&f, "system.slice/"), 0);
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "g/:0L gsystem.slice:1L ga.service:2 p11:3 p10:3L gb.service:2L p20:3L");
	rows_free(&r);
	/* the same filter in the list view */
	vo.groups = false;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p11:0 p10:0 p20:0");
	rows_free(&r);
	filter_free(&f);
}
END_TEST

START_TEST(no_groups_read_lists_processes)
{
	/* a sample without groups (not read, no hierarchy): the processes flat */
	for (size_t i = 0; i < snap.nprocs; i++)
		snap.procs[i].cgroup = NULL;
	for (size_t i = 0; i < snap.ncgroups; i++)
		cgroup_free(snap.cgroups[i]);
	free(snap.cgroups);
	snap.cgroups = NULL;
	snap.ncgroups = 0;
	struct view_opts vo = opts();
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p11:0 p10:0 p20:0 p40:0 p1:0 p30:0");
	ck_assert_uint_eq(r.ngroups, 0);
	rows_free(&r);
}
END_TEST

START_TEST(threads_under_their_process)
{
	struct tv_task *p = &snap.procs[1];
	p->threads = calloc(2, sizeof(*p->threads));
	ck_assert_ptr_nonnull(p->threads);
	p->nthreads_read = 2;
	p->threads_complete = p->threads_are_rows = true;
	for (int i = 0; i < 2; i++) {
		task_init(&p->threads[i]);
		p->threads[i].tid = 10 + i * 5;
		p->threads[i].tgid = 10;
		p->threads[i].is_thread = true;
		p->threads[i].cpu_pct = 10 + i;
	}
	struct view_opts vo = opts();
	vo.all_threads = true;
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "g/:0 p1:1 gsystem.slice:1 ga.service:2 p11:3 p10:3L t15:4 t10:4L "
				       "gb.service:2L p20:3L guser.slice:1L p30:2L p40:0L");
	rows_free(&r);
}
END_TEST

static char *render_json(const char *ids)
{
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colsel_parse(&cs, ids, &sel, &bad), 0);
	struct view_opts vo = opts();
	struct rows rows;
	ck_assert_int_eq(rows_build(&snap, &vo, &rows), 0);
	struct buf b;
	buf_init(&b);
	json_render_sample(&b, &snap, 1.0, &rows, &cs, &sel, NULL, NULL);
	char *s = strdup(buf_str(&b));
	buf_free(&b);
	rows_free(&rows);
	colsel_free(&sel);
	return s;
}

START_TEST(json_group_rows)
{
	char *s = render_json("pid,cpu,vm_rss,cpu_pressure,comm");
	/* its identity, members, memory and pressure; no PID of its own */
	ck_assert_ptr_nonnull(strstr(s,
		"{\"kind\": \"group\", \"cgroup\": \"/system.slice/a.service\", \"name\": \"a.service\", "
		"\"parent\": \"/system.slice\", \"pids\": [10, 11], "
		"\"cpu_stat\": {\"usage_usec\": null, \"user_usec\": null, \"system_usec\": null, \"read_at\": null}, "
		"\"memory\": {\"current\": 1048576, \"swap\": 0, \"reason\": null}, "
		"\"pressure\": {\"cpu\": {\"some\": {\"avg10\": 10.25, \"pct\": 12.50, \"total_us\": 123456}, "
		"\"full\": {\"avg10\": 0.50, \"pct\": 1.00, \"total_us\": 789}}, "
		"\"io\": {\"some\": null, \"full\": null}, \"memory\": {\"some\": null, \"full\": null}, \"reason\": null}, "
		"\"pid\": null, \"cpu\": 50.00, \"vm_rss\": 1024, \"cpu_pressure\": 12.50, \"comm\": \"a.service\", "
		"\"partial\": [\"cpu\"]}"));
	/* unknown memory says why */
	ck_assert_ptr_nonnull(strstr(s, "\"pids\": [20], \"cpu_stat\": {\"usage_usec\": null, \"user_usec\": null, \"system_usec\": null, \"read_at\": null}, \"memory\": {\"current\": null, \"swap\": null, "
					"\"reason\": \"no memory controller here\"}"));
	/* process rows keep their kind; pressure columns are null there */
	ck_assert_ptr_nonnull(strstr(s, "{\"kind\": \"process\", \"tgid\": 10, \"pid\": 10, \"cpu\": 20.00, \"vm_rss\": null, "
					"\"cpu_pressure\": null, \"comm\": \"p10\""));
	free(s);
}
END_TEST

START_TEST(text_indents_as_the_screen)
{
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colsel_parse(&cs, "pid,cpu,comm", &sel, &bad), 0);
	struct view_opts vo = opts();
	struct rows rows;
	ck_assert_int_eq(rows_build(&snap, &vo, &rows), 0);
	struct buf b;
	buf_init(&b);
	struct text_opts to = {.utf8 = false, .interval = 1.0};
	text_render_sample(&b, &snap, &rows, &cs, &sel, &to);
	const char *s = buf_str(&b);
	/* ASCII without a UTF-8 locale; p10's threads are folded (+) */
	ck_assert_ptr_nonnull(strstr(s, "\n      - 56.0+ - /\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n      1   1.0 |-- p1\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n      - 55.0+ |-- system.slice\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n      - 50.0+ | |-- a.service\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n     11 30.0+ | | |-- p11\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n     10  20.0 | | `-+ p10\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n     20   5.0 |   `-- p20\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n      -     - `-- user.slice\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n     40   2.0   p40\n"));
	buf_free(&b);
	rows_free(&rows);
	colsel_free(&sel);
}
END_TEST

static const char *detail_value(const struct detail_lines *d, const char *label)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind == DETAIL_ROW && strcmp(d->v[i].label, label) == 0)
			return d->v[i].value;
	ck_abort_msg("no detail row %s", label);
	return NULL;
}

static bool detail_note(const struct detail_lines *d, const char *text)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind == DETAIL_NOTE && strcmp(d->v[i].label, text) == 0)
			return true;
	return false;
}

START_TEST(detail_of_a_group)
{
	struct view_opts vo = opts();
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	struct detail_lines d;
	detail_lines_init(&d);
	detail_build_group(group_row(&r, "a.service")->group, 1.0, NULL, &d);
	ck_assert(!d.oom);
	ck_assert_str_eq(detail_value(&d, "Path"), "/system.slice/a.service");
	ck_assert_str_eq(detail_value(&d, "Processes"), "2 shown, 2 of them in the group itself");
	ck_assert_str_eq(detail_value(&d, "CPU in the interval"), "50.0%+");
	ck_assert_str_eq(detail_value(&d, "Charged (memory.current)"), "1.0M (1024 KiB)");
	ck_assert_str_eq(detail_value(&d, "CPU"), "some: avg10 10.2%, 12.5% of the interval; "
						  "full: avg10 0.5%, 1.0% of the interval");
	ck_assert_str_eq(detail_value(&d, "Block I/O"), "-");
	detail_build_group(group_row(&r, "system.slice")->group, 1.0, NULL, &d);
	ck_assert_str_eq(detail_value(&d, "Processes"), "3 shown, 0 of them in the group itself");
	ck_assert_str_eq(detail_value(&d, "Charged (memory.current)"), "-");
	detail_build_group(group_row(&r, "b.service")->group, 1.0, NULL, &d);
	ck_assert(detail_note(&d, "no memory controller here"));
	detail_lines_free(&d);
	rows_free(&r);
}
END_TEST

START_TEST(group_columns_added_before_the_name)
{
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colsel_parse(&cs, "pid,cpu,command", &sel, &bad), 0);
	ck_assert_int_eq(colsel_add_group_columns(&cs, &sel), 0);
	ck_assert_uint_eq(sel.n, 6);
	ck_assert_str_eq(cs.cols[sel.idx[2]].id, "cpu_pressure");
	ck_assert_str_eq(cs.cols[sel.idx[4]].id, "memory_pressure");
	ck_assert_str_eq(cs.cols[sel.idx[5]].id, "command");
	/* again: nothing added twice */
	ck_assert_int_eq(colsel_add_group_columns(&cs, &sel), 0);
	ck_assert_uint_eq(sel.n, 6);
	colsel_free(&sel);
}
END_TEST

static Suite *groups_suite(void)
{
	Suite *s = suite_create("groups");
	TCase *tc = tcase_create("view");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, groups_nest_above_processes);
	tcase_add_test(tc, group_sums_its_members);
	tcase_add_test(tc, group_cpu_is_its_own_cpu_stat);
	tcase_add_test(tc, ended_processes_make_rates_lower_bounds);
	tcase_add_test(tc, ended_processes_count_in_their_group);
	tcase_add_test(tc, group_io_rates_sum_its_members);
	tcase_add_test(tc, group_row_columns);
	tcase_add_test(tc, collapsed_group_keeps_its_sums);
	tcase_add_test(tc, filters_pick_the_members);
	tcase_add_test(tc, no_groups_read_lists_processes);
	tcase_add_test(tc, threads_under_their_process);
	tcase_add_test(tc, json_group_rows);
	tcase_add_test(tc, text_indents_as_the_screen);
	tcase_add_test(tc, detail_of_a_group);
	tcase_add_test(tc, group_columns_added_before_the_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(groups_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
