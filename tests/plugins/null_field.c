/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A descriptor without its mandatory collect callback. */
#include <taskview/plugin.h>

static const struct taskview_column nf_columns[] = {
	{.id = "nf.x", .header = "X", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct taskview_plugin nf_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "nf",
	.columns = nf_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = 0,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &nf_plugin;
}
