/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the row builders share (rows.c: the list and the process tree;
 * groups.c: the group view). Private to src/view. */
#ifndef TV_VIEW_ROWS_PRIV_H
#define TV_VIEW_ROWS_PRIV_H

#include "view/rows.h"

struct builder {
	const struct view_opts *vo;
	const struct column *col;
	bool desc;
	struct rows *out;
	const struct tv_task **threads; /* scratch for sorting one process's threads */
};

bool rows_show_threads(const struct view_opts *vo, const struct tv_task *p);
/* Appends a row (zeroed but for task and is_thread); out->v has room. */
struct row *rows_push(struct builder *b, const struct tv_task *t, bool is_thread);
/* The thread rows of p, sorted like the processes; depth/rails as in the tree. */
int rows_push_threads(struct builder *b, const struct tv_task *p, bool tree, unsigned depth, uint32_t rails,
		      bool children_follow);
/* The processes sorted, each followed by its threads when unfolded. */
void rows_flat(struct builder *b, const struct tv_task **procs, size_t n);
/* Where a row stands in a tree (walk.c). */
struct walk_at {
	unsigned depth;  /* at most ROW_DEPTH_MAX */
	unsigned inner;  /* the depth of the rows under it */
	uint32_t rails;  /* the levels above the row whose lines go on past it */
	uint32_t below;  /* the same for what is drawn under the row at its level */
	bool last;       /* no sibling is drawn after it */
};

struct walk_ops {
	/* optional: t is drawn already (skipped, and no sibling to draw a line to) */
	bool (*done)(void *ctx, const struct tv_task *t);
	/* pushes t's rows; sets *kids, *nkids to what follows it one level
	 * down (none: 0). Returns 0, or -1 when out of memory. */
	int (*visit)(void *ctx, struct builder *b, const struct tv_task *t, const struct walk_at *at,
		     const struct tv_task ***kids, size_t *nkids);
};

/* Appends a process or group row where at says. */
struct row *rows_push_at(struct builder *b, const struct tv_task *t, const struct walk_at *at);
/* Depth-first from the nodes of top. Returns 0, or -1 when out of memory. */
int rows_walk(struct builder *b, const struct tv_task **top, size_t ntop, const struct walk_ops *ops, void *ctx);
/* t's part of the interval when it is one of s's processes that ended in it
 * (a replay lists them among the processes), else NULL. */
const struct tv_ended *rows_ended_part(const struct snapshot *s, const struct tv_task *t);
/* The group view (groups.c). Returns 0 or -1 (out of memory). */
int rows_groups(struct builder *b, const struct snapshot *s, const struct tv_task **procs, size_t n);

#endif
