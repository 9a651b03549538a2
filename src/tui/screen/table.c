/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table on the screen: header line and rows from render/table.c, the
 * selection kept in sight, tagged rows marked. */
#include "tui/screen/table.h"

#include <curses.h>
#include <stdlib.h>

#include "hosts/fleet.h"
#include "render/table.h"
#include "sample/sampler.h"
#include "tui/screen/draw.h"
#include "tui/timeline.h"
#include "util/i18n.h"

static int table_init(const struct tui *t, struct table_cols *tc, size_t hscroll)
{
	return table_cols_init(tc, &t->app->cs, &t->app->sel, COLS, hscroll, term_utf8());
}

/* Keeps the selection on screen. */
static void table_scroll(struct tui *t)
{
	size_t h = t->lay.table_lines > 0 ? (size_t)t->lay.table_lines : 0;
	if (t->sel < t->top)
		t->top = t->sel;
	if (h && t->sel >= t->top + h)
		t->top = t->sel - h + 1;
	if (t->top + h > t->rows.n)
		t->top = t->rows.n > h ? t->rows.n - h : 0;
}

/* A group row looks tagged when every process it sums is. */
static bool row_tagged(const struct tui *t, const struct row *r)
{
	if (!r->group)
		return tags_has(&t->tags, r->task);
	if (!t->tags.n || !r->group->nmembers)
		return false;
	for (size_t i = 0; i < r->group->nmembers; i++)
		if (!tags_has(&t->tags, r->group->members[i]))
			return false;
	return true;
}

static int row_attr(const struct tui *t, size_t i)
{
	const struct row *r = &t->rows.v[i];
	bool tagged = row_tagged(t, r);
	if (i == t->sel)
		return term_attr(ROLE_SELECTED) | (tagged ? (int)(A_BOLD | A_UNDERLINE) : 0);
	if (tagged)
		return term_attr(ROLE_TAGGED);
	if (r->group)
		return A_BOLD;
	int a = r->is_thread ? term_attr(ROLE_THREAD) : (int)A_NORMAL;
	/* the hosts' screen: a host's rows are dim while its figures are not live (the header says how old) */
	const struct fleet *f = tui_fleet(t);
	unsigned h = (unsigned)r->task->tgid >> TV_ID_HOST_SHIFT;
	if (f && h < f->n && f->h[h].state != FLEET_LIVE)
		a |= (int)A_DIM;
	return a;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The rows on screen, for the next sample: switch counts without taskstats are read for them only. */
static void screen_note(struct tui *t, size_t h)
{
	t->nscreen_tids = t->nscreen_tgids = 0;
	t->screen_sums = false;
	for (size_t k = 0; k < h && t->top + k < t->rows.n; k++) {
		const struct row *r = &t->rows.v[t->top + k];
		if (r->group || r->collapsed) {
			t->screen_sums = true;
			continue;
		}
		if (r->is_thread && t->nscreen_tids < TUI_SCREEN_ROWS_MAX)
			t->screen_tids[t->nscreen_tids++] = r->task->tid;
		else if (!r->is_thread && t->nscreen_tgids < TUI_SCREEN_ROWS_MAX)
			t->screen_tgids[t->nscreen_tgids++] = r->task->tgid;
	}
	qsort(t->screen_tids, t->nscreen_tids, sizeof(*t->screen_tids), cmp_i32);
	qsort(t->screen_tgids, t->nscreen_tgids, sizeof(*t->screen_tgids), cmp_i32);
}

void tui_draw_table(struct tui *t)
{
	const struct layout *l = &t->lay;
	if (l->table_head_row < 0)
		return;
	struct table_cols tc;
	if (table_init(t, &tc, t->hscroll) < 0)
		return;
	const struct column *sc = &t->app->cs.cols[t->app->sort_col];
	bool desc = sc->sort_descending != t->app->reverse;
	struct buf line;
	buf_init(&line);
	size_t sx, sw;
	table_format_head(&line, &tc, t->app->sort_col, desc, &sx, &sw);
	tui_put_raw(l->table_head_row, 0, &line, term_attr(ROLE_TABLE_HEAD));
	/* the sort column's header stands out, as htop's does */
	if (sw) {
		int a = term_attr(ROLE_TABLE_SORT);
		mvchgat(l->table_head_row, (int)sx, (int)sw, (attr_t)a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
	}
	table_scroll(t);
	size_t h = l->table_lines > 0 ? (size_t)l->table_lines : 0;
	/* what is read only for the rows on screen, into the tasks of cur
	 * that the rows borrow (the rows were built from cur) */
	const struct tv_task *shown[TUI_SCREEN_ROWS_MAX];
	size_t nshown = 0;
	for (size_t k = 0; k < h && t->top + k < t->rows.n && nshown < TUI_SCREEN_ROWS_MAX; k++)
		if (!t->rows.v[t->top + k].group) /* a group's row is the view's, not a task */
			shown[nshown++] = t->rows.v[t->top + k].task;
	screen_note(t, h);
	if (t->sampler && t->have_cur)
		sampler_fill_rows(t->sampler, &t->cur, shown, nshown, t->needs);
	for (size_t k = 0; k < h && t->top + k < t->rows.n; k++) {
		size_t i = t->top + k;
		buf_reset(&line);
		table_format_row(&line, &tc, &t->rows.v[i]);
		tui_put_raw(l->table_top + (int)k, 0, &line, row_attr(t, i));
	}
	if (h && t->rows.n == 0 && t->have_cur)
		tui_put(l->table_top, 0, COLS, _("no process matches"), term_attr(ROLE_STATUS));
	buf_free(&line);
	table_cols_free(&tc);
}

struct table_hit tui_table_hit(struct tui *t, int y, int x)
{
	struct table_hit hit = {HIT_NONE, 0, -1};
	const struct layout *l = &t->lay;
	struct table_cols tc;
	if (l->table_head_row < 0 || table_init(t, &tc, t->hscroll) < 0)
		return hit;
	if (y == l->table_head_row) {
		int i = table_column_at(&tc, x);
		hit.kind = HIT_HEAD;
		hit.col = i >= 0 ? t->app->sel.idx[i] : -1;
	} else if (y >= l->table_top && y < l->table_top + l->table_lines) {
		size_t i = t->top + (size_t)(y - l->table_top);
		if (i < t->rows.n) {
			int mx = table_marker_x(&tc, &t->rows.v[i]);
			hit.kind = mx >= 0 && x >= mx && x <= mx + 1 ? HIT_MARK : HIT_ROW;
			hit.row = i;
		}
	}
	table_cols_free(&tc);
	return hit;
}

size_t tui_table_hscroll_max(struct tui *t)
{
	/* laid out without a right edge: every column at its full width */
	struct table_cols tc;
	size_t wide = 1u << 20, widest = 0;
	if (table_init(t, &tc, wide) < 0)
		return 0;
	for (size_t i = 0; i < t->rows.n; i++) {
		size_t w = table_row_width(&tc, &t->rows.v[i]);
		if (w > widest)
			widest = w;
	}
	table_cols_free(&tc);
	return widest > (size_t)COLS ? widest - (size_t)COLS : 0;
}
