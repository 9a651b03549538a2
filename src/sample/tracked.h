/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the sampler keeps about each watched task between refreshes: files
 * kept open (re-read with pread, and a read failing with ESRCH is the exact
 * "this task is gone" test, immune to PID reuse), the last counters that let
 * it skip reads, and what stays true of a task for its life.
 */
#ifndef TV_SAMPLE_TRACKED_H
#define TV_SAMPLE_TRACKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/task.h"

/* A thread's name: at most 15 bytes (a process's can be longer: kernel threads) */
#define TV_THREAD_COMM_MAX 16

/* Kept descriptors are limited: past the budget, files are opened, read and closed each time. */
struct fd_budget {
	size_t limit, used;
};

/* Raises RLIMIT_NOFILE to its hard limit and sets the budget below it. */
void fd_budget_init(struct fd_budget *b);
/* Opens dirfd/path for reading and keeps it when the budget allows; -1 on failure or over budget. */
int fd_budget_open(struct fd_budget *b, int dirfd, const char *path);
void fd_budget_close(struct fd_budget *b, int *fd);

struct tracked_thread {
	int32_t tid;
	int fd_sched;            /* task/TID/schedstat kept open, or -1 */
	uint64_t start;          /* start_ticks from its stat, read when first seen */
	int64_t runtime, pcount; /* last schedstat: unchanged means no switch since */
	int64_t vol, invol;      /* last switch counts read from its status */
	char comm[TV_THREAD_COMM_MAX]; /* last name read */
	bool have_status;        /* vol, invol are the counts now: it did not run since they were read */
	bool named;              /* its status was read once: comm holds its name */
	bool seen;               /* found in this refresh */
	bool done;               /* read in this refresh (scratch) */
};

/* A thread's stack mapping, found once (stacks do not move); kept only
 * while the stack columns are shown, so apart from tracked_thread. */
struct stack_map {
	int32_t tid;
	uint64_t lo, hi;  /* the mapping that holds its stack; 0, 0: not found yet */
	uint64_t at;      /* its stack pointer when the mapping was found: where a shared one is split */
	uint64_t sp;      /* a stack pointer read this refresh, to look up in maps (scratch) */
	int64_t cpu_ns;   /* the thread's CPU time when its pointer was last read: one that ran may have moved */
	int64_t size, rss; /* KiB found in the last refresh, TV_UNKNOWN when not */
};

struct tracked_proc {
	int32_t pid;
	uint64_t start;
	int fd_stat, fd_status, fd_task, fd_cgroup, fd_pagemap, fd_io; /* kept open, or -1 */
	bool io_denied;            /* its io file refused us (another user's): not tried again */
	int64_t stk_main_kib;      /* VmStk when the main thread's [stack] was found: it grows */
	struct stack_map *stk;     /* by tid: the threads read in the last refresh with stack columns */
	size_t nstk;
	int64_t stk_cpu_ns, stk_rss_anon; /* the process's CPU time and RssAnon when stk was read, or -1 */
	int64_t stk_faults;        /* its page faults (minor and major, all threads) when stk was read, or -1 */
	struct tracked_thread *threads;  /* sorted by tid */
	size_t nthreads, cap;
	bool threads_listed;       /* threads[] was listed from task/ (else empty) */
	int64_t listed_count;      /* the stat thread count when listed */
	bool exit_seen;            /* a thread exited while watched: live sums miss it from now on */
	double churn_seen;         /* without exit records, when a thread was last seen to start or end
				    * (CLOCK_MONOTONIC), or 0 */
	int32_t live_tid;          /* the leader exited before the others: a live thread to read instead, or 0 */
	/* without exit records: the process's CPU clock less its live threads'
	 * runtimes, the clock read after them (an upper bound of what its ended
	 * threads ran), ns; dead_known false when not read */
	int64_t dead_after;
	bool dead_known;
	unsigned oncpu;            /* threads maybe on a CPU at their read in this refresh (scratch) */
	bool seen;
};

/* A process the last sweep dropped: its start, for the exit record that ends it. */
struct tracked_gone {
	int32_t pid;
	uint64_t start;
};

/* Processes sorted by pid. */
struct tracked {
	struct tracked_proc *v;
	size_t n, cap;
	struct tracked_gone *gone; /* the last sweep's, sorted by pid */
	size_t ngone, gone_cap;
	struct fd_budget fds;
};

void tracked_init(struct tracked *tr);
void tracked_free(struct tracked *tr);
/* The entry of pid, or NULL. */
struct tracked_proc *tracked_find(struct tracked *tr, int32_t pid);
/* The entry of pid, created (empty, fds -1) when absent; NULL when out of memory. */
struct tracked_proc *tracked_get(struct tracked *tr, int32_t pid);
/* Marks every entry unseen, before a refresh. */
void tracked_unsee(struct tracked *tr);
/* Drops the entries not seen in this refresh, closing their files; keeps
 * their starts until the next sweep (tracked_gone_start). */
void tracked_sweep(struct tracked *tr);
/* The start (from its stat) of pid if the last sweep dropped it, else TV_START_UNKNOWN. */
uint64_t tracked_gone_start(const struct tracked *tr, int32_t pid);
/* Forgets what was kept of a process (a new task under the pid). */
void tracked_reset(struct tracked *tr, struct tracked_proc *p);

/* Copies a name into a buffer of n bytes, cut to fit, always NUL-terminated. */
void tracked_copy_name(char *dst, size_t n, const char *src);

struct tracked_thread *tracked_thread_find(struct tracked_proc *p, int32_t tid);
/* Adds tid (fds -1); NULL when out of memory. Keeps threads[] sorted. */
struct tracked_thread *tracked_thread_add(struct tracked_proc *p, int32_t tid);
void tracked_thread_drop(struct tracked *tr, struct tracked_proc *p, size_t i);
/* Forgets what was kept of a thread whose TID is a new thread's now (its start is kept). */
void tracked_thread_renew(struct tracked *tr, struct tracked_thread *t);
/* Gives back what doubling reserved past the threads listed (one entry per
 * thread on the machine: the slack would be a third of them). */
void tracked_thread_fit(struct tracked_proc *p);

#endif
