/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table on the screen: drawn from render/table.c's lines, kept scrolled
 * to the selection; what a mouse click on it hits. */
#ifndef TV_TUI_TABLE_H
#define TV_TUI_TABLE_H

#include "tui/state.h"

void tui_draw_table(struct tui *t);

enum table_hit_kind { HIT_NONE, HIT_HEAD, HIT_ROW, HIT_MARK };
struct table_hit {
	enum table_hit_kind kind;
	size_t row;   /* HIT_ROW, HIT_MARK: index into t->rows */
	int col;      /* HIT_HEAD: index into the colset, -1 between columns */
};
/* What is at screen position (y, x), as last drawn. */
struct table_hit tui_table_hit(struct tui *t, int y, int x);
/* The furthest the table can be scrolled to the right. */
size_t tui_table_hscroll_max(struct tui *t);

#endif
