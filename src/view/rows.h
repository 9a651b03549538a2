/* Flattening a snapshot into the rows to display, in order. */
#ifndef TV_VIEW_ROWS_H
#define TV_VIEW_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/column.h"
#include "model/snapshot.h"

struct row {
	const struct tv_task *task;
	bool is_thread;
	bool last_thread;     /* the last thread row of its process (tree glyphs) */
	bool unfolded;        /* process rows: its threads follow */
	bool exited;          /* a task that ended in the interval (a replay lists them) */
};

struct rows {
	struct row *v;
	size_t n;
};

struct view_opts {
	const struct colset *cs;
	int sort_col;        /* index into cs */
	bool reverse;        /* invert the column's default direction */
	bool all_threads;
	bool (*expanded)(void *ctx, int32_t tgid);
	void *expanded_ctx;
};

int rows_build(const struct snapshot *s, const struct view_opts *vo, struct rows *out);
void rows_free(struct rows *r);
bool view_threads_shown(const struct view_opts *vo, const struct tv_task *proc);

#endif
