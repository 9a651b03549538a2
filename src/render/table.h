/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive table as text: column layout, the header line and one line
 * per row, for a screen of a given width. Pure, so widths, truncation, tree
 * glyphs and horizontal scrolling can be tested without a terminal. */
#ifndef TV_RENDER_TABLE_H
#define TV_RENDER_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/column.h"
#include "util/buf.h"
#include "view/rows.h"

struct table_cols {
	const struct colset *cs;
	const struct colsel *sel;
	size_t *width;     /* display width of each shown column; 0 = off the line */
	size_t *x;         /* its first column on the line */
	size_t nvisible;
	int name_col;      /* the column that carries fold markers and tree glyphs; -1: none */
	bool thr_shown;    /* the THR column is shown: markers need not repeat the count */
	bool utf8;
	size_t hscroll;    /* columns of the line scrolled off to the left */
	int cols;          /* screen width */
};

/*
 * Display widths of the table's columns on a line cols wide. want[i] is a
 * column's natural width; the last column, when left-aligned (a name or
 * command), takes whatever is left. Columns are separated by one blank and
 * cut at the right edge. Returns how many columns are (at least partly)
 * visible; out[i] is 0 for the others.
 */
size_t layout_columns(const size_t *want, size_t n, bool last_left, int cols, size_t *out);

/* Lays out sel on a screen cols wide, scrolled hscroll columns to the right
 * (the line is laid out cols + hscroll wide and its start cut off). Returns
 * 0 or -1 (out of memory). */
int table_cols_init(struct table_cols *tc, const struct colset *cs, const struct colsel *sel, int cols, size_t hscroll,
		    bool utf8);
void table_cols_free(struct table_cols *tc);

/* The column headers line, exactly tc->cols wide. The header of sort_col
 * (an index into cs; -1 for none) is followed by a mark of the direction;
 * *sort_x and *sort_w (may be NULL) get where header and mark are on the
 * screen, *sort_w 0 when scrolled out of sight. */
void table_format_head(struct buf *out, const struct table_cols *tc, int sort_col, bool descending, size_t *sort_x,
		       size_t *sort_w);
/* One row, exactly tc->cols wide (padded with blanks). */
void table_format_row(struct buf *out, const struct table_cols *tc, const struct row *r);
/* The marker before a process name in the flat view: "+ " folded, "- "
 * unfolded, "  " with one thread; with_count adds the number of threads. */
void table_marker(char *out, size_t n, const struct row *r, bool with_count);
/* Room for a tree row's lead at the deepest level drawn. */
#define PREFIX_MAX (ROW_DEPTH_MAX * 8 + 32)
/* A tree row's lead (the tree and the group view): a line or a blank for
 * each level above it, its own branch, then for processes and groups the
 * fold mark: + something beneath is hidden, - everything beneath is shown,
 * a line when there is nothing beneath. */
void table_tree_prefix(char *out, size_t n, const struct row *r, bool utf8);
/* The screen column of a process row's fold mark, or -1 (no name column, a
 * thread row, scrolled out of sight). */
int table_marker_x(const struct table_cols *tc, const struct row *r);
/* The shown column (index into tc->sel) at screen column x, or -1. */
int table_column_at(const struct table_cols *tc, int x);
/* How wide the row's line would be with its last column not cut: the
 * furthest a user may want to scroll to. */
size_t table_row_width(const struct table_cols *tc, const struct row *r);

#endif
