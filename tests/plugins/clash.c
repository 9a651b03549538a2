/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Another plugin named "oom": its column id clashes with the shipped oom plugin's. */
#include <taskview/plugin.h>

static void clash_collect(void *state, const struct taskview_host *host,
                          const struct taskview_task *task, struct taskview_values *values)
{
	(void)state, (void)host, (void)task, (void)values;
}

static const struct taskview_column clash_columns[] = {
	{.id = "oom.score", .header = "OOM", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct taskview_plugin clash_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "oom",
	.columns = clash_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = clash_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &clash_plugin;
}
