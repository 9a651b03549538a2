/* What the keys of the main screen do. */
#include <curses.h>
#include <stdlib.h>

#include "tui/dialogs.h"
#include "tui/keymap.h"
#include "tui/state.h"
#include "util/i18n.h"

static void act_move(struct tui *t, long delta)
{
	if (t->rows.n == 0)
		return;
	long i = (long)t->sel + delta;
	if (i < 0)
		i = 0;
	tui_select(t, (size_t)i);
}

static long act_page(const struct tui *t)
{
	return t->lay.table_lines > 1 ? t->lay.table_lines - 1 : 1;
}

static const struct row *act_current(const struct tui *t)
{
	return t->have_sel && t->sel < t->rows.n ? &t->rows.v[t->sel] : NULL;
}

/* Unfolding reads threads the last sample skipped: sample again at once so
 * they appear now (their rates show "-" until the next refresh). */
static void act_unfold(struct tui *t)
{
	const struct row *r = act_current(t);
	if (!r || r->is_thread || r->unfolded)
		return;
	if (expset_add(&t->expanded, r->task->tgid) < 0)
		return;
	if (t->frozen) {
		tui_rebuild(t);
		tui_status(t, ROLE_STATUS, "%s", _("updates are frozen: threads appear after z"));
		return;
	}
	tui_sample(t, true);
}

static void act_fold(struct tui *t)
{
	const struct row *r = act_current(t);
	if (!r)
		return;
	int32_t tgid = r->task->tgid;
	if (t->all_threads) {
		tui_status(t, ROLE_STATUS, "%s", _("every thread is shown (H): press H to fold"));
		return;
	}
	expset_remove(&t->expanded, tgid);
	/* on a thread row the selection moves to its process */
	t->sel_tid = tgid;
	t->sel_thread = false;
	t->sel_tgid = tgid;
	tui_rebuild(t);
}

static void act_unfold_all(struct tui *t)
{
	bool all = true;
	for (size_t i = 0; i < t->cur.nprocs && all; i++)
		if (t->cur.procs[i].nthreads > 1 && !expset_has(&t->expanded, t->cur.procs[i].tgid))
			all = false;
	if (all) {
		expset_clear(&t->expanded);
		if (t->sel_thread) {
			t->sel_tid = t->sel_tgid;
			t->sel_thread = false;
		}
		tui_rebuild(t);
		return;
	}
	for (size_t i = 0; i < t->cur.nprocs; i++)
		if (t->cur.procs[i].nthreads > 1)
			expset_add(&t->expanded, t->cur.procs[i].tgid);
	if (!t->frozen)
		tui_sample(t, true);
	else
		tui_rebuild(t);
}

static void act_toggle_threads(struct tui *t)
{
	t->all_threads = !t->all_threads;
	if (!t->all_threads && t->sel_thread && !expset_has(&t->expanded, t->sel_tgid)) {
		t->sel_tid = t->sel_tgid;
		t->sel_thread = false;
	}
	if (!t->frozen && t->all_threads)
		tui_sample(t, true);
	else
		tui_rebuild(t);
}

static void act_escape(struct tui *t)
{
	if (t->filter.text) {
		filter_set_text(&t->filter, NULL);
		tui_sample(t, true);
	}
}

void tui_act(struct tui *t, int action)
{
	switch ((enum tui_action)action) {
	case ACT_UP: act_move(t, -1); break;
	case ACT_DOWN: act_move(t, 1); break;
	case ACT_PAGE_UP: act_move(t, -act_page(t)); break;
	case ACT_PAGE_DOWN: act_move(t, act_page(t)); break;
	case ACT_HOME: tui_select(t, 0); break;
	case ACT_END: tui_select(t, t->rows.n ? t->rows.n - 1 : 0); break;
	case ACT_UNFOLD: act_unfold(t); break;
	case ACT_FOLD: act_fold(t); break;
	case ACT_UNFOLD_ALL: act_unfold_all(t); break;
	case ACT_TOGGLE_THREADS: act_toggle_threads(t); break;
	case ACT_SORT_MENU: dialog_sort(t); break;
	case ACT_INVERT:
		t->app->reverse = !t->app->reverse;
		tui_rebuild(t);
		break;
	case ACT_SEARCH: dialog_search(t); break;
	case ACT_SEARCH_NEXT:
		if (!t->search)
			dialog_search(t);
		else if (!tui_search_next(t, false))
			tui_status(t, ROLE_STATUS, _("no more matches for '%s'"), t->search);
		break;
	case ACT_FILTER: dialog_filter(t); break;
	case ACT_ESCAPE: act_escape(t); break;
	case ACT_USER: dialog_user(t); break;
	case ACT_PIDS: dialog_pids(t); break;
	case ACT_SETUP: dialog_setup(t); break;
	case ACT_KILL: dialog_kill(t); break;
	case ACT_DETAIL: dialog_detail(t); break;
	case ACT_FREEZE:
		t->frozen = !t->frozen;
		if (!t->frozen)
			tui_sample(t, false);
		break;
	case ACT_DELAY: dialog_delay(t); break;
	case ACT_REDRAW: term_force_repaint(); break;
	case ACT_HELP: dialog_help(t); break;
	case ACT_QUIT: t->quit = true; break;
	case ACT_NONE:
	case ACT_NACTIONS:
		break;
	}
}
