/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "view/rows.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/group.h"
#include "view/rows_priv.h"
#include "view/sort.h"

bool view_threads_shown(const struct view_opts *vo, const struct tv_task *proc)
{
	if (!proc->threads_are_rows)
		return false;
	return vo->all_threads || (vo->expanded && vo->expanded(vo->expanded_ctx, proc->tgid));
}

bool view_wants(const struct view_opts *vo, const struct tv_task *proc)
{
	const struct filter *f = vo->filter;
	bool listed = f && f->npids && filter_wants_pid(f, proc->tgid);
	if (vo->hide_kthreads && proc->kthread && !listed)
		return false;
	const struct tv_cgroup *g = proc->cgroup;
	return filter_wants_uid(f, proc->uid) && filter_matches_task(f, proc) &&
	       filter_matches_cgroup(f, g ? g->path : NULL, g ? g->unit : NULL);
}

/* A process's thread rows follow it when it is unfolded, unless its one
 * thread is its leader: that row would only repeat the process's. */
bool rows_show_threads(const struct view_opts *vo, const struct tv_task *p)
{
	if (!view_threads_shown(vo, p) || p->nthreads_read == 0)
		return false;
	return p->nthreads_read > 1 || p->threads[0].tid != p->tgid;
}

struct row *rows_push(struct builder *b, const struct tv_task *t, bool is_thread)
{
	struct row *r = &b->out->v[b->out->n++];
	memset(r, 0, sizeof(*r));
	r->task = t;
	r->is_thread = is_thread;
	return r;
}

int rows_push_threads(struct builder *b, const struct tv_task *p, bool tree, unsigned depth, uint32_t rails,
		      bool children_follow)
{
	for (size_t j = 0; j < p->nthreads_read; j++)
		b->threads[j] = &p->threads[j];
	sort_tasks(b->threads, p->nthreads_read, b->col, b->desc);
	for (size_t j = 0; j < p->nthreads_read; j++) {
		struct row *r = rows_push(b, b->threads[j], true);
		r->last_thread = j + 1 == p->nthreads_read;
		r->tree = tree;
		r->depth = depth;
		r->rails = rails;
		r->last = r->last_thread && !children_follow;
	}
	return 0;
}

void rows_flat(struct builder *b, const struct tv_task **procs, size_t n)
{
	sort_tasks(procs, n, b->col, b->desc);
	for (size_t i = 0; i < n; i++) {
		const struct tv_task *p = procs[i];
		bool shown = rows_show_threads(b->vo, p);
		struct row *r = rows_push(b, p, false);
		r->unfolded = shown;
		if (shown)
			rows_push_threads(b, p, false, 1, 0, false);
	}
}

/* Whether t lies in v[0..n): by address, t may be in another array. */
static bool within(const struct tv_task *t, const struct tv_task *v, size_t n)
{
	uintptr_t a = (uintptr_t)t, lo = (uintptr_t)v;
	return v && a >= lo && a < lo + n * sizeof(*v);
}

const struct tv_ended *rows_ended_part(const struct snapshot *s, const struct tv_task *t)
{
	return s->ended && within(t, s->gone, s->ngone) ? &s->ended[t - s->gone] : NULL;
}

/* Whether s lists its ended processes apart from the processes (live; a replay lists them among them). */
static bool rows_ended_apart(const struct snapshot *s)
{
	return s->ended && s->ngone && !within(s->gone, s->procs, s->nprocs);
}

/* ---- the process tree ---- */

struct tree {
	const struct tv_task **kids;   /* children of each node, grouped by parent */
	size_t *first, *count;         /* by snapshot index */
	bool *wanted, *visited;
	const struct tv_task *base;    /* s->procs */
	const struct snapshot *s;
	const struct view_opts *vo;
	size_t *ended;                 /* the ended processes listed apart, by parent (rows_ended_apart) */
	size_t nended;
	bool ended_left_out;           /* a process may have ended unseen, or its part is not derived */
};

static int cmp_ended_ppid(const void *a, const void *b, void *ctx)
{
	const struct tv_task *g = ctx;
	int32_t x = g[*(const size_t *)a].ppid, y = g[*(const size_t *)b].ppid;
	return (x > y) - (x < y);
}

/* What the ended children of p (listed apart) did in the interval, those the view shows. */
static void tree_sum_ended(const struct tree *tr, const struct tv_task *p, struct group_sum *g)
{
	const struct tv_task *gone = tr->s->gone;
	size_t lo = 0, hi = tr->nended;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gone[tr->ended[mid]].ppid < p->tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct filter *f = tr->vo->filter;
	for (size_t i = lo; i < tr->nended && gone[tr->ended[i]].ppid == p->tgid; i++) {
		const struct tv_task *e = &gone[tr->ended[i]];
		if (view_wants(tr->vo, e))
			group_sum_add_ended(g, &tr->s->ended[tr->ended[i]]);
		else if (!e->cgroup && f && f->cgroup)
			group_sum_short_of_ended(g); /* in no group known: it may be in one the filter keeps */
	}
}

