/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shown snapshot of a recorded sample: the live tasks borrowed, the
 * ended ones added after them so a row can tell which it is by address. */
#include "view/shown.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cgroup.h"
#include "model/delta.h"
#include "model/exited.h"
#include "util/i18n.h"

/* Does the filter (as at recording: PIDs, TIDs, user, control group, text)
 * select p? A process whose group was not recorded matches no group, as live. */
static bool shown_wants(const struct filter *f, const struct tv_task *p)
{
	if (!f)
		return true;
	bool hit = filter_wants_pid(f, p->tgid);
	for (size_t i = 0; !hit && i < p->nthreads_read; i++)
		hit = filter_wants_pid(f, p->threads[i].tid);
	const struct tv_cgroup *g = p->cgroup;
	if (!hit || !filter_wants_uid(f, p->uid) || !filter_matches_cgroup(f, g ? g->path : NULL, g ? g->unit : NULL))
		return false;
	hit = filter_matches_text(f, task_comm(p), p->cmdline);
	for (size_t i = 0; !hit && i < p->nthreads_read; i++)
		hit = filter_matches_text(f, task_comm(&p->threads[i]), NULL);
	return hit;
}

void shown_free(struct shown *v)
{
	for (size_t i = 0; v->group_list && i < v->s.ncgroups; i++) {
		free(v->groups[i].path);
		free(v->groups[i].unit);
		free(v->groups[i].about);
	}
	free(v->groups);
	free(v->group_list);
	for (size_t i = 0; i < v->nmerged; i++)
		free(v->merged[i].v);
	free(v->merged);
	free(v->procs);
	free(v->ended);
	memset(v, 0, sizeof(*v));
}

/* Exited threads become rows under their process (q, p's copy). */
static int shown_add_exited_threads(struct shown *v, struct tv_task *q, const struct tv_task *p)
{
	size_t n = p->nthreads_read + p->nexited;
	struct shown_threads *m = realloc(v->merged, (v->nmerged + 1) * sizeof(*m));
	if (!m)
		return -1;
	v->merged = m;
	struct tv_task *t = malloc(n * sizeof(*t));
	if (!t)
		return -1;
	if (p->nthreads_read)
		memcpy(t, p->threads, p->nthreads_read * sizeof(*t));
	for (size_t j = 0; j < p->nexited; j++) {
		t[p->nthreads_read + j] = p->exited[j];
		t[p->nthreads_read + j].state = 'X';
	}
	m[v->nmerged++] = (struct shown_threads){t, p->nthreads_read, n};
	q->threads = t;
	q->nthreads_read = n;
	return 0;
}

int shown_build(struct shown *v, struct snapshot *prev, struct snapshot *cur, const struct colset *cs,
		const struct filter *f, bool threads)
{
	delta_apply(prev, cur, cs);
	exited_rates(prev, cur, cs);
	memset(v, 0, sizeof(*v));
	v->s = *cur;
	v->procs = calloc(cur->nprocs + cur->ngone + 1, sizeof(*v->procs));
	v->ended = cur->ended ? calloc(cur->ngone + 1, sizeof(*v->ended)) : NULL;
	if (!v->procs || (cur->ended && !v->ended)) {
		shown_free(v);
		return -1;
	}
	size_t n = 0;
	for (size_t i = 0; i < cur->nprocs; i++) {
		const struct tv_task *p = &cur->procs[i];
		if (!shown_wants(f, p))
			continue;
		struct tv_task *q = &v->procs[n++];
		*q = *p;
		if (threads && p->threads_are_rows && p->nexited && shown_add_exited_threads(v, q, p) < 0) {
			shown_free(v);
			return -1;
		}
	}
	v->nlive = n;
	for (size_t i = 0; i < cur->ngone; i++) {
		const struct tv_task *g = &cur->gone[i];
		if (!shown_wants(f, g))
			continue;
		if (v->ended)
			v->ended[n - v->nlive] = cur->ended[i];
		struct tv_task *q = &v->procs[n++];
		*q = *g;
		/* its command line, when it was seen alive */
		const struct tv_task *was = snapshot_find(prev, g->tgid);
		if (!q->cmdline && was && was->start_ticks == g->start_ticks)
			q->cmdline = was->cmdline;
	}
	v->s.procs = v->procs;
	v->s.nprocs = n;
	/* the ended ones among the rows, with their parts: a group's sums take those */
	v->s.gone = v->procs + v->nlive;
	v->s.ngone = n - v->nlive;
	v->s.ended = v->ended;
	return 0;
}

