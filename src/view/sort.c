/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "view/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cgroup.h"

/*
 * A task with its sort key, read once: a comparison sort asks for each
 * task's value about log2(n) times, and a column's value is not free (a
 * plugin's, a rate's). Compares exactly as value_compare does.
 */
struct sort_item {
	const struct tv_task *t;
	union {
		int64_t i;
		double f;
		const char *s;
	} u;
	enum tv_value_kind kind;
};

static struct sort_item item_of(const struct column *col, const struct tv_task *t)
{
	struct tv_value v = column_value(col, t);
	struct sort_item it = {.t = t, .kind = v.kind};
	if (v.kind == TV_V_INT)
		it.u.i = v.i;
	else if (v.kind == TV_V_FLOAT)
		it.u.f = v.f;
	else if (v.kind == TV_V_STR)
		it.u.s = v.s;
	return it;
}

static double item_float(const struct sort_item *x)
{
	return x->kind == TV_V_INT ? (double)x->u.i : x->u.f;
}

static int item_compare(const struct sort_item *x, const struct sort_item *y)
{
	if (x->kind == TV_V_STR || y->kind == TV_V_STR)
		return strcmp(x->kind == TV_V_STR ? x->u.s : "", y->kind == TV_V_STR ? y->u.s : "");
	if (x->kind == TV_V_INT && y->kind == TV_V_INT)
		return (x->u.i > y->u.i) - (x->u.i < y->u.i);
	double a = item_float(x), b = item_float(y);
	return (a > b) - (a < b);
}

static int sort_cmp(const void *a, const void *b, void *arg)
{
	bool descending = *(const bool *)arg;
	const struct sort_item *x = a, *y = b;
	bool ux = x->kind == TV_V_UNKNOWN, uy = y->kind == TV_V_UNKNOWN;
	int c;
	if (ux || uy)
		c = ux - uy; /* unknown last in both directions */
	else
		c = descending ? -item_compare(x, y) : item_compare(x, y);
	if (c == 0 && x->t->is_group && y->t->is_group)
		c = strcmp(x->t->cgroup->path, y->t->cgroup->path);
	if (c == 0)
		c = (x->t->tid > y->t->tid) - (x->t->tid < y->t->tid);
	return c;
}

/* The order without keys read once, where memory for them is short. */
static int sort_cmp_direct(const void *a, const void *b, void *arg)
{
	const struct column *col = ((const void *const *)arg)[0];
	const struct sort_item x = item_of(col, *(const struct tv_task *const *)a);
	const struct sort_item y = item_of(col, *(const struct tv_task *const *)b);
	return sort_cmp(&x, &y, ((void *const *)arg)[1]);
}

void sort_tasks(const struct tv_task **v, size_t n, const struct column *col, bool descending)
{
	if (n < 2)
		return;
	struct sort_item *items = malloc(n * sizeof(*items));
	if (!items) {
		const void *arg[2] = {col, &descending};
		qsort_r(v, n, sizeof(*v), sort_cmp_direct, arg);
		return;
	}
	for (size_t i = 0; i < n; i++)
		items[i] = item_of(col, v[i]);
	qsort_r(items, n, sizeof(*items), sort_cmp, &descending);
	for (size_t i = 0; i < n; i++)
		v[i] = items[i].t;
	free(items);
}