static size_t tree_id(const struct tree *tr, const struct tv_task *p)
{
	return (size_t)(p - tr->base);
}

/* Adds every process of p's subtree (p included) to g; marks them visited. */
static int tree_sum(struct tree *tr, const struct tv_task *p, struct group_sum *g)
{
	size_t cap = 16, n = 0;
	const struct tv_task **stack = malloc(cap * sizeof(*stack));
	if (!stack)
		return -1;
	stack[n++] = p;
	tr->visited[tree_id(tr, p)] = true;
	while (n) {
		const struct tv_task *t = stack[--n];
		const struct tv_ended *part = rows_ended_part(tr->s, t);
		if (part)
			group_sum_add_ended(g, part); /* a replay's: its part, not its own rates */
		else
			group_sum_add(g, t);
		tree_sum_ended(tr, t, g);
		size_t id = tree_id(tr, t);
		for (size_t k = 0; k < tr->count[id]; k++) {
			const struct tv_task *c = tr->kids[tr->first[id] + k];
			if (tr->visited[tree_id(tr, c)])
				continue;
			tr->visited[tree_id(tr, c)] = true;
			if (n == cap) {
				const struct tv_task **ns = realloc(stack, 2 * cap * sizeof(*stack));
				if (!ns) {
					free(stack);
					return -1;
				}
				stack = ns;
				cap *= 2;
			}
			stack[n++] = c;
		}
	}
	free(stack);
	return 0;
}

static bool tree_done(void *ctx, const struct tv_task *p)
{
	const struct tree *tr = ctx;
	return tr->visited[tree_id(tr, p)];
}

/* A process, its threads when unfolded, then its children, or its
 * subtree's sums when collapsed. */
static int tree_visit(void *ctx, struct builder *b, const struct tv_task *p, const struct walk_at *at,
		      const struct tv_task ***kids, size_t *nkids)
{
	struct tree *tr = ctx;
	size_t id = tree_id(tr, p);
	bool has_kids = tr->count[id] > 0;
	bool collapsed = has_kids && b->vo->collapsed && b->vo->collapsed(b->vo->collapsed_ctx, p->tgid);
	const struct tv_task *shown = p;
	if (collapsed) {
		struct group_sum g;
		group_sum_init(&g);
		if (tree_sum(tr, p, &g) < 0)
			return -1;
		if (tr->ended_left_out)
			group_sum_short_of_ended(&g);
		struct tv_mem *m = &b->out->sum_mems[b->out->nsums];
		struct tv_task *sum = &b->out->sums[b->out->nsums++];
		*sum = *p;
		group_sum_apply(&g, sum);
		*m = *task_mem(p); /* borrows its stacks, as the copy does */
		group_sum_io(&g, m, &sum->partial);
		sum->mem = m;
		sum->mem_own = false;
		shown = sum;
	}
	tr->visited[id] = true;
	bool threads = !collapsed && rows_show_threads(b->vo, p);
	struct row *r = rows_push_at(b, shown, at);
	r->unfolded = threads;
	r->has_children = has_kids;
	r->collapsed = collapsed;
	if (threads)
		rows_push_threads(b, p, true, at->inner, at->below, has_kids && !collapsed);
	if (has_kids && !collapsed) {
		*kids = &tr->kids[tr->first[id]];
		*nkids = tr->count[id];
	}
	return 0;
}

static const struct walk_ops tree_ops = {.done = tree_done, .visit = tree_visit};

