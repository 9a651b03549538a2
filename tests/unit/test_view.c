/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What is shown and in which order: rows (processes with their threads right
 * after them), sorting (unknown last in both directions, ties by ID), and
 * the PID / user / text filters.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "model/group.h"
#include "model/snapshot.h"
#include "model/task.h"
#include "sample/tracked.h"
#include "view/filter.h"
#include "view/noted.h"
#include "view/rows.h"
#include "view/sort.h"

/* ---- a small snapshot ----
 *   tgid 1  cpu 5
 *   tgid 2  cpu 50, threads 2 (10), 3 (40), 4 (unknown), 5 (10)
 *   tgid 3  cpu unknown (a kernel thread: no memory either)
 *   tgid 4  cpu 50, threads 4 (30), 6 (20)
 *   tgid 7  cpu 0.5, threads read but only as stand-ins (not rows)
 */
static struct snapshot snap;
static struct colset cs;

static void set(struct tv_task *t, int32_t tid, int32_t tgid, double cpu, int64_t pte, const char *comm)
{
	task_init(t);
	t->tid = tid;
	t->tgid = tgid;
	t->is_thread = false;
	t->cpu_pct = cpu;
	task_mem_mut(t)->pte = pte;
	task_set_comm(t, comm, strlen(comm));
}

static struct tv_task *threads_of(struct tv_task *p, size_t n, bool rows)
{
	p->threads = calloc(n, sizeof(*p->threads));
	ck_assert_ptr_nonnull(p->threads);
	p->nthreads_read = n;
	p->threads_complete = true;
	p->threads_are_rows = rows;
	return p->threads;
}

static void thread(struct tv_task *t, int32_t tid, int32_t tgid, double cpu)
{
	set(t, tid, tgid, cpu, 64, "worker");
	t->is_thread = true;
}

static void setup(void)
{
	ck_assert_int_eq(colset_init(&cs), 0);
	memset(&snap, 0, sizeof(snap));
	snap.nprocs = 5;
	snap.procs = calloc(snap.nprocs, sizeof(*snap.procs));
	ck_assert_ptr_nonnull(snap.procs);
	set(&snap.procs[0], 1, 1, 5.0, 40, "init");
	set(&snap.procs[1], 2, 2, 50.0, 64, "server");
	struct tv_task *t = threads_of(&snap.procs[1], 4, true);
	thread(&t[0], 2, 2, 10.0);
	thread(&t[1], 3, 2, 40.0);
	thread(&t[2], 4, 2, NAN);
	thread(&t[3], 5, 2, 10.0);
	set(&snap.procs[2], 3, 3, NAN, TV_UNKNOWN, "kthreadd");
	set(&snap.procs[3], 4, 4, 50.0, 8, "Browser");
	t = threads_of(&snap.procs[3], 2, true);
	thread(&t[0], 4, 4, 30.0);
	thread(&t[1], 6, 4, 20.0);
	set(&snap.procs[4], 7, 7, 0.5, 12, "daemon");
	t = threads_of(&snap.procs[4], 1, false);
	thread(&t[0], 7, 7, 0.5);
}

static void teardown(void)
{
	snapshot_free(&snap);
	colset_free(&cs);
}

static struct view_opts opts(const char *sort_id, bool reverse, bool all_threads)
{
	int idx = colset_index(&cs, sort_id);
	ck_assert_int_ge(idx, 0);
	return (struct view_opts){.cs = &cs, .sort_col = idx, .reverse = reverse, .all_threads = all_threads};
}

/* The rows as "p2 t3 t2 ..." for readable comparisons. */
static char *rows_str(const struct rows *r)
{
	static char out[256];
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < r->n; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%c%d", i ? " " : "", r->v[i].is_thread ? 't' : 'p',
				      r->v[i].task->tid);
	return out;
}

static void check_grouping(const struct rows *r)
{
	/* every thread row follows its process row or a sibling thread row */
	int32_t current = -1;
	for (size_t i = 0; i < r->n; i++) {
		const struct row *row = &r->v[i];
		if (!row->is_thread) {
			current = row->task->tgid;
			continue;
		}
		ck_assert_int_eq(row->task->tgid, current);
		bool next_is_sibling = i + 1 < r->n && r->v[i + 1].is_thread;
		ck_assert_int_eq(row->last_thread, !next_is_sibling);
	}
}

/* What each thread on the machine costs when every thread is shown: two
 * tasks (the sample on screen, the one being read), a row, and what is kept
 * of it between refreshes. A field added here is paid 100,000 times over. */
