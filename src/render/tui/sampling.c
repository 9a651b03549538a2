/* Taking samples for the screen and keeping the selection on its task. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "model/delta.h"
#include "render/tui/state.h"
#include "plugin/plugin_host.h"
#include "sample/sampler.h"
#include "util/clock.h"
#include "util/i18n.h"

int tui_sample(struct tui *t, bool immediate)
{
	struct sample_opts so = {
		.needs = t->needs,
		.filter = &t->filter,
		.all_threads = t->all_threads,
		.expanded = expset_query,
		.expanded_ctx = &t->expanded,
		.plugin_shown = t->plugin_shown,
	};
	struct snapshot s;
	char *err = NULL;
	if (sampler_take(t->sampler, &so, &s, &err) < 0) {
		tui_status(t, ROLE_ERROR, "%s", err ? err : _("out of memory"));
		free(err);
		return -1;
	}
	/* the rows point into cur: drop them before cur goes */
	rows_free(&t->rows);
	if (!t->have_cur) {
		delta_apply(NULL, &s, &t->app->cs);
		t->cur = s;
		t->have_cur = true;
	} else if (immediate && t->have_prev) {
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
	if (!immediate) {
		system_free(&t->sys_prev);
		t->sys_prev = t->sys_cur;
		t->sys_cur = (struct sys_info){0};
		system_read(&t->sys_cur);
	}
	t->next_due = (t->cur.mono > 0 ? t->cur.mono : clock_now(CLOCK_MONOTONIC)) + t->delay;
	tui_rebuild(t);
	return 0;
}

void tui_select(struct tui *t, size_t i)
{
	if (t->rows.n == 0) {
		t->sel = t->top = 0;
		t->have_sel = false;
		return;
	}
	if (i >= t->rows.n)
		i = t->rows.n - 1;
	t->sel = i;
	const struct row *r = &t->rows.v[i];
	t->sel_tid = r->task->tid;
	t->sel_tgid = r->task->tgid;
	t->sel_thread = r->is_thread;
	t->have_sel = true;
}

/* Row of the remembered task; a vanished thread falls back to its process. */
static bool tui_find_selected(const struct tui *t, size_t *out)
{
	for (size_t i = 0; i < t->rows.n; i++) {
		const struct row *r = &t->rows.v[i];
		if (r->task->tid == t->sel_tid && r->is_thread == t->sel_thread) {
			*out = i;
			return true;
		}
	}
	if (t->sel_thread)
		for (size_t i = 0; i < t->rows.n; i++)
			if (!t->rows.v[i].is_thread && t->rows.v[i].task->tgid == t->sel_tgid) {
				*out = i;
				return true;
			}
	return false;
}

void tui_rebuild(struct tui *t)
{
	rows_free(&t->rows);
	if (!t->have_cur)
		return;
	struct view_opts vo = {
		.cs = &t->app->cs,
		.sort_col = t->app->sort_col,
		.reverse = t->app->reverse,
		.all_threads = t->all_threads,
		.expanded = expset_query,
		.expanded_ctx = &t->expanded,
	};
	if (rows_build(&t->cur, &vo, &t->rows) < 0) {
		tui_status(t, ROLE_ERROR, "%s", _("out of memory"));
		return;
	}
	size_t i = t->sel;
	if (t->have_sel)
		tui_find_selected(t, &i); /* else: the same screen position */
	tui_select(t, i);
}

void tui_columns_changed(struct tui *t)
{
	struct app *a = t->app;
	t->needs = app_needs(a);
	app_open_taskstats(a, t->needs);
	sampler_set_taskstats(t->sampler, a->ts);
	free(t->plugin_shown);
	t->plugin_shown = app_plugin_shown(a);
}
