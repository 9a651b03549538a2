/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the keys of the main screen do. Everything here works on the
 * current sample; only unfolding threads not read yet, H, and PID lists ask
 * for a new one. */
#include "tui/keys/actions.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/dialogs/dialogs.h"
#include "tui/rows/fold.h"
#include "tui/keys/keymap.h"
#include "tui/timeline.h"
#include "tui/sampling.h"
#include "tui/screen/status.h"
#include "tui/screen/screen.h"
#include "tui/keys/search.h"
#include "tui/screen/table.h"
#include "tui/view.h"
#include "util/clock.h"
#include "util/i18n.h"

/* Columns one sideways step moves. */
#define HSCROLL_STEP 8

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

/* Digits select the first process whose PID starts with them (typed within
 * a second and a half of each other, with no other key between). */
static void act_pid_jump(struct tui *t, int key)
{
	const char *typed = digits_add(&t->pid_typed, key);
	for (size_t i = 0; i < t->rows.n; i++) {
		char pid[16];
		if (t->rows.v[i].is_thread || t->rows.v[i].group)
			continue;
		snprintf(pid, sizeof(pid), "%d", task_id_pid(t->rows.v[i].task->tid));
		if (strncmp(pid, typed, strlen(typed)) == 0) {
			tui_select(t, i);
			tui_status(t, ROLE_STATUS, _("PID %s"), typed);
			return;
		}
	}
	tui_status(t, ROLE_ERROR, _("no process with a PID starting with %s"), typed);
}

/* t and g: the new view starts where the user can see the selection. */
static void act_view_switch(struct tui *t)
{
	t->view_switched = true;
	t->view_from_top = t->sel == 0;
}

static void act_tree(struct tui *t)
{
	act_view_switch(t);
	t->tree = !t->tree;
	/* one or the other: the tree orders processes by parent, the group view by group */
	if (t->tree)
		t->groups = false;
	tui_fit_columns(t);
	tui_rebuild_at(t, true);
	tui_status(t, ROLE_STATUS, "%s", t->tree ? _("process tree: - and + fold and unfold, * all")
						 : _("process list"));
}

/* g: processes under their control group, or a list again. */
static void act_groups(struct tui *t)
{
	act_view_switch(t);
	t->groups = !t->groups;
	if (t->groups)
		t->tree = false;
	/* automatic columns make room for the groups' pressure */
	tui_fit_columns(t);
	/* the list until a sample with the groups arrives, when the one on
	 * screen has none */
	tui_rebuild_at(t, true);
	bool has = t->have_cur && (t->cur.needs & NEED_CGROUP);
	if (!tui_sample_sufficient(t) && !t->frozen)
		tui_sample(t, true);
	if (!t->groups) {
		tui_status(t, ROLE_STATUS, "%s", _("process list"));
	} else if (tui_fleet(t)) {
		/* TRANSLATORS: g on the hosts' screen (--host): each host is a row */
		tui_status(t, ROLE_STATUS, "%s", _("host view: - and + fold and unfold a host, * all"));
	} else if (has && t->cur.cgroups_why && t->cur.ncgroups == 0) {
		tui_status(t, ROLE_ERROR, "%s", t->cur.cgroups_why);
	} else if (!has && t->frozen) {
		tui_status(t, ROLE_STATUS, "%s", _("updates are frozen: groups appear after z"));
	} else {
		tui_status(t, ROLE_STATUS, "%s", _("group view: - and + fold and unfold a group, * all; G filters groups"));
	}
}

static void act_kthreads(struct tui *t)
{
	t->show_kthreads = !t->show_kthreads;
	tui_rebuild_at(t, true);
	tui_status(t, ROLE_STATUS, "%s", t->show_kthreads ? _("kernel threads shown (K hides them)")
							: _("kernel threads hidden (K shows them)"));
}

void tui_sort_by(struct tui *t, int col)
{
	struct app *a = t->app;
	if (col < 0 || (size_t)col >= a->cs.n)
		return;
	if (a->sort_col == col) {
		a->reverse = !a->reverse;
	} else {
		a->sort_col = col;
		a->reverse = false; /* each column starts in its natural direction */
	}
	unsigned before = t->needs;
	tui_columns_changed(t);
	/* a sort key that is not shown may need a file not read yet */
	if ((t->needs & ~before) && !t->frozen)
		tui_sample(t, true);
	else
		tui_rebuild_at(t, true); /* re-sorted: the selection stays on its task */
}