START_TEST(per_thread_sizes_within_budget)
{
	ck_assert_uint_le(sizeof(struct tv_task), 432);
	ck_assert_uint_le(sizeof(struct row), 24);
	ck_assert_uint_le(sizeof(struct tracked_thread), 72);
}
END_TEST

START_TEST(rows_cpu_descending_by_default)
{
	struct view_opts vo = opts("cpu", false, false);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	/* ties (50, 50) by ID; unknown last */
	ck_assert_str_eq(rows_str(&r), "p2 p4 p1 p7 p3");
	rows_free(&r);
}
END_TEST

START_TEST(rows_cpu_reversed)
{
	struct view_opts vo = opts("cpu", true, false);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	/* ascending now, ties still by ID ascending, unknown still last */
	ck_assert_str_eq(rows_str(&r), "p7 p1 p2 p4 p3");
	rows_free(&r);
}
END_TEST

START_TEST(rows_all_threads_grouped)
{
	struct view_opts vo = opts("cpu", false, true);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	/* threads under their process, sorted by cpu within it (tie 2/5 by TID,
	 * unknown last); process 7's threads are not rows */
	ck_assert_str_eq(rows_str(&r), "p2 t3 t2 t5 t4 p4 t4 t6 p1 p7 p3");
	check_grouping(&r);
	ck_assert(r.v[0].unfolded);
	ck_assert(!r.v[9].unfolded); /* 7: nothing to unfold */
	ck_assert(r.v[4].last_thread);
	ck_assert(!r.v[3].last_thread);
	ck_assert(r.v[7].last_thread);
	rows_free(&r);
}
END_TEST

START_TEST(rows_all_threads_reversed)
{
	struct view_opts vo = opts("cpu", true, true);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p7 p1 p2 t2 t5 t3 t4 p4 t6 t4 p3");
	check_grouping(&r);
	rows_free(&r);
}
END_TEST

static bool only_4(void *ctx, int32_t tgid)
{
	(void)ctx;
	return tgid == 4;
}

START_TEST(rows_only_expanded_show_threads)
{
	struct view_opts vo = opts("cpu", false, false);
	vo.expanded = only_4;
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p2 p4 t4 t6 p1 p7 p3");
	ck_assert(!r.v[0].unfolded);
	ck_assert(r.v[1].unfolded);
	ck_assert(!r.v[2].last_thread);
	ck_assert(r.v[3].last_thread);
	check_grouping(&r);
	rows_free(&r);
}
END_TEST

START_TEST(rows_sort_by_pid_ascending)
{
	struct view_opts vo = opts("pid", false, true);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p1 p2 t2 t3 t4 t5 p3 p4 t4 t6 p7");
	rows_free(&r);
	vo.reverse = true;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p7 p4 t6 t4 p3 p2 t5 t4 t3 t2 p1");
	check_grouping(&r);
	rows_free(&r);
}
END_TEST

START_TEST(rows_unknown_memory_last_both_ways)
{
	/* the kernel thread (no VmPTE) sorts last whichever way */
	struct view_opts vo = opts("vm_pte", false, false);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p2 p1 p7 p4 p3");
	rows_free(&r);
	vo.reverse = true;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p4 p7 p1 p2 p3");
	rows_free(&r);
}
END_TEST

START_TEST(rows_sort_by_name)
{
	struct view_opts vo = opts("comm", false, false);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	/* byte order: upper case first */
	ck_assert_str_eq(rows_str(&r), "p4 p7 p1 p3 p2");
	rows_free(&r);
}
END_TEST

START_TEST(rows_empty_snapshot)
{
	struct snapshot empty = {0};
	struct view_opts vo = opts("cpu", false, true);
	struct rows r;
	ck_assert_int_eq(rows_build(&empty, &vo, &r), 0);
	ck_assert_uint_eq(r.n, 0);
	rows_free(&r);
}
END_TEST

START_TEST(sort_unknown_user_last)
{
	struct tv_task a, b, c;
	set(&a, 10, 10, 0, 0, "a");
	set(&b, 11, 11, 0, 0, "b");
	set(&c, 12, 12, 0, 0, "c");
	a.user = NULL;
	b.user = "zoe";
	c.user = "adm";
	const struct column *col = colset_find(&cs, "user");
	ck_assert_ptr_nonnull(col);
	const struct tv_task *v[] = {&a, &b, &c};
	sort_tasks(v, 3, col, false);
	ck_assert_int_eq(v[0]->tid, 12);
	ck_assert_int_eq(v[1]->tid, 11);
	ck_assert_int_eq(v[2]->tid, 10);
	sort_tasks(v, 3, col, true);
	ck_assert_int_eq(v[0]->tid, 11);
	ck_assert_int_eq(v[1]->tid, 12);
	ck_assert_int_eq(v[2]->tid, 10);
	task_release(&a, 0);
	task_release(&b, 0);
	task_release(&c, 0);
}
END_TEST

