/* SPDX-License-Identifier: GPL-2.0-or-later */
/* F9: send a signal to the tagged tasks or the selected one, after a
 * confirmation. From a thread row the confirmation says what the signal's
 * default action does to the whole process, and offers either target. */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hosts/fleet.h"
#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"
#include "tui/dialogs/dialogs.h"
#include "tui/timeline.h"
#include "tui/screen/draw.h"
#include "tui/dialogs/menu.h"
#include "tui/rows/each_thread.h"
#include "tui/screen/screen.h"
#include "tui/view.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"

/* What a signal does when the process has no handler (signal(7)). */
enum sig_default { SD_TERM, SD_STOP, SD_CONT, SD_IGNORE };

static const struct {
	int sig;
	const char *name;
	enum sig_default def;
} signals[] = {
	{SIGHUP, "HUP", SD_TERM},     {SIGINT, "INT", SD_TERM},       {SIGQUIT, "QUIT", SD_TERM},
	{SIGILL, "ILL", SD_TERM},     {SIGTRAP, "TRAP", SD_TERM},     {SIGABRT, "ABRT", SD_TERM},
	{SIGBUS, "BUS", SD_TERM},     {SIGFPE, "FPE", SD_TERM},       {SIGKILL, "KILL", SD_TERM},
	{SIGUSR1, "USR1", SD_TERM},   {SIGSEGV, "SEGV", SD_TERM},     {SIGUSR2, "USR2", SD_TERM},
	{SIGPIPE, "PIPE", SD_TERM},   {SIGALRM, "ALRM", SD_TERM},     {SIGTERM, "TERM", SD_TERM},
	{SIGCHLD, "CHLD", SD_IGNORE}, {SIGCONT, "CONT", SD_CONT},     {SIGSTOP, "STOP", SD_STOP},
	{SIGTSTP, "TSTP", SD_STOP},   {SIGTTIN, "TTIN", SD_STOP},     {SIGTTOU, "TTOU", SD_STOP},
	{SIGURG, "URG", SD_IGNORE},   {SIGXCPU, "XCPU", SD_TERM},     {SIGXFSZ, "XFSZ", SD_TERM},
	{SIGVTALRM, "VTALRM", SD_TERM}, {SIGPROF, "PROF", SD_TERM},   {SIGWINCH, "WINCH", SD_IGNORE},
	{SIGIO, "IO", SD_TERM},       {SIGPWR, "PWR", SD_TERM},       {SIGSYS, "SYS", SD_TERM},
};
#define NSIGNALS (sizeof(signals) / sizeof(signals[0]))

struct target {
	int32_t tid, tgid;
	bool thread;
	uint64_t start_ticks;    /* TV_START_UNKNOWN: not checked */
	int64_t nthreads;        /* of its process */
	char comm[TV_COMM_MAX];  /* raw; sanitized when drawn */
	char pcomm[TV_COMM_MAX]; /* its process's name */
};

static void target_from(struct target *g, const struct tui *t, const struct tv_task *k)
{
	const struct tv_task *p = snapshot_find(&t->cur, k->tgid);
	g->tid = k->tid;
	g->tgid = k->tgid;
	g->thread = k->is_thread;
	g->start_ticks = k->start_ticks;
	g->nthreads = p ? p->nthreads : TV_UNKNOWN;
	snprintf(g->comm, sizeof(g->comm), "%s", task_comm(k));
	snprintf(g->pcomm, sizeof(g->pcomm), "%s", task_comm(p ? p : k));
}

/* The processes a group row sums, as the last sample found them. */
static size_t targets_group(const struct tui *t, const struct row_group *g, struct target **out)
{
	struct target *v = calloc(g->nmembers ? g->nmembers : 1, sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < g->nmembers; i++)
		target_from(&v[i], t, g->members[i]);
	*out = v;
	return g->nmembers;
}

/* The tagged tasks still in the current sample, else the selected row (a
 * group row: its processes). */
static size_t targets_collect(const struct tui *t, struct target **out)
{
	const struct row *cur = tui_current(t);
	if (!t->tags.n && cur && cur->group)
		return targets_group(t, cur->group, out);
	size_t n = 0;
	struct target *v = calloc(t->tags.n ? t->tags.n : 1, sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < t->tags.n; i++) {
		const struct tag *k = &t->tags.v[i];
		const struct tv_task *p = snapshot_find(&t->cur, k->tgid);
		const struct tv_task *th = p && k->thread ? task_find_thread(p, k->tid) : NULL;
		if (p && k->thread && !th) {
			/* a tagged thread of a folded process: not read this time */
			target_from(&v[n], t, p);
			v[n].tid = k->tid;
			v[n].thread = true;
			v[n].start_ticks = TV_START_UNKNOWN;
			n++;
		} else if (p) {
			target_from(&v[n++], t, th ? th : p);
		}
	}
	if (!t->tags.n && tui_current(t))
		target_from(&v[n++], t, tui_current(t)->task);
	*out = v;
	return n;
}

