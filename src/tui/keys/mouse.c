/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mouse: a click selects a row, sorts by a header (again: inverts),
 * folds or unfolds at a fold mark, runs a key of the key bar; the wheel
 * moves the selection. */
#include <curses.h>
#include <time.h>

#include "tui/keys/actions.h"
#include "tui/keys/keymap.h"
#include "tui/timeline.h"
#include "tui/screen/screen.h"
#include "tui/screen/table.h"
#include "tui/view.h"
#include "util/clock.h"

/* Rows one wheel step moves. */
#define WHEEL_STEP 3

static void mouse_mark(struct tui *t, size_t i)
{
	tui_select(t, i);
	const struct row *r = tui_current(t);
	if (!r)
		return;
	bool threads = !r->group && r->task->nthreads > 1;
	if (r->collapsed || (threads && !r->unfolded)) {
		tui_act(t, ACT_UNFOLD, 0);
		return;
	}
	/* a "-": fold everything beneath, the threads then the subtree */
	tui_act(t, ACT_FOLD, 0);
	r = tui_current(t);
	if (r && r->tree && r->has_children && !r->collapsed)
		tui_act(t, ACT_FOLD, 0);
}

void tui_mouse(struct tui *t)
{
	struct term_mouse ev;
	if (!term_mouse_event(&ev))
		return;
	if (ev.button == TERM_WHEEL_UP || ev.button == TERM_WHEEL_DOWN) {
		for (int k = 0; k < WHEEL_STEP; k++)
			tui_act(t, ev.button == TERM_WHEEL_UP ? ACT_UP : ACT_DOWN, 0);
		return;
	}
	if (ev.button != TERM_CLICK)
		return;
	if (ev.y == t->lay.keybar_row) {
		int key = tui_keybar_key(ev.x);
		if (key)
			tui_act(t, keymap_action(key, tui_recording(t)), key);
		return;
	}
	struct table_hit hit = tui_table_hit(t, ev.y, ev.x);
	switch (hit.kind) {
	case HIT_HEAD:
		if (hit.col >= 0)
			tui_sort_by(t, hit.col);
		break;
	case HIT_ROW:
		tui_select(t, hit.row);
		break;
	case HIT_MARK:
		mouse_mark(t, hit.row);
		break;
	case HIT_NONE:
		break;
	}
}