static void act_sort_id(struct tui *t, const char *id)
{
	tui_sort_by(t, colset_index(&t->app->cs, id));
}

static void act_scroll(struct tui *t, long delta)
{
	size_t max = tui_table_hscroll_max(t);
	long h = (long)t->hscroll + delta;
	if (h < 0)
		h = 0;
	t->hscroll = (size_t)h > max ? max : (size_t)h;
}

static void act_escape(struct tui *t)
{
	bool any = t->filter.text || t->filter.cgroup || t->filter.uid != TV_UNKNOWN || t->search;
	filter_set_text(&t->filter, NULL);
	filter_set_cgroup(&t->filter, NULL);
	t->filter.uid = TV_UNKNOWN;
	free(t->search);
	t->search = NULL;
	if (any)
		tui_rebuild_at(t, false);
}

static void act_follow(struct tui *t)
{
	t->follow = !t->follow && t->have_sel;
	if (!t->follow)
		tui_status(t, ROLE_STATUS, "%s", _("not following any more"));
}

/* Space and c on a group row: every process the group sums, or (Space,
 * when all of them are tagged already) none of them. */
static void act_tag_group(struct tui *t, const struct row_group *g, bool toggle)
{
	bool all = toggle;
	for (size_t i = 0; i < g->nmembers && all; i++)
		all = tags_has(&t->tags, g->members[i]);
	size_t n = 0;
	for (size_t i = 0; i < g->nmembers; i++) {
		if (all) {
			n += !tags_toggle(&t->tags, g->members[i]);
			continue;
		}
		if (!tags_has(&t->tags, g->members[i]))
			n += tags_add(&t->tags, g->members[i]) == 0;
	}
	if (all)
		/* TRANSLATORS: %2$s is a control group's name */
		tui_status(t, ROLE_STATUS, P_("%zu process of %s untagged", "%zu processes of %s untagged", n), n,
			   g->task.cgroup->unit);
	else
		/* TRANSLATORS: %2$s is a control group's name */
		tui_status(t, ROLE_STATUS, P_("%zu process of %s tagged", "%zu processes of %s tagged", n), n,
			   g->task.cgroup->unit);
}

static void act_tag(struct tui *t)
{
	const struct row *r = tui_current(t);
	if (!r)
		return;
	if (r->group)
		act_tag_group(t, r->group, true);
	else
		tags_toggle(&t->tags, r->task);
	act_move(t, 1);
}

/* c: the selected process and every process below it, as the view shows them. */
static void act_tag_children(struct tui *t)
{
	const struct row *r = tui_current(t);
	if (!r)
		return;
	if (r->group) {
		act_tag_group(t, r->group, false);
		return;
	}
	int32_t root = r->task->tgid;
	struct view_opts vo;
	tui_view_opts(t, &vo);
	/* a process is below root when walking its parents reaches root */
	size_t n = 0;
	for (size_t i = 0; i < t->cur.nprocs; i++) {
		const struct tv_task *p = &t->cur.procs[i];
		if (!view_wants(&vo, p))
			continue;
		const struct tv_task *q = p;
		for (size_t hops = 0; q && hops < t->cur.nprocs; hops++) {
			if (q->tgid == root) {
				n += tags_add(&t->tags, p) == 0;
				break;
			}
			q = q->ppid != q->tgid ? snapshot_find(&t->cur, q->ppid) : NULL;
		}
	}
	tui_status(t, ROLE_STATUS, P_("%zu process tagged", "%zu processes tagged", n), n);
}

