/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/copy.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int task_copy(struct tv_task *d, const struct tv_task *s, size_t npv);

static int list_copy(struct tv_task **dv, size_t *dn, const struct tv_task *sv, size_t sn, size_t npv)
{
	*dv = NULL;
	*dn = 0;
	if (!sn)
		return 0;
	if (!(*dv = calloc(sn, sizeof(**dv))))
		return -1;
	for (size_t i = 0; i < sn; i++) {
		task_init(&(*dv)[i]);
		(*dn)++;
		if (task_copy(&(*dv)[i], &sv[i], npv) < 0)
			return -1;
	}
	return 0;
}

static int task_copy(struct tv_task *d, const struct tv_task *s, size_t npv)
{
	*d = *s;
	d->cmdline = NULL;
	d->peaks = NULL;
	d->pvals = NULL;
	d->threads = d->exited = NULL;
	d->nthreads_read = d->nexited = 0;
	d->comm_long = NULL;
	task_copy_comm(d, s);
	d->mem = NULL;
	d->mem_own = false;
	if (s->mem) {
		struct tv_mem *m = task_mem_mut(d);
		if (!m)
			return -1;
		*m = *s->mem;
		/* the stacks array is s's block's; a thread's copy owns its
		 * block and keeps its own stack only (task_stack_size) */
		m->stacks = NULL;
		m->nstacks = 0;
		struct tv_stack own = {s->tid, task_stack_size(s), task_stack_rss(s)};
		if (d->is_thread && (own.size != TV_UNKNOWN || own.rss != TV_UNKNOWN)) {
			if (!(m->stacks = malloc(sizeof(*m->stacks))))
				return -1;
			m->stacks[0] = own;
			m->nstacks = 1;
		}
	}
	if (s->cmdline && !(d->cmdline = strdup(s->cmdline)))
		return -1;
	if (s->peaks && (d->peaks = malloc(sizeof(*d->peaks))))
		*d->peaks = *s->peaks;
	if (s->pvals && npv) {
		if (!(d->pvals = calloc(npv, sizeof(*d->pvals))))
			return -1;
		for (size_t i = 0; i < npv; i++) {
			d->pvals[i] = s->pvals[i];
			d->pvals[i].s = NULL;
			if (s->pvals[i].s && !(d->pvals[i].s = strdup(s->pvals[i].s)))
				return -1;
		}
	}
	size_t nt = 0, ne = 0;
	int rc = list_copy(&d->threads, &nt, s->threads, s->nthreads_read, npv);
	d->nthreads_read = (uint32_t)nt;
	if (rc < 0)
		return -1;
	rc = list_copy(&d->exited, &ne, s->exited, s->nexited, npv);
	d->nexited = (uint32_t)ne;
	return rc;
}

/* The group table of s into d: the groups, their parents among the copies. */
static int cgroups_copy(struct snapshot *d, const struct snapshot *s)
{
	d->cgroups = NULL;
	d->ncgroups = 0;
	if (!s->ncgroups)
		return 0;
	if (!(d->cgroups = calloc(s->ncgroups, sizeof(*d->cgroups))))
		return -1;
	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct tv_cgroup *g = s->cgroups[i];
		struct tv_cgroup *c = malloc(sizeof(*c));
		if (!c)
			return -1;
		*c = *g;
		c->path = strdup(g->path);
		c->unit = strdup(g->unit);
		/* a host's (the hosts' screen) is not a recording's */
		c->about = NULL;
		c->host = NULL;
		d->cgroups[d->ncgroups++] = c;
		if (!c->path || !c->unit)
			return -1;
		c->parent = g->parent ? d->cgroups[g->parent->index] : NULL;
	}
	return 0;
}

/* A task's group: the copy of the one it was in. */
static void cgroup_remap(struct tv_task *t, const struct snapshot *d)
{
	if (t->cgroup)
		t->cgroup = t->cgroup->index < d->ncgroups ? d->cgroups[t->cgroup->index] : NULL;
}

int rec_sample_copy(struct rec_sample *dst, const struct rec_sample *src)
{
	*dst = *src;
	dst->cgroups_raw = (struct rec_blob){NULL, 0};
	struct snapshot *d = &dst->s;
	d->procs = d->gone = NULL;
	d->nprocs = d->ngone = 0;
	d->rejects = NULL;
	d->nrejects = 0;
	d->ended = NULL; /* derived: a copy derives its own */
	if (cgroups_copy(d, &src->s) < 0 ||
	    list_copy(&d->procs, &d->nprocs, src->s.procs, src->s.nprocs, src->s.npvals) < 0 ||
	    list_copy(&d->gone, &d->ngone, src->s.gone, src->s.ngone, 0) < 0) {
		snapshot_free(d);
		return -1;
	}
	for (size_t i = 0; i < d->nprocs; i++) {
		cgroup_remap(&d->procs[i], d);
		for (size_t j = 0; j < d->procs[i].nthreads_read; j++)
			cgroup_remap(&d->procs[i].threads[j], d);
		for (size_t j = 0; j < d->procs[i].nexited; j++)
			cgroup_remap(&d->procs[i].exited[j], d);
	}
	for (size_t i = 0; i < d->ngone; i++)
		cgroup_remap(&d->gone[i], d);
	return 0;
}

/* Appends a copy of t to the list v (n items). */
/* Appends a copy of t to a list that only grows this way: its room doubles
 * whenever its length reaches a power of two, so n appends cost O(n). */