/* Whether id can be a PID (PID_MAX_LIMIT): one past it cannot carry a host. */
static bool shown_pid_ok(int32_t id)
{
	return id >= 0 && id <= TV_ID_PID_MASK;
}

/* Whether id can be a task's own ID: a PID, not 0 (which would read as host 0's). */
static bool shown_tid_ok(int32_t id)
{
	return id >= 1 && shown_pid_ok(id);
}

/* t as a task of host h: its IDs carry h. */
static void shown_on_host(struct tv_task *t, unsigned h)
{
	t->tid = task_id_on(t->tid, h);
	t->tgid = task_id_on(t->tgid, h);
	t->ppid = shown_pid_ok(t->ppid) ? task_id_on(t->ppid, h) : 0;
}

/* q's threads: copies of src's, whose IDs carry h, each list kept with what it marks exited. */
static int shown_merge_threads(struct shown *v, const struct shown *p, struct tv_task *q, const struct tv_task *src,
			       unsigned h)
{
	struct shown_threads *m = realloc(v->merged, (v->nmerged + 1) * sizeof(*m));
	if (!m)
		return -1;
	v->merged = m;
	struct tv_task *t = malloc(src->nthreads_read * sizeof(*t));
	if (!t)
		return -1;
	size_t nlive = src->nthreads_read, n = 0, live = 0;
	for (size_t k = 0; k < p->nmerged; k++)
		if (p->merged[k].v == src->threads)
			nlive = p->merged[k].nlive;
	for (size_t j = 0; j < src->nthreads_read; j++) {
		if (!shown_tid_ok(src->threads[j].tid))
			continue;
		t[n] = src->threads[j];
		t[n].cgroup = q->cgroup;
		shown_on_host(&t[n++], h);
		live += j < nlive;
	}
	m[v->nmerged++] = (struct shown_threads){t, live, n};
	q->threads = t;
	q->nthreads_read = (uint32_t)n;
	return 0;
}

/* A total and the part of it free, both KiB a machine can have (a stream may say anything). */
static bool shown_kib_pair_ok(int64_t total, int64_t part)
{
	return total >= 0 && total <= MACHINE_KIB_MAX && part >= 0 && part <= total;
}

/* A host's CPU and memory, as its row's: the machine's own counters (every
 * task and interrupt there, whatever the selection), as a group's are its
 * cpu.stat and memory.current. Its memory is what is in use: MemTotal less
 * MemAvailable. */
static void shown_host_machine(struct tv_cgroup *g, const struct tv_machine *m)
{
	g->mem_bytes = g->swap_bytes = TV_UNKNOWN;
	g->mem_why = NULL;
	cgroup_cpu_unknown(g);
	if (!m)
		return;
	if (m->busy_us >= 0 && m->busy_us <= MACHINE_BUSY_US_MAX && m->t_busy > 0) {
		g->cpu_usage_us = m->busy_us;
		g->t_cpu = m->t_busy;
		g->cpu_pct = m->cpu_pct;
	}
	if (shown_kib_pair_ok(m->mem_total, m->mem_available))
		g->mem_bytes = (m->mem_total - m->mem_available) * 1024;
	if (shown_kib_pair_ok(m->swap_total, m->swap_free))
		g->swap_bytes = (m->swap_total - m->swap_free) * 1024;
	if (g->mem_bytes == TV_UNKNOWN)
		/* TRANSLATORS: why a host's row on the hosts' screen has no memory figure */
		g->mem_why = _("the host's taskview does not send its memory");
}

/* The COMMAND cell of a host's row: its name, CPUs and load (malloc'd; NULL: out of memory). */
static char *shown_host_about(const char *name, const struct snapshot *s)
{
	char cpus[64] = "", load[96] = "";
	if (s->ncpus)
		/* TRANSLATORS: a host's row on the hosts' screen: its CPUs online */
		snprintf(cpus, sizeof(cpus), P_(", %zu CPU", ", %zu CPUs", s->ncpus), s->ncpus);
	const double *l = s->machine.load;
	if (machine_load_known(&s->machine))
		/* TRANSLATORS: a host's row on the hosts' screen: its load averages over 1, 5 and 15 minutes */
		snprintf(load, sizeof(load), _(", load %.2f %.2f %.2f"), l[0], l[1], l[2]);
	size_t n = strlen(name) + strlen(cpus) + strlen(load) + 1;
	char *out = malloc(n);
	if (out)
		snprintf(out, n, "%s%s%s", name, cpus, load);
	return out;
}

