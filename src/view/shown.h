/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a front shows of a recorded sample (batch replay and the replay
 * screen): the rates over the pair, the tasks alive at the sample, and after
 * them the tasks that ended in the interval, marked on their rows.
 */
#ifndef TV_VIEW_SHOWN_H
#define TV_VIEW_SHOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "model/column.h"
#include "model/snapshot.h"
#include "view/filter.h"
#include "view/rows.h"

/* A thread list with the exited threads after the live ones. */
struct shown_threads {
	struct tv_task *v;
	size_t nlive, n;
};

struct shown {
	struct snapshot s;          /* borrows from cur: valid while cur is */
	struct tv_task *procs;      /* live ones, then ended ones from nlive on */
	size_t nlive;
	struct tv_ended *ended;     /* the ended ones' parts (s.ended), or NULL */
	struct shown_threads *merged;
	size_t nmerged;
	/* shown_merge: a group per host, its row the host's, then the hosts'
	 * control groups, nested under their host's (s.cgroups points to them) */
	struct tv_cgroup *groups;
	struct tv_cgroup **group_list;
};

/*
 * Derives cur's rates from prev (delta_apply, exited_rates), then the
 * snapshot to show: the processes f selects (its PIDs, user and text as at
 * recording; NULL: all), the ended ones among them, and with threads each
 * process's exited threads under it (state X). Returns 0, or -1 when out of
 * memory (v is then freed).
 */
int shown_build(struct shown *v, struct snapshot *prev, struct snapshot *cur, const struct colset *cs,
		const struct filter *f, bool threads);
void shown_free(struct shown *v);

/*
 * The hosts' screen: the shown samples of n hosts (parts[i] of host i, named
 * names[i], NULL for a host with none) as one, to sort, filter and fold as
 * one table. Each task is a copy whose IDs carry its host's number
 * (task_id_on; the HOST column names it), its threads copied likewise (a
 * task whose ID cannot be a PID, past 2^22, is left out: it cannot carry its
 * host); live processes first, in host order, then the ended ones. Each host
 * is a group of its tasks ("/NAME", the group view's rows): its row sums its
 * processes and carries the host's own CPU time, memory in use, pressure,
 * CPUs and load (tv_cgroup.host and .about; unknown where its taskview does
 * not send them). The control groups a host's sample has (a remote asked for
 * --group cgroup) are nested under it ("/NAME/PATH"), its tasks in them. What only one host can say (times, the system's
 * counts and pressure) is left unknown in the whole. Borrows from the parts:
 * valid while they are. Returns 0, or -1 when out of memory (v is then
 * freed).
 */
int shown_merge(struct shown *v, const struct shown *const *parts, const char *const *names, size_t n);
/* Sets the exited mark of the rows built from v->s. */
void shown_mark(const struct shown *v, struct rows *rows);

#endif
