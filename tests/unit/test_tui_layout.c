/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TUI layout: what goes where on tiny and large screens, column widths, and
 * table lines that keep their width with wide, escaped and invalid names.
 */
#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "render/format.h"
#include "render/table.h"
#include "tui/screen/autocols.h"
#include "tui/screen/layout.h"
#include "util/text.h"
#include "view/rows.h"

/* Display width of already-sanitized output (no second escaping). */
static size_t shown_width(const char *s, size_t len)
{
	size_t w = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_decode((const unsigned char *)s + i, len - i, &cp);
		ck_assert_uint_gt(n, 0);
		ck_assert_uint_ge(cp, 0x20); /* nothing a terminal would act on */
		ck_assert_uint_ne(cp, 0x7f);
		w += (size_t)text_cp_width(cp);
		i += n;
	}
	return w;
}

START_TEST(layout_normal)
{
	struct layout l;
	/* two CPUs side by side on a wide screen */
	layout_compute(40, 120, 2, &l);
	ck_assert_int_eq(l.cpu_row, 0);
	ck_assert_int_eq(l.cpu_lines, 1);
	ck_assert_int_eq(l.cpu_per_line, 2);
	ck_assert_int_eq(l.mem_row, 1);
	ck_assert_int_eq(l.tasks_row, 2);
	ck_assert_int_eq(l.info_row, 3);
	/* the system's pressure under the text lines */
	ck_assert_int_eq(l.psi_row, 4);
	ck_assert_int_eq(l.table_head_row, 5);
	ck_assert_int_eq(l.table_top, 6);
	ck_assert_int_eq(l.keybar_row, 39);
	ck_assert_int_eq(l.status_row, 38);
	ck_assert_int_eq(l.table_top + l.table_lines, l.status_row);
	/* one per line at 80 columns */
	layout_compute(24, 80, 2, &l);
	ck_assert_int_eq(l.cpu_lines, 2);
	ck_assert_int_eq(l.cpu_per_line, 1);
	ck_assert_int_eq(l.psi_row, 5);
	/* a short screen keeps the table: the pressure line goes before the text lines */
	layout_compute(9, 80, 2, &l);
	ck_assert_int_eq(l.psi_row, -1);
	ck_assert_int_ge(l.tasks_row, 0);
	/* 8 CPUs at 200 columns: 3 per line, 3 lines */
	layout_compute(50, 200, 8, &l);
	ck_assert_int_eq(l.cpu_per_line, 3);
	ck_assert_int_eq(l.cpu_lines, 3);
}
END_TEST

START_TEST(layout_many_cpus)
{
	struct layout l;
	/* 64 CPUs at 80x24: the header may take at most half the screen */
	layout_compute(24, 80, 64, &l);
	ck_assert_int_le(l.header_lines, 12);
	ck_assert_int_ge(l.table_lines, 3);
	if (l.cpu_per_line)
		ck_assert_int_ge(80 / l.cpu_per_line, LAYOUT_CPU_BAR_MIN);
	/* 1024 CPUs do not fit as bars: one summary line */
	layout_compute(24, 80, 1024, &l);
	ck_assert_int_eq(l.cpu_per_line, 0);
	ck_assert_int_eq(l.cpu_lines, 1);
}
END_TEST

/* Every row used once, inside the screen, never negative. */
static void check_sane(const struct layout *l)
{
	int used[64] = {0};
	int rows[] = {l->mem_row, l->tasks_row, l->info_row, l->psi_row, l->table_head_row, l->status_row,
		      l->keybar_row};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i] < 0)
			continue;
		ck_assert_int_lt(rows[i], l->lines);
		ck_assert_int_eq(used[rows[i]]++, 0);
	}
	for (int i = 0; l->cpu_row >= 0 && i < l->cpu_lines; i++) {
		ck_assert_int_lt(l->cpu_row + i, l->lines);
		ck_assert_int_eq(used[l->cpu_row + i]++, 0);
	}
	ck_assert_int_ge(l->table_lines, 0);
	for (int i = 0; i < l->table_lines; i++) {
		ck_assert_int_lt(l->table_top + i, l->lines);
		ck_assert_int_eq(used[l->table_top + i]++, 0);
	}
}