/* Host k's group: "/NAME", the pressure its sample read (p; NULL: none). */
static int shown_host_group(struct shown *v, const struct shown *p, const char *name)
{
	size_t k = v->s.ncgroups;
	struct tv_cgroup *g = &v->groups[k];
	memset(g, 0, sizeof(*g));
	g->unit = strdup(name);
	g->path = malloc(strlen(name) + 2);
	if (!g->unit || !g->path) {
		free(g->unit);
		free(g->path);
		return -1;
	}
	g->path[0] = '/';
	strcpy(g->path + 1, name);
	g->index = k;
	g->host = p ? &p->s : NULL;
	shown_host_machine(g, p ? &p->s.machine : NULL);
	if (p && !(g->about = shown_host_about(name, &p->s))) {
		free(g->unit);
		free(g->path);
		return -1;
	}
	for (int r = 0; r < TV_RES_N; r++) {
		if (p)
			g->psi[r] = p->s.pressure[r];
		else
			pressure_unknown(&g->psi[r]);
	}
	g->t_read = p ? p->s.t_pressure : 0;
	g->psi_why = p ? p->s.pressure_why : NULL;
	v->group_list[k] = g;
	v->s.ncgroups++;
	return 0;
}

/*
 * Host h's control groups (part p's, each a copy in v), nested under the
 * host's own group: "/NAME" and the group's path. The host's root group is the
 * host's own (map[i]: the copy of p's group i, NULL for its root). Parents
 * come before their children, in a host's groups as in a sample's.
 */
static int shown_host_cgroups(struct shown *v, const struct shown *p, size_t h, const char *name,
			      struct tv_cgroup **map)
{
	struct tv_cgroup *host = &v->groups[h];
	for (size_t i = 0; i < p->s.ncgroups; i++) {
		const struct tv_cgroup *src = p->s.cgroups[i];
		map[i] = NULL;
		if (!src->parent && strcmp(src->path, "/") == 0)
			continue;
		size_t up = src->parent ? src->parent->index : SIZE_MAX;
		struct tv_cgroup *parent = up < i && p->s.cgroups[up] == src->parent && map[up] ? map[up] : host;
		size_t k = v->s.ncgroups;
		struct tv_cgroup *g = &v->groups[k];
		*g = *src;
		g->path = malloc(strlen(name) + strlen(src->path) + 3); /* "/", a "/" the path may lack, NUL */
		g->unit = strdup(src->unit ? src->unit : "");
		g->about = NULL;
		g->host = NULL;
		if (!g->path || !g->unit) {
			free(g->path);
			free(g->unit);
			return -1;
		}
		sprintf(g->path, "/%s%s%s", name, src->path[0] == '/' ? "" : "/", src->path);
		g->parent = parent;
		g->index = k;
		v->group_list[k] = g;
		v->s.ncgroups++;
		map[i] = g;
	}
	return 0;
}

/* A task's group as merged: the copy of its host's group, else the host's own. */
static struct tv_cgroup *shown_group_on_host(const struct shown *p, const struct tv_task *t, struct tv_cgroup *const *map,
					     struct tv_cgroup *host)
{
	const struct tv_cgroup *g = t->cgroup;
	if (!g || !map || g->index >= p->s.ncgroups || p->s.cgroups[g->index] != g || !map[g->index])
		return host;
	return map[g->index];
}

/* Appends host h's processes from..to of part p (its live or its ended ones) to v
 * (map: its groups' copies, shown_host_cgroups). */
static int shown_merge_procs(struct shown *v, const struct shown *p, size_t from, size_t to, unsigned h,
			     struct tv_cgroup *const *map)
{
	for (size_t i = from; i < to; i++) {
		const struct tv_task *src = &p->procs[i];
		if (!shown_tid_ok(src->tgid) || !shown_tid_ok(src->tid))
			continue; /* no PID: what sent it is not a Linux host's taskview */
		if (i >= p->nlive && v->ended)
			v->ended[v->s.nprocs - v->nlive] = p->ended[i - p->nlive];
		struct tv_task *q = &v->procs[v->s.nprocs++];
		*q = *src;
		shown_on_host(q, h);
		/* one that ended in a group not known stays in none, where the host has groups: the
		 * group view then marks the groups' sums as lower bounds, as this host's own does */
		if (i >= p->nlive && !src->cgroup && p->s.ncgroups)
			q->cgroup = NULL;
		else
			q->cgroup = shown_group_on_host(p, src, map, &v->groups[h]);
		if (src->nthreads_read && shown_merge_threads(v, p, q, src, h) < 0)
			return -1;
	}
	return 0;
}

