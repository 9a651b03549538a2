/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One pass over every task in the kernel: for each, one task_rec with what
 * /proc's per-thread stat, status and schedstat and a taskstats reply would
 * give. Fields the running kernel lacks are left zero and their bits in
 * task_rec.delay_known clear (CO-RE: checked against its BTF at load time).
 */
#include "bpf_prog.h"

#include "task_min.h"
#include "task_rec.h"

char LICENSE[] SEC("license") = "GPL";

#define DELAY(rec, d, cls, name) TV_THREAD_DELAY(rec.delay_ns, rec.delay_count, rec.delay_known, cls, d, name)

SEC("iter/task")
int tv_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t = ctx->task;
	struct task_rec rec = {};

	if (!t)
		return 0;
	rec.when_ns = bpf_ktime_get_ns();
	rec.tid = t->pid;
	rec.tgid = t->tgid;
	if (bpf_core_field_exists(t->__state)) {
		rec.state = t->__state;
	} else {
		struct task_struct___old *o = (void *)t;
		rec.state = (unsigned int)BPF_CORE_READ(o, state);
	}
	rec.exit_state = (unsigned int)t->exit_state;
	rec.flags = t->flags;
	rec.prio = t->prio;
	rec.static_prio = t->static_prio;
	if (bpf_core_field_exists(t->start_boottime))
		rec.start_ns = t->start_boottime;
	/* the runtime of a task on a CPU is brought up to date at its next tick
	 * or switch (a read of its schedstat does it at once): said, so the
	 * reader can read those few from /proc */
	if (bpf_core_field_exists(t->on_cpu))
		rec.on_cpu = t->on_cpu != 0;
	rec.runtime_ns = t->se.sum_exec_runtime;
	rec.run_delay_ns = t->sched_info.run_delay;
	rec.pcount = t->sched_info.pcount;
	rec.nvcsw = t->nvcsw;
	rec.nivcsw = t->nivcsw;
	bpf_probe_read_kernel_str(rec.comm, sizeof(rec.comm), t->comm);
	if (bpf_core_field_exists(t->delays)) {
		struct task_delay_info *d = t->delays;
		if (d) {
			rec.have |= TASK_REC_HAVE_DELAYS;
			DELAY(rec, d, TASK_REC_IO, blkio);
			DELAY(rec, d, TASK_REC_SWAPIN, swapin);
			DELAY(rec, d, TASK_REC_RECLAIM, freepages);
			DELAY(rec, d, TASK_REC_THRASHING, thrashing);
			DELAY(rec, d, TASK_REC_COMPACT, compact);
			DELAY(rec, d, TASK_REC_WPCOPY, wpcopy);
			DELAY(rec, d, TASK_REC_IRQ, irq);
		}
	}
	bpf_seq_write(seq, &rec, sizeof(rec));
	return 0;
}
