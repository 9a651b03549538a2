/* Built against a newer minor than the host provides: must be refused. */
#include <taskview/plugin.h>

static void nm_collect(void *state, const struct taskview_host *host,
                       const struct taskview_task *task, struct taskview_values *values)
{
	(void)state, (void)host, (void)task, (void)values;
}

static const struct taskview_column nm_columns[] = {
	{.id = "nm.x", .header = "X", .type = TASKVIEW_TYPE_INTEGER},
};

static const struct taskview_plugin nm_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR + 1,
	.name = "nm",
	.columns = nm_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = nm_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &nm_plugin;
}
