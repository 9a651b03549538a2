/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler's state and the steps of one refresh, shared by its files (private). */
#ifndef TV_SAMPLE_SAMPLER_PRIV_H
#define TV_SAMPLE_SAMPLER_PRIV_H

#include <dirent.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sample/proc/proc_parse.h"
#include "sample/sampler.h"
#include "sample/taskstats/taskstats_listen.h"
#include "sample/cgroups/cgroups.h"
#include "sample/tracked.h"

#define SAMPLER_READ_CAP 65536
#define SAMPLER_CMDLINE_AGE 10.0  /* seconds before a shown command line is read again */
/* ticks a thread's start time estimated from a taskstats reply's age may
 * differ from its stat's, or from the first estimate */
#define SAMPLER_START_SLACK 3

/* What one refresh read, for the cost figures and their regression test. */
struct sampler_io {
	uint64_t opens, reads, lists, queries;
	uint64_t rereads; /* timed reads taken again for a read held up (not in reads) */
	uint64_t exit_probes; /* hash slots the exit records looked at */
};

/* Exit records one refresh takes on, at most: beyond, they count as lost (sampler_exits.c) */
#define SAMPLER_EXITS_BUDGET TS_LISTEN_KEEP

struct bpf_tasks;
struct exit_slot;
struct task_rec_key;
struct bpf_exits;

struct sampler {
	int procfd;
	DIR *procdir;            /* the same directory, listed again each refresh */
	size_t last_npids;
	struct users *users;
	struct ts_client *ts;
	/* exit records: from the BPF exit program where it loads, else the listener */
	struct bpf_exits *bexits;
	struct ts_listener *listen;
	bool listen_tried;
	unsigned listen_passes;  /* refreshes since the listener started: the first interval is incomplete */
	const char *listen_why;
	struct ts_exit_rec *pending;  /* exit records of threads still alive at our read: next refresh's */
	size_t npending, pending_cap;
	struct ts_exit_rec *pending_room; /* the array pending was last refresh: this one reads it */
	size_t pending_room_cap;
	struct exit_slot *slots;      /* the exit records' index, kept for the next refresh (sampler_exits.c) */
	size_t nslots;
	struct plugin_host *ph;
	size_t npvals;
	struct cmdline_cache *cmd;
	struct cgroups *cg;
	int fd_pressure[3];      /* /proc/pressure/{cpu,io,memory} kept open, or -1 */
	int fd_loadavg;
	int fd_stat, fd_meminfo; /* read when sample_opts.machine asks, then kept open */
	bool counts_listed;      /* /proc lists no kernel thread: count its tasks (snapshot.sys_threads) */
	struct tracked tr;
	double hz;
	double prev_boot_ticks;  /* the last refresh's snapshot.boot_ticks; 0 before the first */
	char *buf;
	struct sampler_io io;
	double last_cpu;
	bool have_cpu;
	pid_t helper;            /* the plugin helper whose CPU time is last_helper */
	double last_helper;
	int fd_self_statm, fd_helper_stat, fd_helper_statm; /* kept open, or -1 */
	struct bpf_tasks *bpf;   /* the BPF task iterator, or NULL: /proc */
	bool bpf_tried, bpf_opened;
	int bpf_mode;            /* TASKVIEW_READER: -1 proc, 1 bpf, 0 by cost */
	bool bpf_no_irq;         /* the kernel lacks IRQ time accounting: its irq delay is unknown */
	const char *bpf_why;     /* why it is NULL, once opening was tried */
	const char *bpf_why_now; /* why this refresh does not use it, or NULL */
	int bpf_pass;            /* this refresh: 0 not run yet, 1 read, -1 not used */
	size_t threads_now, threads_prev; /* threads read in this refresh and the previous one */
	size_t bpf_tasks;        /* tasks on the machine at the last refresh's start */
	double bpf_mono;         /* when the pass read the tasks */
	bool no_pagemap_scan;    /* the kernel has no PAGEMAP_SCAN (before 6.7): stacks read pagemap entries */
	/* this refresh's time for stacks (sample_opts.stacks_budget; 0: no limit), the time
	 * they took so far, and when the process being read must be done by (0: no limit) */
	double stacks_budget, stacks_spent, stacks_until;
	atomic_bool cancel;      /* sampler_cancel: the refresh in progress stops at its next step */
};

/* A process's status as read, and when. */
struct lead_status {
	struct proc_status ps;
	double when; /* CLOCK_MONOTONIC */
};

