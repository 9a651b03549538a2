/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A thread's stack is the mapping that holds its stack pointer (the second
 * to last field of task/TID/syscall); the main thread's is "[stack]". Stacks
 * rarely move, so each thread's mapping is looked up in maps once and kept;
 * each refresh then reads only the present bits (bit 63) of its pages in
 * pagemap, and the stack pointer of a thread that ran, to find one that moved.
 * The main stack grows: it is looked up again when VmStk changes.
 */
#include "sample/memory/stacks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "model/task.h"
#include "sample/memory/pagemap_scan.h"
#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"
#include "sample/sampler_priv.h"
#include "sample/memory/stack_parse.h"
#include "util/clock.h"

static uint8_t why_of_errno(ssize_t err)
{
	if (err == -ETIME)
		return TV_STACK_LATE;
	return err == -EACCES || err == -EPERM ? TV_STACK_DENIED : TV_STACK_NOTFOUND;
}

/* Whether this refresh's time for stacks is spent. Checked between reads: each
 * may wait for the memory-map lock, which a process that forks takes for long. */
static bool late(const struct sampler *s)
{
	return s->stacks_until > 0 && clock_now(CLOCK_MONOTONIC) >= s->stacks_until;
}

/* Reads the thread's stack pointer into th->sp (0 when not read this time). */
static uint8_t thread_sp(struct sampler *s, struct tracked_proc *tp, struct stack_map *th)
{
	char path[64];
	th->sp = 0;
	snprintf(path, sizeof(path), "%d/task/%d/syscall", tp->pid, th->tid);
	ssize_t n = sampler_read(s, NULL, path);
	if (n < 0)
		return why_of_errno(n);
	switch (stack_parse_syscall(s->buf, (size_t)n, &th->sp)) {
	case STACK_SP_OK:
		return th->sp ? TV_STACK_OK : TV_STACK_NOTFOUND;
	case STACK_SP_RUNNING:
		return TV_STACK_RUNNING;
	default:
		return TV_STACK_NOTFOUND;
	}
}

static int cmp_sp(const void *a, const void *b)
{
	const struct stack_map *x = *(struct stack_map *const *)a;
	const struct stack_map *y = *(struct stack_map *const *)b;
	return (x->sp > y->sp) - (x->sp < y->sp);
}

/*
 * One pass over maps (addresses ascending) gives each waiting thread, sorted
 * by stack pointer, the mapping that holds it, and lead the [stack] one. A
 * stack pointer in a mapping that is no stack (the heap, a file) finds none:
 * *elsewhere counts those. Returns 0 or -errno.
 */
