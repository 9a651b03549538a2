/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel structures the task iterator reads, reduced to the fields it
 * uses. preserve_access_index makes every access a CO-RE relocation: libbpf
 * finds the real offsets in the running kernel's BTF at load time, so no
 * vmlinux.h from the build machine is needed.
 */
#ifndef TV_SAMPLE_BPF_TASK_MIN_H
#define TV_SAMPLE_BPF_TASK_MIN_H

#define TV_CORE __attribute__((preserve_access_index))

struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
} TV_CORE;

struct sched_entity {
	unsigned long long sum_exec_runtime;
} TV_CORE;

struct sched_info {
	unsigned long pcount;
	unsigned long long run_delay;
} TV_CORE;

struct task_delay_info {
	unsigned long long blkio_delay, swapin_delay, freepages_delay, thrashing_delay;
	unsigned long long compact_delay, wpcopy_delay, irq_delay;
	unsigned int blkio_count, swapin_count, freepages_count, thrashing_count;
	unsigned int compact_count, wpcopy_count, irq_count;
} TV_CORE;

/* the group's accumulated taskstats (the same struct the kernel sends) */
struct taskstats {
	unsigned long long cpu_count, cpu_delay_total, blkio_count, blkio_delay_total;
	unsigned long long swapin_count, swapin_delay_total, cpu_run_virtual_total;
	unsigned long long ac_utime, ac_stime, nvcsw, nivcsw;
	unsigned long long freepages_count, freepages_delay_total, thrashing_count, thrashing_delay_total;
	unsigned long long compact_count, compact_delay_total, wpcopy_count, wpcopy_delay_total;
	unsigned long long irq_count, irq_delay_total;
} TV_CORE;

struct signal_struct {
	struct taskstats *stats;
} TV_CORE;

typedef struct {
	unsigned int val;
} tv_kuid_t;

struct cred {
	tv_kuid_t uid;
} TV_CORE;

struct task_struct {
	unsigned int __state;
	int exit_state;
	unsigned int flags;
	int pid, tgid;
	int on_cpu;
	int prio, static_prio;
	unsigned long long start_boottime;
	unsigned long long start_time;
	unsigned long long utime, stime;
	struct task_struct *real_parent;
	struct task_struct *group_leader;
	const struct cred *cred;
	struct signal_struct *signal;
	unsigned long nvcsw, nivcsw;
	struct sched_entity se;
	struct sched_info sched_info;
	struct task_delay_info *delays;
	char comm[16];
} TV_CORE;

/* before 5.14 the state was a long named state */
struct task_struct___old {
	long state;
} TV_CORE;

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} TV_CORE;

#endif
