/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The content of the per-task detail panel, as plain label/value lines. */
#ifndef TV_RENDER_DETAIL_H
#define TV_RENDER_DETAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/task.h"
#include "view/rows.h"

enum detail_kind {
	DETAIL_HEADING, /* a section title in label; value is NULL */
	DETAIL_ROW,     /* label and value */
	DETAIL_NOTE,    /* one sentence in label explaining the section above; value is NULL */
};

/*
 * Labels and values are translated, NUL-terminated and owned by the list.
 * They hold text taskview wrote itself, except the note under "Command
 * line": the task's raw command line. A renderer must sanitize them all.
 */
struct detail_line {
	enum detail_kind kind;
	char *label;
	char *value;
};

struct detail_lines {
	struct detail_line *v;
	size_t n, cap;
	bool oom; /* an allocation failed: the list is incomplete */
};

void detail_lines_init(struct detail_lines *l);
void detail_lines_free(struct detail_lines *l);
/* Appends a copy of label and value (NULL but for DETAIL_ROW); sets oom on failure. */
void detail_add(struct detail_lines *l, enum detail_kind kind, const char *label, const char *value);

/*
 * Replaces the content of out with the details of one row: task (IDs,
 * state, CPU time, start), every delay class (interval %, interval average,
 * events in the interval, cumulative count and total, max and min), memory
 * and context switches, then a process's command line when it was read.
 * Unknown figures read "-".
 *
 * t:         the task as sampled, with the derived fields delta_apply() set.
 * prev:      the same task in the previous sample, or NULL; used only for
 *            the number of events in the interval, and ignored unless its
 *            tid and start time match t's.
 * interval:  seconds between the two samples (<= 0 when there is none).
 * is_thread: the row is a thread row (normally t->is_thread). Process rows
 *            carry sums over the thread group: their max/min are unknown.
 * partial_why: a sentence saying why values marked + lack a part in this
 *            refresh (exit records lost, or not read and why), or NULL.
 */
void detail_build(const struct tv_task *t, const struct tv_task *prev, double interval, bool is_thread,
		  const char *partial_why, struct detail_lines *out);

/*
 * Replaces the content of out with the details of a control group's row:
 * its path, name, processes and threads, the sums of its processes (CPU,
 * delays, switches), its own memory and pressure (avg10 and the share of
 * the interval), and why what is unknown is.
 */
void detail_build_group(const struct row_group *g, double interval, const char *partial_why,
			struct detail_lines *out);

/* A size for a sentence: "72 KiB", "12 MiB", "7.9 GiB". */
void detail_size_words(char *out, size_t n, int64_t kib);
/* Appends a row of a size: "1.5G (1572864 KiB)", or "-" when unknown. */
void detail_kib_row(struct detail_lines *l, const char *label, int64_t kib);

/*
 * Appends a process's address space by kind (from its maps, read while the
 * panel is open): a sentence first, then a row for each kind and what of it
 * is resident, and what a fork copies of the page tables. err: why maps
 * could not be read (an errno), or 0. a NULL: not read yet (it is read off
 * the screen's thread).
 */
struct anatomy;
struct anatomy_pages;
void detail_anatomy(const struct anatomy *a, const struct anatomy_pages *pg, int err, const struct tv_task *t,
		    struct detail_lines *out);
/* The same section when it was not read, for why (raw bytes: another host's words). */
void detail_anatomy_why(const char *why, struct detail_lines *out);

/* Appends a process's command line as a note; nothing when it was not read. */
void detail_command(const struct tv_task *t, struct detail_lines *out);

#endif
