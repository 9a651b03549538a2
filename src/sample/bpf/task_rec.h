/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One task as the BPF task iterator writes it: the layout the program in
 * task_iter.bpf.c and its reader share (fixed-width fields, no padding
 * holes, so both compilers lay it out alike).
 */
#ifndef TV_SAMPLE_BPF_TASK_REC_H
#define TV_SAMPLE_BPF_TASK_REC_H

/* the delay classes the kernel's task_delay_info has, in taskview's order after cpu */
enum task_rec_delay { TASK_REC_IO, TASK_REC_SWAPIN, TASK_REC_RECLAIM, TASK_REC_THRASHING,
		      TASK_REC_COMPACT, TASK_REC_WPCOPY, TASK_REC_IRQ, TASK_REC_NDELAY };

/* bits of task_rec.have */
#define TASK_REC_HAVE_DELAYS 1u  /* the task has a task_delay_info */

struct task_rec {
	int tid, tgid;
	unsigned int state, exit_state;  /* raw: __state (or state) and exit_state */
	unsigned int flags;              /* PF_* */
	int prio, static_prio;
	unsigned int have;               /* TASK_REC_HAVE_* */
	unsigned int delay_known;        /* bit per enum task_rec_delay the kernel has */
	unsigned int on_cpu;             /* on a CPU at the read: runtime_ns lags (task_iter.bpf.c) */
	unsigned long long start_ns;     /* start_boottime */
	unsigned long long when_ns;      /* CLOCK_MONOTONIC when the task was read: a pass takes long */
	unsigned long long runtime_ns;   /* se.sum_exec_runtime */
	unsigned long long run_delay_ns; /* sched_info.run_delay */
	unsigned long long pcount;       /* sched_info.pcount */
	unsigned long long nvcsw, nivcsw;
	unsigned long long delay_count[TASK_REC_NDELAY];
	unsigned long long delay_ns[TASK_REC_NDELAY];
	char comm[16];
};

#endif
