/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "export/accum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

void accum_init(struct accum *a)
{
	memset(a, 0, sizeof(*a));
}

void accum_init_commands(struct accum *a)
{
	accum_init(a);
	a->by_command = true;
}

void accum_free(struct accum *a)
{
	for (size_t i = 0; i < a->ngroups; i++) {
		free(a->groups[i].name);
		free(a->groups[i].comm);
	}
	free(a->groups);
	free(a->procs);
	bool by_command = a->by_command;
	accum_init(a);
	a->by_command = by_command;
}

bool accum_group_shown(const struct accum_group *g)
{
	return g->live || g->touched;
}

const char *accum_group_name(const struct tv_task *t)
{
	return t->cgroup && t->cgroup->unit ? t->cgroup->unit : "";
}

static void counters_of(const struct tv_task *t, int64_t v[ACC_N])
{
	v[ACC_CPU_NS] = t->cpu_ns;
	v[ACC_CTXT_VOL] = t->ctxt_vol;
	v[ACC_CTXT_INVOL] = t->ctxt_invol;
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		v[ACC_DELAY_COUNT + c] = t->delay[c].count;
		v[ACC_DELAY_NS + c] = t->delay[c].total_ns;
	}
	for (int f = 0; f < ACC_N; f++)
		if (v[f] < 0)
			v[f] = TV_UNKNOWN; /* a counter is never negative: not a value */
}

static void all_unknown(int64_t v[ACC_N])
{
	for (int f = 0; f < ACC_N; f++)
		v[f] = TV_UNKNOWN;
}

/* unknown + x = x: a sum is known once one part of it is */
static void add_known(int64_t *sum, int64_t v)
{
	if (v == TV_UNKNOWN)
		return;
	*sum = *sum == TV_UNKNOWN ? v : *sum + v;
}

/* What a tracked process counts in its group now. */
static int64_t contribution(const struct accum_proc *p, int f)
{
	if (p->hw[f] == TV_UNKNOWN || p->base[f] == TV_UNKNOWN)
		return TV_UNKNOWN;
	return p->hw[f] - p->base[f];
}

/* Raises the highest values seen; a base waiting for a first known value takes it. */
static void raise_to(struct accum_proc *p, const int64_t v[ACC_N])
{
	for (int f = 0; f < ACC_N; f++) {
		if (v[f] != TV_UNKNOWN && (p->hw[f] == TV_UNKNOWN || v[f] > p->hw[f]))
			p->hw[f] = v[f];
		if (p->base[f] == TV_UNKNOWN)
			p->base[f] = p->hw[f];
	}
}

static void gauges_unknown(struct accum_gauges *g)
{
	g->procs = 0;
	g->threads = g->rss_kib = g->vm_kib = g->pte_kib = g->swap_kib = TV_UNKNOWN;
	g->cg_mem_bytes = g->cg_swap_bytes = TV_UNKNOWN;
	for (int r = 0; r < TV_RES_N; r++)
		pressure_unknown(&g->psi[r]);
}

/* Groups by name, then commands by process name (NULL: sums per group). */
static int key_cmp(const char *name, const char *comm, const struct accum_group *g)
{
	int d = strcmp(name, g->name);
	if (d || !comm || !g->comm)
		return d;
	return strcmp(comm, g->comm);
}

static ssize_t group_find(const struct accum *a, const char *name, const char *comm)
{
	size_t lo = 0, hi = a->gsorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = key_cmp(name, comm, &a->groups[mid]);
		if (d == 0)
			return (ssize_t)mid;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	/* those added since the last sort */
	for (size_t i = a->gsorted; i < a->ngroups; i++)
		if (key_cmp(name, comm, &a->groups[i]) == 0)
			return (ssize_t)i;
	return -1;
}

static void counters_unknown(struct accum_group *g)
{
	all_unknown(g->ended);
	all_unknown(g->total);
	g->cg_cpu_ns = TV_UNKNOWN;
}

