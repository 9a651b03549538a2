/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen as a whole: layout, status line and key bar. */
#include "tui/screen/screen.h"
#include "tui/timeline.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/format.h"
#include "sample/background.h"
#include "tui/screen/autocols.h"
#include "tui/screen/draw.h"
#include "tui/screen/header.h"
#include "tui/keys/keymap.h"
#include "tui/sampling.h"
#include "tui/screen/status.h"
#include "tui/screen/table.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"
#include "view/noted.h"

int tui_dialog_key_live(struct tui *t, bool *sampled)
{
	wnoutrefresh(stdscr);
	doupdate();
	*sampled = false;
	if (tui_tick(t) < 0)
		return ERR;
	int key = tui_key_wait(t, 1000);
	if (term_quit_signal())
		return TUI_KEY_QUIT;
	if (key == TERM_KEY_WAKE) {
		*sampled = tui_collect(t) > 0;
		return ERR;
	}
	return key == KEY_RESIZE ? ERR : key;
}

int tui_dialog_key(void)
{
	wnoutrefresh(stdscr);
	doupdate();
	int key = term_key(1000);
	if (term_quit_signal())
		return TUI_KEY_QUIT;
	return key == KEY_RESIZE ? ERR : key;
}

/* The name of the selected user as the sampler resolved it, else the number. */
/* The first rejected step among the rows shown (a filter's view is not told of others). */
static void status_reject(const struct tui *t, struct buf *b)
{
	size_t *noted = malloc(t->cur.nrejects * sizeof(*noted));
	if (noted && noted_pick(&t->cur, &t->rows, noted))
		format_reject(b, &t->cur.rejects[noted[0]]);
	free(noted);
}

static void status_user(const struct tui *t, struct buf *b)
{
	const char *name = NULL;
	for (size_t i = 0; t->have_cur && i < t->cur.nprocs && !name; i++)
		if (t->cur.procs[i].uid == t->filter.uid)
			name = t->cur.procs[i].user;
	if (name)
		buf_addf(b, _("User: %s "), name);
	else
		buf_addf(b, _("User: %lld "), (long long)t->filter.uid);
}

/* What the status line says when no message is pending: the modes and
 * filters in force. */
static void tui_default_status(struct tui *t, struct buf *b)
{
	/* a sort column that is not shown has no header to mark: it is named here */
	const struct app *a = t->app;
	if (a->sort_col >= 0 && (size_t)a->sort_col < a->cs.n && !colsel_has(&a->sel, a->sort_col)) {
		const struct column *c = &a->cs.cols[a->sort_col];
		bool desc = c->sort_descending != a->reverse;
		/* TRANSLATORS: status line when the table is sorted by a column not shown; %s is its header */
		buf_addf(b, desc ? _("[sorted by %s, descending; not shown: F2 adds it] ")
				 : _("[sorted by %s, ascending; not shown: F2 adds it] "),
			 _(c->header));
	}
	/* the view in force, which far down the list can look like the plain one */
	if (t->groups)
		buf_adds(b, _("[group view: g leaves] "));
	else if (t->tree)
		buf_adds(b, _("[tree: t leaves] "));
	if (t->frozen)
		buf_adds(b, _("[frozen: z resumes] "));
	if (t->follow && t->sel_group)
		/* TRANSLATORS: status line while F follows a control group; %s is its path */
		buf_addf(b, _("[following %s: F stops] "), t->sel_group);
	else if (t->follow)
		/* TRANSLATORS: status line while F follows a task */
		buf_addf(b, _("[following %d: F stops] "), t->sel_tid);
	if (t->groups && t->have_cur && t->cur.ncgroups == 0 && t->cur.cgroups_why)
		/* TRANSLATORS: the group view has no groups to show; %s says why */
		buf_addf(b, _("[no groups: %s] "), t->cur.cgroups_why);
	if (t->filter.text)
		buf_addf(b, _("Filter: %s (Esc clears) "), t->filter.text);
	if (t->filter.cgroup)
		/* TRANSLATORS: status line: the control-group filter (G) */
		buf_addf(b, _("Cgroup: %s (Esc clears) "), t->filter.cgroup);
	if (t->filter.uid != TV_UNKNOWN)
		status_user(t, b);
	if (t->filter.npids) {
		buf_adds(b, _("PIDs: "));
		for (size_t i = 0; i < t->filter.npids; i++)
			buf_addf(b, "%s%d", i ? "," : "", t->filter.pids[i]);
		buf_addc(b, ' ');
	}
	if (t->search)
		buf_addf(b, _("Search: %s (F3 next) "), t->search);
	if (t->tags.n)
		/* TRANSLATORS: status line: how many tasks are tagged */
		buf_addf(b, P_("%zu tagged (U untags) ", "%zu tagged (U untags) ", t->tags.n), t->tags.n);
	if (t->have_cur && t->cur.nrejects)
		status_reject(t, b);
}

