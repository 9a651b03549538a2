/* SPDX-License-Identifier: GPL-2.0-or-later */
/* s: traces the selected task's system calls with strace, on the terminal
 * with the screen put away, until Esc, q or Ctrl-C; then back to the screen. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui/dialogs/dialogs.h"
#include "tui/screen/status.h"
#include "tui/timeline.h"
#include "tui/view.h"
#include "util/i18n.h"

/* The first executable "strace" in PATH; false when there is none. */
static bool find_strace(char *out, size_t n)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		if (len && snprintf(out, n, "%.*s/strace", (int)len, path) < (int)n && access(out, X_OK) == 0)
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

/* kernel.yama.ptrace_scope, or 0 where Yama is not built in. */
static int ptrace_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	int v = 0;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

void dialog_trace(struct tui *t)
{
	/* TRANSLATORS: s in a replay (-r) */
	if (tui_replay_refuse(t, _("a replay cannot trace: its tasks are the recording's, not running ones")))
		return;
	const struct row *r = tui_current(t);
	if (!r)
		return;
	if (r->group) {
		tui_status(t, ROLE_ERROR, "%s", _("a control group cannot be traced: select one of its processes"));
		return;
	}
	char path[4096];
	if (!find_strace(path, sizeof(path))) {
		tui_status(t, ROLE_ERROR, "%s", _("s traces with strace, which is not installed (not found in PATH)"));
		return;
	}
	int32_t tid = r->task->tid;
	bool thread = r->is_thread;
	char comm[TV_COMM_MAX];
	snprintf(comm, sizeof(comm), "%s", task_comm(r->task));
	/* say why before strace does, in words */
	bool root = geteuid() == 0;
	int scope = ptrace_scope();
	if (scope >= 3) {
		tui_status(t, ROLE_ERROR, _("cannot trace %d (%s): tracing is switched off (kernel.yama.ptrace_scope = 3)"), tid, comm);
		return;
	}
	if (!root && r->task->uid != (int64_t)geteuid()) {
		tui_status(t, ROLE_ERROR, _("cannot trace %d (%s): it belongs to another user (needs root)"), tid, comm);
		return;
	}
	if (!root && scope >= 1) {
		tui_status(t, ROLE_ERROR,
			   _("cannot trace %d (%s): kernel.yama.ptrace_scope = %d lets only root trace a task it did not start"),
			   tid, comm, scope);
		return;
	}
	char id[16];
	snprintf(id, sizeof(id), "%d", (int)tid);
	/* a process row: all its threads (-f with -p takes them all); a thread row: that thread */
	char *argv[] = {"strace", thread ? "-p" : "-fp", id, NULL};
	char before[256], after[256];
	/* the task's name is raw: the terminal is not the screen here, so only the number */
	snprintf(before, sizeof(before), _("taskview: tracing %d with strace; Esc, q or Ctrl-C stops\n"), (int)tid);
	snprintf(after, sizeof(after), "%s", _("taskview: strace ended; press Enter to return\n"));
	int st = term_run(path, argv, before, after);
	if (st < 0)
		tui_status(t, ROLE_ERROR, _("cannot run %s: %s"), path, strerror(-st));
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		tui_status(t, ROLE_ERROR, _("strace could not trace %d (%s): exit status %d (it said why)"), tid, comm,
			   WEXITSTATUS(st));
	else
		tui_status(t, ROLE_STATUS, _("traced %d (%s)"), tid, comm);
}