/* The group of a name (and comm); one without processes for longer than ACCUM_KEEP_S starts afresh. */
static ssize_t group_get(struct accum *a, const char *name, const char *comm, double now)
{
	ssize_t i = group_find(a, name, comm);
	if (i >= 0) {
		struct accum_group *g = &a->groups[i];
		if (!accum_group_shown(g) && now - g->last_shown > ACCUM_KEEP_S)
			counters_unknown(g);
		return i;
	}
	if (a->ngroups == a->gcap) {
		size_t cap = a->gcap ? a->gcap * 2 : 16;
		struct accum_group *v = realloc(a->groups, cap * sizeof(*v));
		if (!v)
			return -1;
		a->groups = v;
		a->gcap = cap;
	}
	struct accum_group *g = &a->groups[a->ngroups];
	memset(g, 0, sizeof(*g));
	g->name = strdup(name);
	g->comm = comm ? strdup(comm) : NULL;
	if (!g->name || (comm && !g->comm)) {
		free(g->name);
		free(g->comm);
		return -1;
	}
	g->cpu_seen = TV_UNKNOWN;
	counters_unknown(g);
	gauges_unknown(&g->g);
	return (ssize_t)a->ngroups++;
}

/* The group of t, looked up once per control group of the snapshot. */
struct group_cache {
	const struct snapshot *s;
	ssize_t *by_cgroup; /* per s->cgroups index; -2: not looked up yet */
	ssize_t none;       /* the group "" */
};

static int cache_init(struct group_cache *c, const struct snapshot *s)
{
	c->s = s;
	c->none = -2;
	c->by_cgroup = malloc((s->ncgroups ? s->ncgroups : 1) * sizeof(*c->by_cgroup));
	if (!c->by_cgroup)
		return -1;
	for (size_t i = 0; i < s->ncgroups; i++)
		c->by_cgroup[i] = -2;
	return 0;
}

