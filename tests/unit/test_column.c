/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The column table: complete and consistent declarations, selection lists
 * as users type them, and the values the getters produce.
 */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "model/task.h"
#include "model/value.h"

static struct colset cs;

static void setup(void)
{
	ck_assert_int_eq(colset_init(&cs), 0);
}

static void teardown(void)
{
	colset_free(&cs);
}

static const char *const required[] = {
	"pid", "tgid", "ppid", "user", "state", "nice", "prio", "cpu", "time", "threads", "vm_size", "vm_rss",
	"rss_virt", "vm_pte", "vm_swap", "ctxt_vol", "ctxt_invol", "ctxt_vol_rate", "ctxt_invol_rate", "comm",
	"command",
};

static const struct {
	const char *pct, *avg;
	int cls;
} delays[] = {
	{"cpu_delay", "cpu_delay_avg", TV_DELAY_CPU},
	{"io_delay", "io_delay_avg", TV_DELAY_IO},
	{"swapin_delay", "swapin_delay_avg", TV_DELAY_SWAPIN},
	{"reclaim_delay", "reclaim_delay_avg", TV_DELAY_RECLAIM},
	{"thrashing_delay", "thrashing_delay_avg", TV_DELAY_THRASHING},
	{"compact_delay", "compact_delay_avg", TV_DELAY_COMPACT},
	{"wpcopy_delay", "wpcopy_delay_avg", TV_DELAY_WPCOPY},
	{"irq_delay", "irq_delay_avg", TV_DELAY_IRQ},
};

/* ---- the table ---- */

START_TEST(every_column_declared_fully)
{
	ck_assert_uint_gt(cs.nbuiltin, 0);
	ck_assert_uint_eq(cs.n, cs.nbuiltin);
	for (size_t i = 0; i < cs.n; i++) {
		const struct column *c = &cs.cols[i];
		ck_assert_msg(c->id && *c->id, "column %zu has no id", i);
		ck_assert_msg(c->header && *c->header, "%s has no header", c->id);
		ck_assert_msg(c->desc && *c->desc, "%s has no description", c->id);
		ck_assert_msg(c->cost && *c->cost, "%s has no cost line", c->id);
		ck_assert_msg(c->get != NULL, "%s has no getter", c->id);
		ck_assert_msg(c->needs != 0, "%s needs nothing", c->id);
		ck_assert_msg(c->width >= 0, "%s has a negative width", c->id);
		ck_assert_msg(!c->counter, "%s: only plugin columns are counters", c->id);
		/* ids are what users type in -o and -s */
		for (const char *p = c->id; *p; p++)
			ck_assert_msg(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_',
				      "id '%s' has '%c'", c->id, *p);
	}
}
END_TEST

START_TEST(ids_unique)
{
	for (size_t i = 0; i < cs.n; i++)
		for (size_t j = i + 1; j < cs.n; j++)
			ck_assert_msg(strcmp(cs.cols[i].id, cs.cols[j].id) != 0, "id '%s' twice", cs.cols[i].id);
}
END_TEST

START_TEST(required_ids_exist)
{
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		ck_assert_msg(colset_find(&cs, required[i]) != NULL, "no column '%s'", required[i]);
}
END_TEST

START_TEST(delay_columns_exist_per_class)
{
	for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		const struct column *p = colset_find(&cs, delays[i].pct);
		const struct column *a = colset_find(&cs, delays[i].avg);
		ck_assert_msg(p != NULL, "no column '%s'", delays[i].pct);
		ck_assert_msg(a != NULL, "no column '%s'", delays[i].avg);
		ck_assert_int_eq(p->type, COL_PERCENT);
		ck_assert_int_eq(a->type, COL_MS);
		ck_assert_int_eq(p->arg, delays[i].cls);
		ck_assert_int_eq(a->arg, delays[i].cls);
		ck_assert(p->needs & NEED_DELAY);
		ck_assert(a->needs & NEED_DELAY);
	}
}
END_TEST

