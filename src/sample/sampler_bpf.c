/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF reader's side of a refresh: one pass over every task, run when the
 * first process's threads are read, then each process's threads listed and
 * filled from it instead of task/ and the per-thread files or queries.
 * Opened at first use; where it cannot run, or would cost more than the
 * files it saves, /proc is read as before.
 */
#include "sample/sampler_priv.h"

#include <stdlib.h>
#include <string.h>

#include "sample/bpf/bpf_tasks.h"
#include "sample/bpf/task_rec_util.h"
#include "sample/proc/kconfig.h"
#include "util/i18n.h"

/* TASKVIEW_READER: "proc" never runs the pass, "bpf" runs it whatever the cost; else by cost. */
static int reader_mode(void)
{
	const char *e = getenv("TASKVIEW_READER");
	if (e && strcmp(e, "proc") == 0)
		return -1;
	return e && strcmp(e, "bpf") == 0;
}

static void bpf_mode_once(struct sampler *s)
{
	if (!s->bpf_tried) {
		s->bpf_tried = true;
		s->bpf_mode = reader_mode();
	}
}

/*
 * The pass costs under a microsecond for every task of the machine; a
 * thread read from /proc costs about ten (a taskstats query, or schedstat
 * and status). Worth it when the threads read are at least a tenth of all
 * tasks: judged by the previous refresh's, or for the first by -H (every
 * shown process's threads).
 */
static bool bpf_worth(size_t threads_prev, size_t tasks, bool all_threads)
{
	return threads_prev ? threads_prev * 10 >= tasks : all_threads;
}

static void bpf_open(struct sampler *s)
{
	if (s->bpf || s->bpf_opened)
		return;
	s->bpf_opened = true;
	s->bpf = bpf_tasks_open(&s->bpf_why);
	/* as taskstats: without IRQ time accounting an irq delay of 0 means nothing */
	s->bpf_no_irq = s->bpf && kconfig_running("CONFIG_IRQ_TIME_ACCOUNTING") == KCONFIG_NO;
}

void sampler_bpf_prepare(struct sampler *s, bool all_threads)
{
	bpf_mode_once(s);
	/* the judgement sampler_bpf_begin will make, with the last refresh's task count */
	if (s->bpf_mode > 0 || (s->bpf_mode == 0 && bpf_worth(s->threads_prev, s->bpf_tasks, all_threads)))
		bpf_open(s);
}

void sampler_bpf_begin(struct sampler *s, bool all_threads, size_t tasks)
{
	s->bpf_pass = 0;
	s->bpf_why_now = NULL;
	bpf_mode_once(s);
	bool worth = bpf_worth(s->threads_prev, tasks, all_threads);
	if (s->bpf_mode < 0) {
		s->bpf_pass = -1;
		s->bpf_why_now = _("turned off by TASKVIEW_READER=proc");
	} else if (!worth && s->bpf_mode == 0) {
		s->bpf_pass = -1;
		s->bpf_why_now = _("too few threads read for a pass over every task");
	}
	s->threads_prev = s->threads_now;
	s->threads_now = 0;
	s->bpf_tasks = tasks;
}

bool sampler_bpf_group(struct sampler *s, int32_t tgid, const struct task_rec_key **v, size_t *n)
{
	*v = NULL;
	*n = 0;
	if (s->bpf_pass < 0)
		return false;
	bpf_open(s);
	if (!s->bpf) {
		s->bpf_pass = -1;
		s->bpf_why_now = s->bpf_why;
		return false;
	}
	if (s->bpf_pass == 0) {
		long k = bpf_tasks_read(s->bpf, &s->bpf_mono);
		s->bpf_pass = k > 0 ? 1 : -1;
		if (k <= 0) {
			s->bpf_why_now = _("the BPF task iterator could not be read");
			return false;
		}
	}
	/* a process started after the pass, or gone before it, is read from /proc */
	*v = bpf_tasks_group(s->bpf, tgid, n);
	return *n > 0;
}

int sampler_bpf_list(struct tracked_proc *tp, const struct task_rec_key *v, size_t n)
{
	bool before = tp->nthreads > 0; /* the first listing finds threads, not births */
	int born = 0;
	for (size_t i = 0; i < tp->nthreads; i++)
		tp->threads[i].seen = false;
	for (size_t i = 0; i < n; i++) {
		struct tracked_thread *th = tracked_thread_find(tp, v[i].tid);
		if (!th) {
			th = tracked_thread_add(tp, v[i].tid);
			born |= before;
		}
		if (th)
			th->seen = true;
	}
	tracked_thread_fit(tp);
	return born;
}

/*
 * A thread on a CPU at the pass lacks in se.sum_exec_runtime what it ran
 * since its last tick or switch (up to a tick; at -d 0.1 that is several
 * percent of a CPU): its schedstat, which the kernel brings up to date when
 * read, gives the CPU time instead. At most one thread per CPU; where the
 * read fails the pass's value stays.
 */
static void bpf_oncpu_runtime(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
			      struct tv_task *t)
{
	struct proc_schedstat ss;
	double when;
	if (sampler_thread_schedstat(s, tp, th, &ss, &when) < 0 || ss.runtime_ns == TV_UNKNOWN)
		return;
	t->cpu_ns = ss.runtime_ns;
	t->t_cpu = when;
}

int sampler_bpf_thread(struct sampler *s, struct tracked_proc *tp, struct tracked_thread *th,
		       const struct task_rec_key *v, size_t n, struct tv_task *t)
{
	const struct task_rec_key *k = task_rec_thread(v, n, th->tid);
	if (!k)
		return -1;
	const struct task_rec *r = bpf_tasks_rec(s->bpf, k);
	task_rec_fill(r, t, (long)s->hz, s->bpf_mono);
	if (r->on_cpu)
		bpf_oncpu_runtime(s, tp, th, t);
	/* without taskstats, whether delay accounting was on when the thread
	 * started is not known: its zeros may mean off */
	for (int c = TV_DELAY_IO; !sampler_ts_usable(s) && c < TV_DELAY_NCLASS; c++)
		t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
	if (s->bpf_no_irq)
		t->delay[TV_DELAY_IRQ] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
	th->start = t->start_ticks;
	tracked_copy_name(th->comm, sizeof(th->comm), task_comm(t));
	tp->oncpu += t->state == 'R';
	return 0;
}
