/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters per group that never go down, across refreshes: what a group's
 * live processes counted (each at the highest value it showed), plus what
 * its processes that ended or left it had counted. An ended process adds
 * its final counters from its exit record (snapshot.gone) where there is
 * one, else its last values seen (a lower bound). A group is the readable
 * name of the processes' control group ("" when unknown).
 *
 * The same sums per command (a group and a process name within it) when
 * made with accum_init_commands(): then a process that changes its name
 * (exec) moves to the command of its new name, as one that moves to another
 * group does.
 *
 * The model: a group is shown while it has a process in the refresh, and in
 * the refresh in which its last process ended or left (with the final
 * counters). Its counters are kept for ACCUM_KEEP_S after that: processes of
 * the same name coming back in that time continue them; later ones start
 * again from their own counters (a counter reset, which Prometheus handles
 * as one).
 */
#ifndef TV_EXPORT_ACCUM_H
#define TV_EXPORT_ACCUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* How long the counters of a group without processes are kept, seconds. */
#define ACCUM_KEEP_S 3600.0

/* The counters summed per group. */
enum accum_field {
	ACC_CPU_NS,
	ACC_CTXT_VOL,
	ACC_CTXT_INVOL,
	ACC_DELAY_COUNT,                           /* + enum tv_delay_class */
	ACC_DELAY_NS = ACC_DELAY_COUNT + TV_DELAY_NCLASS, /* + enum tv_delay_class */
	ACC_N = ACC_DELAY_NS + TV_DELAY_NCLASS
};

/* A process seen alive, by identity (tgid and start time). */
struct accum_proc {
	int32_t tgid;
	uint64_t start_ticks;
	size_t group;          /* index into accum.groups */
	int64_t hw[ACC_N];     /* the highest value seen; TV_UNKNOWN while never known */
	int64_t base[ACC_N];   /* the part counted before it joined its group (0 for processes
	                          counted whole); TV_UNKNOWN: its first known value */
	bool seen;             /* in the latest refresh */
};

/* What a group's live processes show now (gauges); TV_UNKNOWN where none is known. */
struct accum_gauges {
	int64_t procs, threads;
	int64_t rss_kib, vm_kib, pte_kib, swap_kib;
	int64_t cg_mem_bytes, cg_swap_bytes; /* its control group's own files */
	struct tv_pressure psi[TV_RES_N];   /* its control group's pressure (unknown halves unknown) */
};

struct accum_group {
	char *name;
	char *comm;            /* the process name of a command; NULL in sums per group */
	int64_t ended[ACC_N];  /* counted by processes that ended or left it; TV_UNKNOWN: nothing known */
	int64_t total[ACC_N];  /* ended + its live processes: the exported value */
	/* CPU time in its control groups' own cpu.stat (the tops of its name),
	 * ns, the last known; TV_UNKNOWN while never read. Where known, it is the
	 * exported CPU total: it counts processes that lived less than a refresh */
	int64_t cg_cpu_ns;
	bool live;             /* has a process in the latest refresh */
	bool touched;          /* a process ended or left it in the latest refresh */
	double last_shown;     /* CLOCK_MONOTONIC of the latest refresh that showed it */
	struct accum_gauges g;
	size_t slot;           /* its index before sorting (scratch) */
	/* which commands have series of their own (export/pick.c) */
	double score;          /* its recent CPU use, CPUs (a moving average) */
	int64_t cpu_seen;      /* total[ACC_CPU_NS] when the score was last updated */
	bool picked;
};

struct accum {
	struct accum_proc *procs; /* sorted by tgid, then start time */
	size_t nprocs, cap;
	struct accum_group *groups; /* sorted by name (and comm) up to gsorted, then in order of arrival */
	size_t ngroups, gcap, gsorted;
	bool by_command;          /* sums per command, not per group */
	bool primed;              /* a refresh has been taken in */
	bool exits_ever;          /* exit records were watched in some interval */
	uint64_t exit_records, exit_lost; /* summed over the intervals */
	uint64_t unseen;          /* processes counted from their exit record alone, in no group known */
};

void accum_init(struct accum *a);
/* Sums per command: a group's processes of the same name together. */
void accum_init_commands(struct accum *a);
void accum_free(struct accum *a);

/*
 * Takes in one refresh. prev is the refresh before cur (the first call also
 * counts what prev shows). unseen_exits: processes that started and ended
 * between the two (seen only in their exit record) belong to the selection
 * and count in the group "" (not counted in sums per command). Returns 0, or -1 when out of memory (then the
 * sums are no longer whole: the caller stops).
 */
int accum_update(struct accum *a, const struct snapshot *prev, const struct snapshot *cur, bool unseen_exits);

/* Whether the latest refresh shows group g (it has processes, or lost its last one). */
bool accum_group_shown(const struct accum_group *g);

/* The process of cur's live task t; NULL when not tracked. */
const struct accum_proc *accum_find(const struct accum *a, const struct tv_task *t);
/* The group that the name of t's control group names ("" when unknown). */
const char *accum_group_name(const struct tv_task *t);

#endif