START_TEST(find_and_index)
{
	const struct column *c = colset_find(&cs, "vm_pte");
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->id, "vm_pte");
	ck_assert_int_eq(c->type, COL_KIB);
	int i = colset_index(&cs, "vm_pte");
	ck_assert_int_ge(i, 0);
	ck_assert_ptr_eq(&cs.cols[i], c);
	ck_assert_ptr_null(colset_find(&cs, "VM_PTE"));
	ck_assert_ptr_null(colset_find(&cs, "vm_pt"));
	ck_assert_ptr_null(colset_find(&cs, ""));
	ck_assert_int_eq(colset_index(&cs, "nope"), -1);
}
END_TEST

START_TEST(add_plugin_column)
{
	struct column col = {
		.id = "io.read_rate", .header = "READ/s", .desc = "bytes read per second", .type = COL_RATE,
		.width = 6, .needs = NEED_PLUGIN, .cost = "/proc/PID/io", .arg = 0, .counter = true,
	};
	size_t before = cs.n;
	ck_assert_int_eq(colset_add(&cs, &col), (int)before);
	ck_assert_uint_eq(cs.n, before + 1);
	ck_assert_uint_eq(cs.nbuiltin, before);
	const struct column *c = colset_find(&cs, "io.read_rate");
	ck_assert_ptr_nonnull(c);
	ck_assert(c->counter);
	/* built-ins are still found after the table grew */
	ck_assert_ptr_nonnull(colset_find(&cs, "pid"));
	char *ids = colset_ids_joined(&cs);
	ck_assert_ptr_nonnull(ids);
	ck_assert_ptr_nonnull(strstr(ids, ", io.read_rate"));
	free(ids);
}
END_TEST

START_TEST(ids_joined)
{
	char *ids = colset_ids_joined(&cs);
	ck_assert_ptr_nonnull(ids);
	ck_assert_str_eq(strstr(ids, "pid, tgid, ppid"), ids);
	size_t commas = 0;
	for (const char *p = ids; *p; p++)
		commas += *p == ',';
	ck_assert_uint_eq(commas, cs.n - 1);
	ck_assert_int_ne(ids[strlen(ids) - 1], ' ');
	free(ids);
}
END_TEST

/* ---- selections ---- */

START_TEST(select_list)
{
	struct colsel sel;
	char *bad = (char *)"untouched";
	ck_assert_int_eq(colsel_parse(&cs, "pid,vm_pte,comm", &sel, &bad), 0);
	ck_assert_ptr_null(bad);
	ck_assert_uint_eq(sel.n, 3);
	ck_assert_str_eq(cs.cols[sel.idx[0]].id, "pid");
	ck_assert_str_eq(cs.cols[sel.idx[1]].id, "vm_pte");
	ck_assert_str_eq(cs.cols[sel.idx[2]].id, "comm");
	colsel_free(&sel);
	ck_assert_uint_eq(sel.n, 0);
}
END_TEST

/* all: every column, those listed before it kept in their place */
START_TEST(select_all)
{
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colsel_parse(&cs, "all", &sel, &bad), 0);
	ck_assert_uint_eq(sel.n, cs.n);
	for (size_t i = 0; i < cs.n; i++)
		ck_assert_int_eq(sel.idx[i], (int)i);
	colsel_free(&sel);
	ck_assert_int_eq(colsel_parse(&cs, "comm, all", &sel, &bad), 0);
	ck_assert_uint_eq(sel.n, cs.n);
	ck_assert_str_eq(cs.cols[sel.idx[0]].id, "comm");
	for (size_t i = 0; i < cs.n; i++)
		ck_assert_msg(colsel_has(&sel, (int)i), "%s left out", cs.cols[i].id);
	colsel_free(&sel);
	/* not a column of its own: "All" is unknown, as "PID" is */
	ck_assert_int_eq(colsel_parse(&cs, "pid,All", &sel, &bad), -1);
	ck_assert_str_eq(bad, "All");
	free(bad);
}
END_TEST

START_TEST(select_whitespace)
{
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colsel_parse(&cs, "  pid ,\tcpu\t, command ", &sel, &bad), 0);
	ck_assert_uint_eq(sel.n, 3);
	ck_assert_str_eq(cs.cols[sel.idx[0]].id, "pid");
	ck_assert_str_eq(cs.cols[sel.idx[1]].id, "cpu");
	ck_assert_str_eq(cs.cols[sel.idx[2]].id, "command");
	colsel_free(&sel);
}
END_TEST

