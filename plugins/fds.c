/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fds: open file descriptors of a process. */
#include <taskview/plugin.h>

/* Marks a column description for taskview's catalog: the host translates it when shown. */
#define N_(s) s

static const struct taskview_column fds_columns[] = {
	{
		.id = "fds.count", .header = "FDS", .width = 5,
		.description = N_("Open file descriptors (entries of /proc/PID/fd; needs permission to inspect the process)"),
		.type = TASKVIEW_TYPE_INTEGER, .rows = TASKVIEW_ROWS_PROCESS,
	},
};

static void fds_collect(void *state, const struct taskview_host *host,
                        const struct taskview_task *task, struct taskview_values *values)
{
	(void)state;
	int64_t n = host->count_entries(task, "fd");
	/* a negative errno (EACCES: not ours, ENOENT: gone) leaves it unknown */
	if (n >= 0)
		host->set_int(values, 0, n);
}

static const struct taskview_plugin fds_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "fds",
	.description = "Open file descriptors per process",
	.columns = fds_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = fds_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &fds_plugin;
}