/* ---- filters ---- */

START_TEST(pids_sorted_unique)
{
	struct filter f;
	filter_init(&f);
	char *bad = NULL;
	ck_assert_int_eq(filter_add_pids(&f, "30,1,30,2", &bad), 0);
	ck_assert_ptr_null(bad);
	ck_assert_int_eq(filter_add_pids(&f, "2,5", &bad), 0); /* a second -p adds to the list */
	ck_assert_uint_eq(f.npids, 4);
	ck_assert_int_eq(f.pids[0], 1);
	ck_assert_int_eq(f.pids[1], 2);
	ck_assert_int_eq(f.pids[2], 5);
	ck_assert_int_eq(f.pids[3], 30);
	ck_assert(filter_wants_pid(&f, 30));
	ck_assert(filter_wants_pid(&f, 5));
	ck_assert(!filter_wants_pid(&f, 3));
	ck_assert(!filter_wants_pid(&f, 31));
	filter_free(&f);
}
END_TEST

START_TEST(pids_empty_token)
{
	struct filter f;
	filter_init(&f);
	char *bad = NULL;
	ck_assert_int_eq(filter_add_pids(&f, "1,2,,3", &bad), -1);
	ck_assert_ptr_nonnull(bad);
	ck_assert_str_eq(bad, "");
	free(bad);
	filter_free(&f);
}
END_TEST

START_TEST(pids_bad_tokens_named)
{
	static const char *const lists[] = {"1,x", "0", "-5", "7,99999999999", "4,", ",4", "1.5", "0x10", "2 "};
	static const char *const toks[] = {"x", "0", "-5", "99999999999", "", "", "1.5", "0x10", "2 "};
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct filter f;
		filter_init(&f);
		char *bad = NULL;
		ck_assert_msg(filter_add_pids(&f, lists[i], &bad) == -1, "accepted '%s'", lists[i]);
		ck_assert_ptr_nonnull(bad);
		ck_assert_str_eq(bad, toks[i]);
		free(bad);
		filter_free(&f);
	}
}
END_TEST

START_TEST(pids_none_wants_all)
{
	struct filter f;
	filter_init(&f);
	ck_assert(filter_wants_pid(&f, 1));
	ck_assert(filter_wants_pid(&f, 123456));
	ck_assert(filter_wants_pid(NULL, 5));
	filter_free(&f);
}
END_TEST

START_TEST(user_numeric_and_name)
{
	struct filter f;
	filter_init(&f);
	ck_assert(filter_wants_uid(&f, 0));
	ck_assert(filter_wants_uid(&f, 1000));
	ck_assert_int_eq(filter_set_user(&f, "4242"), 0);
	ck_assert_int_eq(f.uid, 4242);
	ck_assert(filter_wants_uid(&f, 4242));
	ck_assert(!filter_wants_uid(&f, 0));
	ck_assert(!filter_wants_uid(&f, TV_UNKNOWN));
	ck_assert_int_eq(filter_set_user(&f, "root"), 0);
	ck_assert_int_eq(f.uid, 0);
	ck_assert(filter_wants_uid(&f, 0));
	ck_assert(!filter_wants_uid(&f, 4242));
	filter_free(&f);
}
END_TEST

START_TEST(user_unknown)
{
	struct filter f;
	filter_init(&f);
	ck_assert_int_eq(filter_set_user(&f, "no-such-user-here"), -1);
	ck_assert_int_eq(filter_set_user(&f, "-1"), -1);
	ck_assert_int_eq(filter_set_user(&f, "4294967295"), -1); /* (uid_t)-1 means "no uid" */
	ck_assert_int_eq(filter_set_user(&f, ""), -1);
	ck_assert_int_eq(f.uid, TV_UNKNOWN);
	filter_free(&f);
}
END_TEST

START_TEST(text_case_insensitive)
{
	struct filter f;
	filter_init(&f);
	ck_assert(filter_matches_text(&f, "anything", NULL));
	ck_assert_int_eq(filter_set_text(&f, "FiRe"), 0);
	ck_assert(filter_matches_text(&f, "firefox", NULL));
	ck_assert(filter_matches_text(&f, "Isolated Web Co", "/usr/lib/FIREFOX/firefox -contentproc"));
	ck_assert(filter_matches_text(&f, "x", "campFIRE"));
	ck_assert(!filter_matches_text(&f, "bash", "/bin/bash -l"));
	ck_assert(!filter_matches_text(&f, "bash", NULL));
	ck_assert(!filter_matches_text(&f, "fir", "fi re"));
	/* an empty text clears the filter */
	ck_assert_int_eq(filter_set_text(&f, ""), 0);
	ck_assert(filter_matches_text(&f, "bash", NULL));
	ck_assert_int_eq(filter_set_text(&f, "ä"), 0);
	ck_assert(filter_matches_text(&f, "bär", NULL)); /* UTF-8 bytes match as they are */
	filter_free(&f);
}
END_TEST


