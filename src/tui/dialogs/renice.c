/* SPDX-License-Identifier: GPL-2.0-or-later */
/* F7/] and F8/[: one step of nice for the tagged tasks or the selected one.
 * A process row changes every thread of the process (a nice value belongs
 * to a thread), each from its own value; a thread row, that thread alone.
 * The step is from the value the kernel has when the key is pressed (the
 * screen's may be a refresh old), and only the task that was sampled is
 * changed: a TID taken by a new task since is refused as gone. On the hosts'
 * screen a process is stepped by its host (hosts/act.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <curses.h>

#include "hosts/fleet.h"
#include "tui/dialogs/dialogs.h"
#include "tui/rows/each_thread.h"
#include "tui/timeline.h"
#include "tui/screen/status.h"
#include "tui/view.h"
#include "util/clock.h"
#include "util/i18n.h"

#define NICE_MIN (-20)
#define NICE_MAX 19

struct target {
	int32_t tid, tgid;
	bool thread;
	uint64_t start;  /* as sampled: the task's identity with its TID */
	char comm[TV_COMM_MAX];
};

/* A thread's nice value now; *e an errno when it cannot be read. */
static int nice_now(int32_t tid, int *e)
{
	errno = 0;
	int v = getpriority(PRIO_PROCESS, (id_t)tid);
	*e = v == -1 && errno ? errno : 0;
	return v;
}

/* One thread, one step from its own value now; at a limit it stays, with ERANGE. */
static int renice_one(int32_t tid, const void *arg)
{
	int e, nice = nice_now(tid, &e) + *(const int *)arg;
	if (e)
		return e;
	if (nice < NICE_MIN || nice > NICE_MAX)
		return ERANGE;
	return setpriority(PRIO_PROCESS, (id_t)tid, nice) < 0 ? errno : 0;
}

/* The new values show at once: the sample is updated in place, each row with its thread's value now. */
static void renice_apply(struct tui *t, const struct target *g)
{
	const struct tv_task *p = snapshot_find(&t->cur, g->tgid);
	if (!p)
		return;
	struct tv_task *proc = &t->cur.procs[p - t->cur.procs];
	for (size_t i = 0; i <= proc->nthreads_read; i++) {
		struct tv_task *k = i == 0 ? proc : &proc->threads[i - 1];
		if (g->thread && (i == 0 || k->tid != g->tid))
			continue;
		int e, nice = nice_now(k->tid, &e);
		if (e)
			continue;
		/* PRI is 20 + nice for the normal scheduling classes */
		if (k->prio == k->nice + 20)
			k->prio = nice + 20;
		k->nice = nice;
	}
}

/* A message for errno e when setting nice on g. */
static void renice_error(struct tui *t, const struct target *g, int nice, int e)
{
	if (e == ERANGE)
		tui_status(t, ROLE_ERROR, _("%d (%s) is at nice %d already, the limit"), g->tid, g->comm, nice);
	else if (e == EACCES)
		tui_status(t, ROLE_ERROR,
			   _("cannot set nice %d on %d (%s): a lower nice value needs CAP_SYS_NICE (root) or a higher RLIMIT_NICE"),
			   nice, g->tid, g->comm);
	else if (e == EPERM)
		tui_status(t, ROLE_ERROR, _("cannot renice %d (%s): it belongs to another user; that needs CAP_SYS_NICE (root)"),
			   g->tid, g->comm);
	else if (e == ESRCH)
		tui_status(t, ROLE_ERROR, _("%d (%s) has exited"), g->tid, g->comm);
	else
		tui_status(t, ROLE_ERROR, _("cannot renice %d (%s): %s"), g->tid, g->comm, strerror(e));
}

static void target_from(struct target *g, const struct tv_task *k)
{
	g->tid = k->tid;
	g->tgid = k->tgid;
	g->thread = k->is_thread;
	g->start = k->start_ticks;
	snprintf(g->comm, sizeof(g->comm), "%s", task_comm(k));
}

/* The tagged tasks as they are in the current sample. */
static size_t targets_tagged(const struct tui *t, struct target *v)
{
	size_t n = 0;
	for (size_t i = 0; i < t->tags.n; i++) {
		const struct tag *k = &t->tags.v[i];
		const struct tv_task *p = snapshot_find(&t->cur, k->tgid);
		if (p && k->thread)
			p = task_find_thread(p, k->tid);
		if (p)
			target_from(&v[n++], p);
	}
	return n;
}

/* A group row's processes, after the user says yes; 0 when not. */
static size_t targets_group(struct tui *t, const struct row_group *g, int delta, struct target **out)
{
	struct buf q;
	buf_init(&q);
	/* TRANSLATORS: %1$+d is the step (+1 or -1), %3$s the group's name, %4$s its path */
	buf_addf(&q, P_("Change the nice value by %+d of the %zu process of control group %s (%s), each thread from its own value? [y/N]",
			"Change the nice value by %+d of the %zu processes of control group %s (%s), each thread from its own value? [y/N]",
			g->nmembers),
		 delta, g->nmembers, g->task.cgroup->unit, g->task.cgroup->path);
	const char *lines[] = {buf_str(&q)};
	/* the rows change with a sample the dialog may wait through: copy first */
	struct target *v = calloc(g->nmembers ? g->nmembers : 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; v && i < g->nmembers; i++)
		target_from(&v[n++], g->members[i]);
	int key = v ? tui_confirm(t, lines, 1) : ERR;
	buf_free(&q);
	if (key != 'y' && key != 'Y') {
		free(v);
		return 0;
	}
	*out = v;
	return n;
}

