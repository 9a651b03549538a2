/* Sleeps past the per-refresh budget in collect: taskview must disable it. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include <taskview/plugin.h>

static void slow_collect(void *state, const struct taskview_host *host,
                         const struct taskview_task *task, struct taskview_values *values)
{
	(void)state, (void)task;
	struct timespec ts = {0, (TASKVIEW_PLUGIN_BUDGET_MS + 20) * 1000000L};
	nanosleep(&ts, NULL);
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