static int rows_tree(struct builder *b, const struct snapshot *s, const struct tv_task **procs, size_t n)
{
	size_t np = s->nprocs;
	struct tree tr = {.base = s->procs, .s = s, .vo = b->vo,
			  .ended_left_out = !s->exits_watched || s->exits_lost > 0 || (s->ngone && !s->ended)};
	if (rows_ended_apart(s) && !(tr.ended = malloc(s->ngone * sizeof(*tr.ended))))
		return -1;
	for (size_t i = 0; tr.ended && i < s->ngone; i++)
		tr.ended[tr.nended++] = i;
	if (tr.nended > 1)
		qsort_r(tr.ended, tr.nended, sizeof(*tr.ended), cmp_ended_ppid, (void *)s->gone);
	tr.kids = malloc((n ? n : 1) * sizeof(*tr.kids));
	tr.first = calloc(np ? np : 1, sizeof(*tr.first));
	tr.count = calloc(np ? np : 1, sizeof(*tr.count));
	tr.wanted = calloc(np ? np : 1, sizeof(*tr.wanted));
	tr.visited = calloc(np ? np : 1, sizeof(*tr.visited));
	size_t *parent = malloc((np ? np : 1) * sizeof(*parent));
	const struct tv_task **roots = malloc((n ? n : 1) * sizeof(*roots));
	int rc = -1;
	if (!tr.kids || !tr.first || !tr.count || !tr.wanted || !tr.visited || !parent || !roots)
		goto out;
	for (size_t i = 0; i < n; i++)
		tr.wanted[tree_id(&tr, procs[i])] = true;
	/* a parent outside the view (filtered, gone, PID 0) makes a root */
	size_t nroots = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tv_task *p = procs[i];
		const struct tv_task *pp = p->ppid != p->tgid ? snapshot_find(s, p->ppid) : NULL;
		size_t id = tree_id(&tr, p);
		parent[id] = pp && tr.wanted[tree_id(&tr, pp)] ? tree_id(&tr, pp) : SIZE_MAX;
		if (parent[id] == SIZE_MAX)
			roots[nroots++] = p;
		else
			tr.count[parent[id]]++;
	}
	size_t at = 0;
	for (size_t id = 0; id < np; id++) {
		tr.first[id] = at;
		at += tr.count[id];
		tr.count[id] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		size_t id = tree_id(&tr, procs[i]);
		if (parent[id] != SIZE_MAX)
			tr.kids[tr.first[parent[id]] + tr.count[parent[id]]++] = procs[i];
	}
	/* siblings in the order of the sort column */
	sort_tasks(roots, nroots, b->col, b->desc);
	for (size_t id = 0; id < np; id++)
		if (tr.count[id] > 1)
			sort_tasks(&tr.kids[tr.first[id]], tr.count[id], b->col, b->desc);
	if (rows_walk(b, roots, nroots, &tree_ops, &tr) < 0)
		goto out;
	/* a cycle of parents (PIDs reused between reads) has no root: its
	 * members follow as roots of their own */
	for (size_t i = 0; i < n; i++)
		if (!tr.visited[tree_id(&tr, procs[i])] && rows_walk(b, &procs[i], 1, &tree_ops, &tr) < 0)
			goto out;
	rc = 0;
out:
	free(tr.ended);
	free(tr.kids);
	free(tr.first);
	free(tr.count);
	free(tr.wanted);
	free(tr.visited);
	free(parent);
	free(roots);
	return rc;
}

int rows_build(const struct snapshot *s, const struct view_opts *vo, struct rows *out)
{
	memset(out, 0, sizeof(*out));
	struct builder b = {.vo = vo, .out = out};
	b.col = &vo->cs->cols[vo->sort_col];
	b.desc = b.col->sort_descending != vo->reverse;
	size_t total = 0, nsel = 0, maxthreads = 0;
	const struct tv_task **procs = malloc((s->nprocs ? s->nprocs : 1) * sizeof(*procs));
	if (!procs)
		return -1;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct tv_task *p = &s->procs[i];
		if (!view_wants(vo, p))
			continue;
		procs[nsel++] = p;
		total++;
		if (rows_show_threads(vo, p)) {
			total += p->nthreads_read;
			if (p->nthreads_read > maxthreads)
				maxthreads = p->nthreads_read;
		}
	}
	/* a row for each control group at most */
	if (vo->groups)
		total += s->ncgroups;
	out->v = malloc((total ? total : 1) * sizeof(*out->v));
	b.threads = malloc((maxthreads ? maxthreads : 1) * sizeof(*b.threads));
	bool tree = vo->tree && !vo->groups;
	if (tree) {
		out->sums = malloc((nsel ? nsel : 1) * sizeof(*out->sums));
		out->sum_mems = malloc((nsel ? nsel : 1) * sizeof(*out->sum_mems));
	}
	if (!out->v || !b.threads || (tree && (!out->sums || !out->sum_mems)))
		goto fail;
	if (vo->groups) {
		if (rows_groups(&b, s, procs, nsel) < 0)
			goto fail;
	} else if (tree) {
		if (rows_tree(&b, s, procs, nsel) < 0)
			goto fail;
	} else {
		rows_flat(&b, procs, nsel);
	}
	free(b.threads);
	free(procs);
	return 0;
fail:
	free(b.threads);
	free(procs);
	rows_free(out);
	return -1;
}

void rows_free(struct rows *r)
{
	free(r->v);
	free(r->sums);
	free(r->sum_mems);
	for (size_t i = 0; i < r->ngroups; i++)
		task_release(&r->groups[i].task, 0);
	free(r->groups);
	free(r->members);
	memset(r, 0, sizeof(*r));
}
