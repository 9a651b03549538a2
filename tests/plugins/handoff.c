/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loads with a thread of its own: init hands 100 ms of work to a worker and
 * waits for it, as a plugin that warms a cache in the background would. Kept
 * off the CPUs, its helper's main thread sleeps in the join while the worker
 * waits for a CPU: starved, not hung. It breaks no rule and must load.
 */
#include <pthread.h>
#include <time.h>

#include <taskview/plugin.h>

static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *work(void *arg)
{
	double end = thread_cpu_ms() + 2 * TASKVIEW_PLUGIN_BUDGET_MS;
	while (thread_cpu_ms() < end)
		;
	return arg;
}

static int32_t handoff_init(const struct taskview_host *host, void **state)
{
	(void)host, (void)state;
	pthread_t th;
	if (pthread_create(&th, NULL, work, NULL) != 0)
		return -1;
	return pthread_join(th, NULL) == 0 ? 0 : -1;
}

static void handoff_collect(void *state, const struct taskview_host *host, const struct taskview_task *task,
                            struct taskview_values *values)
{
	(void)state;
	host->set_int(values, 0, host->task_tid(task));
}

static const struct taskview_column handoff_columns[] = {
	{.id = "handoff.value", .header = "HANDOFF", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct taskview_plugin handoff_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "handoff",
	.columns = handoff_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.init = handoff_init,
	.collect = handoff_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &handoff_plugin;
}
