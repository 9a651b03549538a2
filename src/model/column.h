/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The column table: the single place where a column is declared. */
#ifndef TV_MODEL_COLUMN_H
#define TV_MODEL_COLUMN_H

#include <stdbool.h>
#include <stddef.h>

#include "model/task.h"
#include "model/value.h"

enum col_type {
	COL_INT,      /* plain integer */
	COL_KIB,      /* memory in KiB, human units in text */
	COL_BYTES,    /* bytes, human units in text */
	COL_PERCENT,  /* float percent */
	COL_RATE,     /* float per second */
	COL_SECONDS,  /* float seconds */
	COL_MS,       /* float milliseconds */
	COL_FLOAT,
	COL_STATE,    /* single character */
	COL_STRING,
};

enum col_align { COL_ALIGN_RIGHT, COL_ALIGN_LEFT };

/* What a column costs to read; the sampler reads only what shown columns need. */
enum col_need {
	NEED_STAT    = 1u << 0, /* /proc/PID/stat (every process, always) */
	NEED_STATUS  = 1u << 1, /* /proc/PID/status of each shown process */
	NEED_CMDLINE = 1u << 2, /* /proc/PID/cmdline of each shown process */
	NEED_CTXT    = 1u << 3, /* process sums: taskstats TGID, else status of every thread */
	NEED_DELAY   = 1u << 4, /* taskstats query per shown task */
	NEED_USER    = 1u << 5, /* passwd lookup, cached per uid */
	NEED_PLUGIN  = 1u << 6, /* a plugin's own reads */
	NEED_TSTAT   = 1u << 7, /* thread rows: task/TID/stat of each thread row shown */
	NEED_CGROUP  = 1u << 8, /* each process's group (its group's cgroup.procs, or /proc/PID/cgroup) */
	NEED_CGROUP_MEM = 1u << 9, /* with NEED_CGROUP: each group's memory files, once */
	NEED_CGROUP_PSI = 1u << 10, /* with NEED_CGROUP: each group's pressure files, once */
	NEED_CGROUP_CPU = 1u << 11, /* with NEED_CGROUP: each group's cpu.stat, once (its CPU) */
	NEED_STACK   = 1u << 12, /* every thread's stack: its mapping found once, its pagemap each refresh */
	NEED_IO      = 1u << 13, /* /proc/PID/io of every selected process */
};

enum col_applies { COL_ROWS_BOTH, COL_ROWS_PROCESS, COL_ROWS_THREAD };

/* Whether a column has a value on the control-group rows of the group view;
 * zero (plugin columns among them) is unknown there. */
enum col_groups {
	COL_GROUP_NONE,  /* unknown on group rows (a process's own value) */
	COL_GROUP_TOO,   /* a sum of the members, or the group's own figure */
	COL_GROUP_ONLY,  /* a figure of the group itself: unknown on process and thread rows */
};

struct column;
typedef struct tv_value (*column_get_fn)(const struct column *col, const struct tv_task *t);

struct column {
	const char *id;
	const char *header;      /* untranslated; translate at render time */
	const char *desc;        /* untranslated */
	enum col_type type;
	int width;               /* minimal width; text may widen for translated headers */
	enum col_align align;
	bool sort_descending;    /* default direction when sorting by this column */
	bool shown_default;
	unsigned needs;          /* enum col_need bits */
	const char *cost;        /* one line for docs and --list-columns -v */
	column_get_fn get;
	int arg;                 /* delay class or plugin slot */
	enum col_applies applies;
	bool counter;            /* plugin counters become rates */
	int part;                /* enum tv_part + 1 when a value can be a lower bound, else 0 */
	enum col_groups groups;  /* its value on group rows */
	const char *const *names; /* HOST: the hosts' names by number (arg of them) */
};

/* The table of columns of one run: built-ins, then plugin columns appended. */
struct colset {
	struct column *cols;
	size_t n;
	size_t nbuiltin;
};

int colset_init(struct colset *cs);
void colset_free(struct colset *cs);
/* Appends a copy; strings must outlive the set. Returns its index or -1. */
int colset_add(struct colset *cs, const struct column *col);
/* HOST, the column of the hosts' screen (not a built-in: colset_add it): a
 * task's host is names[task_id_host(its ID)], n of them, borrowed. */
struct column column_host(const char *const *names, size_t n);
const struct column *colset_find(const struct colset *cs, const char *id);
int colset_index(const struct colset *cs, const char *id);

struct tv_value column_value(const struct column *col, const struct tv_task *t);

/* A list of columns chosen for display, as indices into a colset. */
struct colsel {
	int *idx;
	size_t n;
};

/* -o all: every column, built-in and from plugins */
#define COLSEL_ALL "all"

/* Parses "id,id,…" (whitespace around ids allowed; COLSEL_ALL adds every
 * column not listed before it). On error returns -1 and sets *bad to a
 * malloc'd copy of the offending id. */
int colsel_parse(const struct colset *cs, const char *list, struct colsel *out, char **bad);
int colsel_default(const struct colset *cs, struct colsel *out);
void colsel_free(struct colsel *sel);
bool colsel_has(const struct colsel *sel, int idx);
/* The group view's own columns (pressure of cpu, io and memory) added to a
 * selection chosen for the user, before its last column when that is a
 * name; those already there stay where they are. Returns 0 or -1. */
int colsel_add_group_columns(const struct colset *cs, struct colsel *sel);
unsigned colsel_needs(const struct colset *cs, const struct colsel *sel);
char *colset_ids_joined(const struct colset *cs); /* "pid, tgid, …", malloc'd */

#endif