static ssize_t cgroup_index(const struct snapshot *s, const struct tv_cgroup *cg)
{
	size_t lo = 0, hi = s->ncgroups;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(s->cgroups[mid]->path, cg->path);
		if (d == 0)
			return (ssize_t)mid;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static ssize_t group_of(struct accum *a, struct group_cache *c, const struct tv_task *t)
{
	if (a->by_command)
		return group_get(a, accum_group_name(t), task_comm(t), c->s->mono);
	ssize_t *slot = &c->none;
	if (t->cgroup) {
		ssize_t ci = cgroup_index(c->s, t->cgroup);
		if (ci >= 0)
			slot = &c->by_cgroup[ci];
		else
			return group_get(a, accum_group_name(t), NULL, c->s->mono);
	}
	if (*slot == -2)
		*slot = group_get(a, accum_group_name(t), NULL, c->s->mono);
	return *slot;
}

static int procs_reserve(struct accum *a, size_t extra)
{
	if (a->nprocs + extra <= a->cap)
		return 0;
	size_t cap = a->cap ? a->cap : 64;
	while (cap < a->nprocs + extra)
		cap *= 2;
	struct accum_proc *v = realloc(a->procs, cap * sizeof(*v));
	if (!v)
		return -1;
	a->procs = v;
	a->cap = cap;
	return 0;
}

static int proc_cmp(const void *x, const void *y)
{
	const struct accum_proc *p = x, *q = y;
	if (p->tgid != q->tgid)
		return p->tgid < q->tgid ? -1 : 1;
	if (p->start_ticks != q->start_ticks)
		return p->start_ticks < q->start_ticks ? -1 : 1;
	return 0;
}

static struct accum_proc *proc_find(struct accum_proc *v, size_t n, int32_t tgid, uint64_t start)
{
	struct accum_proc key = {.tgid = tgid, .start_ticks = start};
	return n ? bsearch(&key, v, n, sizeof(*v), proc_cmp) : NULL; /* v may be NULL then */
}

static void procs_sort(struct accum *a)
{
	if (a->nprocs > 1)
		qsort(a->procs, a->nprocs, sizeof(*a->procs), proc_cmp);
}

const struct accum_proc *accum_find(const struct accum *a, const struct tv_task *t)
{
	return proc_find(a->procs, a->nprocs, t->tgid, t->start_ticks);
}

static struct accum_proc *proc_add(struct accum *a, const struct tv_task *t, size_t group, bool whole)
{
	struct accum_proc *p = &a->procs[a->nprocs++];
	memset(p, 0, sizeof(*p));
	p->tgid = t->tgid;
	p->start_ticks = t->start_ticks;
	p->group = group;
	all_unknown(p->hw);
	for (int f = 0; f < ACC_N; f++)
		p->base[f] = whole ? 0 : TV_UNKNOWN;
	return p;
}

/* A process leaves its group (ended, or moved): what it counted stays there. */
static void proc_leave(struct accum *a, struct accum_proc *p)
{
	struct accum_group *g = &a->groups[p->group];
	for (int f = 0; f < ACC_N; f++)
		add_known(&g->ended[f], contribution(p, f));
	g->touched = true;
}

static void gauges_add(struct accum_gauges *g, const struct tv_task *t)
{
	g->procs++;
	add_known(&g->threads, t->nthreads);
	const struct tv_mem *m = task_mem(t);
	add_known(&g->rss_kib, m->rss);
	add_known(&g->vm_kib, m->size);
	add_known(&g->pte_kib, m->pte);
	add_known(&g->swap_kib, m->swap);
}

/* Born after the previous refresh began: all it counted is new (the rule of model/delta.c). */
static bool newborn(const struct tv_task *t, const struct snapshot *prev)
{
	return t->start_ticks != TV_START_UNKNOWN && (double)t->start_ticks > prev->boot_ticks;
}

/* The first refresh: every process counts whole, as of prev. */
static int seed(struct accum *a, const struct snapshot *prev)
{
	struct group_cache c;
	if (procs_reserve(a, prev->nprocs) < 0 || cache_init(&c, prev) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < prev->nprocs && rc == 0; i++) {
		const struct tv_task *t = &prev->procs[i];
		ssize_t g = group_of(a, &c, t);
		if (g < 0) {
			rc = -1;
			break;
		}
		int64_t v[ACC_N];
		counters_of(t, v);
		raise_to(proc_add(a, t, (size_t)g, true), v);
	}
	free(c.by_cgroup);
	procs_sort(a);
	return rc;
}

/* The live processes of cur: tracked, moved between groups, or new. */
static int take_live(struct accum *a, const struct snapshot *prev, const struct snapshot *cur)
{
	struct group_cache c;
	if (procs_reserve(a, cur->nprocs) < 0 || cache_init(&c, cur) < 0)
		return -1;
	size_t nsorted = a->nprocs;
	for (size_t i = 0; i < cur->nprocs; i++) {
		const struct tv_task *t = &cur->procs[i];
		ssize_t gi = group_of(a, &c, t);
		if (gi < 0) {
			free(c.by_cgroup);
			return -1;
		}
		struct accum_proc *p = proc_find(a->procs, nsorted, t->tgid, t->start_ticks);
		if (!p) {
			/* one that started before but was not seen (it entered the
			 * selection) counts from now on: its past may be counted already */
			p = proc_add(a, t, (size_t)gi, newborn(t, prev));
		} else if (p->group != (size_t)gi) {
			proc_leave(a, p);
			p->group = (size_t)gi;
			memcpy(p->base, p->hw, sizeof(p->base));
		}
		int64_t v[ACC_N];
		counters_of(t, v);
		raise_to(p, v);
		p->seen = true;
		a->groups[gi].live = true;
		gauges_add(&a->groups[gi].g, t);
	}
	free(c.by_cgroup);
	return 0;
}

/* The groups' own cpu.stat was read (cgroup v2): it counts every process that ran in them. */
static bool cgroups_count_cpu(const struct snapshot *s)
{
	for (size_t i = 0; i < s->ncgroups; i++)
		if (s->cgroups[i]->cpu_usage_us != TV_UNKNOWN)
			return true;
	return false;
}

/* Processes that ended: from their exit records, else from their last values. */
static int take_ended(struct accum *a, struct group_cache *c, size_t nsorted, const struct snapshot *prev,
		      const struct snapshot *cur, bool unseen_exits, bool *ended)
{
	for (size_t i = 0; i < cur->ngone; i++) {
		const struct tv_task *e = &cur->gone[i];
		int64_t v[ACC_N];
		counters_of(e, v);
		struct accum_proc *p = NULL;
		/* the tracked processes of this tgid (those added now are alive) */
		size_t lo = 0, hi = nsorted;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (a->procs[mid].tgid < e->tgid)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo; j < nsorted && a->procs[j].tgid == e->tgid; j++) {
			struct accum_proc *q = &a->procs[j];
			if (q->seen || ended[j])
				continue;
			/* its start time is computed from the record: within a second */
			if (e->start_ticks != TV_START_UNKNOWN &&
			    fabs((double)e->start_ticks - (double)q->start_ticks) > cur->hz)
				continue;
			p = q;
			ended[j] = true;
			break;
		}
		if (p) {
			raise_to(p, v);
			proc_leave(a, p);
			continue;
		}
		/* started and ended between two refreshes: in the group its exit
		 * record names (the BPF exit program), else in none known */
		if (!unseen_exits || a->by_command || e->start_ticks == TV_START_UNKNOWN ||
		    (double)e->start_ticks + 1 <= prev->boot_ticks)
			continue;
		bool placed = e->cgroup && cgroup_index(cur, e->cgroup) >= 0;
		ssize_t gi = placed ? group_of(a, c, e) : group_get(a, "", NULL, cur->mono);
		if (gi < 0)
			return -1;
		struct accum_group *g = &a->groups[gi];
		/* its CPU time is in its own group's cpu.stat already */
		if (cgroups_count_cpu(cur))
			v[ACC_CPU_NS] = TV_UNKNOWN;
		for (int f = 0; f < ACC_N; f++)
			add_known(&g->ended[f], v[f]);
		g->touched = true;
		a->unseen += !placed;
	}
	for (size_t j = 0; j < a->nprocs; j++) {
		if (a->procs[j].seen || ended[j])
			continue;
		/* no exit record (not watched, or lost): the last values seen */
		proc_leave(a, &a->procs[j]);
		ended[j] = true;
	}
	return 0;
}

