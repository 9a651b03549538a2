/* Table lines as text: pure, so widths and truncation can be tested. */
#ifndef TV_RENDER_TUI_TABLE_H
#define TV_RENDER_TUI_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/column.h"
#include "util/buf.h"
#include "view/rows.h"

struct table_cols {
	const struct colset *cs;
	const struct colsel *sel;
	size_t *width;     /* display width of each shown column; 0 = off screen */
	size_t *x;         /* its first screen column */
	size_t nvisible;
	int name_col;      /* the column that carries fold markers and tree glyphs; -1: none */
	bool thr_shown;    /* the THR column is shown: markers need not repeat the count */
	bool utf8;
	int cols;          /* screen width */
};

/* Lays out sel on a screen cols wide. Returns 0 or -1 (out of memory). */
int table_cols_init(struct table_cols *tc, const struct colset *cs, const struct colsel *sel, int cols, bool utf8);
void table_cols_free(struct table_cols *tc);

/* The column headers line, exactly tc->cols wide. */
void table_format_head(struct buf *out, const struct table_cols *tc);
/* One row, exactly tc->cols wide (padded with blanks). */
void table_format_row(struct buf *out, const struct table_cols *tc, const struct row *r);
/* The marker before a process name: "+ " folded, "- " unfolded, "  " with one thread. */
void table_marker(char *out, size_t n, const struct row *r, bool with_count);

#endif