START_TEST(layout_tiny)
{
	struct layout l;
	for (int lines = 0; lines <= 30; lines++)
		for (int cols = 0; cols <= 30; cols += 3) {
			layout_compute(lines, cols, 8, &l);
			check_sane(&l);
		}
	layout_compute(3, 10, 4, &l);
	ck_assert_int_eq(l.table_head_row, 0);
	ck_assert_int_eq(l.table_lines, 2);
	ck_assert_int_eq(l.keybar_row, -1);
	layout_compute(1, 1, 4, &l);
	ck_assert_int_eq(l.table_head_row, 0);
	ck_assert_int_eq(l.table_lines, 0);
	layout_compute(0, 0, 4, &l);
	ck_assert_int_eq(l.table_head_row, -1);
}
END_TEST

START_TEST(columns_fit)
{
	size_t want[] = {7, 8, 1, 5, 0};
	size_t out[5];
	/* wide screen: the last (left-aligned) column takes the rest */
	ck_assert_uint_eq(layout_columns(want, 5, true, 100, out), 5);
	ck_assert_uint_eq(out[0], 7);
	ck_assert_uint_eq(out[4], 100 - (7 + 8 + 1 + 5 + 4));
	/* narrow: cut at the edge, never past it */
	for (int cols = 0; cols < 40; cols++) {
		size_t n = layout_columns(want, 5, true, cols, out);
		size_t total = 0;
		for (size_t i = 0; i < n; i++)
			total += out[i] + (i ? 1 : 0);
		ck_assert_uint_le(total, (size_t)cols);
	}
	ck_assert_uint_eq(layout_columns(want, 5, true, 10, out), 2);
	ck_assert_uint_eq(out[1], 2);
}
END_TEST

static void make_task(struct tv_task *t, const char *comm)
{
	task_init(t);
	t->tid = t->tgid = 4242;
	t->state = 'S';
	t->nthreads = 3;
	t->user = "root";
	t->cpu_pct = 1.5;
	task_set_comm(t, comm, strlen(comm));
}

static void check_row(const char *comm, int cols, bool is_thread)
{
	struct colset cs;
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_eq(colsel_parse(&cs, "pid,user,cpu,comm", &sel, &bad), 0);
	struct table_cols tc;
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, cols, 0, true), 0);
	struct tv_task t;
	make_task(&t, comm);
	t.is_thread = is_thread;
	struct row r = {.task = &t, .is_thread = is_thread, .last_thread = true};
	struct buf b;
	buf_init(&b);
	table_format_row(&b, &tc, &r);
	ck_assert_uint_eq(shown_width(b.data ? b.data : "", b.len), (size_t)cols);
	ck_assert_ptr_null(memchr(b.data ? b.data : "", 0x1b, b.len));
	buf_reset(&b);
	table_format_head(&b, &tc, -1, false, NULL, NULL);
	ck_assert_uint_eq(shown_width(b.data ? b.data : "", b.len), (size_t)cols);
	buf_free(&b);
	task_release(&t, 0);
	table_cols_free(&tc);
	colsel_free(&sel);
	colset_free(&cs);
}

START_TEST(rows_keep_width)
{
	static const char *names[] = {
		"plain",
		"\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96\xe7\x95\x8c\xe4\xbd\xa0\xe5\xa5\xbd", /* wide CJK */
		"\x1b[2J\x1b]0;pwn\x07",                                                 /* escapes */
		"bad\xff\xfeutf8",                                                        /* invalid UTF-8 */
		"e\xcc\x81\xe2\x80\xae",                                                 /* combining, bidi */
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (int cols = 1; cols <= 60; cols++) {
			check_row(names[i], cols, false);
			check_row(names[i], cols, true);
		}
}
END_TEST

START_TEST(wide_char_cut_whole)
{
	/* a double-width character that does not fit is left out, not halved */
	struct colset cs;
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_eq(colsel_parse(&cs, "comm", &sel, &bad), 0);
	struct table_cols tc;
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, 5, 0, true), 0);
	struct tv_task t;
	make_task(&t, "\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96"); /* 3 wide chars = 6 columns */
	struct row r = {.task = &t};
	struct buf b;
	buf_init(&b);
	table_format_row(&b, &tc, &r);
	/* "+ " marker, one wide char (2 columns), then a blank: 5 */
	ck_assert_str_eq(buf_str(&b), "+3 \xe4\xbd\xa0");
	buf_free(&b);
	table_cols_free(&tc);
	colsel_free(&sel);
	colset_free(&cs);
	task_release(&t, 0);
}
END_TEST