static int maps_find(struct sampler *s, int32_t pid, struct stack_map **wait, size_t nwait,
		     struct stack_map *lead, size_t *elsewhere)
{
	char path[32];
	snprintf(path, sizeof(path), "%d/maps", pid);
	int fd = openat(s->procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	s->io.opens++;
	qsort(wait, nwait, sizeof(*wait), cmp_sp);
	size_t j = 0, have = 0;
	char *buf = s->buf;
	int err = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, SAMPLER_READ_CAP - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		s->io.reads++;
		have += (size_t)r;
		if (r > 0 && late(s)) {
			err = -ETIME;
			break;
		}
		size_t used = 0;
		for (;;) {
			char *nl = memchr(buf + used, '\n', have - used);
			if (!nl && r > 0)
				break;
			size_t len = nl ? (size_t)(nl - (buf + used)) : have - used;
			struct maps_line m;
			if (len && stack_parse_maps_line(buf + used, len, &m) == 0) {
				if (m.is_stack && lead) {
					lead->lo = m.lo;
					lead->hi = m.hi;
				}
				while (j < nwait && wait[j]->sp < m.lo)
					j++; /* in no mapping */
				for (; j < nwait && wait[j]->sp < m.hi; j++) {
					if (m.not_stack) {
						(*elsewhere)++;
						continue;
					}
					wait[j]->lo = m.lo;
					wait[j]->hi = m.hi;
					wait[j]->at = wait[j]->sp;
				}
			}
			used += len + (nl != NULL);
			if (!nl || used == have)
				break;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
		if (r == 0 || have == SAMPLER_READ_CAP)
			break; /* the end, or a line longer than the buffer */
	}
	close(fd);
	return err;
}

/* Pages of [lo, hi) present in memory, or -errno. */
static int64_t resident_pages(struct sampler *s, int fd, uint64_t lo, uint64_t hi, uint64_t page)
{
	uint64_t *e = (uint64_t *)(void *)s->buf;
	size_t per = SAMPLER_READ_CAP / sizeof(*e);
	uint64_t first = lo / page, n = (hi - lo) / page;
	int64_t present = 0;
	for (uint64_t done = 0; done < n;) {
		size_t want = n - done < per ? (size_t)(n - done) : per;
		ssize_t r = pread(fd, e, want * sizeof(*e), (off_t)((first + done) * sizeof(*e)));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		s->io.reads++;
		if ((size_t)r < sizeof(*e))
			return -ESRCH; /* the address space is gone */
		if (late(s))
			return -ETIME;
		size_t got = (size_t)r / sizeof(*e);
		for (size_t i = 0; i < got; i++)
			present += (e[i] & TV_PAGEMAP_PRESENT) != 0;
		done += got;
	}
	return present;
}

struct stack_ref {
	uint64_t lo, hi;
	uint64_t at; /* the stack pointer it was found by */
	struct tv_stack *t;
};

static int cmp_ref(const void *a, const void *b)
{
	const struct stack_ref *x = a, *y = b;
	if (x->lo != y->lo)
		return (x->lo > y->lo) - (x->lo < y->lo);
	return (x->at > y->at) - (x->at < y->at);
}

/*
 * Stacks carved from one mapping (a runtime's, or neighbours the kernel
 * merged) are split at their threads' stack pointers, so that each byte
 * counts once: a stack grows down from its top, which is at most where the
 * next one's lowest page is, so a thread takes the pages from its pointer
 * up to the next thread's (the first also those below it, the last up to
 * the end). r is sorted (cmp_ref).
 */
static void refs_split(struct stack_ref *r, size_t n, uint64_t page)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && r[j].lo == r[i].lo && r[j].hi == r[i].hi)
			j++;
		uint64_t lo = r[i].lo, hi = r[i].hi;
		for (size_t k = i; j - i > 1 && k < j; k++) {
			r[k].lo = k == i ? lo : r[k].at & ~(page - 1);
			r[k].hi = k + 1 == j ? hi : r[k + 1].at & ~(page - 1);
			if (r[k].lo < lo || r[k].lo > hi)
				r[k].lo = lo; /* a pointer outside the mapping: not split there */
			if (r[k].hi < r[k].lo || r[k].hi > hi)
				r[k].hi = r[k].lo;
		}
		i = j;
	}
}

/* The size and the resident KiB of r. */
static void ref_set(const struct stack_ref *r, int64_t pages, uint64_t page)
{
	r->t->size = (int64_t)((r->hi - r->lo) / 1024);
	r->t->rss = pages * (int64_t)(page / 1024);
}

/*
 * Resident pages of the stacks r[0..n) (sorted, apart from each other) by
 * PAGEMAP_SCAN over the span they cover: the runs of present pages, each
 * added to the stacks it overlaps. Returns 0 or -errno.
 */
static int scan_run(struct sampler *s, int fd, const struct stack_ref *r, size_t n, uint64_t page)
{
	struct tv_page_region *v = (struct tv_page_region *)(void *)s->buf;
	int64_t *pages = calloc(n, sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	struct tv_pm_scan_arg a = {
		.size = sizeof(a),
		.start = r[0].lo,
		.end = r[n - 1].hi,
		.vec = (uint64_t)(uintptr_t)v,
		.vec_len = SAMPLER_READ_CAP / sizeof(*v),
		/* present, and not the zero page (as smaps' Rss counts) */
		.category_inverted = TV_PAGE_IS_PFNZERO,
		.category_mask = TV_PAGE_IS_PRESENT | TV_PAGE_IS_PFNZERO,
		.return_mask = TV_PAGE_IS_PRESENT,
	};
	size_t k = 0;
	int err = 0;
	while (a.start < a.end) {
		int got = ioctl(fd, TV_PAGEMAP_SCAN, &a);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			break;
		}
		s->io.reads++;
		for (int g = 0; g < got; g++) {
			while (k < n && r[k].hi <= v[g].start)
				k++;
			for (size_t m = k; m < n && r[m].lo < v[g].end; m++) {
				uint64_t lo = v[g].start > r[m].lo ? v[g].start : r[m].lo;
				uint64_t hi = v[g].end < r[m].hi ? v[g].end : r[m].hi;
				if (hi > lo)
					pages[m] += (int64_t)((hi - lo) / page);
			}
		}
		if (a.walk_end <= a.start)
			break; /* no progress: not the kernel's contract, but never loop */
		a.start = a.walk_end;
		if (a.start < a.end && late(s)) {
			err = -ETIME;
			break;
		}
	}
	for (size_t m = 0; !err && m < n; m++)
		ref_set(&r[m], pages[m], page);
	free(pages);
	return err;
}

