/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every task's exit, from the sched_process_exit tracepoint, as one
 * exit_rec in a ring buffer that taskview drains every few milliseconds: the final
 * counters a taskstats exit record carries, without a netlink message per
 * exit. The tracepoint fires after taskstats_exit() has added the thread to
 * its group's signal->stats, so the last thread's record carries the same
 * group totals as the kernel's TGID exit record. Needs the tracepoint's
 * group_dead argument (recent kernels; 6.18 has it); where it is missing the program does
 * not load and taskview listens on netlink as before.
 */
#include "bpf_prog.h"

#include "task_min.h"
#include "exit_rec.h"

char LICENSE[] SEC("license") = "GPL";

/* from linux/bpf.h (uapi, stable), which needs the target's asm headers */
#define TV_MAP_TYPE_RINGBUF 27
#define TV_RB_NO_WAKEUP 1

/* sized by the reader before load (bpf_exits.c) */
struct {
	__uint(type, TV_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} tv_exit_ring SEC(".maps");

/* records the ring had no room for, read by taskview through the skeleton */
__u64 tv_exit_lost = 0;

/* slot 0 is CPU's (sched_info): a class of the task iterator's goes one after */
#define DELAY(cnt, d, cls, name) TV_THREAD_DELAY(cnt->delay_ns, cnt->delay_count, cnt->delay_known, cls + 1, d, name)

#define GDELAY(cnt, g, cls, name)                                             \
	do {                                                                  \
		if (bpf_core_field_exists(g->name##_delay_total) &&           \
		    bpf_core_field_exists(g->name##_count)) {                 \
			cnt->delay_ns[cls + 1] = BPF_CORE_READ(g, name##_delay_total); \
			cnt->delay_count[cls + 1] = BPF_CORE_READ(g, name##_count); \
			cnt->delay_known |= 1u << (cls + 1);                  \
		}                                                             \
	} while (0)

/* What taskstats' fill_stats() takes of the thread. */
static void own_counts(struct exit_counts *c, struct task_struct *t)
{
	c->runtime_ns = t->se.sum_exec_runtime;
	c->utime_ns = t->utime;
	c->stime_ns = t->stime;
	c->nvcsw = t->nvcsw;
	c->nivcsw = t->nivcsw;
	c->delay_count[0] = t->sched_info.pcount;
	c->delay_ns[0] = t->sched_info.run_delay;
	c->delay_known = 1;
	if (bpf_core_field_exists(t->delays)) {
		struct task_delay_info *d = t->delays;
		if (d) {
			DELAY(c, d, TASK_REC_IO, blkio);
			DELAY(c, d, TASK_REC_SWAPIN, swapin);
			DELAY(c, d, TASK_REC_RECLAIM, freepages);
			DELAY(c, d, TASK_REC_THRASHING, thrashing);
			DELAY(c, d, TASK_REC_COMPACT, compact);
			DELAY(c, d, TASK_REC_WPCOPY, wpcopy);
			DELAY(c, d, TASK_REC_IRQ, irq);
		}
	}
}

/* The group's totals, as the kernel's TGID exit record copies them. */
static void group_counts(struct exit_counts *c, struct taskstats *g)
{
	c->runtime_ns = BPF_CORE_READ(g, cpu_run_virtual_total);
	c->utime_ns = BPF_CORE_READ(g, ac_utime) * 1000;
	c->stime_ns = BPF_CORE_READ(g, ac_stime) * 1000;
	c->nvcsw = BPF_CORE_READ(g, nvcsw);
	c->nivcsw = BPF_CORE_READ(g, nivcsw);
	c->delay_count[0] = BPF_CORE_READ(g, cpu_count);
	c->delay_ns[0] = BPF_CORE_READ(g, cpu_delay_total);
	c->delay_known = 1;
	GDELAY(c, g, TASK_REC_IO, blkio);
	GDELAY(c, g, TASK_REC_SWAPIN, swapin);
	GDELAY(c, g, TASK_REC_RECLAIM, freepages);
	GDELAY(c, g, TASK_REC_THRASHING, thrashing);
	GDELAY(c, g, TASK_REC_COMPACT, compact);
	GDELAY(c, g, TASK_REC_WPCOPY, wpcopy);
	GDELAY(c, g, TASK_REC_IRQ, irq);
}

SEC("tp_btf/sched_process_exit")
int tv_exit(__u64 *ctx)
{
	struct task_struct *t = (struct task_struct *)ctx[0];
	int group_dead = ctx[1] & 1;
	struct taskstats *g = group_dead ? BPF_CORE_READ(t, signal, stats) : 0;
	struct exit_rec *r = g ? bpf_ringbuf_reserve(&tv_exit_ring, sizeof(*r), 0)
			       : bpf_ringbuf_reserve(&tv_exit_ring, EXIT_REC_SHORT, 0);
	if (!r) {
		__sync_fetch_and_add(&tv_exit_lost, 1);
		return 0;
	}
	r->when_ns = bpf_ktime_get_ns();
	r->etime_ns = r->when_ns - t->start_time;
	r->tid = t->pid;
	r->tgid = t->tgid;
	r->ppid = BPF_CORE_READ(t, real_parent, tgid);
	r->uid = BPF_CORE_READ(t, cred, uid.val);
	r->flags = g ? EXIT_REC_GROUP : 0;
	r->pad = 0;
	r->start_boot_ns = t->start_boottime;
	r->leader_boot_ns = BPF_CORE_READ(t, group_leader, start_boottime);
	/* the exiting task is the current one, still in its group */
	r->cgroup_id = bpf_get_current_cgroup_id();
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), t->comm);
	own_counts(&r->own, t);
	if (g)
		group_counts(&r->group, g);
	/* no wakeup: taskview drains the ring on a timer, never waits on it */
	bpf_ringbuf_submit(r, TV_RB_NO_WAKEUP);
	return 0;
}