START_TEST(rows_single_thread_not_repeated)
{
	/* an unfolded process with one thread shows no thread row of itself */
	struct tv_task *p = &snap.procs[0];
	struct tv_task *t = threads_of(p, 1, true);
	thread(&t[0], 1, 1, 5.0);
	p->nthreads = 1;
	struct view_opts vo = opts("cpu", false, true);
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p2 t3 t2 t5 t4 p4 t4 t6 p1 p7 p3");
	ck_assert(!r.v[8].unfolded);
	rows_free(&r);
}
END_TEST

START_TEST(rows_view_filters)
{
	struct filter f;
	filter_init(&f);
	struct view_opts vo = opts("pid", false, false);
	vo.filter = &f;
	struct rows r;
	/* text: a process name, or a thread name of a folded process */
	task_set_comm(&snap.procs[3].threads[1], "Compositor", sizeof("Compositor"));
	ck_assert_int_eq(filter_set_text(&f, "compos"), 0);
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p4");
	rows_free(&r);
	/* names read for a folded process whose threads are not rows */
	struct tv_task *d = &snap.procs[4];
	d->tnames = calloc(2, sizeof(*d->tnames)); /* and the end, TID 0 */
	ck_assert_ptr_nonnull(d->tnames);
	d->tnames[0].tid = 8;
	snprintf(d->tnames[0].name, sizeof(d->tnames[0].name), "%s", "gc-worker");
	ck_assert_int_eq(filter_set_text(&f, "GC-"), 0);
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p7");
	rows_free(&r);
	/* user */
	filter_set_text(&f, NULL);
	for (size_t i = 0; i < snap.nprocs; i++)
		snap.procs[i].uid = i % 2 ? 1000 : 0;
	f.uid = 1000;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p2 p4");
	rows_free(&r);
	filter_free(&f);
}
END_TEST

/* A kernel counter jump is told where its task is shown, not in a view that leaves it out. */
START_TEST(rejects_noted_where_shown)
{
	snap.nrejects = 3;
	snap.rejects = calloc(snap.nrejects, sizeof(*snap.rejects));
	ck_assert_ptr_nonnull(snap.rejects);
	snap.rejects[0] = (struct tv_reject){.tid = 3, .tgid = 2, .is_thread = true, .cls = TV_DELAY_IO};
	snap.rejects[1] = (struct tv_reject){.tid = 6, .tgid = 4, .is_thread = true, .cls = TV_DELAY_IO};
	snap.rejects[2] = (struct tv_reject){.tid = 7, .tgid = 7, .cls = TV_DELAY_CPU};
	struct filter f;
	filter_init(&f);
	struct view_opts vo = opts("pid", false, false);
	vo.filter = &f;
	struct rows r;
	size_t idx[3];
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_uint_eq(noted_pick(&snap, &r, idx), 3);
	ck_assert_uint_eq(idx[0], 0);
	ck_assert_uint_eq(idx[2], 2);
	rows_free(&r);
	ck_assert_int_eq(filter_set_text(&f, "browser"), 0);
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p4");
	ck_assert_uint_eq(noted_pick(&snap, &r, idx), 1);
	ck_assert_uint_eq(idx[0], 1);
	rows_free(&r);
	ck_assert_int_eq(filter_set_text(&f, "no-such-task"), 0);
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_uint_eq(noted_pick(&snap, &r, idx), 0);
	rows_free(&r);
	filter_free(&f);
}
END_TEST

START_TEST(rows_kernel_threads_hidden)
{
	struct filter f;
	filter_init(&f);
	snap.procs[2].kthread = true;
	struct view_opts vo = opts("pid", false, false);
	vo.hide_kthreads = true;
	struct rows r;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p1 p2 p4 p7");
	rows_free(&r);
	/* a kernel thread asked for by PID is shown */
	char *bad = NULL;
	ck_assert_int_eq(filter_add_pids(&f, "3,4", &bad), 0);
	vo.filter = &f;
	ck_assert_int_eq(rows_build(&snap, &vo, &r), 0);
	ck_assert_str_eq(rows_str(&r), "p1 p2 p3 p4 p7");
	rows_free(&r);
	filter_free(&f);
}
END_TEST

