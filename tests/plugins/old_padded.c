/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An ABI 1.0 plugin whose structures carry garbage where 1.0 declares nothing:
 * the padding at the end of each column (where a field appended by a later
 * minor would go), and bytes past the fields, inside struct_size and
 * column_size (as in a plugin that embeds them in larger structures of its own).
 * taskview must read only the fields of 1.0 and load it.
 */
#include <stddef.h>
#include <string.h>

#include <taskview/plugin.h>

#define GARBAGE 0xAA
#define COLUMN_STRIDE (sizeof(struct taskview_column) + 16)
#define DESCRIPTOR_SIZE (sizeof(struct taskview_plugin) + 24)

static void oldpad_collect(void *state, const struct taskview_host *host,
                            const struct taskview_task *task, struct taskview_values *values)
{
	(void)state;
	host->set_int(values, 0, host->task_tid(task));
	host->set_string(values, 1, "old");
}

/* Stored byte by byte, so that no padding is ever written by the compiler. */
static unsigned char columns[2][COLUMN_STRIDE];
static unsigned char descriptor[DESCRIPTOR_SIZE];

#define PUT(base, type, field, value) \
	do { \
		__typeof__(((type *)0)->field) v_ = (value); \
		memcpy((base) + offsetof(type, field), &v_, sizeof(v_)); \
	} while (0)

static void put_column(unsigned char *c, const char *id, const char *header, uint32_t type)
{
	PUT(c, struct taskview_column, id, id);
	PUT(c, struct taskview_column, header, header);
	PUT(c, struct taskview_column, description, NULL);
	PUT(c, struct taskview_column, type, type);
	PUT(c, struct taskview_column, flags, 0);
	PUT(c, struct taskview_column, width, 6);
	PUT(c, struct taskview_column, align, TASKVIEW_ALIGN_DEFAULT);
	PUT(c, struct taskview_column, rows, TASKVIEW_ROWS_BOTH);
}

const struct taskview_plugin *taskview_plugin_v1(void)
{
	memset(columns, GARBAGE, sizeof(columns));
	memset(descriptor, GARBAGE, sizeof(descriptor));
	put_column(columns[0], "oldpad.tid", "GTID", TASKVIEW_TYPE_INTEGER);
	put_column(columns[1], "oldpad.tag", "GTAG", TASKVIEW_TYPE_STRING);
	unsigned char *d = descriptor;
	PUT(d, struct taskview_plugin, struct_size, (uint32_t)DESCRIPTOR_SIZE);
	PUT(d, struct taskview_plugin, abi_major, 1);
	PUT(d, struct taskview_plugin, abi_minor, 0);
	PUT(d, struct taskview_plugin, name, "oldpad");
	PUT(d, struct taskview_plugin, description, NULL);
	PUT(d, struct taskview_plugin, columns, (const struct taskview_column *)(const void *)columns);
	PUT(d, struct taskview_plugin, ncolumns, 2);
	PUT(d, struct taskview_plugin, column_size, (uint32_t)COLUMN_STRIDE);
	PUT(d, struct taskview_plugin, collect, oldpad_collect);
	PUT(d, struct taskview_plugin, init, NULL);
	PUT(d, struct taskview_plugin, free_state, NULL);
	PUT(d, struct taskview_plugin, begin, NULL);
	PUT(d, struct taskview_plugin, end, NULL);
	return (const struct taskview_plugin *)(const void *)descriptor;
}
