/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oom: how the kernel's out-of-memory killer ranks a process. */
#include <errno.h>
#include <stdlib.h>

#include <taskview/plugin.h>

/* Marks a column description for taskview's catalog: the host translates it when shown. */
#define N_(s) s

enum { COL_SCORE, COL_ADJ };

static const struct taskview_column oom_columns[] = {
	[COL_SCORE] = {
		.id = "oom.score", .header = "OOM", .width = 4,
		.description = N_("OOM killer badness, 0 to 2000: the highest is killed first (oom_score)"),
		.type = TASKVIEW_TYPE_INTEGER, .rows = TASKVIEW_ROWS_PROCESS,
	},
	[COL_ADJ] = {
		.id = "oom.adj", .header = "OOMADJ", .width = 6,
		.description = N_("Adjustment added to the OOM score, -1000 (never kill) to 1000 (oom_score_adj)"),
		.type = TASKVIEW_TYPE_INTEGER, .rows = TASKVIEW_ROWS_PROCESS,
	},
};

/* A single decimal number file; INT64_MIN (unknown) when unreadable. */
static int64_t read_number(const struct taskview_host *host, const struct taskview_task *task, const char *name)
{
	char buf[32];
	if (host->read_file(task, name, buf, sizeof(buf)) <= 0)
		return INT64_MIN;
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	return end == buf || errno == ERANGE ? INT64_MIN : (int64_t)v;
}

static void oom_collect(void *state, const struct taskview_host *host,
                        const struct taskview_task *task, struct taskview_values *values)
{
	(void)state;
	if (host->wanted(values, COL_SCORE))
		host->set_int(values, COL_SCORE, read_number(host, task, "oom_score"));
	if (host->wanted(values, COL_ADJ))
		host->set_int(values, COL_ADJ, read_number(host, task, "oom_score_adj"));
}

static const struct taskview_plugin oom_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "oom",
	.description = "Out-of-memory killer score and adjustment",
	.columns = oom_columns,
	.ncolumns = sizeof(oom_columns) / sizeof(oom_columns[0]),
	.column_size = sizeof(struct taskview_column),
	.collect = oom_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &oom_plugin;
}