/*
 * Each stack's size and resident pages onto its thread. Thread stacks lie
 * side by side (glibc maps them one below the other, a guard page apart), so
 * neighbours are scanned, or read, together: fewer calls than one each.
 * Returns 0, or the -errno of a read that failed.
 */
static int resident_all(struct sampler *s, int fd, struct stack_ref *r, size_t n, uint64_t page)
{
	uint64_t *e = (uint64_t *)(void *)s->buf;
	uint64_t per = SAMPLER_READ_CAP / sizeof(*e);
	int err = 0;
	qsort(r, n, sizeof(*r), cmp_ref);
	for (size_t i = 0; i < n && !s->no_pagemap_scan;) {
		if (late(s))
			return -ETIME;
		/* a run of stacks with at most a guard page between neighbours */
		size_t j = i + 1;
		while (j < n && r[j].lo >= r[j - 1].hi && r[j].lo - r[j - 1].hi <= page)
			j++;
		int e2 = scan_run(s, fd, &r[i], j - i, page);
		if (e2 == -ENOTTY || e2 == -EINVAL || e2 == -EOPNOTSUPP) {
			s->no_pagemap_scan = true; /* an older kernel: read the entries */
			break;
		}
		if (e2 < 0)
			err = e2;
		i = j;
	}
	if (!s->no_pagemap_scan)
		return err;
	for (size_t i = 0; i < n;) {
		if (late(s))
			return -ETIME;
		/* a run of stacks whose entries fit in the buffer together */
		size_t j = i + 1;
		while (j < n && r[j].lo >= r[j - 1].hi && (r[j].hi - r[i].lo) / page <= per)
			j++;
		if ((r[i].hi - r[i].lo) / page > per) {
			int64_t k = resident_pages(s, fd, r[i].lo, r[i].hi, page);
			if (k < 0)
				err = (int)k;
			else
				ref_set(&r[i], k, page);
			i++;
			continue;
		}
		uint64_t first = r[i].lo / page, count = (r[j - 1].hi - r[i].lo) / page;
		ssize_t got;
		do
			got = pread(fd, e, count * sizeof(*e), (off_t)(first * sizeof(*e)));
		while (got < 0 && errno == EINTR);
		s->io.reads++;
		if (got < (ssize_t)(count * sizeof(*e))) {
			err = got < 0 ? -errno : -ESRCH; /* gone, or denied */
			i = j;
			continue;
		}
		for (; i < j; i++) {
			int64_t present = 0;
			for (uint64_t p = r[i].lo / page - first, end = r[i].hi / page - first; p < end; p++)
				present += (int64_t)(e[p] >> 63);
			ref_set(&r[i], present, page);
		}
	}
	return err;
}

/* Sums over the threads into m: unknown when none is known, marked on p when some are not. */
static void stacks_sum(struct tv_task *p, struct tv_mem *m, uint8_t why)
{
	int64_t size = 0, rss = 0;
	size_t known = 0;
	for (size_t i = 0; i < m->nstacks; i++) {
		const struct tv_stack *t = &m->stacks[i];
		if (t->size == TV_UNKNOWN || t->rss == TV_UNKNOWN)
			continue;
		size += t->size;
		rss += t->rss;
		known++;
	}
	p->stack_why = why;
	if (!known)
		return;
	m->stack_size = size;
	m->stack_rss = rss;
	if (known < m->nstacks || !p->threads_complete)
		p->partial |= TV_PART_BIT(TV_PART_STACK);
}

/*
 * tp->stk for the threads of p (p->threads is sorted by tid): each keeps the
 * mapping found before, a new thread has none yet, a gone one is dropped.
 * Returns -1 when out of memory.
 */
static int maps_carry(struct tracked_proc *tp, const struct tv_task *p, bool *same)
{
	size_t n = p->nthreads_read, kept = 0;
	struct stack_map *v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0, k = 0; i < n; i++) {
		v[i].tid = p->threads[i].tid;
		v[i].size = v[i].rss = TV_UNKNOWN;
		while (k < tp->nstk && tp->stk[k].tid < v[i].tid)
			k++;
		if (k < tp->nstk && tp->stk[k].tid == v[i].tid) {
			v[i] = tp->stk[k];
			kept += v[i].size != TV_UNKNOWN && v[i].rss != TV_UNKNOWN;
		}
	}
	/* the same threads as last time, every stack of them known */
	*same = kept == n && n == tp->nstk;
	free(tp->stk);
	tp->stk = v;
	tp->nstk = n;
	return 0;
}

