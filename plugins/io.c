/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io: bytes a task made the storage layer read and write (/proc/PID/io). An example of a
 * plugin: taskview's own io_read_rate and io_write_rate columns read the same counters. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <taskview/plugin.h>

/* Marks a column description for taskview's catalog: the host translates it when shown. */
#define N_(s) s

enum { COL_READ, COL_WRITE, COL_CANCELLED };

static const struct taskview_column io_columns[] = {
	[COL_READ] = {
		.id = "io.read_rate", .header = "READ/s", .width = 7,
		.description = N_("Bytes per second fetched from storage (read_bytes of /proc/PID/io)"),
		.type = TASKVIEW_TYPE_BYTES, .flags = TASKVIEW_COLUMN_COUNTER,
	},
	[COL_WRITE] = {
		.id = "io.write_rate", .header = "WRITE/s", .width = 7,
		.description = N_("Bytes per second sent towards storage, counted when pages are dirtied (write_bytes)"),
		.type = TASKVIEW_TYPE_BYTES, .flags = TASKVIEW_COLUMN_COUNTER,
	},
	[COL_CANCELLED] = {
		.id = "io.cancelled", .header = "CANCWR", .width = 6,
		.description = N_("Bytes of dirtied page cache that were never written, e.g. truncated (cancelled_write_bytes)"),
		.type = TASKVIEW_TYPE_BYTES,
	},
};

/* Value of "key: N" in the io file; INT64_MIN (unknown) when absent. */
static int64_t io_field(const char *text, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = text; *p;) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			char *end;
			errno = 0;
			long long v = strtoll(p + klen + 1, &end, 10);
			/* past int64 it would read as the largest value: unknown instead */
			return end == p + klen + 1 || errno == ERANGE ? INT64_MIN : (int64_t)v;
		}
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	return INT64_MIN;
}

static void io_collect(void *state, const struct taskview_host *host,
                       const struct taskview_task *task, struct taskview_values *values)
{
	(void)state;
	char buf[512];
	/* EACCES on other users' processes: leave every column unknown */
	if (host->read_file(task, "io", buf, sizeof(buf)) <= 0)
		return;
	host->set_int(values, COL_READ, io_field(buf, "read_bytes"));
	host->set_int(values, COL_WRITE, io_field(buf, "write_bytes"));
	host->set_int(values, COL_CANCELLED, io_field(buf, "cancelled_write_bytes"));
}

static const struct taskview_plugin io_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = "io",
	.description = "Storage I/O per task from /proc/PID/io",
	.columns = io_columns,
	.ncolumns = sizeof(io_columns) / sizeof(io_columns[0]),
	.column_size = sizeof(struct taskview_column),
	.collect = io_collect,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
	return &io_plugin;
}
