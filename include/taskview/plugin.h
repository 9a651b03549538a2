/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * taskview column plugins: the whole ABI between taskview and a plugin.
 *
 * A plugin is a shared object exporting one function, taskview_plugin_v1,
 * that returns a static descriptor (struct taskview_plugin). The descriptor
 * names the plugin, declares its columns and points at its callbacks.
 * taskview hands the plugin a table of host functions (struct taskview_host);
 * a plugin links against nothing from taskview.
 *
 * Compatibility rules:
 * - The major version is part of the entry symbol's name. A change that
 *   breaks existing plugins gets a new major and a new entry symbol.
 * - Within a major, fields are only ever appended to the structures below,
 *   and each minor says which fields it has ("since 1.N" below). A plugin sets
 *   abi_minor to TASKVIEW_PLUGIN_ABI_MINOR of the header it was built with.
 * - taskview loads a plugin whose minor is at most its own and reads only the
 *   fields that minor declares, within struct_size bytes of the descriptor and
 *   column_size bytes of each column; every other field reads as zero. It
 *   never reads padding or bytes past the plugin's fields, so a field a later
 *   minor appends (into what is padding today) is zero for an older plugin,
 *   and an older plugin keeps working. A NULL callback means "not provided".
 * - A plugin built for a newer minor than taskview's is refused, with both
 *   versions named: it may rely on what this taskview lacks. Packages express
 *   this with a dependency on taskview-plugin-abi-MAJOR.MINOR (see
 *   taskview-plugins(7)); taskview-plugin.pc has the abi_major and abi_minor
 *   variables.
 * - Every field has a fixed width; a zeroed field always has a meaning.
 *
 * Where callbacks run: in a helper process that taskview starts from its own
 * binary, with the same user and privileges, one callback at a time. It has no
 * terminal: its standard input is /dev/null, its standard output and error go
 * to taskview. While in a callback a plugin must not
 * - write to stdout or stderr: the plugin is then disabled, and what it wrote
 *   is shown in the message that says so,
 * - take more CPU time than its budget: the callbacks of one plugin get, per
 *   refresh, 50 ms plus 50 us for each task it was called for
 *   (TASKVIEW_PLUGIN_BUDGET_MS, TASKVIEW_PLUGIN_BUDGET_US_PER_TASK; CPU time
 *   of the calling thread, callbacks summed, so waiting for a CPU on a busy
 *   machine does not count). A plugin over it in TASKVIEW_PLUGIN_BUDGET_REFRESHES
 *   refreshes in a row is disabled for the rest of the run and its columns
 *   show unknown,
 * - block: a plugin that has not answered after TASKVIEW_PLUGIN_DEADLINE_MS plus
 *   ten times its budget of wall-clock time counts as hung, unless it is
 *   waiting for a CPU and has run less than ten times its budget (a busy
 *   machine: it is then given up to a minute); so does one that crashes or
 *   exits. The helper is then killed and started again without it, and the
 *   plugin is disabled,
 * - change the locale, signal dispositions or signal masks, the working
 *   directory, or the process's credentials or resource limits,
 * - call exit(), abort() or fork(), or create threads that call back,
 * - keep a struct taskview_task or struct taskview_values pointer after the
 *   callback that received it returns.
 * The struct taskview_host pointer stays valid until free_state returns. A
 * plugin's state lasts as long as the helper: after a restart (because another
 * plugin failed) init runs again.
 *
 * This header compiles as C99/C11 and as C++.
 */
#ifndef TASKVIEW_PLUGIN_H
#define TASKVIEW_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TASKVIEW_PLUGIN_ABI_MAJOR 1
#define TASKVIEW_PLUGIN_ABI_MINOR 0

/*
 * CPU time a plugin's callbacks may take in one refresh, summed: a fixed part
 * plus a part per task collected, so that reading a /proc file or two per
 * task stays well inside it with tens of thousands of threads shown. A plugin
 * is disabled when over it in this many refreshes in a row.
 */
#define TASKVIEW_PLUGIN_BUDGET_MS 50
#define TASKVIEW_PLUGIN_BUDGET_US_PER_TASK 50
#define TASKVIEW_PLUGIN_BUDGET_REFRESHES 3
/* Wall-clock time after which a plugin that has not answered counts as hung,
 * plus ten times its budget of the refresh (of no task when loading). */
#define TASKVIEW_PLUGIN_DEADLINE_MS 3000

#if defined(__GNUC__) || defined(__clang__)
#define TASKVIEW_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define TASKVIEW_PLUGIN_EXPORT
#endif

/* One task (process row or thread row) during one callback. Opaque. */
struct taskview_task;
/* Where collect stores the values of one task. Opaque. */
struct taskview_values;

/* Value types of a column (struct taskview_column.type). 0 is not a type. */
enum taskview_type {
	TASKVIEW_TYPE_INTEGER = 1, /* set_int */
	TASKVIEW_TYPE_FLOAT = 2,   /* set_float */
	TASKVIEW_TYPE_BYTES = 3,   /* set_int; shown with human units */
	TASKVIEW_TYPE_PERCENT = 4, /* set_float; 100 = 100 % */
	TASKVIEW_TYPE_STRING = 5   /* set_string */
};

/* Rows a column has values on (struct taskview_column.rows). */
enum taskview_rows {
	TASKVIEW_ROWS_BOTH = 0,
	TASKVIEW_ROWS_PROCESS = 1,
	TASKVIEW_ROWS_THREAD = 2
};

/* Text alignment (struct taskview_column.align). */
enum taskview_align {
	TASKVIEW_ALIGN_DEFAULT = 0, /* strings left, numbers right */
	TASKVIEW_ALIGN_RIGHT = 1,
	TASKVIEW_ALIGN_LEFT = 2
};

