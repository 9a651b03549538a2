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
/* The group view (groups.c). Returns 0 or -1 (out of memory). */
int rows_groups(struct builder *b, const struct snapshot *s, const struct tv_task **procs, size_t n);

#endif
