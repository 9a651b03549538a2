#include "tui/table.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/format.h"
#include "tui/state.h"
#include "util/i18n.h"
#include "util/text.h"

int table_cols_init(struct table_cols *tc, const struct colset *cs, const struct colsel *sel, int cols, bool utf8)
{
	memset(tc, 0, sizeof(*tc));
	tc->cs = cs;
	tc->sel = sel;
	tc->utf8 = utf8;
	tc->cols = cols > 0 ? cols : 0;
	tc->name_col = -1;
	size_t n = sel->n ? sel->n : 1;
	size_t *want = calloc(n, sizeof(*want));
	tc->width = calloc(n, sizeof(*tc->width));
	tc->x = calloc(n, sizeof(*tc->x));
	if (!want || !tc->width || !tc->x) {
		free(want);
		table_cols_free(tc);
		return -1;
	}
	for (size_t i = 0; i < sel->n; i++) {
		const struct column *c = &cs->cols[sel->idx[i]];
		want[i] = format_col_width(c, utf8);
		if (strcmp(c->id, "threads") == 0)
			tc->thr_shown = true;
		/* the first name column carries the tree, as in batch output */
		if (tc->name_col < 0 && (strcmp(c->id, "command") == 0 || strcmp(c->id, "comm") == 0))
			tc->name_col = (int)i;
	}
	bool last_left = sel->n && cs->cols[sel->idx[sel->n - 1]].align == COL_ALIGN_LEFT;
	tc->nvisible = layout_columns(want, sel->n, last_left, tc->cols, tc->width);
	size_t x = 0;
	for (size_t i = 0; i < tc->nvisible; i++) {
		tc->x[i] = x;
		x += tc->width[i] + 1;
	}
	free(want);
	return 0;
}

void table_cols_free(struct table_cols *tc)
{
	free(tc->width);
	free(tc->x);
	tc->width = tc->x = NULL;
	tc->nvisible = 0;
}

/* Pads the line to the screen width so a highlighted row spans it. */
static void table_pad(struct buf *out, size_t used, const struct table_cols *tc)
{
	if (used < (size_t)tc->cols)
		buf_pad(out, ' ', (size_t)tc->cols - used);
}

void table_format_head(struct buf *out, const struct table_cols *tc)
{
	size_t used = 0;
	for (size_t i = 0; i < tc->nvisible; i++) {
		const struct column *c = &tc->cs->cols[tc->sel->idx[i]];
		if (i) {
			buf_addc(out, ' ');
			used++;
		}
		text_fit(out, _(c->header), tc->width[i], c->align == COL_ALIGN_LEFT, tc->utf8);
		used += tc->width[i];
	}
	table_pad(out, used, tc);
}

void table_marker(char *out, size_t n, const struct row *r, bool with_count)
{
	const struct tv_task *t = r->task;
	if (t->nthreads <= 1) {
		snprintf(out, n, "  ");
		return;
	}
	char sign = r->unfolded ? '-' : '+';
	if (with_count)
		snprintf(out, n, "%c%lld ", sign, (long long)t->nthreads);
	else
		snprintf(out, n, "%c ", sign);
}

void table_format_row(struct buf *out, const struct table_cols *tc, const struct row *r)
{
	size_t used = 0;
	for (size_t i = 0; i < tc->nvisible; i++) {
		const struct column *c = &tc->cs->cols[tc->sel->idx[i]];
		struct tv_value v = column_value(c, r->task);
		char prefix[48];
		const char *pre = NULL;
		if ((int)i == tc->name_col && v.kind == TV_V_STR) {
			/* process rows: fold marker; thread rows: indented tree glyphs */
			if (r->is_thread)
				snprintf(prefix, sizeof(prefix), "  %s", format_tree_prefix(r->last_thread, tc->utf8));
			else
				table_marker(prefix, sizeof(prefix), r, !tc->thr_shown);
			pre = prefix;
		}
		if (i) {
			buf_addc(out, ' ');
			used++;
		}
		format_cell(out, c, &v, tc->width[i], pre, tc->utf8);
		used += tc->width[i];
	}
	table_pad(out, used, tc);
}

void tui_draw_table(struct tui *t)
{
	const struct layout *l = &t->lay;
	if (l->table_head_row < 0)
		return;
	struct table_cols tc;
	if (table_cols_init(&tc, &t->app->cs, &t->app->sel, COLS, term_utf8()) < 0)
		return;
	struct buf line;
	buf_init(&line);
	table_format_head(&line, &tc);
	tui_put_raw(l->table_head_row, 0, &line, term_attr(ROLE_TABLE_HEAD));
	/* the sort column's header stands out, as htop's does */
	for (size_t i = 0; i < tc.nvisible; i++) {
		if (t->app->sel.idx[i] != t->app->sort_col)
			continue;
		const struct column *c = &t->app->cs.cols[t->app->sel.idx[i]];
		buf_reset(&line);
		text_fit(&line, _(c->header), tc.width[i], c->align == COL_ALIGN_LEFT, tc.utf8);
		tui_put_raw(l->table_head_row, (int)tc.x[i], &line, term_attr(ROLE_TABLE_SORT));
	}
	/* keep the selection on screen */
	size_t h = l->table_lines > 0 ? (size_t)l->table_lines : 0;
	if (t->sel < t->top)
		t->top = t->sel;
	if (h && t->sel >= t->top + h)
		t->top = t->sel - h + 1;
	if (t->top + h > t->rows.n)
		t->top = t->rows.n > h ? t->rows.n - h : 0;
	for (size_t k = 0; k < h && t->top + k < t->rows.n; k++) {
		size_t i = t->top + k;
		const struct row *r = &t->rows.v[i];
		buf_reset(&line);
		table_format_row(&line, &tc, r);
		int attr = i == t->sel ? term_attr(ROLE_SELECTED) : r->is_thread ? term_attr(ROLE_THREAD) : (int)A_NORMAL;
		tui_put_raw(l->table_top + (int)k, 0, &line, attr);
	}
	if (h && t->rows.n == 0 && t->have_cur)
		tui_put(l->table_top, 0, COLS, _("no process matches"), term_attr(ROLE_STATUS));
	buf_free(&line);
	table_cols_free(&tc);
}
