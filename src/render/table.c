/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "render/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/format.h"
#include "util/i18n.h"
#include "util/text.h"

size_t layout_columns(const size_t *want, size_t n, bool last_left, int cols, size_t *out)
{
	size_t left = cols > 0 ? (size_t)cols : 0, shown = 0;
	for (size_t i = 0; i < n; i++)
		out[i] = 0;
	for (size_t i = 0; i < n && left > 0; i++) {
		if (i) {
			left--; /* the separating blank */
			if (left == 0)
				break;
		}
		size_t w = want[i];
		if (i + 1 == n && last_left)
			w = left;
		if (w > left)
			w = left;
		if (w == 0 && want[i] > 0)
			break;
		out[i] = w;
		left -= w;
		shown = i + 1;
	}
	return shown;
}

int table_cols_init(struct table_cols *tc, const struct colset *cs, const struct colsel *sel, int cols, size_t hscroll,
		    bool utf8)
{
	memset(tc, 0, sizeof(*tc));
	tc->cs = cs;
	tc->sel = sel;
	tc->utf8 = utf8;
	tc->cols = cols > 0 ? cols : 0;
	tc->hscroll = hscroll;
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
	/* the line is laid out as wide as the screen plus what is scrolled off */
	size_t line = (size_t)tc->cols + (tc->cols ? hscroll : 0);
	tc->nvisible = layout_columns(want, sel->n, last_left, line > INT32_MAX ? INT32_MAX : (int)line, tc->width);
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

/* Appends the columns skip .. skip + cols of an already sanitized line: a
 * wide character cut by the left edge becomes blanks. */
static void line_window(struct buf *out, const char *s, size_t len, size_t skip, size_t cols)
{
	size_t col = 0, used = 0;
	for (size_t i = 0; i < len && used < cols;) {
		uint32_t cp;
		size_t n = utf8_decode((const unsigned char *)s + i, len - i, &cp);
		if (n == 0)
			n = 1, cp = '?';
		size_t w = (size_t)text_cp_width(cp);
		if (col >= skip) {
			if (used + w > cols)
				break;
			buf_add(out, s + i, n);
			used += w;
		} else if (col + w > skip) {
			size_t part = col + w - skip; /* the right half of a wide character */
			buf_pad(out, ' ', part);
			used += part;
		}
		col += w;
		i += n;
	}
	buf_pad(out, ' ', cols - used);
}

/* Appends the finished line (cols + hscroll wide) as the screen shows it. */
static void table_emit(struct buf *out, const struct table_cols *tc, const struct buf *line)
{
	if (tc->hscroll == 0) {
		buf_add(out, line->data ? line->data : "", line->len);
		return;
	}
	line_window(out, line->data ? line->data : "", line->len, tc->hscroll, (size_t)tc->cols);
}

/* Pads the line to its full width so a highlighted row spans the screen. */
static void table_pad(struct buf *out, size_t used, const struct table_cols *tc)
{
	size_t full = (size_t)tc->cols + (tc->cols ? tc->hscroll : 0);
	if (used < full)
		buf_pad(out, ' ', full - used);
}

static const char *sort_mark(bool descending, bool utf8)
{
	if (utf8)
		return descending ? "\xe2\x96\xbc" : "\xe2\x96\xb2"; /* ▼ ▲ */
	return descending ? "v" : "^";
}

void table_format_head(struct buf *out, const struct table_cols *tc, int sort_col, bool descending, size_t *sort_x,
		       size_t *sort_w)
{
	struct buf line;
	buf_init(&line);
	size_t used = 0, sx = 0, sw = 0;
	bool mark_next = false; /* the mark takes the blank after a full header */
	const char *mark = sort_mark(descending, tc->utf8);
	for (size_t i = 0; i < tc->nvisible; i++) {
		const struct column *c = &tc->cs->cols[tc->sel->idx[i]];
		const char *h = _(c->header);
		bool sorted = tc->sel->idx[i] == sort_col;
		if (i) {
			buf_adds(&line, mark_next ? mark : " ");
			used++;
			mark_next = false;
		}
		size_t hw = text_width(h, strlen(h), tc->utf8);
		if (sorted) {
			sx = tc->x[i];
			sw = tc->width[i];
		}
		if (sorted && c->align == COL_ALIGN_LEFT && hw < tc->width[i]) {
			size_t w = text_sanitize(&line, h, strlen(h), tc->width[i], tc->utf8);
			buf_adds(&line, mark);
			buf_pad(&line, ' ', tc->width[i] - w - 1);
		} else {
			text_fit(&line, h, tc->width[i], c->align == COL_ALIGN_LEFT, tc->utf8);
			if (sorted) {
				mark_next = true;
				sw++;
			}
		}
		used += tc->width[i];
	}
	size_t full = (size_t)tc->cols + (tc->cols ? tc->hscroll : 0);
	if (mark_next && used < full) {
		buf_adds(&line, mark);
		used++;
	}
	table_pad(&line, used, tc);
	table_emit(out, tc, &line);
	buf_free(&line);
	/* where the sorted header is on the screen */
	if (sx + sw <= tc->hscroll || sx >= tc->hscroll + (size_t)tc->cols) {
		sx = sw = 0;
	} else {
		if (sx < tc->hscroll) {
			sw -= tc->hscroll - sx;
			sx = tc->hscroll;
		}
		sx -= tc->hscroll;
		if (sx + sw > (size_t)tc->cols)
			sw = (size_t)tc->cols - sx;
	}
	if (sort_x)
		*sort_x = sx;
	if (sort_w)
		*sort_w = sw;
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

/* Appends s to out at *k when it fits with room for the fold mark after it. */
static bool lead_add(char *out, size_t n, size_t *k, const char *s)
{
	size_t l = strlen(s);
	if (*k + l + 8 >= n)
		return false;
	memcpy(out + *k, s, l + 1);
	*k += l;
	return true;
}

void table_tree_prefix(char *out, size_t n, const struct row *r, bool utf8)
{
	/* memcpy, not printf: batch output draws one for every row */
	const char *rail = utf8 ? "\xe2\x94\x82 " : "| ";
	const char *tee = utf8 ? "\xe2\x94\x9c\xe2\x94\x80" : "|-";
	const char *ell = utf8 ? "\xe2\x94\x94\xe2\x94\x80" : "`-";
	const char *dash = utf8 ? "\xe2\x94\x80" : "-";
	size_t k = 0;
	out[0] = '\0';
	for (unsigned l = 0; l + 1 < r->depth; l++)
		if (!lead_add(out, n, &k, (r->rails & (1u << l)) ? rail : "  "))
			return;
	if (r->depth && !lead_add(out, n, &k, r->last ? ell : tee))
		return;
	if (r->is_thread) {
		lead_add(out, n, &k, " ");
		return;
	}
	bool threads = !r->group && r->task->nthreads > 1;
	bool hidden = r->collapsed || (threads && !r->unfolded);
	bool beneath = r->has_children || threads;
	lead_add(out, n, &k, hidden ? "+ " : beneath ? "- " : r->depth ? dash : "  ");
	if (!hidden && !beneath && r->depth)
		lead_add(out, n, &k, " ");
}

/* What goes before the name in the name column: fold mark, tree glyphs. */
static const char *row_prefix(const struct table_cols *tc, const struct row *r, char *buf, size_t n)
{
	if (r->tree)
		table_tree_prefix(buf, n, r, tc->utf8);
	else if (r->is_thread)
		snprintf(buf, n, "  %s", format_tree_prefix(r->last_thread, tc->utf8));
	else
		table_marker(buf, n, r, !tc->thr_shown);
	/* an ended task (a replay lists them) is marked where its name is */
	if (r->exited) {
		size_t used = strlen(buf);
		snprintf(buf + used, n - used, "%s", _("(exited) "));
	}
	return buf;
}

void table_format_row(struct buf *out, const struct table_cols *tc, const struct row *r)
{
	struct buf line;
	buf_init(&line);
	size_t used = 0;
	for (size_t i = 0; i < tc->nvisible; i++) {
		const struct column *c = &tc->cs->cols[tc->sel->idx[i]];
		struct tv_value v = column_value(c, r->task);
		char prefix[PREFIX_MAX];
		const char *pre = NULL;
		/* an ended task's mark shows even when its name is unknown */
		if ((int)i == tc->name_col && r->exited && v.kind == TV_V_UNKNOWN)
			v = value_str("-");
		if ((int)i == tc->name_col && v.kind == TV_V_STR)
			pre = row_prefix(tc, r, prefix, sizeof(prefix));
		if (i) {
			buf_addc(&line, ' ');
			used++;
		}
		format_cell(&line, c, &v, tc->width[i], pre, tc->utf8);
		used += tc->width[i];
	}
	table_pad(&line, used, tc);
	table_emit(out, tc, &line);
	buf_free(&line);
}

int table_marker_x(const struct table_cols *tc, const struct row *r)
{
	if (tc->name_col < 0 || (size_t)tc->name_col >= tc->nvisible || r->is_thread)
		return -1;
	size_t off = r->tree ? 2 * (size_t)r->depth : 0;
	size_t x = tc->x[tc->name_col] + off;
	if (off + 1 > tc->width[tc->name_col] || x < tc->hscroll || x - tc->hscroll >= (size_t)tc->cols)
		return -1;
	return (int)(x - tc->hscroll);
}

int table_column_at(const struct table_cols *tc, int x)
{
	if (x < 0 || x >= tc->cols)
		return -1;
	size_t lx = (size_t)x + tc->hscroll;
	for (size_t i = 0; i < tc->nvisible; i++)
		if (lx >= tc->x[i] && lx < tc->x[i] + tc->width[i])
			return (int)i;
	return -1;
}

size_t table_row_width(const struct table_cols *tc, const struct row *r)
{
	if (tc->nvisible == 0)
		return 0;
	size_t last = tc->nvisible - 1;
	const struct column *c = &tc->cs->cols[tc->sel->idx[last]];
	size_t end = tc->x[last] + tc->width[last];
	if (last + 1 != tc->sel->n || c->align != COL_ALIGN_LEFT)
		return end;
	struct tv_value v = column_value(c, r->task);
	if (v.kind != TV_V_STR) {
		/* unknown ("-"): its own width, not the rest of the line the last
		 * column is stretched to (a million columns when laid out for
		 * the scroll's end, which then scrolled there) */
		size_t own = (size_t)format_col_width(c, tc->utf8);
		return tc->x[last] + (own < tc->width[last] ? own : tc->width[last]);
	}
	size_t w = text_width(v.s, strlen(v.s), tc->utf8);
	if ((int)last == tc->name_col) {
		char prefix[PREFIX_MAX];
		const char *pre = row_prefix(tc, r, prefix, sizeof(prefix));
		w += text_width(pre, strlen(pre), true);
	}
	return tc->x[last] + w;
}
