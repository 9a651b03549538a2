/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The group view: a level above the process. Each control group is a row
 * that sums the shown processes in it and in its nested groups (CPU,
 * switches, delays, with the model's rule for lower bounds) and carries the
 * group's own memory; under it come its own processes (each with its
 * threads when unfolded), then its nested groups, sorted like processes.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/group.h"
#include "view/rows_priv.h"
#include "view/sort.h"

#define NONE SIZE_MAX

struct gview {
	const struct snapshot *s;
	size_t ng;                 /* s->ncgroups */
	size_t *parent;            /* by snapshot group: its parent's index, or NONE */
	size_t *count;             /* shown processes in it and below */
	size_t *own;               /* shown processes in it */
	size_t *row;               /* its index in out->groups, or NONE when nothing of it is shown */
	/* what follows each group's row: its processes, then its nested groups */
	const struct tv_task **items;
	size_t *first, *nitems;
};

/* The index of a group in the snapshot's groups, or NONE when it is not one of them. */
static size_t group_index(const struct snapshot *s, const struct tv_cgroup *g)
{
	return g->index < s->ncgroups && s->cgroups[g->index] == g ? g->index : NONE;
}

/*
 * The group's CPU: its own cpu.stat where it has one (every task that ran in
 * it, those that lived less than a refresh too); else the sum of the
 * processes seen (a lower bound when one may be missing).
 */
static void group_cpu(struct tv_task *t, const struct tv_cgroup *cg)
{
	if (cg->cpu_usage_us == TV_UNKNOWN)
		return;
	t->cpu_pct = cg->cpu_pct;
	t->partial &= ~TV_PART_BIT(TV_PART_CPU);
	t->cpu_ns = cg->cpu_usage_us * 1000;
	t->cpu_fine = true;
}

/* The row's values: the sums of its members, the group's own CPU and memory. */
static void group_task(struct row_group *rg, const struct tv_cgroup *cg, const struct group_sum *sum, int64_t threads)
{
	struct tv_task *t = &rg->task;
	task_init(t);
	t->is_group = true;
	t->cgroup = cg;
	t->start_ticks = TV_START_UNKNOWN;
	group_sum_apply(sum, t);
	if (group_sum_has_io(sum)) {
		struct tv_mem *m = task_mem_mut(t);
		if (m)
			group_sum_io(sum, m, &t->partial);
	}
	group_cpu(t, cg);
	t->nthreads = threads;
	/* memory.current counts pages: whole KiB */
	struct tv_mem *m = cg->mem_bytes == TV_UNKNOWN && cg->swap_bytes == TV_UNKNOWN ? NULL : task_mem_mut(t);
	if (m) {
		m->rss = cg->mem_bytes == TV_UNKNOWN ? TV_UNKNOWN : cg->mem_bytes / 1024;
		m->swap = cg->swap_bytes == TV_UNKNOWN ? TV_UNKNOWN : cg->swap_bytes / 1024;
	}
	task_set_comm(t, cg->unit, strlen(cg->unit));
}

static int64_t threads_add(int64_t a, int64_t b)
{
	return a == TV_UNKNOWN || b == TV_UNKNOWN ? TV_UNKNOWN : a + b;
}

/*
 * Adds what the processes that ended in the interval did to the group each
 * was in, those the view shows. Returns whether one of them is left out of
 * every group: its group is not known, or its part was not derived.
 */
static bool gview_ended(const struct gview *v, struct group_sum *sum, const struct view_opts *vo)
{
	const struct snapshot *s = v->s;
	if (!s->ngone)
		return false;
	if (!s->ended)
		return true;
	bool left_out = false;
	for (size_t i = 0; i < s->ngone; i++) {
		const struct tv_task *g = &s->gone[i];
		size_t gi = g->cgroup ? group_index(s, g->cgroup) : NONE;
		if (gi == NONE) {
			/* in no group known: in any the view shows, for all that is known */
			left_out |= filter_wants_uid(vo->filter, g->uid) && filter_matches_task(vo->filter, g);
			continue;
		}
		if (view_wants(vo, g))
			group_sum_add_ended(&sum[gi], &s->ended[i]);
	}
	return left_out;
}

/* Each group's sums: its own processes and the parts of those that ended in
 * the interval, then, children before parents, its nested groups' (a parent's
 * path sorts before its children's). */
