/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flattening a snapshot into the rows to display, in order. */
#ifndef TV_VIEW_ROWS_H
#define TV_VIEW_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/column.h"
#include "model/snapshot.h"
#include "view/filter.h"

/* Tree levels drawn; deeper rows are drawn at this depth. */
#define ROW_DEPTH_MAX 32

struct row_group;

/* Rows borrow: task points into the snapshot the rows were built from (or
 * into struct rows' own copies), valid until rows_free or snapshot_free,
 * whichever comes first; nothing is freed through it. */
struct row {
	const struct tv_task *task;
	/* the group view's control-group rows: their group and members; NULL
	 * on process and thread rows (task->is_group tells the same) */
	const struct row_group *group;
	uint32_t rails;       /* bit k: the ancestor at depth k + 1 has rows below: a line at level k */
	/* bit-fields: one row per thread shown, and a machine has many */
	unsigned depth : 8;   /* 0 for a root, else its parent's + 1 (at most ROW_DEPTH_MAX) */
	bool is_thread : 1;
	bool last_thread : 1; /* the last thread row of its process (tree glyphs) */
	bool unfolded : 1;    /* process rows: its threads follow */
	/* the process tree (view_opts.tree); all zero in the flat view */
	bool tree : 1;
	bool has_children : 1; /* child processes in the view */
	bool collapsed : 1;   /* they are hidden; task is a copy carrying their sums
	                         (a group row carries its sums, collapsed or not) */
	bool last : 1;        /* the last row under its parent */
	bool exited : 1;      /* a task that ended in the interval (a replay lists them) */
};
_Static_assert(ROW_DEPTH_MAX < 256, "struct row holds the depth in 8 bits");

/* A control group in the group view. */
struct row_group {
	/* the row's values: is_group set, cgroup the group, sums of the members'
	 * CPU, switches, delays and threads, the group's own memory */
	struct tv_task task;
	/* the processes it sums: the shown ones in it and in its nested groups,
	 * by tgid; they point into the snapshot */
	const struct tv_task *const *members;
	size_t nmembers;
};

struct rows {
	struct row *v;
	size_t n;
	/* copies of collapsed processes carrying their subtree's sums; rows
	 * point into it. Every pointer inside (threads, pvals, cmdline, the
	 * name) is borrowed from the snapshot: to fill a row in later, fill
	 * the snapshot's task (snapshot_task), never the copy. */
	struct tv_task *sums;
	size_t nsums;
	/* their memory blocks: the process's, with the subtree's I/O rates (a
	 * copy cannot write the block it borrows); sums[i].mem points here */
	struct tv_mem *sum_mems;
	/* the group view's groups (rows point into it) and their members */
	struct row_group *groups;
	size_t ngroups;
	const struct tv_task **members;
};

struct view_opts {
	const struct colset *cs;
	int sort_col;        /* index into cs */
	bool reverse;        /* invert the column's default direction */
	bool all_threads;
	bool (*expanded)(void *ctx, int32_t tgid);
	void *expanded_ctx;
	/* the user and the text of this filter select processes (its PIDs were
	 * the sampler's to apply); NULL: every process of the snapshot */
	const struct filter *filter;
	bool hide_kthreads;  /* except those whose PID the filter lists */
	bool tree;           /* processes under their parents */
	bool (*collapsed)(void *ctx, int32_t tgid); /* tree: subtrees hidden */
	void *collapsed_ctx;
	/* the group view: processes under their control group, nested groups
	 * under their parent (instead of the tree); needs a sample that read
	 * the groups (NEED_CGROUP), else the processes are listed flat */
	bool groups;
	bool (*group_collapsed)(void *ctx, const char *path); /* groups whose rows are hidden */
	void *group_collapsed_ctx;
};

int rows_build(const struct snapshot *s, const struct view_opts *vo, struct rows *out);
void rows_free(struct rows *r);
bool view_threads_shown(const struct view_opts *vo, const struct tv_task *proc);
/* Whether the view shows this process at all (filter, its control group, kernel threads). */
bool view_wants(const struct view_opts *vo, const struct tv_task *proc);

#endif