static int name_cmp(const void *x, const void *y)
{
	const struct accum_group *g = x, *h = y;
	return key_cmp(g->name, g->comm, h);
}

/* Drops what ended and the groups gone for long; sorts both. */
static int compact(struct accum *a, const bool *ended, double now)
{
	size_t n = 0;
	for (size_t j = 0; j < a->nprocs; j++)
		if (!ended[j])
			a->procs[n++] = a->procs[j];
	a->nprocs = n;

	size_t *remap = malloc((a->ngroups ? a->ngroups : 1) * sizeof(*remap));
	if (!remap)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < a->ngroups; i++) {
		struct accum_group *g = &a->groups[i];
		if (accum_group_shown(g))
			g->last_shown = now;
		else if (now - g->last_shown > ACCUM_KEEP_S) {
			free(g->name);
			free(g->comm);
			continue;
		}
		g->slot = i;
		a->groups[k++] = *g;
	}
	a->ngroups = k;
	if (a->ngroups > 1)
		qsort(a->groups, a->ngroups, sizeof(*a->groups), name_cmp);
	a->gsorted = a->ngroups;
	for (size_t i = 0; i < a->ngroups; i++)
		remap[a->groups[i].slot] = i;
	for (size_t j = 0; j < a->nprocs; j++)
		a->procs[j].group = remap[a->procs[j].group];
	free(remap);
	procs_sort(a);
	return 0;
}

/* A control group is its group's own when no ancestor carries the same name:
 * the unit's top, whose files include its sub-groups. */
static bool cgroup_is_top(const struct tv_cgroup *cg)
{
	for (const struct tv_cgroup *p = cg->parent; p; p = p->parent)
		if (p->unit && cg->unit && strcmp(p->unit, cg->unit) == 0)
			return false;
	return true;
}

/* Memory from the groups' own control groups: summed over the tops of a
 * name (disjoint), unknown if one is; pressure only from a single top. */
static void cgroup_gauges(struct accum *a, const struct snapshot *cur)
{
	size_t *ntops = calloc(a->ngroups ? a->ngroups : 1, sizeof(*ntops));
	bool *mem_bad = calloc(a->ngroups ? a->ngroups : 1, sizeof(*mem_bad));
	bool *swap_bad = calloc(a->ngroups ? a->ngroups : 1, sizeof(*swap_bad));
	if (!ntops || !mem_bad || !swap_bad)
		goto out; /* the values stay unknown */
	for (size_t i = 0; i < cur->ncgroups; i++) {
		const struct tv_cgroup *cg = cur->cgroups[i];
		if (!cg->unit || !cgroup_is_top(cg))
			continue;
		ssize_t gi = group_find(a, cg->unit, NULL);
		if (gi < 0 || !a->groups[gi].live)
			continue;
		struct accum_gauges *g = &a->groups[gi].g;
		if (ntops[gi]++ == 0)
			memcpy(g->psi, cg->psi, sizeof(g->psi));
		mem_bad[gi] |= cg->mem_bytes == TV_UNKNOWN;
		swap_bad[gi] |= cg->swap_bytes == TV_UNKNOWN;
		add_known(&g->cg_mem_bytes, cg->mem_bytes);
		add_known(&g->cg_swap_bytes, cg->swap_bytes);
	}
	for (size_t gi = 0; gi < a->ngroups; gi++) {
		struct accum_gauges *g = &a->groups[gi].g;
		if (mem_bad[gi])
			g->cg_mem_bytes = TV_UNKNOWN;
		if (swap_bad[gi])
			g->cg_swap_bytes = TV_UNKNOWN;
		if (ntops[gi] > 1)
			for (int r = 0; r < TV_RES_N; r++)
				pressure_unknown(&g->psi[r]);
	}
out:
	free(ntops);
	free(mem_bad);
	free(swap_bad);
}

