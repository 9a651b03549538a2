/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Spends more CPU time than the per-refresh budget in collect, every refresh:
 * taskview must disable it after TASKVIEW_PLUGIN_BUDGET_REFRESHES refreshes.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include <taskview/plugin.h>

static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void slow_collect(void *state, const struct taskview_host *host,
                         const struct taskview_task *task, struct taskview_values *values)
{
	(void)state, (void)task;
	double end = thread_cpu_ms() + TASKVIEW_PLUGIN_BUDGET_MS + 20;
	while (thread_cpu_ms() < end)
		;
	host->set_int(values, 0, 1);
}

static const struct taskview_column slow_columns[] = {
	{.id = "slow.value", .header = "SLOW", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct taskview_plugin slow_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "slow",
	.columns = slow_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = slow_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &slow_plugin;
}