static int gview_sums(struct gview *v, struct builder *b, const struct tv_task **procs, size_t n, const size_t *pgi)
{
	struct group_sum *sum = calloc(v->ng, sizeof(*sum));
	int64_t *threads = calloc(v->ng, sizeof(*threads));
	if (!sum || !threads) {
		free(sum);
		free(threads);
		return -1;
	}
	const struct snapshot *s = v->s;
	for (size_t i = 0; i < n; i++) {
		if (pgi[i] == NONE)
			continue;
		group_sum_add(&sum[pgi[i]], procs[i]);
		threads[pgi[i]] = threads_add(threads[pgi[i]], procs[i]->nthreads);
	}
	bool left_out = gview_ended(v, sum, b->vo);
	/* a group without a row of its own may hold ended processes: its parent's sums have them */
	for (size_t g = v->ng; g-- > 0;) {
		size_t p = v->parent[g];
		if (p == NONE)
			continue;
		group_sum_merge(&sum[p], &sum[g]);
		threads[p] = threads_add(threads[p], threads[g]);
	}
	/* a process may have ended unseen (no exit records, or some dropped), or in no group known */
	bool short_of = !s->exits_watched || s->exits_lost > 0 || left_out;
	for (size_t g = 0; g < v->ng; g++) {
		if (v->row[g] == NONE)
			continue;
		if (short_of)
			group_sum_short_of_ended(&sum[g]);
		group_task(&b->out->groups[v->row[g]], v->s->cgroups[g], &sum[g], threads[g]);
	}
	free(sum);
	free(threads);
	return 0;
}

static void gview_free(struct gview *v)
{
	free(v->parent);
	free(v->count);
	free(v->own);
	free(v->row);
	free(v->items);
	free(v->first);
	free(v->nitems);
}

/* Members of every group (each process counts in its group and every
 * ancestor), the groups' rows and sums. pgi: each process's group. */
static int gview_members(struct gview *v, struct builder *b, const struct tv_task **procs, size_t n,
			 const size_t *pgi)
{
	struct rows *out = b->out;
	size_t total = 0, live = 0;
	for (size_t i = 0; i < n; i++) {
		if (pgi[i] == NONE)
			continue;
		v->own[pgi[i]]++;
		for (size_t g = pgi[i], hops = 0; g != NONE && hops < v->ng; g = v->parent[g], hops++) {
			v->count[g]++;
			total++;
		}
	}
	for (size_t g = 0; g < v->ng; g++)
		live += v->count[g] > 0;
	out->groups = calloc(live ? live : 1, sizeof(*out->groups));
	out->members = malloc((total ? total : 1) * sizeof(*out->members));
	if (!out->groups || !out->members)
		return -1;
	/* each live group's slice of members */
	size_t at = 0;
	for (size_t g = 0; g < v->ng; g++) {
		v->row[g] = NONE;
		if (!v->count[g])
			continue;
		struct row_group *rg = &out->groups[out->ngroups];
		v->row[g] = out->ngroups++;
		rg->members = &out->members[at];
		at += v->count[g];
	}
	for (size_t i = 0; i < n; i++)
		for (size_t g = pgi[i], hops = 0; g != NONE && hops < v->ng; g = v->parent[g], hops++) {
			struct row_group *rg = &out->groups[v->row[g]];
			out->members[(size_t)(rg->members - out->members) + rg->nmembers++] = procs[i];
		}
	return gview_sums(v, b, procs, n, pgi);
}

/* What follows each group's row, sorted: its own processes, then its
 * nested groups. Returns the top level in *top (roots, then processes
 * without a group), NULL when out of memory. */