static int list_push(struct tv_task **v, size_t *n, const struct tv_task *t, size_t npv)
{
	if ((*n & (*n - 1)) == 0) {
		struct tv_task *nv = realloc(*v, (*n ? 2 * *n : 1) * sizeof(**v));
		if (!nv)
			return -1;
		*v = nv;
	}
	struct tv_task *d = &(*v)[(*n)++];
	task_init(d);
	int rc = task_copy(d, t, npv);
	/* from another sample: its group is not in this one's table */
	d->cgroup = NULL;
	return rc;
}

/* Tasks by identity (TID and start): open addressing, at most half full. */
struct idset {
	struct ident {
		uint64_t start;
		int32_t tid;
		bool used;
	} *v;
	size_t mask;
};

static int idset_init(struct idset *s, size_t n)
{
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	s->v = calloc(cap, sizeof(*s->v));
	s->mask = cap - 1;
	return s->v ? 0 : -1;
}

/* Adds t's identity; false when it was there. */
static bool idset_add(struct idset *s, const struct tv_task *t)
{
	uint64_t h = ((uint64_t)(uint32_t)t->tid * 0x9e3779b97f4a7c15ull) ^ t->start_ticks;
	for (size_t i = (size_t)(h ^ h >> 29) & s->mask;; i = (i + 1) & s->mask) {
		struct ident *e = &s->v[i];
		if (!e->used) {
			*e = (struct ident){t->start_ticks, t->tid, true};
			return true;
		}
		if (e->tid == t->tid && e->start == t->start_ticks)
			return false;
	}
}

/*
 * Appends to the list v (n long) copies of the tasks of add that it does not
 * hold; of a task add holds twice, the later. Linear in both: an exit storm
 * ends tens of thousands of tasks in a minute's interval.
 */
static int list_merge(struct tv_task **v, size_t *n, const struct tv_task *add, size_t nadd, size_t npv)
{
	if (!nadd)
		return 0;
	struct idset seen;
	bool *keep = malloc(nadd * sizeof(*keep));
	if (!keep || idset_init(&seen, *n + nadd) < 0) {
		free(keep);
		return -1;
	}
	for (size_t i = 0; i < *n; i++)
		idset_add(&seen, &(*v)[i]);
	size_t nkeep = 0;
	for (size_t i = nadd; i-- > 0;)
		nkeep += keep[i] = idset_add(&seen, &add[i]);
	free(seen.v);
	struct tv_task *nv = nkeep ? realloc(*v, (*n + nkeep) * sizeof(**v)) : *v;
	int rc = nv ? 0 : -1;
	if (nv)
		*v = nv;
	for (size_t i = 0; i < nadd && rc == 0; i++) {
		if (!keep[i])
			continue;
		struct tv_task *d = &nv[(*n)++];
		task_init(d);
		rc = task_copy(d, &add[i], npv);
		d->cgroup = NULL;
	}
	free(keep);
	return rc;
}

int rec_ended_collect(struct rec_sample *acc, const struct rec_sample *mid)
{
	struct snapshot *a = &acc->s;
	const struct snapshot *m = &mid->s;
	const uint32_t rate_bits = TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_INVOL_RATE);
	size_t npv = a->npvals == m->npvals ? a->npvals : 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct tv_task *mp = &m->procs[i];
		if (!mp->nexited && !(mp->partial & rate_bits))
			continue;
		size_t k = 0;
		while (k < a->nprocs && (a->procs[k].tgid != mp->tgid || a->procs[k].start_ticks != mp->start_ticks))
			k++;
		if (k == a->nprocs) {
			struct tv_task *v = realloc(a->procs, (a->nprocs + 1) * sizeof(*v));
			if (!v)
				return -1;
			a->procs = v;
			task_init(&v[k]);
			v[k].tid = v[k].tgid = mp->tgid;
			v[k].start_ticks = mp->start_ticks;
			a->nprocs++;
		}
		struct tv_task *p = &a->procs[k];
		p->partial |= mp->partial & rate_bits;
		/* all of them, in order: rec_merge_ended keeps a task's last record */
		size_t ne = p->nexited;
		int rc = 0;
		for (size_t j = 0; j < mp->nexited && rc == 0; j++)
			rc = list_push(&p->exited, &ne, &mp->exited[j], npv);
		p->nexited = (uint32_t)ne;
		if (rc < 0)
			return -1;
	}
	for (size_t i = 0; i < m->ngone; i++)
		if (list_push(&a->gone, &a->ngone, &m->gone[i], 0) < 0)
			return -1;
	a->nexits_seen += m->nexits_seen;
	a->exits_lost += m->exits_lost;
	a->exits_watched = a->exits_watched && m->exits_watched;
	return 0;
}

int rec_merge_ended(struct rec_sample *cur, const struct rec_sample *mid)
{
	struct snapshot *c = &cur->s;
	const struct snapshot *m = &mid->s;
	const uint32_t rate_bits = TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_INVOL_RATE);
	/* plugin values only when both have the same slots (one reader's samples do) */
	size_t npv = c->npvals == m->npvals ? c->npvals : 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct tv_task *mp = &m->procs[i];
		struct tv_task *p = (struct tv_task *)snapshot_find(c, mp->tgid);
		if (!p || p->start_ticks != mp->start_ticks)
			continue; /* it ended too: its threads went with it */
		p->partial |= mp->partial & rate_bits;
		size_t ne = p->nexited;
		int rc = list_merge(&p->exited, &ne, mp->exited, mp->nexited, npv);
		p->nexited = (uint32_t)ne;
		if (rc < 0)
			return -1;
	}
	if (list_merge(&c->gone, &c->ngone, m->gone, m->ngone, 0) < 0)
		return -1;
	c->nexits_seen += m->nexits_seen;
	c->exits_lost += m->exits_lost;
	c->exits_watched = c->exits_watched && m->exits_watched;
	return 0;
}
