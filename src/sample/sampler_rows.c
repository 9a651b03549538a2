/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What only the rows on screen need: a thread row's state, nice and
 * priority (from its stat), and command lines from the cache. Filling sets
 * only what the snapshot's task lacks: it never frees what the snapshot
 * owns (rows and their copies borrow it until snapshot_free).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "sample/proc/cmdline.h"
#include "sample/proc/proc_read.h"
#include "sample/sampler_priv.h"

static void thread_details(int procfd, struct tv_task *t, double sampled_at, struct sampler_io *io)
{
	char path[64], buf[1024];
	struct proc_stat st;
	snprintf(path, sizeof(path), "%d/task/%d/stat", t->tgid, t->tid);
	if (io) {
		io->opens++;
		io->reads++;
	}
	t->details_read = true;
	ssize_t n = proc_read_at(procfd, path, buf, sizeof(buf));
	if (n < 0 || proc_parse_stat(buf, (size_t)n, &st) < 0)
		return;
	/* the same thread, unless its ID was reused since it was sampled: a
	 * thread that took the ID started after the sample began (sampled_at,
	 * in ticks after boot). A start time taken from taskstats (switch or
	 * delay columns) is an estimate from the reply's age, off by as long as
	 * the query took (long on a loaded machine): a start before the sample
	 * is the thread sampled, a later one must match the estimate */
	if (t->start_ticks != TV_START_UNKNOWN && (double)st.start_ticks > sampled_at &&
	    (st.start_ticks + SAMPLER_START_SLACK < t->start_ticks || st.start_ticks > t->start_ticks + SAMPLER_START_SLACK))
		return;
	t->state = st.state;
	t->nice = st.nice;
	t->prio = st.prio;
	/* a thread's name fits in line (TASK_COMM_LEN): nothing is freed */
	if (!t->comm_long)
		task_set_comm(t, st.comm, sizeof(st.comm));
}

void sampler_fill_one(struct sampler *s, struct tv_task *t, double sampled_at, struct sampler_io *io)
{
	if (t->is_thread) {
		if (!t->details_read)
			thread_details(s->procfd, t, sampled_at, io);
		return;
	}
	if (!t->cmdline) {
		sampler_cmdline_fill(s->cmd, t, SAMPLER_CMDLINE_AGE);
		return;
	}
	/* again now and then while shown (programs rewrite their arguments):
	 * the cache reads it again, the next sample takes it; the text held
	 * is the snapshot's and stays until snapshot_free */
	char *fresh = NULL;
	bool cut;
	(void)cmdline_get(s->cmd, t->tgid, t->start_ticks, task_comm(t), SAMPLER_CMDLINE_AGE, &fresh, &cut);
	free(fresh);
}

void sampler_fill_rows(struct sampler *s, struct snapshot *snap, const struct tv_task *const *tasks, size_t n,
		       unsigned needs)
{
	for (size_t i = 0; i < n; i++) {
		/* a row may show a copy (a collapsed subtree's sums): its
		 * strings are borrowed, so the snapshot's own task is filled */
		struct tv_task *t = snapshot_task(snap, tasks[i]);
		if (t && (t->is_thread ? (needs & NEED_TSTAT) : (needs & NEED_CMDLINE)))
			sampler_fill_one(s, t, snap->boot_ticks, NULL);
	}
}
