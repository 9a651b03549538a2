/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One task's exit as the BPF exit program writes it to its ring buffer: the
 * final counters a taskstats exit record carries, the layout the program in
 * exits.bpf.c and its reader share (fixed-width fields, no padding holes).
 */
#ifndef TV_SAMPLE_BPF_EXIT_REC_H
#define TV_SAMPLE_BPF_EXIT_REC_H

#include "task_rec.h" /* beside it: the BPF program is built from this folder alone */

/* The delay classes in taskview's order: cpu, then enum task_rec_delay. */
#define EXIT_REC_NDELAY (TASK_REC_NDELAY + 1)

/* Final counters of a thread, or of its group (the kernel's own sum, signal->stats). */
struct exit_counts {
	unsigned long long runtime_ns;  /* se.sum_exec_runtime; the group's cpu_run_virtual_total */
	unsigned long long utime_ns, stime_ns;
	unsigned long long nvcsw, nivcsw;
	unsigned long long delay_count[EXIT_REC_NDELAY];
	unsigned long long delay_ns[EXIT_REC_NDELAY];
	unsigned int delay_known;       /* bit per class the kernel keeps */
	unsigned int pad;
};

/* bits of exit_rec.flags */
#define EXIT_REC_GROUP 1u        /* group follows (the last thread of a process that had more than one) */

struct exit_rec {
	unsigned long long when_ns;     /* CLOCK_MONOTONIC at the exit */
	unsigned long long etime_ns;    /* the thread's age then */
	int tid, tgid, ppid;
	unsigned int uid;               /* real uid */
	unsigned int flags;             /* EXIT_REC_* */
	unsigned int pad;
	/* its start and its process's (the leader's), CLOCK_BOOTTIME ns: what
	 * stat's start time counts in clock ticks, so the same task's identity */
	unsigned long long start_boot_ns, leader_boot_ns;
	unsigned long long cgroup_id;   /* its cgroup v2 group (the directory's inode) */
	char comm[16];
	struct exit_counts own;
	struct exit_counts group;       /* only with EXIT_REC_GROUP: the record is then whole */
};

/* A record without the group's counters: what the ring holds for most exits. */
#define EXIT_REC_SHORT (sizeof(struct exit_rec) - sizeof(struct exit_counts))

#endif
