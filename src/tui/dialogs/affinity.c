/* SPDX-License-Identifier: GPL-2.0-or-later */
/* a: the CPUs the selected task may run on, shown as a list to tick, and
 * set with sched_setaffinity. A process row sets every thread of the
 * process (an affinity belongs to a thread); a thread row, that thread. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "tui/dialogs/dialogs.h"
#include "tui/rows/each_thread.h"
#include "tui/dialogs/menu.h"
#include "tui/screen/screen.h"
#include "tui/screen/status.h"
#include "tui/timeline.h"
#include "tui/view.h"
#include "util/i18n.h"

/* The CPUs a mask can name: those the kernel was configured for. */
static size_t cpus_max(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? (size_t)n : 1;
}

struct mask {
	size_t size;
	const cpu_set_t *set;
};

static int affinity_set(int32_t tid, const void *arg)
{
	const struct mask *m = arg;
	return sched_setaffinity(tid, m->size, m->set) < 0 ? errno : 0;
}

static void item_set(char **item, size_t cpu, bool on)
{
	char line[48];
	snprintf(line, sizeof(line), "[%c] CPU %zu", on ? 'x' : ' ', cpu);
	char *s = strdup(line);
	if (s) {
		free(*item);
		*item = s;
	}
}

/* The ticked CPUs into set; how many. */
static size_t ticked(char **items, size_t n, cpu_set_t *set, size_t size)
{
	CPU_ZERO_S(size, set);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (items[i][1] == 'x') {
			CPU_SET_S(i, size, set);
			k++;
		}
	return k;
}

static void affinity_report(struct tui *t, int32_t tid, const char *comm, bool thread, size_t k, int e)
{
	if (e == EPERM)
		tui_status(t, ROLE_ERROR,
			   _("cannot set the CPU affinity of %d (%s): it belongs to another user; that needs CAP_SYS_NICE (root)"),
			   tid, comm);
	else if (e == EINVAL)
		tui_status(t, ROLE_ERROR, _("cannot set the CPU affinity of %d (%s): none of these CPUs is allowed to it (its cpuset)"),
			   tid, comm);
	else if (e == ESRCH)
		tui_status(t, ROLE_ERROR, _("cannot set the CPU affinity of %d (%s): it has exited"), tid, comm);
	else if (e)
		tui_status(t, ROLE_ERROR, _("cannot set the CPU affinity of %d (%s): %s"), tid, comm, strerror(e));
	else if (thread)
		tui_status(t, ROLE_STATUS, P_("thread %d (%s) may now run on %zu CPU", "thread %d (%s) may now run on %zu CPUs", k),
			   tid, comm, k);
	else
		tui_status(t, ROLE_STATUS,
			   P_("process %d (%s), all its threads, may now run on %zu CPU",
			      "process %d (%s), all its threads, may now run on %zu CPUs", k),
			   tid, comm, k);
}

void dialog_affinity(struct tui *t)
{
	/* TRANSLATORS: a in a replay (-r) */
	if (tui_replay_refuse(t, _("a replay cannot change CPU affinity: its tasks are the recording's, not running ones")))
		return;
	const struct row *r = tui_current(t);
	if (!r)
		return;
	if (r->group) {
		tui_status(t, ROLE_ERROR, "%s", _("a control group has no CPU affinity of its own: select one of its processes"));
		return;
	}
	int32_t tid = r->task->tid, tgid = r->task->tgid;
	bool thread = r->is_thread;
	char comm[TV_COMM_MAX];
	snprintf(comm, sizeof(comm), "%s", task_comm(r->task));

	size_t ncpu = cpus_max();
	size_t size = CPU_ALLOC_SIZE(ncpu);
	cpu_set_t *set = CPU_ALLOC(ncpu);
	char **items = calloc(ncpu, sizeof(*items));
	if (!set || !items)
		goto out;
	if (sched_getaffinity(tid, size, set) < 0) {
		affinity_report(t, tid, comm, thread, 0, errno);
		goto out;
	}
	for (size_t i = 0; i < ncpu; i++) {
		item_set(&items[i], i, CPU_ISSET_S(i, size, set));
		if (!items[i])
			goto out;
	}
	char title[160];
	if (thread)
		/* TRANSLATORS: title of the affinity menu (a) on a thread's row */
		snprintf(title, sizeof(title), _("CPUs thread %d (%s) may run on:"), tid, comm);
	else
		/* TRANSLATORS: title of the affinity menu (a) */
		snprintf(title, sizeof(title), _("CPUs process %d (%s) may run on:"), tid, comm);
	struct menu m = {0};
	m.title = title;
	m.hint = _("Space: tick or untick   a: all   Enter: set   Esc: cancel");
	m.items = items;
	m.n = ncpu;
	for (;;) {
		tui_paint(t);
		menu_paint(t, &m);
		int key = tui_dialog_key();
		if (key == TUI_KEY_QUIT || key == 27 || key == 'q' || key == KEY_F(10))
			break;
		if (key == ERR || menu_navigate(&m, key, 10))
			continue;
		m.title = title;
		if (key == ' ') {
			item_set(&items[m.sel], m.sel, items[m.sel][1] != 'x');
			if (m.sel + 1 < m.n)
				m.sel++;
		} else if (key == 'a') {
			bool all = ticked(items, ncpu, set, size) == ncpu;
			for (size_t i = 0; i < ncpu; i++)
				item_set(&items[i], i, !all);
		} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
			size_t k = ticked(items, ncpu, set, size);
			if (k == 0) {
				/* in the title: the menu covers the status line */
				m.title = _("Tick at least one CPU (Space), or Esc to leave it as it is:");
				continue;
			}
			struct mask mask = {size, set};
			int e = thread ? affinity_set(tid, &mask) : tui_each_thread(tgid, affinity_set, &mask);
			affinity_report(t, tid, comm, thread, k, e);
			break;
		}
	}
out:
	for (size_t i = 0; items && i < ncpu; i++)
		free(items[i]);
	free(items);
	if (set)
		CPU_FREE(set);
}