START_TEST(markers)
{
	struct tv_task t;
	make_task(&t, "x");
	struct row r = {.task = &t};
	char m[32];
	table_marker(m, sizeof(m), &r, false);
	ck_assert_str_eq(m, "+ ");
	r.unfolded = true;
	table_marker(m, sizeof(m), &r, true);
	ck_assert_str_eq(m, "-3 ");
	t.nthreads = 1;
	table_marker(m, sizeof(m), &r, false);
	ck_assert_str_eq(m, "  ");
	task_release(&t, 0);
}
END_TEST


/* The line for one row (or the header when r is NULL) as text. */
static char *line_of(const char *cols, int width, size_t hscroll, bool utf8, const struct row *r, int sort_col,
		     bool desc, size_t *sx, size_t *sw)
{
	static char out[1024];
	struct colset cs;
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_eq(colsel_parse(&cs, cols, &sel, &bad), 0);
	struct table_cols tc;
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, width, hscroll, utf8), 0);
	struct buf b;
	buf_init(&b);
	if (r)
		table_format_row(&b, &tc, r);
	else
		table_format_head(&b, &tc, sort_col < 0 ? -1 : sel.idx[sort_col], desc, sx, sw);
	ck_assert_uint_eq(shown_width(b.data ? b.data : "", b.len), (size_t)width);
	snprintf(out, sizeof(out), "%s", buf_str(&b));
	buf_free(&b);
	table_cols_free(&tc);
	colsel_free(&sel);
	colset_free(&cs);
	return out;
}

START_TEST(sort_mark)
{
	size_t sx, sw;
	/* a right-aligned header: the mark takes the blank after it */
	ck_assert_str_eq(line_of("pid,user,cpu,comm", 30, 0, true, NULL, 2, true, &sx, &sw),
			 "    PID USER      CPU%\xe2\x96\xbcNAME   ");
	ck_assert_uint_eq(sx, 17);
	ck_assert_uint_eq(sw, 6);
	/* a left-aligned one: right after the text, inside the column */
	ck_assert_str_eq(line_of("pid,user,cpu,comm", 30, 0, false, NULL, 1, false, &sx, &sw),
			 "    PID USER^     CPU% NAME   ");
	ck_assert_uint_eq(sx, 8);
	ck_assert_uint_eq(sw, 8);
	ck_assert_str_eq(line_of("pid,user,cpu,comm", 30, 0, false, NULL, 0, true, NULL, NULL),
			 "    PIDvUSER      CPU% NAME   ");
	/* the last column */
	ck_assert_str_eq(line_of("pid,comm", 14, 0, false, NULL, 1, false, NULL, NULL), "    PID NAME^ ");
	/* scrolled: where the header is on the screen, or nothing when off it */
	line_of("pid,user,cpu,comm", 20, 10, true, NULL, 2, true, &sx, &sw);
	ck_assert_uint_eq(sx, 7);
	ck_assert_uint_eq(sw, 6);
	line_of("pid,user,cpu,comm", 20, 30, true, NULL, 2, true, &sx, &sw);
	ck_assert_uint_eq(sw, 0);
}
END_TEST

START_TEST(scroll_sideways)
{
	struct tv_task t;
	make_task(&t, "abcdefghijklmnopqrstuvwxyz");
	t.nthreads = 1;
	struct row r = {.task = &t};
	ck_assert_str_eq(line_of("pid,comm", 16, 0, true, &r, -1, false, NULL, NULL), "   4242   abcdef");
	/* the name column grows as the line scrolls: the rest of it comes in */
	ck_assert_str_eq(line_of("pid,comm", 16, 10, true, &r, -1, false, NULL, NULL), "abcdefghijklmnop");
	ck_assert_str_eq(line_of("pid,comm", 16, 26, true, &r, -1, false, NULL, NULL), "qrstuvwxyz      ");
	/* a wide character cut by the left edge leaves a blank, never half of it */
	task_release(&t, 0);
	make_task(&t, "\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96"); /* 3 wide characters */
	t.nthreads = 1;
	ck_assert_str_eq(line_of("pid,comm", 8, 11, true, &r, -1, false, NULL, NULL), " \xe5\xa5\xbd\xe4\xb8\x96   ");
	task_release(&t, 0);
}
END_TEST

