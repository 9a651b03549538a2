/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/tracked.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* descriptors left for everything else: sockets, pipes, plugins, the terminal */
#define FD_RESERVE 256

void fd_budget_init(struct fd_budget *b)
{
	struct rlimit r;
	b->used = 0;
	b->limit = 0;
	if (getrlimit(RLIMIT_NOFILE, &r) < 0)
		return;
	if (r.rlim_cur < r.rlim_max) {
		struct rlimit want = {r.rlim_max, r.rlim_max};
		if (setrlimit(RLIMIT_NOFILE, &want) == 0)
			r.rlim_cur = r.rlim_max;
	}
	if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur > 2 * FD_RESERVE)
		b->limit = (size_t)r.rlim_cur - FD_RESERVE;
	else if (r.rlim_cur == RLIM_INFINITY)
		b->limit = 1u << 20;
}

int fd_budget_open(struct fd_budget *b, int dirfd, const char *path)
{
	if (b->used >= b->limit)
		return -1;
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0)
		b->used++;
	return fd;
}

void fd_budget_close(struct fd_budget *b, int *fd)
{
	if (*fd < 0)
		return;
	close(*fd);
	*fd = -1;
	if (b->used)
		b->used--;
}

void tracked_init(struct tracked *tr)
{
	memset(tr, 0, sizeof(*tr));
	fd_budget_init(&tr->fds);
}

static void proc_release(struct tracked *tr, struct tracked_proc *p)
{
	for (size_t i = 0; i < p->nthreads; i++)
		fd_budget_close(&tr->fds, &p->threads[i].fd_sched);
	free(p->threads);
	fd_budget_close(&tr->fds, &p->fd_stat);
	fd_budget_close(&tr->fds, &p->fd_status);
	fd_budget_close(&tr->fds, &p->fd_task);
	fd_budget_close(&tr->fds, &p->fd_cgroup);
	fd_budget_close(&tr->fds, &p->fd_pagemap);
	fd_budget_close(&tr->fds, &p->fd_io);
	free(p->stk);
}

void tracked_free(struct tracked *tr)
{
	for (size_t i = 0; i < tr->n; i++)
		proc_release(tr, &tr->v[i]);
	free(tr->v);
	tr->v = NULL;
	tr->n = tr->cap = 0;
	free(tr->gone);
	tr->gone = NULL;
	tr->ngone = tr->gone_cap = 0;
}

static size_t lower_bound(const struct tracked *tr, int32_t pid)
{
	size_t lo = 0, hi = tr->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct tracked_proc *tracked_find(struct tracked *tr, int32_t pid)
{
	size_t i = lower_bound(tr, pid);
	return i < tr->n && tr->v[i].pid == pid ? &tr->v[i] : NULL;
}

static void proc_blank(struct tracked_proc *p, int32_t pid)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->start = TV_START_UNKNOWN;
	p->fd_stat = p->fd_status = p->fd_task = p->fd_cgroup = p->fd_pagemap = p->fd_io = -1;
	p->stk_faults = -1;
}

struct tracked_proc *tracked_get(struct tracked *tr, int32_t pid)
{
	size_t i = lower_bound(tr, pid);
	if (i < tr->n && tr->v[i].pid == pid)
		return &tr->v[i];
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 256;
		struct tracked_proc *v = realloc(tr->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		tr->v = v;
		tr->cap = cap;
	}
	/* pids arrive in increasing order from /proc: this is almost always an append */
	memmove(&tr->v[i + 1], &tr->v[i], (tr->n - i) * sizeof(*tr->v));
	tr->n++;
	proc_blank(&tr->v[i], pid);
	return &tr->v[i];
}

void tracked_unsee(struct tracked *tr)
{
	for (size_t i = 0; i < tr->n; i++)
		tr->v[i].seen = false;
}

/* Keeps a dropped process's start; forgotten when out of memory (its exit
 * record then goes by the start its age gives). */
static void gone_keep(struct tracked *tr, const struct tracked_proc *p)
{
	if (p->start == TV_START_UNKNOWN)
		return;
	if (tr->ngone == tr->gone_cap) {
		size_t cap = tr->gone_cap ? 2 * tr->gone_cap : 64;
		struct tracked_gone *v = realloc(tr->gone, cap * sizeof(*v));
		if (!v)
			return;
		tr->gone = v;
		tr->gone_cap = cap;
	}
	tr->gone[tr->ngone++] = (struct tracked_gone){p->pid, p->start};
}

void tracked_sweep(struct tracked *tr)
{
	size_t k = 0;
	tr->ngone = 0;
	for (size_t i = 0; i < tr->n; i++) {
		if (!tr->v[i].seen) {
			gone_keep(tr, &tr->v[i]);
			proc_release(tr, &tr->v[i]);
			continue;
		}
		tr->v[k++] = tr->v[i];
	}
	tr->n = k;
}

uint64_t tracked_gone_start(const struct tracked *tr, int32_t pid)
{
	size_t lo = 0, hi = tr->ngone;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->gone[mid].pid == pid)
			return tr->gone[mid].start;
		if (tr->gone[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return TV_START_UNKNOWN;
}

void tracked_reset(struct tracked *tr, struct tracked_proc *p)
{
	int32_t pid = p->pid;
	proc_release(tr, p);
	proc_blank(p, pid);
}

void tracked_copy_name(char *dst, size_t n, const char *src)
{
	size_t l = strnlen(src, n - 1);
	memcpy(dst, src, l);
	dst[l] = '\0';
}

struct tracked_thread *tracked_thread_find(struct tracked_proc *p, int32_t tid)
{
	size_t lo = 0, hi = p->nthreads;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->threads[mid].tid == tid)
			return &p->threads[mid];
		if (p->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct tracked_thread *tracked_thread_add(struct tracked_proc *p, int32_t tid)
{
	if (p->nthreads == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 4;
		struct tracked_thread *v = realloc(p->threads, cap * sizeof(*v));
		if (!v)
			return NULL;
		p->threads = v;
		p->cap = cap;
	}
	size_t i = p->nthreads;
	while (i > 0 && p->threads[i - 1].tid > tid)
		i--;
	memmove(&p->threads[i + 1], &p->threads[i], (p->nthreads - i) * sizeof(*p->threads));
	p->nthreads++;
	struct tracked_thread *t = &p->threads[i];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->start = TV_START_UNKNOWN;
	t->fd_sched = -1;
	t->runtime = t->pcount = t->vol = t->invol = TV_UNKNOWN;
	return t;
}

void tracked_thread_renew(struct tracked *tr, struct tracked_thread *t)
{
	fd_budget_close(&tr->fds, &t->fd_sched);
	t->runtime = t->pcount = t->vol = t->invol = TV_UNKNOWN;
	t->have_status = t->named = false;
	t->comm[0] = '\0';
}

void tracked_thread_fit(struct tracked_proc *p)
{
	size_t want = p->nthreads + p->nthreads / 8 + 4;
	if (p->cap <= p->nthreads + p->nthreads / 4 + 4)
		return;
	struct tracked_thread *v = realloc(p->threads, want * sizeof(*v));
	if (v) {
		p->threads = v;
		p->cap = want;
	}
}

void tracked_thread_drop(struct tracked *tr, struct tracked_proc *p, size_t i)
{
	fd_budget_close(&tr->fds, &p->threads[i].fd_sched);
	memmove(&p->threads[i], &p->threads[i + 1], (p->nthreads - i - 1) * sizeof(*p->threads));
	p->nthreads--;
}