void tui_act(struct tui *t, int action, int key)
{
	t->view_switched = false;
	/* any other key ends a PID being typed: 627, Space, 629 jumps to 629 */
	if (action != ACT_PID_JUMP)
		t->pid_typed.s[0] = '\0';
	switch ((enum tui_action)action) {
	case ACT_UP: act_move(t, -1); break;
	case ACT_DOWN: act_move(t, 1); break;
	case ACT_PAGE_UP: act_move(t, -act_page(t)); break;
	case ACT_PAGE_DOWN: act_move(t, act_page(t)); break;
	case ACT_HOME: tui_select(t, 0); break;
	case ACT_END: tui_select(t, t->rows.n ? t->rows.n - 1 : 0); break;
	case ACT_PID_JUMP: act_pid_jump(t, key); break;
	case ACT_UNFOLD: fold_unfold(t); break;
	case ACT_FOLD: fold_fold(t); break;
	case ACT_UNFOLD_ALL: fold_all(t); break;
	case ACT_TOGGLE_THREADS: fold_toggle_threads(t); break;
	case ACT_TREE: act_tree(t); break;
	case ACT_GROUPS: act_groups(t); break;
	case ACT_KTHREADS: act_kthreads(t); break;
	case ACT_SORT_MENU: dialog_sort(t); break;
	case ACT_SORT_CPU: act_sort_id(t, "cpu"); break;
	case ACT_SORT_MEM: act_sort_id(t, "vm_rss"); break;
	case ACT_SORT_TIME: act_sort_id(t, "time"); break;
	case ACT_SORT_PID: act_sort_id(t, "pid"); break;
	case ACT_INVERT:
		t->app->reverse = !t->app->reverse;
		tui_rebuild_at(t, true);
		break;
	case ACT_SCROLL_LEFT: act_scroll(t, -HSCROLL_STEP); break;
	case ACT_SCROLL_RIGHT: act_scroll(t, HSCROLL_STEP); break;
	case ACT_SCROLL_START: t->hscroll = 0; break;
	case ACT_SCROLL_END: t->hscroll = tui_table_hscroll_max(t); break;
	case ACT_SEARCH: dialog_search(t); break;
	case ACT_SEARCH_NEXT:
		if (!t->search)
			dialog_search(t);
		else if (!tui_search_next(t, false, true))
			tui_status(t, ROLE_ERROR, _("no match for '%s'"), t->search);
		break;
	case ACT_FILTER: dialog_filter(t); break;
	case ACT_CGROUP_FILTER: dialog_cgroup(t); break;
	case ACT_ESCAPE: act_escape(t); break;
	case ACT_USER: dialog_user(t); break;
	case ACT_PIDS: dialog_pids(t); break;
	case ACT_FOLLOW: act_follow(t); break;
	case ACT_TAG: act_tag(t); break;
	case ACT_TAG_CHILDREN: act_tag_children(t); break;
	case ACT_UNTAG_ALL: tags_free(&t->tags); break;
	case ACT_KILL: dialog_kill(t); break;
	case ACT_NICE_DOWN: tui_renice(t, -1); break;
	case ACT_NICE_UP: tui_renice(t, 1); break;
	case ACT_SETUP: dialog_setup(t); break;
	case ACT_DETAIL: dialog_detail(t); break;
	case ACT_COMMAND: dialog_command(t); break;
	case ACT_ENVIRON: dialog_environ(t); break;
	case ACT_FILES: dialog_files(t); break;
	case ACT_AFFINITY: dialog_affinity(t); break;
	case ACT_TRACE: dialog_trace(t); break;
	case ACT_REPLAY_BACK: tui_replay_step(t, -1); break;
	case ACT_REPLAY_FORWARD: tui_replay_step(t, 1); break;
	case ACT_REPLAY_JUMP: dialog_when(t); break;
	case ACT_FREEZE:
		if (t->replay) {
			tui_status(t, ROLE_STATUS, "%s", _("a replay does not refresh: b and f step, J jumps"));
			break;
		}
		t->frozen = !t->frozen;
		if (!t->frozen)
			tui_sample(t, false);
		break;
	case ACT_DELAY: dialog_delay(t); break;
	case ACT_REDRAW: term_force_repaint(); break;
	case ACT_HELP: dialog_help(t); break;
	case ACT_QUIT: t->quit = true; break;
	case ACT_NONE: {
		/* a key that does nothing says so, so it is not taken for a slow one */
		const char *name = keyname(key);
		/* TRANSLATORS: a key with no binding on the main screen; %s is its name */
		tui_status(t, ROLE_ERROR, _("%s does nothing here (F1 lists the keys)"), name ? name : "?");
		break;
	}
	case ACT_NACTIONS:
		break;
	}
}