START_TEST(select_unknown_id_named)
{
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colsel_parse(&cs, "pid, cpux ,comm", &sel, &bad), -1);
	ck_assert_ptr_nonnull(bad);
	ck_assert_str_eq(bad, "cpux"); /* trimmed, as the user meant it */
	free(bad);
	ck_assert_uint_eq(sel.n, 0);
	ck_assert_ptr_null(sel.idx);

	static const char *const lists[] = {"pid,,comm", "", "pid,", "PID", "vm_pte;comm"};
	static const char *const bads[] = {"", "", "", "PID", "vm_pte;comm"};
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		bad = NULL;
		ck_assert_msg(colsel_parse(&cs, lists[i], &sel, &bad) == -1, "accepted '%s'", lists[i]);
		ck_assert_ptr_nonnull(bad);
		ck_assert_str_eq(bad, bads[i]);
		free(bad);
	}
}
END_TEST

START_TEST(select_default)
{
	struct column col = {.id = "plug", .header = "P", .desc = "d", .type = COL_INT, .width = 4,
			     .shown_default = true, .needs = NEED_PLUGIN, .cost = "c"};
	ck_assert_int_ge(colset_add(&cs, &col), 0);
	struct colsel sel;
	ck_assert_int_eq(colsel_default(&cs, &sel), 0);
	ck_assert_uint_gt(sel.n, 0);
	bool pid = false, cpu = false, command = false, pte = false;
	for (size_t i = 0; i < sel.n; i++) {
		const char *id = cs.cols[sel.idx[i]].id;
		ck_assert(cs.cols[sel.idx[i]].shown_default);
		ck_assert_msg((size_t)sel.idx[i] < cs.nbuiltin, "plugin column %s shown by default", id);
		pid |= strcmp(id, "pid") == 0;
		cpu |= strcmp(id, "cpu") == 0;
		command |= strcmp(id, "command") == 0;
		pte |= strcmp(id, "vm_pte") == 0;
	}
	ck_assert(pid && cpu && command && pte);
	colsel_free(&sel);
}
END_TEST

START_TEST(select_needs)
{
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colsel_parse(&cs, "pid,cpu", &sel, &bad), 0);
	ck_assert_uint_eq(colsel_needs(&cs, &sel), NEED_STAT);
	colsel_free(&sel);
	ck_assert_int_eq(colsel_parse(&cs, "pid,vm_pte,io_delay,command", &sel, &bad), 0);
	unsigned n = colsel_needs(&cs, &sel);
	ck_assert(n & NEED_STAT);
	ck_assert(n & NEED_STATUS);
	ck_assert(n & NEED_DELAY);
	ck_assert(n & NEED_CMDLINE);
	ck_assert(!(n & NEED_CTXT));
	colsel_free(&sel);
}
END_TEST

/* ---- values ---- */

static struct tv_value val(const char *id, const struct tv_task *t)
{
	const struct column *c = colset_find(&cs, id);
	ck_assert_msg(c != NULL, "no column %s", id);
	return column_value(c, t);
}

