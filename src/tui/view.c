/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's view of the current sample: what the sampler is asked for, the
 * rows, and the selection kept on its screen row (htop's way) or its task. */
#include "tui/view.h"

#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "tui/screen/status.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "view/shown.h"

/* A filter or a search matches command lines and thread names: while one
 * is in use the sampler reads them for every process. */
static bool tui_wants_names(const struct tui *t)
{
	return t->filter.text || t->search || t->typing;
}

/* The group view and the cgroup filter need every process's group. */
static bool tui_wants_groups(const struct tui *t)
{
	return t->groups || t->filter.cgroup || t->typing_cgroup;
}

void tui_sample_opts(struct tui *t, struct sample_opts *so)
{
	/* the sampler reads the processes the PIDs select; user and text are
	 * the view's, so a key that changes them needs no new sample */
	filter_init(&t->sample_filter);
	t->sample_filter.pids = t->filter.pids;
	t->sample_filter.npids = t->filter.npids;
	bool names = tui_wants_names(t);
	/* switch counts for the rows on screen only, unless the sort, a
	 * group's or a collapsed subtree's sum needs every row's */
	bool limited = !(t->app->cs.cols[t->app->sort_col].needs & NEED_CTXT) && !tui_wants_groups(t) &&
		       !t->screen_sums;
	*so = (struct sample_opts){
		.needs = t->needs | (names ? NEED_CMDLINE : 0) | (tui_wants_groups(t) ? NEED_CGROUP | NEED_CGROUP_CPU : 0),
		.filter = &t->sample_filter,
		.all_threads = t->all_threads,
		.expanded = expset_query,
		.expanded_ctx = &t->expanded,
		.plugin_shown = t->plugin_shown,
		.thread_names = names,
		/* sorting by what is otherwise read for the rows on screen only */
		.details_all = (t->app->cs.cols[t->app->sort_col].needs & NEED_TSTAT) != 0,
		/* the first screen shows command lines, not dashes, unless one is stuck */
		.cmdline_wait = t->have_cur ? 0 : 0.1,
		.stacks_budget = sampler_stacks_budget(t->delay),
		.peaks_tid = t->peaks_tid,
		.rows_limited = limited,
		.rows_tids = t->screen_tids,
		.nrows_tids = t->nscreen_tids,
		.rows_tgids = t->screen_tgids,
		.nrows_tgids = t->nscreen_tgids,
	};
}

bool tui_snapshot_sufficient(const struct tui *t, const struct snapshot *s)
{
	if (tui_wants_groups(t) && !(s->needs & NEED_CGROUP))
		return false;
	return !tui_wants_names(t) || (s->thread_names && (s->needs & NEED_CMDLINE));
}

bool tui_sample_sufficient(const struct tui *t)
{
	return !t->have_cur || tui_snapshot_sufficient(t, &t->cur);
}

void tui_view_opts(struct tui *t, struct view_opts *vo)
{
	*vo = (struct view_opts){
		.cs = &t->app->cs,
		.sort_col = t->app->sort_col,
		.reverse = t->app->reverse,
		.all_threads = t->all_threads,
		.expanded = expset_query,
		.expanded_ctx = &t->expanded,
		.filter = &t->filter,
		.hide_kthreads = !t->show_kthreads,
		.tree = t->tree,
		.collapsed = expset_query,
		.collapsed_ctx = &t->collapsed,
		.groups = t->groups,
		.group_collapsed = pathset_query,
		.group_collapsed_ctx = &t->collapsed_groups,
	};
}

void tui_select(struct tui *t, size_t i)
{
	if (t->rows.n == 0) {
		t->sel = t->top = 0;
		t->have_sel = false;
		free(t->sel_group);
		t->sel_group = NULL;
		return;
	}
	if (i >= t->rows.n)
		i = t->rows.n - 1;
	t->sel = i;
	const struct row *r = &t->rows.v[i];
	free(t->sel_group);
	t->sel_group = r->group ? strdup(r->task->cgroup->path) : NULL;
	t->sel_tid = r->task->tid;
	t->sel_tgid = r->task->tgid;
	t->sel_start = r->task->start_ticks;
	t->sel_thread = r->is_thread;
	t->have_sel = true;
}

const struct row *tui_current(const struct tui *t)
{
	return t->have_sel && t->sel < t->rows.n ? &t->rows.v[t->sel] : NULL;
}

/* Row of the selected task or group; a thread not shown falls back to its process. */
static bool tui_find(const struct tui *t, int32_t tid, int32_t tgid, bool thread, size_t *out)
{
	for (size_t i = 0; t->sel_group && i < t->rows.n; i++)
		if (t->rows.v[i].group && strcmp(t->rows.v[i].task->cgroup->path, t->sel_group) == 0) {
			*out = i;
			return true;
		}
	if (t->sel_group)
		return false;
	for (size_t i = 0; i < t->rows.n; i++) {
		const struct row *r = &t->rows.v[i];
		if (!r->group && r->task->tid == tid && r->is_thread == thread &&
		    (t->sel_start == TV_START_UNKNOWN || r->task->start_ticks == TV_START_UNKNOWN ||
		     r->task->start_ticks == t->sel_start)) {
			*out = i;
			return true;
		}
	}
	if (thread)
		for (size_t i = 0; i < t->rows.n; i++)
			if (!t->rows.v[i].is_thread && t->rows.v[i].task->tgid == tgid) {
				*out = i;
				return true;
			}
	return false;
}

bool tui_select_task(struct tui *t, int32_t tid, bool thread)
{
	for (size_t i = 0; i < t->rows.n; i++) {
		const struct row *r = &t->rows.v[i];
		if (!r->group && r->task->tid == tid && r->is_thread == thread) {
			tui_select(t, i);
			return true;
		}
	}
	return false;
}

void tui_rebuild_at(struct tui *t, bool keep_task)
{
	rows_free(&t->rows);
	if (!t->have_cur)
		return;
	struct view_opts vo;
	tui_view_opts(t, &vo);
	if (rows_build(&t->cur, &vo, &t->rows) < 0) {
		tui_status(t, ROLE_ERROR, "%s", _("out of memory"));
		return;
	}
	/* a replay's sample lists ended tasks: their rows are marked */
	if (t->ended)
		shown_mark(t->ended, &t->rows);
	if (t->have_want && tui_select_task(t, t->want_tid, t->want_thread)) {
		t->have_want = false;
		return;
	}
	size_t i = t->sel;
	if (keep_task && t->have_sel && !tui_find(t, t->sel_tid, t->sel_tgid, t->sel_thread, &i) && t->follow) {
		t->follow = false;
		if (t->sel_group)
			/* TRANSLATORS: F stopped following because the control group is gone; %s is its path */
			tui_status(t, ROLE_STATUS, _("%s is no longer shown: not following it any more"), t->sel_group);
		else
			/* TRANSLATORS: F stopped following because the task is gone */
			tui_status(t, ROLE_STATUS, _("%d is no longer shown: not following it any more"),
				   task_id_pid(t->sel_tid));
	}
	tui_select(t, i);
	if (t->view_switched)
		tui_place_switched(t);
}

void tui_place_switched(struct tui *t)
{
	size_t h = t->lay.table_lines > 0 ? (size_t)t->lay.table_lines : 0;
	if (t->view_from_top) {
		tui_select(t, 0);
		t->top = 0;
	} else {
		/* what is above and below it in the new view is in sight too */
		t->top = t->sel > h / 2 ? t->sel - h / 2 : 0;
	}
}

void tui_rebuild(struct tui *t)
{
	tags_prune(&t->tags, &t->cur);
	/* a new sample re-sorts the rows: the selection stays on its task */
	tui_rebuild_at(t, true);
}
