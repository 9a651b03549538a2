/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Depth-first over a forest of rows, for the process tree and the group
 * view: the stack of levels, each row's depth, and the rails (the vertical
 * lines of the levels above a row that go on below it).
 */
#include <stdlib.h>

#include "view/rows_priv.h"

struct frame {
	const struct tv_task **list;
	size_t n, i;
};

/* The rails of the levels 1 .. d-1: level 0 has none. */
static uint32_t rails_above(uint32_t rails, unsigned d)
{
	uint32_t mask = d >= 2 ? (d - 1 >= 32 ? UINT32_MAX : ((1u << (d - 1)) - 1)) : 0;
	return rails & mask;
}

/* Whether no sibling after f->i will be drawn: then no line runs past this row. */
static bool walk_last(const struct frame *f, const struct walk_ops *ops, void *ctx)
{
	for (size_t k = f->i; k < f->n; k++)
		if (!ops->done || !ops->done(ctx, f->list[k]))
			return false;
	return true;
}

struct row *rows_push_at(struct builder *b, const struct tv_task *t, const struct walk_at *at)
{
	struct row *r = rows_push(b, t, false);
	r->tree = true;
	r->last = at->last;
	r->depth = at->depth;
	r->rails = at->rails;
	return r;
}

int rows_walk(struct builder *b, const struct tv_task **top, size_t ntop, const struct walk_ops *ops, void *ctx)
{
	size_t cap = 16, depth = 0;
	struct frame *st = malloc(cap * sizeof(*st));
	if (!st)
		return -1;
	st[0] = (struct frame){top, ntop, 0};
	uint32_t rails = 0;
	int rc = 0;
	for (;;) {
		struct frame *f = &st[depth];
		if (f->i == f->n) {
			if (depth == 0)
				break;
			depth--;
			continue;
		}
		const struct tv_task *t = f->list[f->i++];
		if (ops->done && ops->done(ctx, t))
			continue;
		struct walk_at at = {.last = walk_last(f, ops, ctx)};
		at.depth = depth < ROW_DEPTH_MAX ? (unsigned)depth : ROW_DEPTH_MAX;
		at.inner = at.depth < ROW_DEPTH_MAX ? at.depth + 1 : ROW_DEPTH_MAX;
		at.rails = rails_above(rails, at.depth);
		at.below = at.rails;
		if (at.depth >= 1 && at.depth - 1 < 32 && !at.last)
			at.below |= 1u << (at.depth - 1);
		const struct tv_task **kids = NULL;
		size_t nkids = 0;
		if (ops->visit(ctx, b, t, &at, &kids, &nkids) < 0) {
			rc = -1;
			break;
		}
		if (nkids == 0)
			continue;
		if (depth + 1 == cap) {
			struct frame *ns = realloc(st, 2 * cap * sizeof(*st));
			if (!ns) {
				rc = -1;
				break;
			}
			st = ns;
			cap *= 2;
		}
		st[++depth] = (struct frame){kids, nkids, 0};
		rails = at.below;
	}
	free(st);
	return rc;
}