START_TEST(values_of_a_process)
{
	struct tv_task t;
	task_init(&t);
	t.tid = t.tgid = 4242;
	t.ppid = 1;
	t.state = 'Z';
	t.nice = -5;
	t.prio = 15;
	t.cpu_ns = 123450000000LL;
	task_mem_mut(&t)->size = 3060;
	task_mem_mut(&t)->rss = 1530;
	task_mem_mut(&t)->pte = 52;
	t.ctxt_vol_rate = 2.5;
	task_set_comm(&t, "cat", sizeof("cat"));
	t.cmdline = (char *)"cat /etc/passwd";

	struct tv_value v = val("pid", &t);
	ck_assert_int_eq(v.kind, TV_V_INT);
	ck_assert_int_eq(v.i, 4242);
	ck_assert_int_eq(val("ppid", &t).i, 1);
	ck_assert_int_eq(val("nice", &t).i, -5);
	ck_assert_int_eq(val("prio", &t).i, 15);
	v = val("state", &t);
	ck_assert_int_eq(v.kind, TV_V_STR);
	ck_assert_str_eq(v.s, "Z");
	v = val("time", &t);
	ck_assert_int_eq(v.kind, TV_V_FLOAT);
	ck_assert_double_eq_tol(v.f, 123.45, 1e-9);
	ck_assert_double_eq_tol(val("rss_virt", &t).f, 50.0, 1e-9);
	ck_assert_int_eq(val("vm_pte", &t).i, 52);
	ck_assert_double_eq_tol(val("ctxt_vol_rate", &t).f, 2.5, 1e-9);
	ck_assert_str_eq(val("command", &t).s, "cat /etc/passwd");
	ck_assert_str_eq(val("comm", &t).s, "cat");
	/* unknowns stay unknown, never 0 */
	ck_assert_int_eq(val("vm_swap", &t).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("cpu", &t).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("user", &t).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("threads", &t).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("ctxt_invol_rate", &t).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("io_delay", &t).kind, TV_V_UNKNOWN);
	t.delay_pct[TV_DELAY_IO] = 7.5;
	t.delay_avg_ms[TV_DELAY_IO] = 0.25;
	ck_assert_double_eq_tol(val("io_delay", &t).f, 7.5, 1e-9);
	ck_assert_double_eq_tol(val("io_delay_avg", &t).f, 0.25, 1e-9);
	ck_assert_int_eq(val("cpu_delay", &t).kind, TV_V_UNKNOWN);
	/* no name read: unknown, not an empty one (a process's and a thread's) */
	task_set_comm(&t, "", 0);
	ck_assert_int_eq(val("comm", &t).kind, TV_V_UNKNOWN);
	t.is_thread = true;
	ck_assert_int_eq(val("command", &t).kind, TV_V_UNKNOWN);
	t.cmdline = NULL; /* not ours */
	task_release(&t, 0);
}
END_TEST

/* A kernel worker's name carries its queue past TASK_COMM_LEN: kept whole,
 * up to the longest the kernel gives, and copies own theirs. */
START_TEST(long_names_kept_whole)
{
	struct tv_task k, c;
	task_init(&k);
	task_init(&c);
	const char *w = "kworker/0:0H-events_highpri";
	task_set_comm(&k, w, strlen(w));
	ck_assert_str_eq(val("comm", &k).s, w);
	task_copy_comm(&c, &k);
	task_clear(&k, 0);
	ck_assert_str_eq(task_comm(&c), w);
	char big[200];
	memset(big, 'x', sizeof(big));
	task_set_comm(&c, big, sizeof(big));
	ck_assert_uint_eq(strlen(task_comm(&c)), TV_COMM_MAX - 1);
	task_set_comm(&c, "short", 5);
	ck_assert_str_eq(task_comm(&c), "short");
	ck_assert_ptr_null(c.comm_long);
	task_release(&c, 0);
}
END_TEST

START_TEST(values_kernel_thread_and_thread)
{
	struct tv_task k;
	task_init(&k);
	k.tid = k.tgid = 2;
	k.state = 'S';
	task_set_comm(&k, "kthreadd", sizeof("kthreadd"));
	/* no memory: unknown, and no ratio from unknowns */
	ck_assert_int_eq(val("vm_size", &k).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("rss_virt", &k).kind, TV_V_UNKNOWN);
	/* a command line not read (yet) is unknown, not the name */
	ck_assert_int_eq(val("command", &k).kind, TV_V_UNKNOWN);
	k.cmdline = strdup("[kthreadd]");
	ck_assert_str_eq(val("command", &k).s, "[kthreadd]");
	free(k.cmdline);
	k.cmdline = NULL;
	task_mem_mut(&k)->size = 0;
	task_mem_mut(&k)->rss = 0;
	ck_assert_int_eq(val("rss_virt", &k).kind, TV_V_UNKNOWN); /* no division by zero */
	task_release(&k, 0);

	struct tv_task t;
	task_init(&t);
	t.tid = 101;
	t.tgid = 100;
	t.is_thread = true;
	task_set_comm(&t, "worker-3", sizeof("worker-3"));
	t.cmdline = (char *)"/usr/bin/server --big";
	ck_assert_int_eq(val("pid", &t).i, 101);
	ck_assert_int_eq(val("tgid", &t).i, 100);
	ck_assert_str_eq(val("command", &t).s, "worker-3"); /* threads show their own name */
}
END_TEST