static bool still_same(const struct target *g)
{
	return tui_task_same(g->tgid, g->tid, g->start_ticks);
}

/* Sends sig to the whole process, or with tgkill to the thread alone.
 * Returns 0 or an errno. A process is reached through a pidfd when the
 * kernel has them, so the check of its start time cannot race a reuse. */
static int send_to(const struct target *g, int sig, bool thread_only)
{
	if (thread_only) {
		if (!still_same(g))
			return ESRCH;
		return syscall(SYS_tgkill, g->tgid, g->tid, sig) < 0 ? errno : 0;
	}
	struct target lead = *g;
	if (g->thread) {
		lead.tid = g->tgid;
		lead.start_ticks = TV_START_UNKNOWN;
	}
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, lead.tgid, 0);
	if (fd >= 0) {
		int e = !still_same(&lead) ? ESRCH : syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) < 0 ? errno : 0;
		close(fd);
		return e;
	}
#endif
	if (!still_same(&lead))
		return ESRCH;
	return kill(lead.tgid, sig) < 0 ? errno : 0;
}

/* What the signal's default action does to the process of a thread. */
static void default_action(struct buf *b, int sig, const char *name, enum sig_default def, const struct target *g)
{
	if (sig == SIGKILL)
		buf_addf(b, _("SIGKILL cannot be caught: it ends the whole process %d, all of its threads, whichever way it is sent."),
			 g->tgid);
	else if (sig == SIGSTOP)
		buf_addf(b, _("SIGSTOP cannot be caught: it stops the whole process %d, whichever way it is sent."), g->tgid);
	else if (def == SD_TERM)
		buf_addf(b, _("Unless process %d handles SIG%s, its default action ends the whole process, all of its threads."),
			 g->tgid, name);
	else if (def == SD_STOP)
		buf_addf(b, _("Unless process %d handles SIG%s, its default action stops the whole process."), g->tgid, name);
	else if (def == SD_CONT)
		buf_addf(b, _("SIGCONT resumes the whole process %d, whichever way it is sent."), g->tgid);
	else
		buf_addf(b, _("Unless process %d handles SIG%s, it is ignored."), g->tgid, name);
}

static void report(struct tui *t, const struct target *g, const char *name, int e, size_t sent, size_t n)
{
	if (e == ESRCH)
		tui_status(t, ROLE_ERROR, _("cannot send SIG%s to %d (%s): it has exited"), name, g->tid, g->comm);
	else if (e)
		tui_status(t, ROLE_ERROR, _("cannot send SIG%s to %d (%s): %s"), name, g->tid, g->comm, strerror(e));
	else if (n == 1)
		tui_status(t, ROLE_STATUS, _("sent SIG%s to %d (%s)"), name, g->tid, g->comm);
	else
		tui_status(t, ROLE_STATUS, P_("sent SIG%s to %zu task", "sent SIG%s to %zu tasks", sent), name, sent);
}

/* One thread row: the whole process or that thread. */
static void kill_thread(struct tui *t, const struct target *g, int sig, const char *name, enum sig_default def)
{
	struct buf l1, l2, l3;
	buf_init(&l1);
	buf_init(&l2);
	buf_init(&l3);
	buf_addf(&l1, _("SIG%s to thread %d (%s) of process %d (%s)"), name, g->tid, g->comm, g->tgid, g->pcomm);
	default_action(&l2, sig, name, def, g);
	buf_adds(&l3, _("t: this thread only (tgkill)   p: the whole process (kill)   other keys: cancel"));
	const char *lines[] = {buf_str(&l1), buf_str(&l2), buf_str(&l3)};
	int key = tui_confirm(t, lines, 3);
	buf_free(&l1);
	buf_free(&l2);
	buf_free(&l3);
	if (key == 't' || key == 'T') {
		report(t, g, name, send_to(g, sig, true), 1, 1);
	} else if (key == 'p' || key == 'P') {
		struct target p = *g;
		p.tid = g->tgid;
		p.thread = false;
		p.start_ticks = TV_START_UNKNOWN;
		snprintf(p.comm, sizeof(p.comm), "%s", g->pcomm);
		report(t, &p, name, send_to(g, sig, false), 1, 1);
	}
}

