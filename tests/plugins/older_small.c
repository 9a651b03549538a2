/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A plugin as an older ABI 1.x header would have built it: the descriptor
 * ends at collect and the columns lack align and rows. taskview must load it,
 * reading the missing fields as zero.
 */
#include <stddef.h>

#include <taskview/plugin.h>

struct old_column {
	const char *id;
	const char *header;
	const char *description;
	uint32_t type;
	uint32_t flags;
	uint32_t width;
};

struct old_plugin {
	uint32_t struct_size;
	uint16_t abi_major;
	uint16_t abi_minor;
	const char *name;
	const char *description;
	const struct old_column *columns;
	uint32_t ncolumns;
	uint32_t column_size;
	void (*collect)(void *state, const struct taskview_host *host,
	                const struct taskview_task *task, struct taskview_values *values);
};

static void old_collect(void *state, const struct taskview_host *host,
                        const struct taskview_task *task, struct taskview_values *values)
{
	(void)state;
	host->set_int(values, 0, host->task_tid(task));
	host->set_int(values, 1, 1);
}

static const struct old_column old_columns[] = {
	{"old.tid", "OLDTID", "The task's ID, from an old plugin", TASKVIEW_TYPE_INTEGER, 0, 7},
	{"old.ticks", "OLDTCK", "A counter that grows by one per refresh", TASKVIEW_TYPE_INTEGER, TASKVIEW_COLUMN_COUNTER, 0},
};

static const struct old_plugin old_plugin = {
	sizeof(struct old_plugin), TASKVIEW_PLUGIN_ABI_MAJOR, 0, "old", NULL,
	old_columns, 2, sizeof(struct old_column), old_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	/* the host reads only struct_size bytes of what we return */
	return (const struct taskview_plugin *)(const void *)&old_plugin;
}