/* ---- the process tree ----
 *   1 init (cpu 1)
 *   |- 10 sshd (2)
 *   |  `- 11 bash (5)
 *   |     `- 12 vim (unknown)
 *   |- 20 cron (10), threads 21 (4), 22 (6) as rows
 *   `- 30 single (0.5)
 *   2 kthreadd (0)
 *   `- 3 kworker (0)
 *   40 orphan (3): its parent 999 is not in the sample
 *   50 and 51: each other's parent (PIDs reused between reads)
 */
static struct snapshot tsnap;

static void tproc(struct tv_task *t, int32_t pid, int32_t ppid, double cpu, const char *comm)
{
	set(t, pid, pid, cpu, 8, comm);
	t->ppid = ppid;
	t->nthreads = 1;
}

static void tree_setup(void)
{
	ck_assert_int_eq(colset_init(&cs), 0);
	memset(&tsnap, 0, sizeof(tsnap));
	tsnap.nprocs = 13;
	tsnap.procs = calloc(tsnap.nprocs, sizeof(*tsnap.procs));
	ck_assert_ptr_nonnull(tsnap.procs);
	struct tv_task *p = tsnap.procs;
	tproc(&p[0], 1, 0, 1, "init");
	tproc(&p[1], 2, 0, 0, "kthreadd");
	tproc(&p[2], 3, 2, 0, "kworker");
	tproc(&p[3], 10, 1, 2, "sshd");
	tproc(&p[4], 11, 10, 5, "bash");
	tproc(&p[5], 12, 11, NAN, "vim");
	tproc(&p[6], 20, 1, 10, "cron");
	p[6].nthreads = 2;
	struct tv_task *th = threads_of(&p[6], 2, true);
	thread(&th[0], 21, 20, 4);
	thread(&th[1], 22, 20, 6);
	tproc(&p[7], 30, 1, 0.5, "single");
	tproc(&p[8], 40, 999, 3, "orphan");
	tproc(&p[9], 50, 51, 0, "cycA");
	tproc(&p[10], 51, 50, 0, "cycB");
	tproc(&p[11], 60, 60, 0, "selfparent");
	tproc(&p[12], 61, 0, 0, "zero");
	for (size_t i = 0; i < tsnap.nprocs; i++) {
		p[i].ctxt_vol = 100;
		p[i].ctxt_vol_rate = 1.0;
	}
}

static void tree_teardown(void)
{
	snapshot_free(&tsnap);
	colset_free(&cs);
}

/* "p1:0 p20:1 ..." with depth, plus "L" for a last row and "r<rails>". */
static char *tree_str(const struct rows *r)
{
	static char out[512];
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < r->n; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%c%d:%u%s%s", i ? " " : "",
				      r->v[i].is_thread ? 't' : 'p', r->v[i].task->tid, r->v[i].depth,
				      r->v[i].last ? "L" : "", r->v[i].rails ? "r" : "");
	return out;
}

static bool collapse_10(void *ctx, int32_t tgid)
{
	(void)ctx;
	return tgid == 10;
}

static bool collapse_1(void *ctx, int32_t tgid)
{
	(void)ctx;
	return tgid == 1;
}

static bool expand_20(void *ctx, int32_t tgid)
{
	(void)ctx;
	return tgid == 20;
}

START_TEST(tree_order_and_glyphs)
{
	struct view_opts vo = opts("cpu", false, false);
	vo.tree = true;
	struct rows r;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	/* roots and siblings by CPU; the cycle follows as a root of its own */
	ck_assert_str_eq(tree_str(&r), "p40:0 p1:0 p20:1 p10:1 p11:2Lr p12:3Lr p30:1L p2:0 p3:1L "
				       "p60:0 p61:0L p50:0L p51:1L");
	ck_assert(r.v[1].has_children);
	ck_assert(!r.v[6].has_children);
	/* p12: a line at level 0 (sshd has a sibling below), none at level 1 */
	ck_assert_uint_eq(r.v[5].rails, 1);
	ck_assert_uint_eq(r.v[4].rails, 1);
	for (size_t i = 0; i < r.n; i++)
		ck_assert(r.v[i].tree);
	rows_free(&r);
	/* threads of an unfolded process come before its children */
	vo.expanded = expand_20;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	ck_assert_str_eq(tree_str(&r), "p40:0 p1:0 p20:1 t22:2r t21:2Lr p10:1 p11:2Lr p12:3Lr p30:1L p2:0 p3:1L "
				       "p60:0 p61:0L p50:0L p51:1L");
	ck_assert(r.v[2].unfolded);
	rows_free(&r);
}
END_TEST

