/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Declares the same column id twice. */
#include <taskview/plugin.h>

static void dup_collect(void *state, const struct taskview_host *host,
                        const struct taskview_task *task, struct taskview_values *values)
{
	(void)state, (void)host, (void)task, (void)values;
}

static const struct taskview_column dup_columns[] = {
	{.id = "dup.x", .header = "X", .type = TASKVIEW_TYPE_INTEGER},
	{.id = "dup.x", .header = "X2", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct taskview_plugin dup_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "dup",
	.columns = dup_columns,
	.ncolumns = 2,
	.column_size = sizeof(struct taskview_column),
	.collect = dup_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &dup_plugin;
}