/* Bits of struct taskview_column.flags. */
enum taskview_column_flag {
	/*
	 * The value is an ever-growing integer counter (INTEGER or BYTES).
	 * The plugin reports the raw counter; taskview shows the change per
	 * second over the real interval between two refreshes.
	 */
	TASKVIEW_COLUMN_COUNTER = 1u << 0
};

/* All fields since 1.0. */
struct taskview_column {
	/* Mandatory. "PLUGIN.COLUMN": the plugin's name, a dot, then
	 * [a-z0-9_], starting with a letter, at most 63 bytes in all. */
	const char *id;
	/* Mandatory. Short column title (ASCII, at most 31 bytes). */
	const char *header;
	/* Optional. One sentence for --list-columns and the help screen. */
	const char *description;
	uint32_t type;   /* mandatory: enum taskview_type */
	uint32_t flags;  /* enum taskview_column_flag bits */
	uint32_t width;  /* minimal width in cells; 0 = the header's width */
	uint32_t align;  /* enum taskview_align */
	uint32_t rows;   /* enum taskview_rows */
};

/* Handed to the plugin; all fields since 1.0. A plugin that uses a function
 * added by a later minor checks abi_minor (or struct_size) first. */
struct taskview_host {
	uint32_t struct_size; /* sizeof(struct taskview_host) of taskview */
	uint16_t abi_major;   /* ABI taskview implements */
	uint16_t abi_minor;
	const char *version;  /* taskview's version, e.g. "0.1.0" */

	/* The task's own ID: the thread ID on thread rows, the process ID on
	 * process rows. It names the task's /proc directory. */
	int32_t (*task_tid)(const struct taskview_task *task);
	/* The ID of the process the task belongs to (getpid() inside it). */
	int32_t (*task_tgid)(const struct taskview_task *task);
	/* 1 on thread rows, 0 on process rows. */
	int32_t (*task_is_thread)(const struct taskview_task *task);
	/* The task's name (comm), raw kernel bytes, NUL-terminated. */
	const char *(*task_comm)(const struct taskview_task *task);

	/*
	 * Reads the file NAME of the task's /proc directory (/proc/PID or
	 * /proc/PID/task/TID), e.g. "io" or "fdinfo/3", into BUF and
	 * NUL-terminates it. NAME is relative and has no ".." component.
	 * Returns the number of bytes stored (at most size - 1) or a negative
	 * errno: -ENOENT or -ESRCH when the task is gone, -EACCES or -EPERM
	 * when the file belongs to someone else, -EINVAL for a bad NAME.
	 */
	int64_t (*read_file)(const struct taskview_task *task, const char *name,
	                     char *buf, uint32_t size);
	/*
	 * Counts the entries of the directory NAME of the task's /proc
	 * directory (e.g. "fd"), without "." and "..". Returns the count or a
	 * negative errno as read_file does.
	 */
	int64_t (*count_entries)(const struct taskview_task *task, const char *name);

	/* In collect: 1 when column INDEX (into the plugin's columns) is shown
	 * and applies to this row. Values of other columns are ignored. */
	int32_t (*wanted)(const struct taskview_values *values, uint32_t index);
	/* Store the value of column INDEX for this task. A column left unset
	 * is unknown; so is INT64_MIN or NaN. Integer values are accepted by
	 * every numeric column; float values by FLOAT and PERCENT columns
	 * (and rounded for INTEGER and BYTES ones that are not counters).
	 * set_string copies the string; NULL means unknown. */
	void (*set_int)(struct taskview_values *values, uint32_t index, int64_t value);
	void (*set_float)(struct taskview_values *values, uint32_t index, double value);
	void (*set_string)(struct taskview_values *values, uint32_t index, const char *value);
};

/* All fields since 1.0. */
struct taskview_plugin {
	uint32_t struct_size; /* sizeof(struct taskview_plugin) */
	uint16_t abi_major;   /* TASKVIEW_PLUGIN_ABI_MAJOR */
	uint16_t abi_minor;   /* TASKVIEW_PLUGIN_ABI_MINOR */

	/* Mandatory. [a-z0-9_], starting with a letter, at most 31 bytes;
	 * the prefix of every column id. */
	const char *name;
	/* Optional. One line saying what the plugin shows. */
	const char *description;

	/* Mandatory: at least one column. column_size is
	 * sizeof(struct taskview_column), the stride of the array. */
	const struct taskview_column *columns;
	uint32_t ncolumns;
	uint32_t column_size;

	/* Mandatory. Called for every task (row) on which at least one of the
	 * plugin's columns is wanted (shown or sorted by, and applying to the
	 * row); stores values with host->set_*. */
	void (*collect)(void *state, const struct taskview_host *host,
	                const struct taskview_task *task, struct taskview_values *values);
	/* Optional. Called once after loading, before any refresh. Returns 0,
	 * or a negative errno to refuse loading (after freeing what it
	 * allocated: free_state is then not called). *state is handed to every
	 * later callback (NULL unless set). */
	int32_t (*init)(const struct taskview_host *host, void **state);
	/* Optional. Called once before unloading; frees the state. */
	void (*free_state)(void *state);
	/* Optional. Called at the start and end of every refresh that shows
	 * one of the plugin's columns. */
	void (*begin)(void *state, const struct taskview_host *host);
	void (*end)(void *state, const struct taskview_host *host);
};

/* The entry point every plugin defines for ABI major 1. */
TASKVIEW_PLUGIN_EXPORT const struct taskview_plugin *taskview_plugin_v1(void);

#ifdef __cplusplus
}
#endif

#endif