/* A child of sshd (10) that ended in the interval, and its part of it. */
static void ended_child_of_10(struct tv_task *e, struct tv_ended *part)
{
	task_init(e);
	e->tid = e->tgid = 70;
	e->ppid = 10;
	e->state = 'X';
	*part = (struct tv_ended){.cpu_pct = 4.0, .ctxt_vol_rate = 2.0, .ctxt_invol_rate = 1.0};
	for (int d = 0; d < TV_DELAY_NCLASS; d++)
		part->delay_avg_ms[d] = NAN; /* no events */
}

START_TEST(tree_collapsed_sums)
{
	struct view_opts vo = opts("pid", false, false);
	vo.tree = true;
	vo.collapsed = collapse_10;
	struct rows r;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	ck_assert_str_eq(tree_str(&r), "p1:0 p10:1 p20:1 p30:1L p2:0 p3:1L p40:0 p60:0 p61:0L p50:0L p51:1L");
	const struct row *c = &r.v[1];
	ck_assert(c->collapsed);
	ck_assert(c->has_children);
	/* sshd + bash; vim's CPU is unknown: at least 7 */
	ck_assert_double_eq_tol(c->task->cpu_pct, 7.0, 1e-9);
	ck_assert(c->task->partial & TV_PART_BIT(TV_PART_CPU));
	const struct column *cpu = colset_find(&cs, "cpu");
	ck_assert(column_value(cpu, c->task).partial);
	/* every member known: exact */
	ck_assert_int_eq(c->task->ctxt_vol, 300);
	ck_assert(!(c->task->partial & TV_PART_BIT(TV_PART_CTXT_VOL)));
	ck_assert_double_eq_tol(c->task->ctxt_vol_rate, 3.0, 1e-9);
	/* the snapshot's own task is untouched */
	ck_assert_double_eq_tol(tsnap.procs[3].cpu_pct, 2.0, 1e-9);
	ck_assert(!(tsnap.procs[3].partial & TV_PART_BIT(TV_PART_CPU)));
	rows_free(&r);
	/* I/O rates sum the subtree into the row's own block, the process's stays
	 * its own; vim's unknown makes the sum a lower bound */
	for (int i = 3; i <= 5; i++) {
		struct tv_mem *m = task_mem_mut(&tsnap.procs[i]);
		ck_assert_ptr_nonnull(m);
		m->io_write_rate = i == 5 ? NAN : 1000.0f * (float)i;
	}
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	const struct column *iow = colset_find(&cs, "io_write_rate");
	struct tv_value v = column_value(iow, r.v[1].task);
	ck_assert_double_eq_tol(v.f, 7000.0, 1e-9);
	ck_assert(v.partial);
	ck_assert_double_eq_tol(task_mem(&tsnap.procs[3])->io_write_rate, 3000.0, 1e-9);
	ck_assert_int_eq(task_mem(r.v[1].task)->rss, task_mem(&tsnap.procs[3])->rss); /* memory is not summed */
	rows_free(&r);
	/* init collapsed: the whole tree below it, exact once vim is known and
	 * no process can have ended unseen (the exit listener saw none end) */
	tsnap.procs[5].cpu_pct = 1.0;
	vo.collapsed = collapse_1;
	tsnap.exits_watched = true;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	ck_assert_str_eq(tree_str(&r), "p1:0 p2:0 p3:1L p40:0 p60:0 p61:0L p50:0L p51:1L");
	ck_assert_double_eq_tol(r.v[0].task->cpu_pct, 1 + 2 + 5 + 1 + 10 + 0.5, 1e-9);
	ck_assert(!(r.v[0].task->partial & TV_PART_BIT(TV_PART_CPU)));
	ck_assert(!(r.v[0].task->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE)));
	ck_assert_int_eq(r.v[0].task->ctxt_vol, 600);
	rows_free(&r);
	/* a child that ended in the interval is in no sum: the rates are lower bounds */
	tsnap.ngone = 1;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	ck_assert(r.v[0].task->partial & TV_PART_BIT(TV_PART_CPU));
	ck_assert(r.v[0].task->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE));
	ck_assert(!(r.v[0].task->partial & TV_PART_BIT(TV_PART_CTXT_VOL)));
	rows_free(&r);
	/* ... unless its part of the interval is known: a child of sshd (10) that ended,
	 * listed apart from the processes, counts in the sums of the subtrees above it */
	tsnap.ngone = 0;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	double cpu_before = r.v[0].task->cpu_pct, vol = r.v[0].task->ctxt_vol_rate;
	rows_free(&r);
	struct tv_task ended;
	struct tv_ended part;
	ended_child_of_10(&ended, &part);
	tsnap.gone = &ended;
	tsnap.ngone = 1;
	tsnap.ended = &part;
	for (int k = 0; k < 2; k++) {
		vo.collapsed = k ? collapse_10 : collapse_1;
		ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
		const struct tv_task *t = r.v[k].task;
		ck_assert_int_eq(t->tgid, k ? 10 : 1);
		if (!k) {
			ck_assert_double_eq_tol(t->cpu_pct, cpu_before + 4.0, 1e-9);
			ck_assert_double_eq_tol(t->ctxt_vol_rate, vol + 2.0, 1e-9);
			ck_assert(!(t->partial & TV_PART_BIT(TV_PART_CPU)));
			ck_assert(!(t->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE)));
			ck_assert_int_eq(t->ctxt_vol, 600); /* totals are the live processes' */
		} else {
			ck_assert_double_eq_tol(t->ctxt_vol_rate, 3.0 + 2.0, 1e-9);
		}
		rows_free(&r);
	}
	/* its part unknown: a lower bound again */
	part.ctxt_vol_rate = NAN;
	vo.collapsed = collapse_1;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	ck_assert(r.v[0].task->partial & TV_PART_BIT(TV_PART_CTXT_VOL_RATE));
	ck_assert(!(r.v[0].task->partial & TV_PART_BIT(TV_PART_CPU)));
	rows_free(&r);
	tsnap.gone = NULL;
	tsnap.ended = NULL;
	tsnap.ngone = 0;
	tsnap.exits_watched = false;
}
END_TEST

