/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A complete plugin using every part of the ABI: state, begin/end hooks, all
 * value types, rows. Also built out of tree against the installed SDK.
 */
#include <stdlib.h>
#include <string.h>

#include <taskview/plugin.h>

enum { COL_TID, COL_COMM, COL_HALF, COL_PCT, COL_KIND, COL_REFRESH };

struct hello_state {
	int64_t refreshes;
};

static const struct taskview_column hello_columns[] = {
	[COL_TID] = {.id = "hello.tid", .header = "HTID", .type = TASKVIEW_TYPE_INTEGER, .width = 7},
	[COL_COMM] = {.id = "hello.comm", .header = "HCOMM", .type = TASKVIEW_TYPE_STRING, .width = 16,
	              .description = "The task's name, upper-cased"},
	[COL_HALF] = {.id = "hello.half", .header = "HALF", .type = TASKVIEW_TYPE_FLOAT},
	[COL_PCT] = {.id = "hello.pct", .header = "PCT", .type = TASKVIEW_TYPE_PERCENT},
	[COL_KIND] = {.id = "hello.thread_only", .header = "THR", .type = TASKVIEW_TYPE_INTEGER,
	              .rows = TASKVIEW_ROWS_THREAD},
	[COL_REFRESH] = {.id = "hello.refreshes", .header = "REFR", .type = TASKVIEW_TYPE_INTEGER,
	                 .flags = TASKVIEW_COLUMN_COUNTER},
};

static int32_t hello_init(const struct taskview_host *host, void **state)
{
	(void)host;
	struct hello_state *s = (struct hello_state *)calloc(1, sizeof(*s));
	if (!s)
		return -12; /* -ENOMEM */
	*state = s;
	return 0;
}

static void hello_free(void *state)
{
	free(state);
}

static void hello_begin(void *state, const struct taskview_host *host)
{
	(void)host;
	((struct hello_state *)state)->refreshes++;
}

static void hello_collect(void *state, const struct taskview_host *host,
                          const struct taskview_task *task, struct taskview_values *values)
{
	const struct hello_state *s = (const struct hello_state *)state;
	int32_t tid = host->task_tid(task);
	host->set_int(values, COL_TID, tid);
	if (host->wanted(values, COL_COMM)) {
		char name[80];
		strncpy(name, host->task_comm(task), sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		for (char *p = name; *p; p++)
			if (*p >= 'a' && *p <= 'z')
				*p = (char)(*p - 'a' + 'A');
		host->set_string(values, COL_COMM, name);
	}
	host->set_float(values, COL_HALF, tid / 2.0);
	host->set_float(values, COL_PCT, 12.5);
	host->set_int(values, COL_KIND, host->task_is_thread(task));
	host->set_int(values, COL_REFRESH, s->refreshes);
}

static const struct taskview_plugin hello_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "hello",
	.description = "Test plugin: every value type",
	.columns = hello_columns,
	.ncolumns = sizeof(hello_columns) / sizeof(hello_columns[0]),
	.column_size = sizeof(struct taskview_column),
	.collect = hello_collect,
	.init = hello_init,
	.free_state = hello_free,
	.begin = hello_begin,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &hello_plugin;
}