/* The process's CPU time in ns (its CPU clock: dead threads included, no
 * privilege needed), or -1. */
static int64_t process_cpu_ns(int32_t pid)
{
	struct timespec ts;
	clockid_t id = (clockid_t)((~(unsigned)pid << 3) | 2); /* CPUCLOCK_SCHED of the whole process */
	if (clock_gettime(id, &ts) < 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The page faults of all the process's threads, ended ones included (its
 * stat; the sampler reads the leader's own), or -1. */
static int64_t process_faults(struct sampler *s, int32_t pid)
{
	char path[32];
	snprintf(path, sizeof(path), "%d/stat", pid);
	ssize_t n = sampler_read(s, NULL, path);
	struct proc_stat st;
	if (n < 0 || proc_parse_stat(s->buf, (size_t)n, &st) < 0)
		return -1;
	return (int64_t)((st.minflt + st.majflt) & INT64_MAX);
}

/*
 * A kept pagemap that fails belongs to an address space that is gone: the
 * process ran execve (its PID and start time stay). Its mappings went with
 * it: the next refresh opens pagemap again and looks each stack up anew.
 */
static void stacks_forget(struct sampler *s, struct tracked_proc *tp)
{
	fd_budget_close(&s->tr.fds, &tp->fd_pagemap);
	for (size_t i = 0; i < tp->nstk; i++) {
		tp->stk[i].lo = tp->stk[i].hi = tp->stk[i].at = 0;
		tp->stk[i].size = tp->stk[i].rss = TV_UNKNOWN;
	}
	tp->stk_main_kib = TV_UNKNOWN;
}

bool stacks_quiet(const struct tracked_proc *tp)
{
	int64_t cpu = process_cpu_ns(tp->pid);
	return tp->nstk && cpu >= 0 && cpu == tp->stk_cpu_ns;
}

static void read_stacks(struct sampler *s, struct tracked_proc *tp, struct tv_task *p)
{
	if (p->kthread) {
		p->stack_why = TV_STACK_KERNEL;
		return;
	}
	/* the process's own block, which its thread rows borrow */
	struct tv_mem *m = p->mem_own ? p->mem : NULL;
	bool same = false;
	if (!m || maps_carry(tp, p, &same) < 0)
		return;
	struct tv_stack *v = malloc((p->nthreads_read ? p->nthreads_read : 1) * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < p->nthreads_read; i++)
		v[i] = (struct tv_stack){p->threads[i].tid, TV_UNKNOWN, TV_UNKNOWN};
	free(m->stacks);
	m->stacks = v;
	m->nstacks = p->nthreads_read;
	/*
	 * A stack's resident pages change only when a thread of the process runs
	 * and touches new ones (a page fault, which the process's fault count
	 * tells) or when pages are taken away (reclaim, madvise), which lowers
	 * RssAnon. With the same threads, the same RssAnon and either the same
	 * CPU time (none ran) or the same fault count (those that ran touched
	 * only pages they had), the stacks are what they were: nothing per
	 * thread is read. A page taken and another faulted in between changes
	 * the fault count.
	 */
	int64_t cpu = process_cpu_ns(tp->pid), anon = m->rss_anon, faults = -1;
	bool kept = same && anon != TV_UNKNOWN && anon == tp->stk_rss_anon && m->stk != TV_UNKNOWN &&
		    m->stk == tp->stk_main_kib;
	bool ran = cpu < 0 || cpu != tp->stk_cpu_ns;
	if (!kept || ran)
		faults = process_faults(s, tp->pid); /* read before the stacks, as cpu */
	if (kept && (!ran || (faults >= 0 && faults == tp->stk_faults))) {
		for (size_t i = 0; i < p->nthreads_read; i++)
			v[i] = (struct tv_stack){tp->stk[i].tid, tp->stk[i].size, tp->stk[i].rss};
		stacks_sum(p, m, TV_STACK_OK);
		return;
	}
	if (late(s)) {
		stacks_sum(p, m, TV_STACK_LATE); /* read again next refresh: nothing of it is kept */
		return;
	}
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint8_t why = TV_STACK_OK;
	/* threads waiting for their mapping: the main one by name, the others by stack pointer */
	struct stack_map **wait = malloc((p->nthreads_read ? p->nthreads_read : 1) * sizeof(*wait));
	if (!wait)
		return;
	size_t nwait = 0;
	struct stack_map *lead = NULL;
	int64_t vmstk = task_mem(p)->stk;
	for (size_t i = 0; i < p->nthreads_read; i++) {
		struct stack_map *th = &tp->stk[i];
		if (th->tid == tp->pid) {
			if (!th->hi || vmstk == TV_UNKNOWN || vmstk != tp->stk_main_kib)
				lead = th;
			continue;
		}
		int64_t ran_ns = p->threads[i].cpu_ns;
		if (th->hi && ran_ns != TV_UNKNOWN && ran_ns == th->cpu_ns)
			continue;
		if (late(s)) {
			/* looked at next refresh: its CPU time stays the one it was read at */
			if (why == TV_STACK_OK)
				why = TV_STACK_LATE;
			continue;
		}
		th->cpu_ns = ran_ns;
		uint8_t w = thread_sp(s, tp, th);
		/* a thread that ran may have moved to another stack (a coroutine's,
		 * a mapping of its own): a pointer outside the mapping found looks
		 * it up again; a running one's cannot be read, it keeps its own */
		if (th->hi) {
			if (w != TV_STACK_OK || (th->sp >= th->lo && th->sp < th->hi))
				continue;
			th->lo = th->hi = 0;
		}
		if (w == TV_STACK_OK)
			wait[nwait++] = th;
		else if (why == TV_STACK_OK)
			why = w;
	}
	if (nwait || lead) {
		size_t elsewhere = 0;
		int err = maps_find(s, tp->pid, wait, nwait, lead, &elsewhere);
		if (err < 0 && why == TV_STACK_OK)
			why = why_of_errno(err);
		if (elsewhere && why == TV_STACK_OK)
			why = TV_STACK_ELSEWHERE;
		if (lead && lead->hi)
			tp->stk_main_kib = vmstk;
	}
	free(wait);

	int fd = tp->fd_pagemap, own = -1;
	if (fd < 0) {
		char path[32];
		snprintf(path, sizeof(path), "%d/pagemap", tp->pid);
		fd = tp->fd_pagemap = fd_budget_open(&s->tr.fds, s->procfd, path);
		if (fd < 0)
			fd = own = openat(s->procfd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && why == TV_STACK_OK)
			why = why_of_errno(-errno);
		s->io.opens++;
	}
	struct stack_ref *refs = fd >= 0 ? malloc((p->nthreads_read ? p->nthreads_read : 1) * sizeof(*refs)) : NULL;
	size_t nrefs = 0;
	for (size_t i = 0; refs && i < p->nthreads_read; i++) {
		const struct stack_map *th = &tp->stk[i];
		if (!th->hi) {
			if (why == TV_STACK_OK)
				why = TV_STACK_NOTFOUND;
			continue;
		}
		refs[nrefs++] = (struct stack_ref){th->lo, th->hi, th->at, &v[i]};
	}
	if (refs) {
		qsort(refs, nrefs, sizeof(*refs), cmp_ref);
		refs_split(refs, nrefs, page);
		int err = resident_all(s, fd, refs, nrefs, page);
		if (err < 0 && why == TV_STACK_OK)
			why = why_of_errno(err);
		if (err < 0 && err != -ETIME && fd == tp->fd_pagemap)
			stacks_forget(s, tp);
	}
	free(refs);
	if (own >= 0)
		close(own);
	for (size_t i = 0; i < p->nthreads_read; i++) {
		tp->stk[i].size = v[i].size;
		tp->stk[i].rss = v[i].rss;
	}
	/* read before the stacks: a thread that ran meanwhile moves it on, and is read again next time */
	tp->stk_cpu_ns = cpu;
	tp->stk_rss_anon = anon;
	tp->stk_faults = faults;
	stacks_sum(p, m, why);
}

void stacks_read(struct sampler *s, struct tracked_proc *tp, struct tv_task *p)
{
	/* the refresh's time for stacks is theirs alone: what other reads take is not counted */
	double t0 = clock_now(CLOCK_MONOTONIC);
	s->stacks_until = s->stacks_budget > 0 ? t0 + s->stacks_budget - s->stacks_spent : 0;
	read_stacks(s, tp, p);
	s->stacks_spent += clock_now(CLOCK_MONOTONIC) - t0;
}