bool sampler_ts_usable(const struct sampler *s);
bool sampler_threads_shown(const struct sample_opts *o, int32_t tgid);
/*
 * Reads path (relative to /proc) through *fd, kept open when the budget
 * allows (fd NULL: open, read, close). Counts the reads. Returns the length
 * in s->buf or -errno; a kept file that fails is closed.
 */
ssize_t sampler_read(struct sampler *s, int *fd, const char *path);
/*
 * sampler_read of counters a rate is taken from, timed as clock_timed_read
 * times it (a read held up is taken again).
 */
ssize_t sampler_read_timed(struct sampler *s, int *fd, const char *path, double *when);
void sampler_memory_from_status(struct tv_task *t, const struct proc_status *ps);
/* The process's switch counts as the sums over its threads read, timed at the
 * latest read; unchanged when a thread's are unknown or none was read. */
void sampler_switch_sums(struct tv_task *p);
/* The command line from the cache (never waits): unknown while it is being read. */
void sampler_cmdline_fill(struct cmdline_cache *c, struct tv_task *t, double max_age);
/* sampler_rows.c: what is read only for rows shown; sampled_at: the
 * snapshot's boot_ticks; io counts the reads (NULL: not counted). */
void sampler_fill_one(struct sampler *s, struct tv_task *t, double sampled_at, struct sampler_io *io);

/* sampler_threads.c: the threads of process p where the view or a sum needs them. lead is p's status. */
void sampler_threads_read(struct sampler *s, const struct sample_opts *o, struct tv_task *p,
			  const struct lead_status *lead);
/* sampler_taskstats.c: group replies for processes, PID replies for thread rows. */
void sampler_taskstats(struct sampler *s, const struct sample_opts *o, struct snapshot *out);
/* A reply's switch counts and delays into t, read at mono. */
void sampler_apply_ts(struct tv_task *t, const struct ts_result *r, double mono);
/*
 * A new entry at the end of p's exited threads (task_init'ed), or NULL when
 * out of memory. The array grows by doubling: a process that ends thousands
 * of threads between two refreshes would otherwise be copied once per exit.
 * Every entry is added through here, so its size is the count rounded up to
 * a power of two.
 */
struct tv_task *sampler_exited_add(struct tv_task *p);
/*
 * sampler_bpf.c: the records of group tgid from this refresh's BPF pass
 * (run at the first call); false when the reader is off, failed, or has
 * none of that group: /proc then. *v is the reader's, valid until the next pass.
 */
bool sampler_bpf_group(struct sampler *s, int32_t tgid, const struct task_rec_key **v, size_t *n);
/* Before a refresh's time is read: loads the reader where this refresh will likely want it
 * (loading takes tens of ms, which would otherwise shorten the threads' first interval). */
void sampler_bpf_prepare(struct sampler *s, bool all_threads);
/* A refresh begins: whether its pass is worth running, with tasks on the machine and -H or not. */
void sampler_bpf_begin(struct sampler *s, bool all_threads, size_t tasks);
/* tp's threads from the group's records, as a listing of task/: 1 when one is new. */
int sampler_bpf_list(struct tracked_proc *tp, const struct task_rec_key *v, size_t n);
/* Thread th's counters into t from the group's records; -1 when it is not among them. */
int sampler_bpf_thread(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
		       const struct task_rec_key *v, size_t n, struct tv_task *t);
/* sampler_threads.c: thread th's start time from its stat (the process's for its leader):
 * with the TID, what a thread is known by. Left unknown when it is gone. */
void sampler_thread_start(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th);
/* sampler_threads.c: thread th's schedstat (kept open), timed at the middle of
 * its read; its fields unknown where it cannot be parsed. -1 when it is gone. */
int sampler_thread_schedstat(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
			     struct proc_schedstat *ss, double *when);
/* sampler_exits.c: exit records to the processes they belong to; lower bounds that last. */
void sampler_exits(struct sampler *s, const struct sample_opts *o, struct snapshot *out, const struct filter *sel);
/* An exit record's final counters (switches, delays) into t, received at mono. */
void sampler_apply_final(struct tv_task *t, const struct ts_final *f, double mono);
/* An exit listener ran for the whole interval. */
bool sampler_exits_watched(const struct sampler *s);
void sampler_partial_totals(struct sampler *s, struct snapshot *out);

#endif