/* With a control-group filter, an ended child whose group is not known may
 * be in one the filter keeps: the collapsed subtree's sums are lower bounds
 * until its group is known. */
START_TEST(tree_collapsed_cgroup_filter_ended)
{
	struct tv_cgroup web = {.path = "/web.slice", .unit = "web.slice"};
	for (size_t i = 0; i < tsnap.nprocs; i++)
		tsnap.procs[i].cgroup = &web;
	tsnap.procs[5].cpu_pct = 1.0; /* vim known: the subtree exact but for the ended child */
	tsnap.exits_watched = true;
	struct filter f;
	filter_init(&f);
	ck_assert_int_eq(filter_set_cgroup(&f, "web"), 0);
	struct view_opts vo = opts("pid", false, false);
	vo.tree = true;
	vo.collapsed = collapse_10;
	vo.filter = &f;
	struct tv_task ended;
	struct tv_ended part;
	ended_child_of_10(&ended, &part);
	tsnap.gone = &ended;
	tsnap.ngone = 1;
	tsnap.ended = &part;
	for (int known = 0; known < 2; known++) {
		ended.cgroup = known ? &web : NULL;
		struct rows r;
		ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
		const struct row *c = &r.v[1];
		ck_assert_int_eq(c->task->tgid, 10);
		ck_assert(c->collapsed);
		ck_assert_double_eq_tol(c->task->cpu_pct, known ? 2 + 5 + 1 + 4.0 : 2 + 5 + 1, 1e-9);
		ck_assert(!(c->task->partial & TV_PART_BIT(TV_PART_CPU)) == (bool)known);
		rows_free(&r);
	}
	tsnap.gone = NULL;
	tsnap.ended = NULL;
	tsnap.ngone = 0;
	filter_free(&f);
}
END_TEST

START_TEST(tree_filtered_parent_makes_root)
{
	struct filter f;
	filter_init(&f);
	ck_assert_int_eq(filter_set_text(&f, "vim"), 0);
	struct view_opts vo = opts("pid", false, false);
	vo.tree = true;
	vo.filter = &f;
	struct rows r;
	ck_assert_int_eq(rows_build(&tsnap, &vo, &r), 0);
	ck_assert_str_eq(tree_str(&r), "p12:0L");
	rows_free(&r);
	filter_free(&f);
}
END_TEST

/* ---- sums over a group ---- */

