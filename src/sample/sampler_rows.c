/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What only the rows on screen need: a thread row's state, nice and
 * priority (from its stat), and command lines from the cache.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "sample/cmdline.h"
#include "sample/proc_read.h"
#include "sample/sampler_priv.h"

static void thread_details(int procfd, struct tv_task *t, struct sampler_io *io)
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
	/* the same thread, unless its ID was reused since it was sampled; a
	 * start time taken from taskstats (switch or delay columns) is an
	 * estimate from the reply's age, a tick or two off stat's */
	if (t->start_ticks != TV_START_UNKNOWN &&
	    (st.start_ticks + SAMPLER_START_SLACK < t->start_ticks || st.start_ticks > t->start_ticks + SAMPLER_START_SLACK))
		return;
	t->state = st.state;
	t->nice = st.nice;
	t->prio = st.prio;
	task_set_comm(t, st.comm, sizeof(st.comm));
}

void sampler_fill_one(struct sampler *s, struct tv_task *t, struct sampler_io *io)
{
	if (t->is_thread) {
		if (!t->details_read)
			thread_details(s->procfd, t, io);
		return;
	}
	/* again now and then while shown: programs rewrite their arguments */
	free(t->cmdline);
	t->cmdline = NULL;
	sampler_cmdline_fill(s->cmd, t, SAMPLER_CMDLINE_AGE);
}

void sampler_fill_rows(struct sampler *s, struct tv_task *const *tasks, size_t n, unsigned needs)
{
	for (size_t i = 0; i < n; i++) {
		struct tv_task *t = tasks[i];
		if (t->is_thread ? (needs & NEED_TSTAT) : (needs & NEED_CMDLINE))
			sampler_fill_one(s, t, NULL);
	}
}
