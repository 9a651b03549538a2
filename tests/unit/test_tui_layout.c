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
#include "render/tui/layout.h"
#include "render/tui/table.h"
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
	ck_assert_int_eq(l.table_head_row, 4);
	ck_assert_int_eq(l.table_top, 5);
	ck_assert_int_eq(l.keybar_row, 39);
	ck_assert_int_eq(l.status_row, 38);
	ck_assert_int_eq(l.table_top + l.table_lines, l.status_row);
	/* one per line at 80 columns */
	layout_compute(24, 80, 2, &l);
	ck_assert_int_eq(l.cpu_lines, 2);
	ck_assert_int_eq(l.cpu_per_line, 1);
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
	int rows[] = {l->mem_row, l->tasks_row, l->info_row, l->table_head_row, l->status_row, l->keybar_row};
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
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

static void check_row(const char *comm, int cols, bool is_thread)
{
	struct colset cs;
	struct colsel sel;
	char *bad = NULL;
	ck_assert_int_eq(colset_init(&cs), 0);
	ck_assert_int_eq(colsel_parse(&cs, "pid,user,cpu,comm", &sel, &bad), 0);
	struct table_cols tc;
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, cols, true), 0);
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
	table_format_head(&b, &tc);
	ck_assert_uint_eq(shown_width(b.data ? b.data : "", b.len), (size_t)cols);
	buf_free(&b);
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
	ck_assert_int_eq(table_cols_init(&tc, &cs, &sel, 5, true), 0);
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
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