static const struct tv_task **gview_items(struct gview *v, struct builder *b, const struct tv_task **procs,
					  size_t n, const size_t *pgi, size_t *ntop)
{
	struct rows *out = b->out;
	size_t k = out->ngroups;
	v->items = malloc((n + k ? n + k : 1) * sizeof(*v->items));
	v->first = calloc(k ? k : 1, sizeof(*v->first));
	v->nitems = calloc(k ? k : 1, sizeof(*v->nitems));
	const struct tv_task **top = malloc((n + k ? n + k : 1) * sizeof(*top));
	if (!v->items || !v->first || !v->nitems || !top) {
		free(top);
		return NULL;
	}
	/* room: each group's own processes and its live children */
	for (size_t g = 0; g < v->ng; g++) {
		if (v->row[g] == NONE)
			continue;
		v->nitems[v->row[g]] += v->own[g];
		size_t p = v->parent[g];
		if (p != NONE && v->row[p] != NONE)
			v->nitems[v->row[p]]++;
	}
	size_t at = 0;
	for (size_t r = 0; r < k; r++) {
		v->first[r] = at;
		at += v->nitems[r];
		v->nitems[r] = 0;
	}
	size_t nt = 0;
	for (size_t i = 0; i < n; i++) {
		if (pgi[i] == NONE)
			continue;
		size_t r = v->row[pgi[i]];
		v->items[v->first[r] + v->nitems[r]++] = procs[i];
	}
	for (size_t r = 0; r < k; r++)
		sort_tasks(&v->items[v->first[r]], v->nitems[r], b->col, b->desc);
	/* then the nested groups, sorted among themselves */
	for (size_t g = 0; g < v->ng; g++) {
		if (v->row[g] == NONE)
			continue;
		const struct tv_task *gt = &out->groups[v->row[g]].task;
		size_t p = v->parent[g];
		if (p != NONE && v->row[p] != NONE)
			v->items[v->first[v->row[p]] + v->nitems[v->row[p]]++] = gt;
		else
			top[nt++] = gt;
	}
	for (size_t r = 0; r < k; r++) {
		size_t nown = 0;
		while (nown < v->nitems[r] && !v->items[v->first[r] + nown]->is_group)
			nown++;
		sort_tasks(&v->items[v->first[r] + nown], v->nitems[r] - nown, b->col, b->desc);
	}
	sort_tasks(top, nt, b->col, b->desc);
	/* processes whose group is unknown come last, at the top level */
	size_t loose = nt;
	for (size_t i = 0; i < n; i++)
		if (pgi[i] == NONE)
			top[nt++] = procs[i];
	sort_tasks(&top[loose], nt - loose, b->col, b->desc);
	*ntop = nt;
	return top;
}

static size_t row_of(const struct rows *out, const struct tv_task *t)
{
	const struct row_group *rg = (const struct row_group *)(const void *)((const char *)t - offsetof(struct row_group, task));
	return (size_t)(rg - out->groups);
}

/* A process with its threads when unfolded, or a group and, unless it is
 * collapsed, what follows it. */
static int gview_visit(void *ctx, struct builder *b, const struct tv_task *t, const struct walk_at *at,
		       const struct tv_task ***kids, size_t *nkids)
{
	const struct gview *v = ctx;
	if (!t->is_group) {
		bool threads = rows_show_threads(b->vo, t);
		struct row *r = rows_push_at(b, t, at);
		r->unfolded = threads;
		if (threads)
			rows_push_threads(b, t, true, at->inner, at->below, false);
		return 0;
	}
	size_t k = row_of(b->out, t);
	bool has = v->nitems[k] > 0;
	bool collapsed = has && b->vo->group_collapsed &&
			 b->vo->group_collapsed(b->vo->group_collapsed_ctx, t->cgroup->path);
	struct row *r = rows_push_at(b, t, at);
	r->group = &b->out->groups[k];
	r->has_children = has;
	r->collapsed = collapsed;
	if (has && !collapsed) {
		*kids = &v->items[v->first[k]];
		*nkids = v->nitems[k];
	}
	return 0;
}

static const struct walk_ops gview_ops = {.visit = gview_visit};

int rows_groups(struct builder *b, const struct snapshot *s, const struct tv_task **procs, size_t n)
{
	if (s->ncgroups == 0) {
		/* the sample has no groups (not read, or no hierarchy): a list */
		rows_flat(b, procs, n);
		return 0;
	}
	struct gview v = {.s = s, .ng = s->ncgroups};
	size_t ng = v.ng;
	v.parent = malloc(ng * sizeof(*v.parent));
	v.count = calloc(ng, sizeof(*v.count));
	v.own = calloc(ng, sizeof(*v.own));
	v.row = malloc(ng * sizeof(*v.row));
	size_t *pgi = malloc((n ? n : 1) * sizeof(*pgi));
	const struct tv_task **top = NULL;
	int rc = -1;
	if (!v.parent || !v.count || !v.own || !v.row || !pgi)
		goto out;
	for (size_t g = 0; g < ng; g++) {
		const struct tv_cgroup *p = s->cgroups[g]->parent;
		v.parent[g] = p ? group_index(s, p) : NONE;
	}
	/* a process that ended (a replay lists them) is no member: its group's
	 * members are live, as live; its part is in the sums all the same */
	for (size_t i = 0; i < n; i++)
		pgi[i] = procs[i]->cgroup && !rows_ended_part(s, procs[i]) ? group_index(s, procs[i]->cgroup) : NONE;
	if (gview_members(&v, b, procs, n, pgi) < 0)
		goto out;
	size_t ntop = 0;
	top = gview_items(&v, b, procs, n, pgi, &ntop);
	if (!top || rows_walk(b, top, ntop, &gview_ops, &v) < 0)
		goto out;
	rc = 0;
out:
	free(top);
	free(pgi);
	gview_free(&v);
	return rc;
}