START_TEST(tree_glyphs)
{
	struct tv_task t;
	make_task(&t, "name");
	/* depth 2 under a parent with siblings below; last of its own level;
	 * three threads folded: + */
	struct row r = {.task = &t, .tree = true, .depth = 2, .rails = 1, .last = true};
	ck_assert_str_eq(line_of("pid,comm", 20, 0, true, &r, -1, false, NULL, NULL),
			 "   4242 \xe2\x94\x82 \xe2\x94\x94\xe2\x94\x80+ name  ");
	ck_assert_str_eq(line_of("pid,comm", 20, 0, false, &r, -1, false, NULL, NULL), "   4242 | `-+ name  ");
	/* unfolded, with children: -; nothing beneath: a line */
	r.unfolded = true;
	ck_assert_str_eq(line_of("pid,comm", 20, 0, false, &r, -1, false, NULL, NULL), "   4242 | `-- name  ");
	r.last = false;
	r.rails = 0;
	t.nthreads = 1;
	ck_assert_str_eq(line_of("pid,comm", 20, 0, false, &r, -1, false, NULL, NULL), "   4242   |-- name  ");
	r.collapsed = true;
	r.has_children = true;
	ck_assert_str_eq(line_of("pid,comm", 20, 0, false, &r, -1, false, NULL, NULL), "   4242   |-+ name  ");
	/* a root: the mark alone, as in the flat list */
	r.depth = 0;
	ck_assert_str_eq(line_of("pid,comm", 20, 0, false, &r, -1, false, NULL, NULL), "   4242 + name      ");
	/* a thread row in the tree */
	struct row th = {.task = &t, .is_thread = true, .tree = true, .depth = 1, .last = true};
	ck_assert_str_eq(line_of("pid,comm", 20, 0, false, &th, -1, false, NULL, NULL), "   4242 `- name     ");
	task_release(&t, 0);
}
END_TEST

START_TEST(hit_positions)
{
	struct colset cs;
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_eq(colsel_parse(&cs, "pid,user,comm", &sel, &bad), 0);
	struct table_cols tc;
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, 40, 0, true), 0);
	struct tv_task t;
	make_task(&t, "a-rather-long-name-of-a-task");
	struct row r = {.task = &t};
	/* the fold mark is the first character of the name column */
	ck_assert_int_eq(table_marker_x(&tc, &r), 17);
	struct row deep = {.task = &t, .tree = true, .depth = 3};
	ck_assert_int_eq(table_marker_x(&tc, &deep), 23);
	struct row th = {.task = &t, .is_thread = true};
	ck_assert_int_eq(table_marker_x(&tc, &th), -1);
	ck_assert_int_eq(table_column_at(&tc, 0), 0);
	ck_assert_int_eq(table_column_at(&tc, 7), -1); /* the blank between columns */
	ck_assert_int_eq(table_column_at(&tc, 8), 1);
	ck_assert_int_eq(table_column_at(&tc, 39), 2);
	ck_assert_int_eq(table_column_at(&tc, 40), -1);
	/* as wide as the name with its mark ("+3 ") */
	ck_assert_uint_eq(table_row_width(&tc, &r), 17 + 3 + 28);
	table_cols_free(&tc);
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, 40, 10, true), 0);
	ck_assert_int_eq(table_marker_x(&tc, &r), 7);
	ck_assert_int_eq(table_column_at(&tc, 0), 1);
	table_cols_free(&tc);
	colsel_free(&sel);
	colset_free(&cs);
	task_release(&t, 0);
}
END_TEST

/* The widest row decides how far the table scrolls right: it is laid out as
 * wide as any scroll (1 << 20), and a last column whose value is no text
 * (an unknown group) needs its own width, not the whole line; else a scroll
 * to the end walked a million columns of every row at each repaint. */
START_TEST(row_width_of_unknown_last_column)
{
	struct colset cs;
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_eq(colsel_parse(&cs, "pid,cgroup", &sel, &bad), 0);
	struct table_cols tc;
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, 80, (size_t)1 << 20, true), 0);
	struct tv_task t;
	make_task(&t, "name");
	struct row r = {.task = &t};
	ck_assert_uint_le(table_row_width(&tc, &r), 80);
	table_cols_free(&tc);
	colsel_free(&sel);
	colset_free(&cs);
	task_release(&t, 0);
}
END_TEST