/* CPU time from the groups' own cpu.stat: summed over the tops of a name
 * (disjoint), kept from the last refresh where one of them is unknown. A
 * top that holds a group of another name (the root holds all) counts that
 * one's time too: its name keeps the sum over its processes. */
static void cgroup_cpu(struct accum *a, const struct snapshot *cur)
{
	int64_t *sum = malloc((a->ngroups ? a->ngroups : 1) * sizeof(*sum));
	bool *bad = calloc(a->ngroups ? a->ngroups : 1, sizeof(*bad));
	if (!sum || !bad)
		goto out;
	for (size_t gi = 0; gi < a->ngroups; gi++)
		sum[gi] = TV_UNKNOWN;
	for (size_t i = 0; i < cur->ncgroups; i++) {
		const struct tv_cgroup *cg = cur->cgroups[i];
		if (!cg->unit || !cgroup_is_top(cg))
			continue;
		ssize_t gi = group_find(a, cg->unit, NULL);
		if (gi < 0)
			continue;
		bad[gi] |= cg->cpu_usage_us == TV_UNKNOWN || !cg->parent;
		add_known(&sum[gi], cg->cpu_usage_us == TV_UNKNOWN ? TV_UNKNOWN : cg->cpu_usage_us * 1000);
	}
	for (size_t i = 0; i < cur->ncgroups; i++) {
		const struct tv_cgroup *cg = cur->cgroups[i];
		for (const struct tv_cgroup *up = cg->parent; cg->unit && up; up = up->parent) {
			if (!up->unit || strcmp(up->unit, cg->unit) == 0 || !cgroup_is_top(up))
				continue;
			ssize_t gi = group_find(a, up->unit, NULL);
			if (gi >= 0)
				bad[gi] = true;
		}
	}
	for (size_t gi = 0; gi < a->ngroups; gi++) {
		struct accum_group *g = &a->groups[gi];
		if (!bad[gi] && sum[gi] != TV_UNKNOWN)
			g->cg_cpu_ns = sum[gi];
		if (g->cg_cpu_ns != TV_UNKNOWN)
			g->total[ACC_CPU_NS] = g->cg_cpu_ns;
	}
out:
	free(sum);
	free(bad);
}

static void totals(struct accum *a)
{
	for (size_t i = 0; i < a->ngroups; i++)
		memcpy(a->groups[i].total, a->groups[i].ended, sizeof(a->groups[i].total));
	for (size_t j = 0; j < a->nprocs; j++) {
		struct accum_group *g = &a->groups[a->procs[j].group];
		for (int f = 0; f < ACC_N; f++)
			add_known(&g->total[f], contribution(&a->procs[j], f));
	}
}

int accum_update(struct accum *a, const struct snapshot *prev, const struct snapshot *cur, bool unseen_exits)
{
	if (!a->primed) {
		if (seed(a, prev) < 0)
			return -1;
		a->primed = true;
	}
	for (size_t i = 0; i < a->ngroups; i++) {
		a->groups[i].live = a->groups[i].touched = false;
		gauges_unknown(&a->groups[i].g);
	}
	for (size_t j = 0; j < a->nprocs; j++)
		a->procs[j].seen = false;
	size_t nsorted = a->nprocs;
	if (take_live(a, prev, cur) < 0)
		return -1;
	for (size_t i = 0; i < a->ngroups; i++) {
		struct accum_gauges *g = &a->groups[i].g;
		/* no process left: no thread, no memory (its control group's own files are not read) */
		if (!a->groups[i].live)
			g->threads = g->rss_kib = g->vm_kib = g->pte_kib = g->swap_kib = 0;
	}
	bool *ended = calloc(a->nprocs ? a->nprocs : 1, sizeof(*ended));
	if (!ended)
		return -1;
	struct group_cache c;
	int rc = cache_init(&c, cur);
	if (rc == 0)
		rc = take_ended(a, &c, nsorted, prev, cur, unseen_exits, ended);
	free(c.by_cgroup);
	if (rc == 0)
		rc = compact(a, ended, cur->mono);
	free(ended);
	if (rc < 0)
		return -1;
	totals(a);
	if (!a->by_command) {
		cgroup_gauges(a, cur);
		cgroup_cpu(a, cur);
	}
	a->exit_records += cur->nexits_seen;
	a->exit_lost += cur->exits_lost;
	a->exits_ever |= cur->exits_watched;
	return 0;
}