/*
 * The hosts' screen: the selected process or the tagged ones, each asked of
 * its host (hosts/act.h), which checks it is the same process before it
 * steps every thread of it; the answers come on the status line.
 */
static void renice_remote(struct tui *t, struct fleet *f, int delta)
{
	const struct row *cur = tui_current(t);
	if (!t->tags.n && cur && cur->group) {
		/* TRANSLATORS: F7, F8, [ or ] on a host's own row, or one of its groups', on the hosts' screen */
		tui_status(t, ROLE_ERROR, "%s", _("select a process: a host's or a group's row is not reniced as a whole"));
		return;
	}
	struct target one, *v = &one;
	size_t n = 0;
	if (t->tags.n) {
		v = calloc(t->tags.n, sizeof(*v));
		if (!v)
			return;
		n = targets_tagged(t, v);
	} else if (cur) {
		target_from(&one, cur->task);
		n = 1;
	}
	const char *why = NULL;
	size_t asked = 0;
	/* every target checked before any is sent: none, or all that can be */
	for (size_t i = 0; i < n && !why; i++) {
		if (v[i].thread)
			/* TRANSLATORS: F7, F8, [ or ] on a thread row of another host */
			why = _("a thread of another host is not reniced alone: select its process");
		else if (v[i].start == TV_START_UNKNOWN)
			/* TRANSLATORS: F7 or F8 on the hosts' screen: the host checks a process by its start time first */
			why = _("the start time of a process is not known: its host could not check it is the same");
	}
	if (why)
		n = 0;
	for (size_t i = 0; i < n && !why; i++) {
		struct act_req r = {ACT_RENICE, delta, task_id_pid(v[i].tgid), v[i].start};
		char what[160];
		/* TRANSLATORS: what a host is asked to do, in its answer: a nice step (+1, -1), PID, name */
		snprintf(what, sizeof(what), _("nice %+d for %d (%s)"), delta, r.pid, v[i].comm);
		if (fleet_act(f, task_id_host(v[i].tgid), &r, what, clock_now(CLOCK_MONOTONIC), &why) == 0)
			asked++;
	}
	if (why && !n)
		tui_status(t, ROLE_ERROR, "%s", why);
	else if (why)
		/* TRANSLATORS: F7 or F8 on the hosts' screen: %zu of %zu processes were not asked of their hosts, and why */
		tui_status(t, ROLE_ERROR, P_("nice %+d: %zu of %zu process not asked: %s", "nice %+d: %zu of %zu processes not asked: %s",
					     n), delta, n - asked, n, why);
	else if (asked)
		/* TRANSLATORS: F7, F8, [ or ] on the hosts' screen, until the hosts answer */
		tui_status(t, ROLE_STATUS, P_("nice %+d: %zu process asked of its host, waiting for the answer",
					      "nice %+d: %zu processes asked of their hosts, waiting for the answers", asked),
			   delta, asked);
	if (v != &one)
		free(v);
}

void tui_renice(struct tui *t, int delta)
{
	struct fleet *f = tui_fleet_live(t);
	if (f) {
		renice_remote(t, f, delta);
		return;
	}
	/* TRANSLATORS: F7, F8, [ or ] in a replay (-r) */
	if (tui_replay_refuse(t, _("a replay cannot change priorities: its tasks are the recording's, not running ones")))
		return;
	struct target one, *v = &one;
	size_t n = 0;
	const struct row *cur = tui_current(t);
	if (!t->tags.n && cur && cur->group) {
		n = targets_group(t, cur->group, delta, &v);
		if (!n)
			return;
	} else if (t->tags.n) {
		v = calloc(t->tags.n, sizeof(*v));
		if (!v)
			return;
		n = targets_tagged(t, v);
	} else if (tui_current(t)) {
		target_from(&one, tui_current(t)->task);
		n = 1;
	}
	size_t ok = 0, failed = 0;
	int last_nice = 0;
	for (size_t i = 0; i < n; i++) {
		int e, was = nice_now(v[i].tid, &e);
		if (!e && !tui_task_same(v[i].tgid, v[i].tid, v[i].start))
			e = ESRCH; /* its TID is another task's now */
		if (!e)
			e = v[i].thread ? renice_one(v[i].tid, &delta) : tui_each_thread(v[i].tid, renice_one, &delta);
		if (e) {
			/* the first failure is the one shown */
			if (!failed)
				renice_error(t, &v[i], e == ERANGE ? was : was + delta, e);
			failed++;
			continue;
		}
		renice_apply(t, &v[i]);
		last_nice = nice_now(v[i].tid, &e);
		ok++;
	}
	if (ok && !failed) {
		if (n == 1)
			tui_status(t, ROLE_STATUS, _("%d (%s) now has nice %d"), v[0].tid, v[0].comm, last_nice);
		else
			tui_status(t, ROLE_STATUS, P_("nice changed for %zu task", "nice changed for %zu tasks", ok), ok);
	}
	if (ok)
		tui_rebuild_at(t, true); /* sorted by nice, its row moves: the selection goes with it */
	if (v != &one)
		free(v);
}
