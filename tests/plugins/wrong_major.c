/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Exports the v1 entry but its descriptor claims ABI major 2. */
#include <taskview/plugin.h>

static void wm_collect(void *state, const struct taskview_host *host,
                       const struct taskview_task *task, struct taskview_values *values)
{
	(void)state, (void)host, (void)task, (void)values;
}

static const struct taskview_column wm_columns[] = {
	{.id = "wm.x", .header = "X", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct taskview_plugin wm_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = 2,
	.abi_minor = 0,
	.name = "wm",
	.columns = wm_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = wm_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &wm_plugin;
}