int shown_merge(struct shown *v, const struct shown *const *parts, const char *const *names, size_t n)
{
	memset(v, 0, sizeof(*v));
	size_t total = 0, nended = 0, ngroups = n;
	bool ended = true;
	for (size_t h = 0; h < n; h++) {
		if (!parts[h])
			continue;
		total += parts[h]->s.nprocs;
		nended += parts[h]->s.ngone;
		ngroups += parts[h]->s.ncgroups;
		ended &= parts[h]->ended != NULL || parts[h]->s.ngone == 0;
	}
	v->procs = calloc(total + 1, sizeof(*v->procs));
	v->ended = ended ? calloc(nended + 1, sizeof(*v->ended)) : NULL;
	/* by host number first: a host's group is groups[its number]; its control groups follow */
	v->groups = calloc(ngroups + 1, sizeof(*v->groups));
	v->group_list = calloc(ngroups + 1, sizeof(*v->group_list));
	/* each host's groups' copies, from maps + base[h] (freed before the return) */
	struct tv_cgroup **maps = calloc(ngroups - n + 1, sizeof(*maps));
	size_t *base = calloc(n + 1, sizeof(*base));
	if (!v->procs || (ended && !v->ended) || !v->groups || !v->group_list || !maps || !base)
		goto fail;
	v->s.procs = v->procs;
	v->s.cgroups = v->group_list;
	for (size_t h = 0; h < n; h++)
		if (shown_host_group(v, parts[h], names[h]) < 0)
			goto fail;
	for (size_t h = 0, at = 0; h < n; h++) {
		base[h] = at;
		if (parts[h] && shown_host_cgroups(v, parts[h], h, names[h], maps + at) < 0)
			goto fail;
		at += parts[h] ? parts[h]->s.ncgroups : 0;
	}
	bool first = true;
	for (size_t h = 0; h < n; h++) {
		const struct shown *p = parts[h];
		if (!p)
			continue;
		if (first) {
			/* what every host's sample says alike: the fields asked for, plugin slots */
			v->s.needs = p->s.needs;
			v->s.thread_names = p->s.thread_names;
			v->s.npvals = p->s.npvals;
			v->s.exits_watched = true;
			first = false;
		}
		v->s.needs &= p->s.needs;
		v->s.thread_names &= p->s.thread_names;
		v->s.exits_watched &= p->s.exits_watched;
		v->s.exits_lost += p->s.exits_lost;
		v->s.mono = p->s.mono > v->s.mono ? p->s.mono : v->s.mono;
		v->s.wall = p->s.wall > v->s.wall ? p->s.wall : v->s.wall;
		if (shown_merge_procs(v, p, 0, p->nlive, (unsigned)h, maps + base[h]) < 0)
			goto fail;
	}
	v->nlive = v->s.nprocs;
	for (size_t h = 0; h < n; h++) {
		const struct shown *p = parts[h];
		if (p && shown_merge_procs(v, p, p->nlive, p->s.nprocs, (unsigned)h, maps + base[h]) < 0)
			goto fail;
	}
	free(maps);
	free(base);
	v->s.gone = v->procs + v->nlive;
	v->s.ngone = v->s.nprocs - v->nlive;
	v->s.ended = v->ended;
	/* the hosts are its groups */
	v->s.needs |= NEED_CGROUP;
	v->s.sys_procs = v->s.sys_threads = v->s.sys_running = TV_COUNT_UNKNOWN;
	for (int r = 0; r < TV_RES_N; r++)
		pressure_unknown(&v->s.pressure[r]);
	v->s.self.cpu_ms = NAN;
	v->s.self.rss_kib = TV_UNKNOWN;
	machine_unknown(&v->s.machine); /* each host's is on its row */
	return 0;
fail:
	free(maps);
	free(base);
	shown_free(v);
	return -1;
}

static bool shown_exited(const struct shown *v, const struct tv_task *t)
{
	if (t >= v->procs + v->nlive && t < v->procs + v->s.nprocs)
		return true;
	for (size_t i = 0; i < v->nmerged; i++)
		if (t >= v->merged[i].v + v->merged[i].nlive && t < v->merged[i].v + v->merged[i].n)
			return true;
	return false;
}

void shown_mark(const struct shown *v, struct rows *rows)
{
	for (size_t r = 0; r < rows->n; r++)
		rows->v[r].exited = !rows->v[r].group && shown_exited(v, rows->v[r].task);
}
