/* One refresh: every selected process, and the threads of those whose threads are read. */
#ifndef TV_MODEL_SNAPSHOT_H
#define TV_MODEL_SNAPSHOT_H

#include <stddef.h>

#include "model/task.h"

struct snapshot {
	double mono;            /* CLOCK_MONOTONIC seconds when the sample was taken */
	double wall;            /* unix time, for output */
	double boot_ticks;      /* CLOCK_BOOTTIME in clock ticks: tasks started later were born in the interval */
	struct tv_task *procs;  /* sorted by tgid */
	size_t nprocs;
	size_t npvals;          /* plugin slots in every task's pvals */
	bool ctxt_from_group;   /* process ctxt came from taskstats TGID replies */
	/* what was asked of the sampler: sample_opts.needs and .thread_names, so
	 * a view can tell whether this sample carries what it needs */
	unsigned needs;
	bool thread_names;
	/* the whole system, whatever the filter: for headers */
	size_t sys_procs, sys_threads, sys_running;
};

void snapshot_free(struct snapshot *s);
/* Binary search by tgid; NULL when absent. */
const struct tv_task *snapshot_find(const struct snapshot *s, int32_t tgid);
const struct tv_task *task_find_thread(const struct tv_task *proc, int32_t tid);

#endif
