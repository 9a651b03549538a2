/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Taking samples for the screen, off the input path: a request goes to the
 * sampling thread (sample/background.c) and the screen goes on; the result
 * is applied when it arrives, between keys.
 */
#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "hosts/fleet.h"
#include "model/delta.h"
#include "plugin/plugin_host.h"
#include "sample/background.h"
#include "sample/sampler.h"
#include "tui/sampling.h"
#include "tui/timeline.h"
#include "tui/screen/status.h"
#include "tui/view.h"
#include "util/clock.h"
#include "util/i18n.h"

int tui_sample(struct tui *t, bool immediate)
{
	/* a replay's sample carries what was recorded: the view is built again */
	if (t->replay) {
		tui_rebuild_at(t, true);
		return 0;
	}
	struct sample_opts so;
	tui_sample_opts(t, &so);
	/* the sampling thread gets copies: the unfolded set as a list */
	so.expanded = NULL;
	so.expanded_ctx = NULL;
	so.expanded_list = t->expanded.v;
	so.nexpanded = t->expanded.n;
	if (!background_request(t->bg, &so, plugin_host_nslots(t->app->plugins))) {
		tui_status(t, ROLE_ERROR, "%s", _("out of memory"));
		return -1;
	}
	t->sampling = true;
	/* a key's request replaces a scheduled one still waiting: the result
	 * counts as the refresh either way */
	t->scheduled |= !immediate;
	if (!immediate) {
		/* a scheduled sample replaces prev: free it now, so that no more
		 * than two samples are ever held (they are most of taskview's memory) */
		if (t->have_prev) {
			snapshot_free(&t->prev);
			t->have_prev = false;
		}
		t->next_due = clock_now(CLOCK_MONOTONIC) + t->delay;
	}
	return 0;
}

int tui_collect(struct tui *t)
{
	if (tui_fleet_live(t))
		return tui_fleet_collect(t);
	struct snapshot s;
	char *err = NULL;
	if (!t->bg || !background_take(t->bg, &s, &err))
		return 0;
	if (err) {
		tui_status(t, ROLE_ERROR, "%s", err);
		free(err);
		return -1;
	}
	bool scheduled = t->scheduled;
	t->sampling = background_busy(t->bg);
	t->scheduled = false;
	/* asked for before the view wanted names or groups (a filter set since),
	 * it lacks them: the rows it filters would vanish for a refresh, and a
	 * PID typed meanwhile would not be found. The screen keeps its sample;
	 * one with them is asked for at once. */
	if (t->have_cur && tui_sample_sufficient(t) && !tui_snapshot_sufficient(t, &s)) {
		snapshot_free(&s);
		return t->sampling || tui_sample(t, true) == 0 ? 0 : -1;
	}
	/* the rows point into cur: drop them before cur goes */
	rows_free(&t->rows);
	bool first = !t->have_cur;
	if (first) {
		delta_apply(NULL, &s, &t->app->cs);
		t->cur = s;
		t->have_cur = true;
	} else if (!scheduled && t->have_prev) {
		/* rates over prev → now: at least one full interval, never a
		 * noisy fraction of one; tasks new to prev show "-" */
		delta_apply(&t->prev, &s, &t->app->cs);
		snapshot_free(&t->cur);
		t->cur = s;
	} else {
		delta_apply(&t->cur, &s, &t->app->cs);
		if (t->have_prev)
			snapshot_free(&t->prev);
		t->prev = t->cur;
		t->have_prev = true;
		t->cur = s;
	}
	/* the exited threads are in cur's sums now; the screen shows no row of them */
	snapshot_drop_exited(&t->cur);
	if (scheduled) {
		system_free(&t->sys_prev);
		t->sys_prev = t->sys_cur;
		t->sys_cur = (struct sys_info){0};
		system_read(&t->sys_cur);
		t->refreshes++;
		/* the next refresh one delay after this one began; the first
		 * rates sooner than a long delay: half a second is enough to
		 * measure, and the screen is not all "-" for long */
		t->next_due = t->cur.mono + (first && t->delay > 0.5 ? 0.5 : t->delay);
	}
	tui_rebuild(t);
	return scheduled ? 2 : 1;
}

int tui_tick(struct tui *t)
{
	if (!t->replay && !t->frozen && !t->sampling && clock_now(CLOCK_MONOTONIC) >= t->next_due && tui_sample(t, false) < 0)
		return -1;
	return 0;
}

int tui_key_wait(struct tui *t, int timeout_ms)
{
	const struct fleet *f = tui_fleet_live(t);
	if (!f)
		return term_key_or(timeout_ms, t->bg ? background_fd(t->bg) : -1);
	int fds[2 * (HOSTS_MAX + FLEET_ACTS_MAX)];
	size_t n = fleet_fds(f, fds);
	/* the hosts' states move on with time too (stale, next try) */
	int key = term_key_or_any(timeout_ms < 250 ? timeout_ms : 250, fds, n);
	return key == ERR && !term_quit_signal() ? TERM_KEY_WAKE : key;
}

double tui_stale_age(const struct tui *t)
{
	if (t->replay || t->frozen || !t->have_cur)
		return 0;
	double age = clock_now(CLOCK_MONOTONIC) - t->cur.mono;
	return age > 2 * t->delay ? age : 0;
}

void tui_open_taskstats(struct tui *t)
{
	struct app *a = t->app;
	/* the sampling thread may be reading with the old settings: taskstats
	 * is opened here, handed over before its next sample (the sampler is
	 * that thread's alone once it runs) */
	if (t->bg) {
		app_open_taskstats(a, t->needs);
		background_set_taskstats(t->bg, a->ts);
	} else if (t->sampler) {
		app_open_taskstats(a, t->needs);
		sampler_set_taskstats(t->sampler, a->ts);
	}
}

void tui_columns_changed(struct tui *t)
{
	struct app *a = t->app;
	t->needs = app_needs(a);
	tui_open_taskstats(t);
	free(t->plugin_shown);
	t->plugin_shown = app_plugin_shown(a);
}