/* The ids autocols picks, joined by commas, and COMMAND's width. */
static char *auto_ids_for(int cols, bool groups, size_t *cmd_width)
{
	static char out[512];
	struct colset cs;
	struct colsel sel;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_eq(autocols_pick(&cs, cols, true, groups, &sel), 0);
	size_t n = 0, used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sel.n; i++) {
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s", i ? "," : "", cs.cols[sel.idx[i]].id);
		if (i + 1 < sel.n)
			used += format_col_width(&cs.cols[sel.idx[i]], true) + 1;
	}
	*cmd_width = (size_t)cols > used ? (size_t)cols - used : 0;
	colsel_free(&sel);
	colset_free(&cs);
	return out;
}

static char *auto_ids(int cols, size_t *cmd_width)
{
	return auto_ids_for(cols, false, cmd_width);
}

START_TEST(default_columns_by_width)
{
	size_t w;
	ck_assert_str_eq(auto_ids(80, &w), "pid,user,state,cpu,vm_rss,vm_pte,ctxt_vol_rate,cpu_delay,io_delay,command");
	ck_assert_uint_ge(w, AUTOCOLS_COMMAND_MIN);
	ck_assert_str_eq(auto_ids(100, &w), "pid,user,state,cpu,threads,vm_size,vm_rss,vm_pte,ctxt_vol_rate,"
					    "ctxt_invol_rate,cpu_delay,io_delay,command");
	ck_assert_uint_ge(w, AUTOCOLS_COMMAND_MIN);
	ck_assert_str_eq(auto_ids(140, &w), "pid,user,state,nice,prio,cpu,time,threads,vm_size,vm_rss,vm_pte,"
					    "ctxt_vol_rate,ctxt_invol_rate,cpu_delay,io_delay,command");
	ck_assert_uint_ge(w, 40);
	ck_assert_str_eq(auto_ids(200, &w), "pid,user,state,nice,prio,cpu,time,threads,vm_size,vm_rss,vm_pte,vm_swap,"
					    "ctxt_vol_rate,ctxt_invol_rate,cpu_delay,cpu_delay_avg,io_delay,io_delay_avg,command");
	ck_assert_uint_ge(w, 80);
	/* below 80 the narrowest set, whatever is left for COMMAND */
	ck_assert_str_eq(auto_ids(60, &w), "pid,user,state,cpu,vm_rss,vm_pte,ctxt_vol_rate,cpu_delay,io_delay,command");
}
END_TEST

/* The group view shows the groups' pressure from 80 columns on, in place of
 * what group rows leave unknown. */
START_TEST(group_view_columns_by_width)
{
	size_t w;
	ck_assert_str_eq(auto_ids_for(80, true, &w), "pid,cpu,vm_rss,ctxt_vol_rate,cpu_delay,io_delay,cpu_pressure,"
						     "io_pressure,memory_pressure,command");
	ck_assert_uint_ge(w, AUTOCOLS_COMMAND_MIN);
	ck_assert_str_eq(auto_ids_for(100, true, &w), "pid,user,state,cpu,threads,vm_rss,ctxt_vol_rate,cpu_delay,"
						      "io_delay,cpu_pressure,io_pressure,memory_pressure,command");
	ck_assert_uint_ge(w, AUTOCOLS_COMMAND_MIN);
	auto_ids_for(140, true, &w);
	ck_assert_uint_ge(w, AUTOCOLS_COMMAND_MIN);
	auto_ids_for(200, true, &w);
	ck_assert_uint_ge(w, 40);
}
END_TEST

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	Suite *s = suite_create("tui_layout");
	TCase *tc = tcase_create("layout");
	tcase_add_test(tc, layout_normal);
	tcase_add_test(tc, layout_many_cpus);
	tcase_add_test(tc, layout_tiny);
	tcase_add_test(tc, columns_fit);
	tcase_add_test(tc, rows_keep_width);
	tcase_add_test(tc, wide_char_cut_whole);
	tcase_add_test(tc, markers);
	tcase_add_test(tc, sort_mark);
	tcase_add_test(tc, scroll_sideways);
	tcase_add_test(tc, tree_glyphs);
	tcase_add_test(tc, hit_positions);
	tcase_add_test(tc, row_width_of_unknown_last_column);
	tcase_add_test(tc, default_columns_by_width);
	tcase_add_test(tc, group_view_columns_by_width);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