START_TEST(state_letters)
{
	struct tv_task t;
	task_init(&t);
	ck_assert_int_eq(val("state", &t).kind, TV_V_UNKNOWN); /* '?' */
	static const char letters[] = "RSDZTtWXxKPI";
	for (const char *p = letters; *p; p++) {
		t.state = *p;
		struct tv_value v = val("state", &t);
		ck_assert_int_eq(v.kind, TV_V_STR);
		ck_assert_int_eq(v.s[0], *p);
		ck_assert_int_eq(v.s[1], '\0');
	}
	t.state = 'Q';
	ck_assert_int_eq(val("state", &t).kind, TV_V_UNKNOWN);
	t.state = '\0';
	ck_assert_int_eq(val("state", &t).kind, TV_V_UNKNOWN);
}
END_TEST

static struct tv_value plugin_get(const struct column *c, const struct tv_task *t)
{
	(void)c;
	return value_int(t->tid);
}

START_TEST(applies_to_rows)
{
	struct column pcol = {.id = "p_only", .header = "P", .desc = "d", .type = COL_INT, .width = 4,
			      .needs = NEED_PLUGIN, .cost = "c", .get = plugin_get, .applies = COL_ROWS_PROCESS};
	struct column tcol = pcol;
	tcol.id = "t_only";
	tcol.applies = COL_ROWS_THREAD;
	ck_assert_int_ge(colset_add(&cs, &pcol), 0);
	ck_assert_int_ge(colset_add(&cs, &tcol), 0);
	struct tv_task p, t;
	task_init(&p);
	task_init(&t);
	p.tid = p.tgid = 10;
	t.tid = 11;
	t.tgid = 10;
	t.is_thread = true;
	ck_assert_int_eq(val("p_only", &p).i, 10);
	ck_assert_int_eq(val("p_only", &t).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("t_only", &p).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(val("t_only", &t).i, 11);
}
END_TEST

START_TEST(value_constructors_and_order)
{
	ck_assert_int_eq(value_int(TV_UNKNOWN).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(value_int(0).kind, TV_V_INT);
	ck_assert_int_eq(value_float(NAN).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(value_float(0.0).kind, TV_V_FLOAT);
	ck_assert_int_eq(value_str(NULL).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(value_str("").kind, TV_V_STR);

	struct tv_value a = value_int(2), b = value_int(10), f = value_float(2.5), u = value_unknown();
	struct tv_value big = value_int(INT64_MAX), big1 = value_int(INT64_MAX - 1);
	ck_assert_int_lt(value_compare(&a, &b), 0);
	ck_assert_int_gt(value_compare(&b, &a), 0);
	ck_assert_int_eq(value_compare(&a, &a), 0);
	ck_assert_int_lt(value_compare(&a, &f), 0);
	ck_assert_int_gt(value_compare(&b, &f), 0);
	ck_assert_int_gt(value_compare(&big, &big1), 0); /* exact, not through double */
	ck_assert_int_gt(value_compare(&u, &a), 0);
	ck_assert_int_lt(value_compare(&a, &u), 0);
	ck_assert_int_eq(value_compare(&u, &u), 0);
	struct tv_value s1 = value_str("abc"), s2 = value_str("abd");
	ck_assert_int_lt(value_compare(&s1, &s2), 0);
}
END_TEST

static Suite *column_suite(void)
{
	Suite *s = suite_create("column");
	TCase *tc = tcase_create("table");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, every_column_declared_fully);
	tcase_add_test(tc, long_names_kept_whole);
	tcase_add_test(tc, ids_unique);
	tcase_add_test(tc, required_ids_exist);
	tcase_add_test(tc, delay_columns_exist_per_class);
	tcase_add_test(tc, find_and_index);
	tcase_add_test(tc, add_plugin_column);
	tcase_add_test(tc, ids_joined);
	suite_add_tcase(s, tc);

	tc = tcase_create("selection");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, select_list);
	tcase_add_test(tc, select_all);
	tcase_add_test(tc, select_whitespace);
	tcase_add_test(tc, select_unknown_id_named);
	tcase_add_test(tc, select_default);
	tcase_add_test(tc, select_needs);
	suite_add_tcase(s, tc);

	tc = tcase_create("values");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, values_of_a_process);
	tcase_add_test(tc, values_kernel_thread_and_thread);
	tcase_add_test(tc, state_letters);
	tcase_add_test(tc, applies_to_rows);
	tcase_add_test(tc, value_constructors_and_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(column_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
