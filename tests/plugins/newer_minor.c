/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Built as against a header one minor newer than the host's, whose descriptor
 * has one more field: taskview must refuse it and name both versions.
 */
#include <taskview/plugin.h>

struct newer_plugin {
	struct taskview_plugin base;
	uint32_t field_of_the_next_minor;
};

static void nm_collect(void *state, const struct taskview_host *host,
                       const struct taskview_task *task, struct taskview_values *values)
{
	(void)state, (void)host, (void)task, (void)values;
}

static const struct taskview_column nm_columns[] = {
	{.id = "nm.x", .header = "X", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct newer_plugin nm_plugin = {
	{
		.struct_size = sizeof(struct newer_plugin),
		.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
		.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR + 1,
		.name = "nm",
		.columns = nm_columns,
		.ncolumns = 1,
		.column_size = sizeof(struct taskview_column),
		.collect = nm_collect,
	},
	1,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &nm_plugin.base;
}
