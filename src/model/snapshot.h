/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One refresh: every selected process, and the threads of those whose threads are read. */
#ifndef TV_MODEL_SNAPSHOT_H
#define TV_MODEL_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cgroup.h"
#include "model/task.h"

/* A delay counter that grew by more than its tasks' lifetimes allow (a kernel
 * counter jump), or CPU time that grew by more than the CPUs it can run on
 * give in the interval: shown as unknown for that interval (model/delta.c). */
struct tv_reject {
	int32_t tid, tgid;
	bool is_thread;
	bool cpu;                 /* CPU time (cls unused), not a delay */
	const char *cgroup;       /* a group's row (the group's path, in its snapshot), else NULL */
	enum tv_delay_class cls;
	double step_s, bound_s;
};

/* A count of the system's tasks that is not known (struct snapshot's sys_threads, sys_running). */
#define TV_COUNT_UNKNOWN SIZE_MAX

/* Which reader read the threads: unknown in a recording made before it was kept. */
enum tv_reader { TV_READER_UNKNOWN, TV_READER_PROC, TV_READER_BPF };

/* What taskview itself cost for one refresh. */
struct tv_self {
	double cpu_ms;        /* user + system CPU time of taskview since the previous refresh; NAN for the first */
	int64_t rss_kib;      /* resident size now; TV_UNKNOWN when unreadable */
	uint64_t opens, reads; /* /proc files opened and read in this refresh */
	uint64_t queries;     /* taskstats queries in this refresh */
	uint64_t exit_probes; /* hash slots the exit records of this refresh looked at (about one each) */
	size_t kept_fds;      /* /proc files kept open across refreshes */
	/* control-group files (cgroup.procs, memory, pressure) opened and read */
	uint64_t cgroup_opens, cgroup_reads;
	enum tv_reader reader; /* BPF when its pass read the threads in this refresh */
	const char *reader_why; /* why not BPF (static, translated), or NULL */
};

/* The whole machine, for a viewer of several hosts (sample_opts.machine):
 * its CPU time from /proc/stat's cpu line (user, nice, system, irq and
 * softirq of every CPU: not idle, iowait or steal, which no task of it
 * used), its memory from /proc/meminfo and its load from /proc/loadavg.
 * Unknown (machine_unknown) where not read: TV_UNKNOWN, NAN, t_busy 0. */
struct tv_machine {
	int64_t busy_us;
	double t_busy;            /* CLOCK_MONOTONIC of the stat read */
	double cpu_pct;           /* derived over the interval (model/delta.c): % of one CPU */
	int64_t mem_total, mem_available, swap_total, swap_free; /* KiB */
	double load[3];           /* 1, 5 and 15 minutes */
};

/* Bounds of what a machine's figures can be (a stream may say anything): its
 * CPU time in ns fits an int64_t (292 CPU-years), its memory in bytes too. */
#define MACHINE_BUSY_US_MAX (INT64_MAX / 1000)
#define MACHINE_KIB_MAX (INT64_MAX / 1024)

void machine_unknown(struct tv_machine *m);
/* Whether all three load averages were read. */
bool machine_load_known(const struct tv_machine *m);

/* What a process that ended in the interval did over it, for the sums of
 * its control group's row (model/delta.c): rates as a row has them, NAN
 * where unknown. */
struct tv_ended {
	double cpu_pct;
	double ctxt_vol_rate, ctxt_invol_rate;
	double delay_pct[TV_DELAY_NCLASS];
	double delay_avg_ms[TV_DELAY_NCLASS];
};

struct snapshot {
	double mono;            /* CLOCK_MONOTONIC seconds when the refresh began */
	double wall;            /* unix time, for output */
	double boot_ticks;      /* CLOCK_BOOTTIME in clock ticks at mono: tasks started later were born in the interval */
	double boot_offset;     /* CLOCK_BOOTTIME - CLOCK_MONOTONIC, seconds */
	double hz;              /* clock ticks per second (start_ticks) */
	size_t ncpus;           /* CPUs online; 0 when unknown (recordings before it was kept) */
	bool cpu_clock;         /* processes' CPU time is their CPU clock's (false in older recordings) */
	struct tv_task *procs;  /* sorted by tgid */
	size_t nprocs;
	size_t npvals;          /* plugin slots in every task's pvals */
	/* what was asked of the sampler: sample_opts.needs and .thread_names, so
	 * a view can tell whether this sample carries what it needs */
	unsigned needs;
	bool thread_names;
	/* the whole system, whatever the filter: for headers. Where /proc
	 * lists no kernel thread (a container's PID namespace, hidepid), the
	 * tasks it lists, as /proc/loadavg counts the host's: threads from the
	 * processes' stat, running only when each has one thread; either is
	 * TV_COUNT_UNKNOWN when a filter left processes unread */
	size_t sys_procs, sys_threads, sys_running;
	/* taskstats exit records: threads that ended since the previous refresh
	 * (also the ones that lived less than a refresh), and the kernel's drops */
	size_t nexits_seen;
	uint64_t exits_lost;
	bool exits_watched;     /* an exit listener ran for the whole interval */
	/* processes that ended since the previous refresh (also those that lived
	 * less than one), from their last thread's exit record: the group's
	 * final counters as of its end; what the record lacks is unknown (a
	 * recorder's base, rec_decode_base, has their number and no list; so has
	 * each of its processes of its exited threads) */
	struct tv_task *gone;
	size_t ngone;
	/* gone[i]'s part in the interval (delta_apply, which also gives gone[i]
	 * its control group where it was seen in one); NULL until then */
	struct tv_ended *ended;
	const char *exits_why;  /* why not (static, translated), or NULL */
	/* where the records came from while watched: "bpf" (the exit program) or
	 * "netlink" (the taskstats listener); NULL when not watched or not known
	 * (static; a replay's is interned) */
	const char *exits_source;
	/* control groups of the processes (and their ancestors), sorted by path,
	 * when read (NEED_CGROUP); tasks point into them */
	struct tv_cgroup **cgroups;
	size_t ncgroups;
	const char *cgroups_why;   /* why groups or their pressure are unknown (static, translated), or NULL */
	/* the whole system's pressure stall information, and why it is unknown */
	struct tv_pressure pressure[TV_RES_N];
	double t_pressure;
	const char *pressure_why;
	struct tv_machine machine;
	struct tv_reject *rejects; /* filled by delta_apply */
	size_t nrejects;
	struct tv_self self;
};

/*
 * Ownership: the snapshot owns every task in procs[] and gone[] and all
 * they point to (threads, exited, cmdline, names, plugin values, memory
 * blocks marked mem_own), and its cgroups, ended and rejects; all valid until
 * snapshot_free, the only place they are freed (but for the exited lists:
 * snapshot_drop_exited, before anything borrows from them). Views, rows and
 * copies of its tasks borrow: they never free or replace what they point to.
 */
void snapshot_free(struct snapshot *s);
/*
 * Frees the lists of exited threads (each process keeps their number, and
 * exited NULL, as in a recorder's base): once s's rates are derived, a screen
 * needs them no more, and beside an exit storm they are most of a sample.
 */
void snapshot_drop_exited(struct snapshot *s);
/* Binary search by tgid; NULL when absent. */
const struct tv_task *snapshot_find(const struct snapshot *s, int32_t tgid);
const struct tv_task *task_find_thread(const struct tv_task *proc, int32_t tid);
/* The snapshot's own task that t is or copies (same tgid, tid and start):
 * where what is filled in later goes. NULL when s holds none (a group row,
 * a task that ended). */
struct tv_task *snapshot_task(struct snapshot *s, const struct tv_task *t);

#endif