START_TEST(group_sum_rules)
{
	struct tv_task a, b, out;
	task_init(&a);
	task_init(&b);
	task_init(&out);
	a.cpu_pct = 10;
	a.partial |= TV_PART_BIT(TV_PART_CPU); /* itself a lower bound */
	b.cpu_pct = 5;
	a.ctxt_vol = 100; /* b's unknown */
	a.delay_pct[TV_DELAY_CPU] = 10;
	a.delay_avg_ms[TV_DELAY_CPU] = 2;   /* 5 events */
	b.delay_pct[TV_DELAY_CPU] = 30;
	b.delay_avg_ms[TV_DELAY_CPU] = 6;   /* 5 events */
	a.delay_pct[TV_DELAY_IO] = 0;       /* no event: adds nothing */
	b.delay_pct[TV_DELAY_IO] = 20;
	b.delay_avg_ms[TV_DELAY_IO] = 4;
	a.delay_pct[TV_DELAY_SWAPIN] = 0;   /* events that took no time: uncountable */
	a.delay_avg_ms[TV_DELAY_SWAPIN] = 0;
	b.delay_pct[TV_DELAY_SWAPIN] = 1;
	b.delay_avg_ms[TV_DELAY_SWAPIN] = 1;
	struct group_sum g;
	group_sum_init(&g);
	group_sum_add(&g, &a);
	group_sum_add(&g, &b);
	group_sum_apply(&g, &out);
	ck_assert_double_eq_tol(out.cpu_pct, 15, 1e-9);
	ck_assert(out.partial & TV_PART_BIT(TV_PART_CPU));
	ck_assert_int_eq(out.ctxt_vol, 100);
	ck_assert(out.partial & TV_PART_BIT(TV_PART_CTXT_VOL));
	/* nothing known: unknown, and no mark */
	ck_assert_int_eq(out.ctxt_invol, TV_UNKNOWN);
	ck_assert(!(out.partial & TV_PART_BIT(TV_PART_CTXT_INVOL)));
	ck_assert(isnan(out.ctxt_vol_rate));
	/* delays: shares add up; the average is delay over events */
	ck_assert_double_eq_tol(out.delay_pct[TV_DELAY_CPU], 40, 1e-9);
	ck_assert_double_eq_tol(out.delay_avg_ms[TV_DELAY_CPU], 4, 1e-9);
	ck_assert(!(out.partial & TV_PART_BIT(TV_PART_DELAY + TV_DELAY_CPU)));
	ck_assert_double_eq_tol(out.delay_avg_ms[TV_DELAY_IO], 4, 1e-9);
	ck_assert(isnan(out.delay_avg_ms[TV_DELAY_SWAPIN]));
	ck_assert(isnan(out.delay_pct[TV_DELAY_THRASHING]));
	/* a member without delay figures: the share is a lower bound, the average unknown */
	struct tv_task c;
	task_init(&c);
	c.delay_pct[TV_DELAY_CPU] = 10;
	c.delay_avg_ms[TV_DELAY_CPU] = 1;
	struct tv_task d;
	task_init(&d);
	group_sum_init(&g);
	group_sum_add(&g, &c);
	group_sum_add(&g, &d);
	group_sum_apply(&g, &out);
	ck_assert_double_eq_tol(out.delay_pct[TV_DELAY_CPU], 10, 1e-9);
	ck_assert(out.partial & TV_PART_BIT(TV_PART_DELAY + TV_DELAY_CPU));
	ck_assert(isnan(out.delay_avg_ms[TV_DELAY_CPU]));
}
END_TEST

static Suite *view_suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("rows");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, per_thread_sizes_within_budget);
	tcase_add_test(tc, rows_cpu_descending_by_default);
	tcase_add_test(tc, rows_cpu_reversed);
	tcase_add_test(tc, rows_all_threads_grouped);
	tcase_add_test(tc, rows_all_threads_reversed);
	tcase_add_test(tc, rows_only_expanded_show_threads);
	tcase_add_test(tc, rows_sort_by_pid_ascending);
	tcase_add_test(tc, rows_unknown_memory_last_both_ways);
	tcase_add_test(tc, rows_sort_by_name);
	tcase_add_test(tc, rows_empty_snapshot);
	tcase_add_test(tc, sort_unknown_user_last);
	tcase_add_test(tc, rows_single_thread_not_repeated);
	tcase_add_test(tc, rows_view_filters);
	tcase_add_test(tc, rows_kernel_threads_hidden);
	tcase_add_test(tc, rejects_noted_where_shown);
	suite_add_tcase(s, tc);

	tc = tcase_create("tree");
	tcase_add_checked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_test(tc, tree_order_and_glyphs);
	tcase_add_test(tc, tree_collapsed_sums);
	tcase_add_test(tc, tree_collapsed_cgroup_filter_ended);
	tcase_add_test(tc, tree_filtered_parent_makes_root);
	tcase_add_test(tc, group_sum_rules);
	suite_add_tcase(s, tc);

	tc = tcase_create("filter");
	tcase_add_test(tc, pids_sorted_unique);
	tcase_add_test(tc, pids_empty_token);
	tcase_add_test(tc, pids_bad_tokens_named);
	tcase_add_test(tc, pids_none_wants_all);
	tcase_add_test(tc, user_numeric_and_name);
	tcase_add_test(tc, user_unknown);
	tcase_add_test(tc, text_case_insensitive);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(view_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