static void tui_draw_status(struct tui *t)
{
	int y = t->lay.status_row;
	if (y < 0)
		return;
	if (t->msgs)
		tui_msgs_pull(t->msgs);
	if (t->msgs && t->msgs->shown < t->msgs->n) {
		/* plugin messages: show the newest, say how many came with it */
		size_t extra = t->msgs->n - t->msgs->shown - 1;
		if (extra)
			tui_status(t, ROLE_ERROR,
				   /* TRANSLATORS: a plugin message, then how many more came with it */
				   P_("%s (and %zu more, printed on exit)", "%s (and %zu more, printed on exit)", extra),
				   t->msgs->v[t->msgs->n - 1], extra);
		else
			tui_status(t, ROLE_ERROR, "%s", t->msgs->v[t->msgs->n - 1]);
		t->msgs->shown = t->msgs->n;
	}
	if (t->status.len && (t->status_until == 0 || clock_now(CLOCK_MONOTONIC) < t->status_until)) {
		tui_put(y, 0, COLS, buf_str(&t->status), term_attr(t->status_role));
		return;
	}
	buf_reset(&t->status);
	struct buf b;
	buf_init(&b);
	tui_default_status(t, &b);
	tui_put(y, 0, COLS, buf_str(&b), term_attr(ROLE_STATUS));
	buf_free(&b);
}

/* Labels are padded to this width, so the bar keeps its shape in any language. */
#define KEYBAR_LABEL 6

static void tui_draw_keybar(struct tui *t)
{
	int y = t->lay.keybar_row;
	if (y < 0)
		return;
	size_t n;
	const struct key_bar_entry *e = keymap_bar(&n);
	int x = 0;
	for (size_t i = 0; i < n && x < COLS; i++) {
		int kw = (int)strlen(e[i].key);
		tui_put(y, x, kw, e[i].key, term_attr(ROLE_KEY));
		x += kw;
		if (x >= COLS)
			break;
		struct buf pad;
		buf_init(&pad);
		int lw = COLS - x < KEYBAR_LABEL ? COLS - x : KEYBAR_LABEL;
		const char *label = tui_recording(t) && e[i].replay_label ? e[i].replay_label : e[i].label;
		text_fit(&pad, _(label), (size_t)lw, true, term_utf8());
		tui_put_raw(y, x, &pad, term_attr(ROLE_KEY_LABEL));
		buf_free(&pad);
		x += KEYBAR_LABEL;
	}
	/* the rest of the line in the label colour, as a bar */
	if (x < COLS) {
		struct buf fill;
		buf_init(&fill);
		buf_pad(&fill, ' ', (size_t)(COLS - x));
		tui_put_raw(y, x, &fill, term_attr(ROLE_KEY_LABEL));
		buf_free(&fill);
	}
}

int tui_keybar_key(int x)
{
	size_t n;
	const struct key_bar_entry *e = keymap_bar(&n);
	int at = 0;
	for (size_t i = 0; i < n; i++) {
		int w = (int)strlen(e[i].key) + KEYBAR_LABEL;
		if (x >= at && x < at + w)
			return e[i].code;
		at += w;
	}
	return 0;
}

void tui_fit_columns(struct tui *t)
{
	if (!t->cols_auto || (t->cols_auto_width == COLS && t->cols_auto_groups == t->groups))
		return;
	struct colsel sel;
	if (autocols_pick(&t->app->cs, COLS, term_utf8(), t->groups, &sel) < 0)
		return;
	colsel_free(&t->app->sel);
	t->app->sel = sel;
	t->cols_auto_width = COLS;
	t->cols_auto_groups = t->groups;
	tui_columns_changed(t);
}

void tui_paint(struct tui *t)
{
	size_t ncpu = t->sys_cur.ncpu;
	int old_lines = t->lay.table_lines;
	layout_compute(LINES, COLS, ncpu, &t->lay);
	/* a taller table shows the rows above the selection again */
	if (t->lay.table_lines > old_lines && t->top > 0) {
		size_t h = t->lay.table_lines > 0 ? (size_t)t->lay.table_lines : 0;
		t->top = t->sel >= h ? t->sel - h + 1 : 0;
	}
	tui_fit_columns(t);
	/* erase, not clear: curses sends only the cells that differ */
	erase();
	tui_draw_header(t);
	tui_draw_table(t);
	tui_draw_status(t);
	tui_draw_keybar(t);
}

void tui_draw(struct tui *t)
{
	tui_paint(t);
	wnoutrefresh(stdscr);
	doupdate();
}
