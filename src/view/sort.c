#include "view/sort.h"

#include <stdlib.h>
#include <string.h>

#include "model/cgroup.h"

struct sort_key {
	const struct column *col;
	bool descending;
};

static int sort_cmp(const void *a, const void *b, void *arg)
{
	const struct sort_key *k = arg;
	const struct tv_task *x = *(const struct tv_task *const *)a;
	const struct tv_task *y = *(const struct tv_task *const *)b;
	struct tv_value vx = column_value(k->col, x), vy = column_value(k->col, y);
	bool ux = vx.kind == TV_V_UNKNOWN, uy = vy.kind == TV_V_UNKNOWN;
	int c;
	if (ux || uy)
		c = ux - uy; /* unknown last in both directions */
	else
		c = k->descending ? -value_compare(&vx, &vy) : value_compare(&vx, &vy);
	if (c == 0 && x->is_group && y->is_group)
		c = strcmp(x->cgroup->path, y->cgroup->path);
	if (c == 0)
		c = (x->tid > y->tid) - (x->tid < y->tid);
	return c;
}

void sort_tasks(const struct tv_task **v, size_t n, const struct column *col, bool descending)
{
	struct sort_key k = {col, descending};
	qsort_r(v, n, sizeof(*v), sort_cmp, &k);
}
