/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Folding and unfolding: the threads of a process, and in the tree the
 * subtrees. Unfolding reads threads the sample does not have: the one kind
 * of key that asks for a new sample at once. */
#include "tui/rows/fold.h"

#include "tui/sampling.h"
#include "tui/screen/status.h"
#include "tui/view.h"
#include "util/i18n.h"

void fold_process(struct tui *t, int32_t tgid)
{
	if (expset_add(&t->expanded, tgid) < 0)
		return;
	/* the new sample may sort differently: stay on the process */
	if (!t->have_want) {
		t->want_tid = tgid;
		t->want_thread = false;
		t->have_want = true;
	}
	/* threads not read yet: the one thing a key asks a new sample for */
	if (t->frozen) {
		tui_rebuild_at(t, true);
		tui_status(t, ROLE_STATUS, "%s", _("updates are frozen: threads appear after z"));
		return;
	}
	tui_sample(t, true);
}

/* Enter, Right, +: in the tree, a collapsed subtree opens first; then the
 * threads are unfolded. */
void fold_unfold(struct tui *t)
{
	const struct row *r = tui_current(t);
	if (!r || r->is_thread)
		return;
	if (r->group) {
		/* a group has no threads of its own: its rows open */
		if (r->collapsed) {
			pathset_remove(&t->collapsed_groups, r->task->cgroup->path);
			tui_rebuild_at(t, true);
		}
		return;
	}
	if (r->collapsed) {
		expset_remove(&t->collapsed, r->task->tgid);
		tui_rebuild_at(t, true);
		return;
	}
	if (r->unfolded || r->task->nthreads <= 1)
		return;
	fold_process(t, r->task->tgid);
}

static void fold_threads(struct tui *t, int32_t tgid)
{
	expset_remove(&t->expanded, tgid);
	/* on a thread row the selection moves to its process */
	t->sel_tid = tgid;
	t->sel_thread = false;
	t->sel_tgid = tgid;
	t->sel_start = TV_START_UNKNOWN;
	tui_rebuild_at(t, true);
}

/* Left, -: the threads fold first; in the tree, then the subtree. */
void fold_fold(struct tui *t)
{
	const struct row *r = tui_current(t);
	if (!r)
		return;
	if (r->group) {
		if (r->has_children && !r->collapsed) {
			pathset_add(&t->collapsed_groups, r->task->cgroup->path);
			tui_rebuild_at(t, true);
		}
		return;
	}
	int32_t tgid = r->task->tgid;
	if (!t->all_threads && (r->is_thread || r->unfolded)) {
		fold_threads(t, tgid);
		return;
	}
	if (!r->is_thread && r->tree && r->has_children && !r->collapsed) {
		expset_add(&t->collapsed, tgid);
		tui_rebuild_at(t, true);
		return;
	}
	if (t->all_threads && (r->is_thread || r->unfolded))
		tui_status(t, ROLE_STATUS, "%s", _("every thread is shown (H): press H to fold"));
}

/* *: every process unfolded, or all folded again; in the tree, every
 * subtree opened, or all collapsed. */
void fold_all(struct tui *t)
{
	if (t->groups && t->cur.ncgroups) {
		if (t->collapsed_groups.n) {
			pathset_clear(&t->collapsed_groups);
		} else {
			for (size_t i = 0; i < t->rows.n; i++)
				if (t->rows.v[i].group && t->rows.v[i].has_children)
					pathset_add(&t->collapsed_groups, t->rows.v[i].task->cgroup->path);
		}
		tui_rebuild_at(t, true);
		return;
	}
	if (t->tree) {
		if (t->collapsed.n) {
			expset_clear(&t->collapsed);
		} else {
			for (size_t i = 0; i < t->rows.n; i++)
				if (t->rows.v[i].has_children)
					expset_add(&t->collapsed, t->rows.v[i].task->tgid);
		}
		tui_rebuild_at(t, true);
		return;
	}
	bool all = true;
	for (size_t i = 0; i < t->cur.nprocs && all; i++)
		if (t->cur.procs[i].nthreads > 1 && !expset_has(&t->expanded, t->cur.procs[i].tgid))
			all = false;
	if (all) {
		expset_clear(&t->expanded);
		if (t->sel_thread) {
			t->sel_tid = t->sel_tgid;
			t->sel_start = TV_START_UNKNOWN;
			t->sel_thread = false;
		}
		tui_rebuild_at(t, true);
		return;
	}
	for (size_t i = 0; i < t->cur.nprocs; i++)
		if (t->cur.procs[i].nthreads > 1)
			expset_add(&t->expanded, t->cur.procs[i].tgid);
	if (!t->frozen)
		tui_sample(t, true);
	else
		tui_rebuild_at(t, true);
}

void fold_toggle_threads(struct tui *t)
{
	t->all_threads = !t->all_threads;
	if (!t->all_threads && t->sel_thread && !expset_has(&t->expanded, t->sel_tgid)) {
		t->sel_tid = t->sel_tgid;
		t->sel_start = TV_START_UNKNOWN;
		t->sel_thread = false;
	}
	/* threads not read yet: a new sample */
	if (!t->frozen && t->all_threads)
		tui_sample(t, true);
	else
		tui_rebuild_at(t, true);
}