static int choose_signal(struct tui *t, const char *title, size_t *which)
{
	struct menu m = {0};
	char *items[NSIGNALS];
	m.title = title;
	m.hint = _("Enter: send (asks first)   0-9: the signal's number   Esc: cancel");
	m.numeric = true;
	m.items = items;
	for (size_t i = 0; i < NSIGNALS; i++) {
		char line[32];
		snprintf(line, sizeof(line), "%2d %s", signals[i].sig, signals[i].name);
		items[m.n] = strdup(line);
		if (items[m.n]) {
			if (signals[i].sig == SIGTERM)
				m.sel = m.n; /* the polite default */
			m.n++;
		}
	}
	int choice = menu_run(t, &m);
	int sig = 0;
	/* items may have been skipped on allocation failure: map by text */
	for (size_t i = 0; choice >= 0 && i < NSIGNALS; i++)
		if (atoi(items[choice]) == signals[i].sig) {
			sig = signals[i].sig;
			*which = i;
		}
	for (size_t i = 0; i < m.n; i++)
		free(items[i]);
	return choice < 0 ? 0 : sig;
}

/*
 * The hosts' screen: the selected process or the tagged ones, each asked of
 * its host (hosts/act.h), which checks it is the same process (its start
 * time) before it sends the signal; the answers come on the status line.
 */
static void kill_remote(struct tui *t, struct fleet *f)
{
	const struct row *cur = tui_current(t);
	if (!t->tags.n && cur && cur->group) {
		/* TRANSLATORS: k on a host's own row, or one of its groups', on the hosts' screen */
		tui_status(t, ROLE_ERROR, "%s", _("select a process: a host's or a group's row is not signalled as a whole"));
		return;
	}
	struct target *v = NULL;
	size_t n = targets_collect(t, &v);
	for (size_t i = 0; i < n; i++) {
		if (v[i].thread) {
			/* TRANSLATORS: k on a thread row of another host */
			tui_status(t, ROLE_ERROR, "%s", _("a thread of another host is not signalled alone: select its process"));
			n = 0;
		} else if (v[i].start_ticks == TV_START_UNKNOWN) {
			/* TRANSLATORS: k on the hosts' screen: the host checks a process by its start time before it signals it */
			tui_status(t, ROLE_ERROR, _("the start time of process %d is not known: its host could not check it is the same"),
				   task_id_pid(v[i].tid));
			n = 0;
		}
	}
	size_t which = 0;
	int sig = n ? choose_signal(t, _("Send signal:"), &which) : 0;
	if (!sig) {
		free(v);
		return;
	}
	const char *name = signals[which].name;
	struct buf q;
	buf_init(&q);
	/* names are raw: the box sanitizes whatever it shows */
	if (n == 1)
		/* TRANSLATORS: k on the hosts' screen: the signal, PID, name and host */
		buf_addf(&q, _("Send SIG%s to process %d (%s) on %s? [y/N]"), name, task_id_pid(v[0].tid), v[0].comm,
			 f->names.v[task_id_host(v[0].tgid)]);
	else {
		buf_addf(&q, P_("Send SIG%s to %zu tagged process:", "Send SIG%s to %zu tagged processes:", n), name, n);
		for (size_t i = 0; i < n; i++)
			/* TRANSLATORS: one of the tagged processes on the hosts' screen: PID, name, host */
			buf_addf(&q, _(" %d (%s) on %s%s"), task_id_pid(v[i].tid), v[i].comm,
				 f->names.v[task_id_host(v[i].tgid)], i + 1 < n ? "," : "?");
		buf_adds(&q, _(" [y/N]"));
	}
	const char *line = buf_str(&q);
	int key = tui_confirm(t, &line, 1);
	buf_free(&q);
	if (key == 'y' || key == 'Y') {
		double now = clock_now(CLOCK_MONOTONIC);
		size_t asked = 0;
		const char *why = NULL;
		for (size_t i = 0; i < n && !why; i++) {
			struct act_req r = {ACT_SIGNAL, sig, task_id_pid(v[i].tgid), v[i].start_ticks};
			char what[160];
			/* TRANSLATORS: what a host is asked to do, in its answer on the status line */
			snprintf(what, sizeof(what), _("SIG%s to %d (%s)"), name, r.pid, v[i].comm);
			if (fleet_act(f, task_id_host(v[i].tgid), &r, what, now, &why) == 0)
				asked++;
		}
		if (why)
			/* TRANSLATORS: k on the hosts' screen: %zu of %zu processes were not asked of their hosts, and why */
			tui_status(t, ROLE_ERROR, P_("SIG%s: %zu of %zu process not sent: %s", "SIG%s: %zu of %zu processes not sent: %s",
						     n), name, n - asked, n, why);
		else
			/* TRANSLATORS: k on the hosts' screen, until the hosts answer */
			tui_status(t, ROLE_STATUS, P_("SIG%s: %zu process asked of its host, waiting for the answer",
						      "SIG%s: %zu processes asked of their hosts, waiting for the answers", asked),
				   name, asked);
	}
	free(v);
}

