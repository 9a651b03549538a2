/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A raw task record turned into what /proc would say, so that both readers
 * give the same figures: the same state letter, nice, priority and start
 * tick as stat, the same counters as schedstat, status and taskstats.
 */
#include "sample/bpf/task_rec_util.h"

#include <stdlib.h>

#define KTHREAD_FLAG 0x00200000u  /* PF_KTHREAD */
#define REPORT_MASK 0x7fu         /* TASK_REPORT: the states /proc names */
#define IDLE_STATE 0x402u         /* TASK_UNINTERRUPTIBLE | TASK_NOLOAD: shown as I */
#define RTLOCK_WAIT 0x1000u       /* TASK_RTLOCK_WAIT */
#define FROZEN 0x8000u            /* TASK_FROZEN */
#define MAX_RT_PRIO 100
#define NICE_0_PRIO 120

char task_rec_state(const struct task_rec *r)
{
	static const char letters[] = "RSDTtXZPI";
	unsigned int s = (r->state | r->exit_state) & REPORT_MASK;
	if ((r->state & IDLE_STATE) == IDLE_STATE)
		return 'I';
	/* a sleeping lock of PREEMPT_RT, or frozen: /proc says uninterruptible */
	if (r->state & (RTLOCK_WAIT | FROZEN))
		return 'D';
	unsigned int i = 0;
	while (s) {
		i++;
		s >>= 1;
	}
	return i < sizeof(letters) - 1 ? letters[i] : '?';
}

uint64_t boot_ns_ticks(uint64_t ns, long hz)
{
	/* the kernel divides by the nanoseconds of one tick, rounding down */
	uint64_t per = hz > 0 ? 1000000000ull / (uint64_t)hz : 10000000ull;
	return ns / per;
}

uint64_t task_rec_start_ticks(const struct task_rec *r, long hz)
{
	return boot_ns_ticks(r->start_ns, hz);
}

static int cmp_key(const void *a, const void *b)
{
	const struct task_rec_key *x = a, *y = b;
	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

void task_rec_index(const struct task_rec *v, size_t n, struct task_rec_key *keys)
{
	bool sorted = true;
	for (size_t i = 0; i < n; i++) {
		keys[i] = (struct task_rec_key){v[i].tgid, v[i].tid, (unsigned int)i};
		sorted &= i == 0 || cmp_key(&keys[i - 1], &keys[i]) < 0;
	}
	/* the kernel walks tasks by TID: threads of a group come between other groups' */
	if (!sorted)
		qsort(keys, n, sizeof(*keys), cmp_key);
}

const struct task_rec_key *task_rec_group(const struct task_rec_key *keys, size_t n, int tgid, size_t *cnt)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* the first key with a tgid >= the one asked */
		size_t mid = lo + (hi - lo) / 2;
		if (keys[mid].tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < n && keys[end].tgid == tgid)
		end++;
	*cnt = end - lo;
	return end > lo ? &keys[lo] : NULL;
}

const struct task_rec_key *task_rec_thread(const struct task_rec_key *run, size_t n, int tid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (run[mid].tid == tid)
			return &run[mid];
		if (run[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int64_t known(unsigned long long v)
{
	return v > (unsigned long long)INT64_MAX ? TV_UNKNOWN : (int64_t)v;
}

void task_rec_fill(const struct task_rec *r, struct tv_task *t, long hz, double mono)
{
	/* each task timed at its own read: the pass over a busy machine spans tens of ms */
	if (r->when_ns)
		mono = (double)r->when_ns / 1e9;
	t->cpu_ns = known(r->runtime_ns);
	t->cpu_fine = true;
	t->t_cpu = mono;
	t->ctxt_vol = known(r->nvcsw);
	t->ctxt_invol = known(r->nivcsw);
	t->t_ctxt = mono;
	t->delay[TV_DELAY_CPU] = (struct tv_delay){known(r->pcount), known(r->run_delay_ns)};
	for (int c = 0; c < TASK_REC_NDELAY; c++) {
		bool have = (r->have & TASK_REC_HAVE_DELAYS) && (r->delay_known & (1u << c));
		t->delay[TV_DELAY_IO + c] = have ? (struct tv_delay){known(r->delay_count[c]), known(r->delay_ns[c])}
						 : (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
	}
	t->t_delay = mono;
	t->state = task_rec_state(r);
	t->nice = r->static_prio - NICE_0_PRIO;
	t->prio = r->prio - MAX_RT_PRIO;
	t->details_read = true;
	if (r->start_ns)
		t->start_ticks = task_rec_start_ticks(r, hz);
	/* a kernel thread's /proc name says more (a worker's queue): the process's stays */
	if (!(r->flags & KTHREAD_FLAG))
		task_set_comm(t, r->comm, sizeof(r->comm));
}