void dialog_kill(struct tui *t)
{
	struct fleet *f = tui_fleet_live(t);
	if (f) {
		kill_remote(t, f);
		return;
	}
	/* TRANSLATORS: F9 or k in a replay (-r) */
	if (tui_replay_refuse(t, _("a replay cannot send signals: its tasks are the recording's, not running ones")))
		return;
	/* remember the targets now: the rows change with the next sample */
	struct target *v = NULL;
	size_t n = targets_collect(t, &v);
	if (n == 0) {
		free(v);
		return;
	}
	size_t which = 0;
	char title[160];
	const struct row *cur = tui_current(t);
	/* the group of the selected row, when its processes are the targets; its
	 * name is copied: the rows change with the next sample */
	char group[256] = "", gpath[256] = "";
	if (!t->tags.n && cur && cur->group) {
		snprintf(group, sizeof(group), "%s", cur->group->task.cgroup->unit);
		snprintf(gpath, sizeof(gpath), "%s", cur->group->task.cgroup->path);
	}
	if (group[0])
		/* TRANSLATORS: title of the signal menu on a control group's row; %s is its name */
		snprintf(title, sizeof(title), P_("Send signal to the %zu process of %s:", "Send signal to the %zu processes of %s:", n),
			 n, group);
	else if (t->tags.n)
		snprintf(title, sizeof(title), P_("Send signal to %zu tagged task:", "Send signal to %zu tagged tasks:", n), n);
	else
		snprintf(title, sizeof(title), "%s", _("Send signal:"));
	int sig = choose_signal(t, title, &which);
	if (!sig) {
		free(v);
		return;
	}
	const char *name = signals[which].name;
	if (n == 1 && v[0].thread) {
		kill_thread(t, &v[0], sig, name, signals[which].def);
		free(v);
		return;
	}
	struct buf q;
	buf_init(&q);
	bool threads = false;
	/* names are raw: the box sanitizes whatever it shows */
	if (group[0]) {
		/* a group's processes are listed, as many as fit */
		buf_addf(&q, P_("Send SIG%s to the %zu process of control group %s (%s):",
				"Send SIG%s to the %zu processes of control group %s (%s):", n), name, n, group, gpath);
		size_t shown = n > 12 ? 10 : n;
		for (size_t i = 0; i < shown; i++)
			buf_addf(&q, " %d (%s)%s", v[i].tid, v[i].comm, i + 1 < n ? "," : "?");
		if (shown < n)
			/* TRANSLATORS: after the first PIDs of a control group in the signal confirmation */
			buf_addf(&q, P_(" and %zu more?", " and %zu more?", n - shown), n - shown);
		buf_adds(&q, _(" [y/N]"));
	} else if (n == 1) {
		buf_addf(&q, _("Send SIG%s to process %d (%s)? [y/N]"), name, v[0].tid, v[0].comm);
	} else {
		buf_addf(&q, P_("Send SIG%s to %zu tagged task:", "Send SIG%s to %zu tagged tasks:", n), name, n);
		for (size_t i = 0; i < n; i++) {
			buf_addf(&q, " %d (%s)%s", v[i].tid, v[i].comm, i + 1 < n ? "," : "?");
			threads |= v[i].thread;
		}
		buf_adds(&q, _(" [y/N]"));
	}
	struct buf note;
	buf_init(&note);
	if (threads)
		buf_adds(&note, _("Tagged threads get it with tgkill; a default action that ends or stops still takes their whole process."));
	else if (group[0])
		buf_adds(&note, _("These are the group's processes shown at the last refresh, those of its nested groups "
				  "included; one hidden by a filter, or that joined the group since, does not get the signal."));
	const char *lines[] = {buf_str(&note), buf_str(&q)};
	int key = note.len ? tui_confirm(t, lines, 2) : tui_confirm(t, lines + 1, 1);
	buf_free(&note);
	buf_free(&q);
	if (key == 'y' || key == 'Y') {
		size_t sent = 0;
		int first = 0;
		const struct target *bad = &v[0];
		for (size_t i = 0; i < n; i++) {
			int e = send_to(&v[i], sig, v[i].thread);
			if (!e)
				sent++;
			else if (!first) {
				first = e;
				bad = &v[i];
			}
		}
		report(t, first ? bad : &v[0], name, first, sent, n);
	}
	free(v);
}
