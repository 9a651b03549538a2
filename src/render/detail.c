/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "render/detail.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cgroup.h"
#include "model/snapshot.h"
#include "util/fmt.h"
#include "util/i18n.h"

/* In enum tv_delay_class order. */
static const char *const class_names[TV_DELAY_NCLASS] = {
	/* TRANSLATORS: delay class in the detail panel: waiting for a CPU */
	N_("CPU delay"),
	/* TRANSLATORS: delay class in the detail panel: waiting for block I/O */
	N_("Block I/O delay"),
	N_("Swap-in delay"),
	N_("Memory reclaim delay"),
	/* TRANSLATORS: delay class: waiting for pages re-read right after eviction */
	N_("Thrashing delay"),
	N_("Memory compaction delay"),
	/* TRANSLATORS: delay class: copying a write-protected page on write */
	N_("Write-protect copy delay"),
	N_("IRQ handling delay"),
};

#define UNKNOWN_TEXT "-"

void detail_lines_init(struct detail_lines *l)
{
	memset(l, 0, sizeof(*l));
}

void detail_lines_free(struct detail_lines *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].label);
		free(l->v[i].value);
	}
	free(l->v);
	detail_lines_init(l);
}

static void push(struct detail_lines *l, enum detail_kind kind, const char *label, const char *value)
{
	if (l->oom)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		struct detail_line *v = realloc(l->v, cap * sizeof(*v));
		if (!v) {
			l->oom = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	struct detail_line *d = &l->v[l->n];
	d->kind = kind;
	d->label = strdup(label);
	d->value = value ? strdup(value) : NULL;
	if (!d->label || (value && !d->value)) {
		free(d->label);
		free(d->value);
		l->oom = true;
		return;
	}
	l->n++;
}

void detail_add(struct detail_lines *l, enum detail_kind kind, const char *label, const char *value)
{
	push(l, kind, label, value);
}

static void row(struct detail_lines *l, const char *label, const char *value)
{
	push(l, DETAIL_ROW, label, value);
}

/* Appends printf output to a fixed buffer, cutting at its end. */
static void cat(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *out, size_t n, const char *fmt, ...)
{
	size_t len = strlen(out);
	if (len + 1 >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out + len, n - len, fmt, ap);
	va_end(ap);
}

static bool known(int64_t v)
{
	return v != TV_UNKNOWN;
}

/* A duration in ms: "0.045 ms", "3.25 ms", "512.0 ms", "4.20 s", "12:03.45". */
static void fmt_ms(char *out, size_t n, double ms)
{
	if (!isfinite(ms) || ms < 0)
		snprintf(out, n, UNKNOWN_TEXT);
	else if (ms < 1.0)
		snprintf(out, n, _("%.3f ms"), ms);
	else if (ms < 10.0)
		snprintf(out, n, _("%.2f ms"), ms);
	else if (ms < 1000.0)
		snprintf(out, n, _("%.1f ms"), ms);
	else if (ms < 60000.0)
		snprintf(out, n, _("%.2f s"), ms / 1000.0);
	else
		fmt_seconds(out, n, ms / 1000.0);
}

static void fmt_ns(char *out, size_t n, int64_t ns)
{
	if (!known(ns))
		snprintf(out, n, UNKNOWN_TEXT);
	else
		fmt_ms(out, n, (double)ns / 1e6);
}

static void fmt_int(char *out, size_t n, int64_t v)
{
	if (!known(v))
		snprintf(out, n, UNKNOWN_TEXT);
	else
		snprintf(out, n, "%" PRId64, v);
}

static void fmt_pct(char *out, size_t n, double pct)
{
	if (!isfinite(pct)) {
		snprintf(out, n, UNKNOWN_TEXT);
		return;
	}
	char num[32];
	fmt_percent(num, sizeof(num), pct);
	snprintf(out, n, "%s%%", num);
}

/* A lower bound reads "130+", as in the table. */
static void mark(char *out, size_t n, const struct tv_task *t, int part)
{
	if ((t->partial & TV_PART_BIT(part)) && strcmp(out, UNKNOWN_TEXT) != 0)
		cat(out, n, "+");
}

/* prev when it is the same task as t, else NULL. */
static const struct tv_task *same_task(const struct tv_task *t, const struct tv_task *prev)
{
	if (!prev || prev->tid != t->tid || prev->start_ticks != t->start_ticks)
		return NULL;
	return prev;
}

static void delay_rows(struct detail_lines *l, const struct tv_task *t, const struct tv_task *prev, int c,
		       bool is_thread)
{
	const struct tv_delay *d = &t->delay[c];
	char v[256], a[64], b[64];

	if (!known(d->count) && !known(d->total_ns)) {
		row(l, _(class_names[c]), UNKNOWN_TEXT);
		return;
	}

	/* the interval: share of it, average per event, events */
	v[0] = '\0';
	fmt_pct(a, sizeof(a), t->delay_pct[c]);
	mark(a, sizeof(a), t, TV_PART_DELAY + c);
	/* TRANSLATORS: %s is a percentage such as "12.5%" */
	cat(v, sizeof(v), _("%s of the interval"), a);
	int64_t events = TV_UNKNOWN;
	if (prev && known(prev->delay[c].count) && known(d->count) && d->count >= prev->delay[c].count)
		events = d->count - prev->delay[c].count;
	fmt_ms(a, sizeof(a), t->delay_avg_ms[c]);
	mark(a, sizeof(a), t, TV_PART_DELAY + c);
	cat(v, sizeof(v), "; ");
	/* TRANSLATORS: %s is the mean duration of one delay, such as "0.45 ms" */
	cat(v, sizeof(v), _("avg %s"), a);
	fmt_int(a, sizeof(a), events);
	cat(v, sizeof(v), "; ");
	/* TRANSLATORS: %s is the number of delays that ended in the interval */
	cat(v, sizeof(v), _("events: %s"), a);
	row(l, _(class_names[c]), v);

	/* since the task started: count, total, extremes */
	v[0] = '\0';
	fmt_int(a, sizeof(a), d->count);
	cat(v, sizeof(v), _("events: %s"), a);
	fmt_ns(a, sizeof(a), d->total_ns);
	cat(v, sizeof(v), "; ");
	/* TRANSLATORS: %s is the cumulative delay, such as "1.25 s" */
	cat(v, sizeof(v), _("total %s"), a);
	if (is_thread && t->peaks) {
		fmt_ns(a, sizeof(a), t->peaks->max_ns[c]);
		/* the kernel keeps min at 0 until it sees a non-zero delay */
		if (known(t->peaks->min_ns[c]) && t->peaks->min_ns[c] > 0)
			fmt_ns(b, sizeof(b), t->peaks->min_ns[c]);
		else
			snprintf(b, sizeof(b), UNKNOWN_TEXT);
	} else {
		snprintf(a, sizeof(a), UNKNOWN_TEXT);
		snprintf(b, sizeof(b), UNKNOWN_TEXT);
	}
	cat(v, sizeof(v), "; ");
	/* TRANSLATORS: longest and shortest single delay since start, durations */
	cat(v, sizeof(v), _("max %s, min %s"), a, b);
	/* TRANSLATORS: label of the cumulative line under each delay class; keep the indent */
	row(l, _("  since start"), v);
}

/* A size in KiB; part >= 0: marked "+" when t's value of that part is a lower bound. */
static void kib_row_part(struct detail_lines *l, const char *label, int64_t kib, const struct tv_task *t, int part)
{
	char v[96], h[32], exact[32];
	if (!known(kib)) {
		row(l, label, UNKNOWN_TEXT);
		return;
	}
	fmt_kib(h, sizeof(h), kib);
	snprintf(exact, sizeof(exact), "%" PRId64, kib);
	if (part >= 0)
		mark(h, sizeof(h), t, part);
	/* TRANSLATORS: memory size: %1$s human-readable such as "1.5G", %2$s exact KiB */
	snprintf(v, sizeof(v), _("%s (%s KiB)"), h, exact);
	row(l, label, v);
}

void detail_kib_row(struct detail_lines *l, const char *label, int64_t kib)
{
	kib_row_part(l, label, kib, NULL, -1);
}

static void kib_row(struct detail_lines *l, const char *label, int64_t kib)
{
	kib_row_part(l, label, kib, NULL, -1);
}

void detail_size_words(char *out, size_t n, int64_t kib)
{
	double v = (double)kib;
	if (kib >= 1024 * 1024)
		snprintf(out, n, _("%.1f GiB"), v / (1024.0 * 1024.0));
	else if (kib >= 10 * 1024)
		snprintf(out, n, _("%.0f MiB"), v / 1024.0);
	else if (kib >= 1024)
		snprintf(out, n, _("%.1f MiB"), v / 1024.0);
	else {
		char num[24];
		snprintf(num, sizeof(num), "%" PRId64, kib);
		snprintf(out, n, _("%s KiB"), num);
	}
}

/* The stacks of a process's threads in one sentence, and why some are unknown. */
static void stack_notes(struct detail_lines *out, const struct tv_task *t)
{
	size_t known = 0;
	for (size_t i = 0; i < t->nthreads_read; i++)
		known += task_stack_size(&t->threads[i]) != TV_UNKNOWN && task_stack_rss(&t->threads[i]) != TV_UNKNOWN;
	int64_t size = task_stack_size(t), rss = task_stack_rss(t);
	if (known && size != TV_UNKNOWN && rss != TV_UNKNOWN) {
		char v[256], a[32], b[32];
		detail_size_words(a, sizeof(a), size);
		detail_size_words(b, sizeof(b), rss);
		/* TRANSLATORS: %1$zu threads, %2$s stack reserved ("7.9 GiB"), %3$s of it resident ("12 MiB") */
		snprintf(v, sizeof(v), P_("%zu thread reserves %s of stack and uses %s of it.",
					  "%zu threads reserve %s of stack and use %s of it.", known),
			 known, a, b);
		push(out, DETAIL_NOTE, v, NULL);
	}
	const char *why = NULL;
	switch (t->stack_why) {
	case TV_STACK_DENIED:
		why = _("Some thread stacks are unknown: finding and reading them needs permission to trace the "
			"process (ptrace), as its owner or root has.");
		break;
	case TV_STACK_RUNNING:
		why = _("A thread was running whenever it was read, so its stack is not found yet.");
		break;
	case TV_STACK_NOTFOUND:
		why = _("No mapping held a thread's stack pointer; it may have ended meanwhile.");
		break;
	case TV_STACK_KERNEL:
		why = _("A kernel thread has no user-space stack.");
		break;
	case TV_STACK_LATE:
		why = _("Some thread stacks were not read in this refresh: the process's memory map was busy (as "
			"while it forks or maps often), and the stacks may take half a refresh, at least a second. "
			"They are read again at the next.");
		break;
	case TV_STACK_ELSEWHERE:
		why = _("A thread runs on a stack in the heap or in a file mapping (one the program allocated, "
			"as for a coroutine): not counted, as that mapping is no stack.");
		break;
	default:
		if (t->kthread)
			why = _("A kernel thread has no user-space stack.");
		else if (!known)
			why = _("Thread stacks are read while the STACK or STKRES column is shown.");
	}
	if (why)
		push(out, DETAIL_NOTE, why, NULL);
}

static void ctxt_row(struct detail_lines *l, const char *label, const struct tv_task *t, bool vol)
{
	char v[96], a[32], b[32];
	double rate = vol ? t->ctxt_vol_rate : t->ctxt_invol_rate;
	fmt_int(a, sizeof(a), vol ? t->ctxt_vol : t->ctxt_invol);
	mark(a, sizeof(a), t, vol ? TV_PART_CTXT_VOL : TV_PART_CTXT_INVOL);
	if (isfinite(rate))
		fmt_count(b, sizeof(b), rate);
	else
		snprintf(b, sizeof(b), UNKNOWN_TEXT);
	mark(b, sizeof(b), t, vol ? TV_PART_CTXT_VOL_RATE : TV_PART_CTXT_INVOL_RATE);
	/* TRANSLATORS: context switches: %1$s since start, %2$s per second in the interval */
	snprintf(v, sizeof(v), _("%s in all, %s/s"), a, b);
	row(l, label, v);
}

static const char *state_name(char s)
{
	switch (s) {
	case 'R': return _("running");
	case 'S': return _("sleeping");
	case 'D': return _("uninterruptible wait");
	case 'Z': return _("zombie");
	case 'T': return _("stopped");
	case 't': return _("stopped by a tracer");
	case 'X': case 'x': return _("dead");
	case 'I': return _("idle kernel thread");
	case 'P': return _("parked");
	case 'K': return _("waking to be killed");
	case 'W': return _("waking");
	default: return NULL;
	}
}

static void task_rows(struct detail_lines *l, const struct tv_task *t, bool is_thread)
{
	char v[128], a[64];

	push(l, DETAIL_HEADING, is_thread ? _("Thread") : _("Process"), NULL);
	if (is_thread) {
		fmt_int(a, sizeof(a), t->tid);
		row(l, _("Thread ID"), a);
		fmt_int(a, sizeof(a), t->tgid);
		row(l, _("Process ID"), a);
	} else {
		fmt_int(a, sizeof(a), t->tgid);
		row(l, _("Process ID"), a);
		fmt_int(a, sizeof(a), t->nthreads);
		row(l, _("Threads"), a);
	}
	fmt_int(a, sizeof(a), t->ppid);
	row(l, _("Parent process ID"), a);

	const char *sn = state_name(t->state);
	if (sn)
		snprintf(v, sizeof(v), "%c (%s)", t->state, sn);
	else
		snprintf(v, sizeof(v), UNKNOWN_TEXT);
	row(l, _("State"), v);

	fmt_pct(a, sizeof(a), t->cpu_pct);
	mark(a, sizeof(a), t, TV_PART_CPU);
	/* TRANSLATORS: CPU use in the interval as a percentage of one CPU */
	row(l, _("CPU in the interval"), a);
	if (known(t->cpu_ns))
		fmt_seconds(a, sizeof(a), (double)t->cpu_ns / 1e9);
	else
		snprintf(a, sizeof(a), UNKNOWN_TEXT);
	/* TRANSLATORS: cumulative user + system CPU time */
	row(l, _("CPU time"), a);
	if (t->start_ticks > 0 && t->start_ticks != TV_START_UNKNOWN) {
		fmt_seconds(a, sizeof(a), (double)t->start_ticks / 100.0);
		/* TRANSLATORS: %s is a time such as "1:02:03" counted from boot */
		snprintf(v, sizeof(v), _("%s after boot"), a);
	} else {
		snprintf(v, sizeof(v), UNKNOWN_TEXT);
	}
	row(l, _("Started"), v);
}

/* What a + means, and why this refresh's values lack a part (why: NULL when not known). */
static void partial_note(struct detail_lines *out, const char *why)
{
	char v[512];
	snprintf(v, sizeof(v), "%s%s%s",
		 _("A value followed by + is a lower bound: threads exited without telling what they did last."),
		 why ? " " : "", why ? why : "");
	push(out, DETAIL_NOTE, v, NULL);
}

void detail_build(const struct tv_task *t, const struct tv_task *prev, double interval, bool is_thread,
		  const char *partial_why, struct detail_lines *out)
{
	char h[128];

	detail_lines_free(out);
	prev = same_task(t, prev);
	task_rows(out, t, is_thread);

	if (interval > 0 && isfinite(interval))
		/* TRANSLATORS: section title; %.1f is the interval in seconds */
		snprintf(h, sizeof(h), _("Delays (interval %.1f s)"), interval);
	else
		snprintf(h, sizeof(h), "%s", _("Delays"));
	push(out, DETAIL_HEADING, h, NULL);
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		delay_rows(out, t, prev, c, is_thread);
	if (!is_thread)
		push(out, DETAIL_NOTE,
		     /* xgettext:no-c-format */
		     _("A process sums its threads, exited ones included, so its share can pass 100%; "
		       "the kernel keeps max and min per thread only."),
		     NULL);

	push(out, DETAIL_HEADING, _("Memory"), NULL);
	kib_row(out, _("Resident (VmRSS)"), task_mem(t)->rss);
	/* TRANSLATORS: the parts of resident memory, indented under it */
	kib_row(out, _("  anonymous (RssAnon)"), task_mem(t)->rss_anon);
	kib_row(out, _("  file-backed (RssFile)"), task_mem(t)->rss_file);
	kib_row(out, _("  shared memory (RssShmem)"), task_mem(t)->rss_shmem);
	kib_row(out, _("Peak resident (VmHWM)"), task_mem(t)->hwm);
	kib_row(out, _("Virtual (VmSize)"), task_mem(t)->size);
	kib_row(out, _("Page tables (VmPTE)"), task_mem(t)->pte);
	kib_row(out, _("Stack (VmStk)"), task_mem(t)->stk);
	kib_row(out, _("Swapped out (VmSwap)"), task_mem(t)->swap);
	kib_row_part(out, is_thread ? _("Stack reserved") : _("Thread stacks reserved"), task_stack_size(t), t,
		     TV_PART_STACK);
	kib_row_part(out, is_thread ? _("Stack resident") : _("Thread stacks resident"), task_stack_rss(t), t,
		     TV_PART_STACK);
	if (!is_thread)
		stack_notes(out, t);
	if (is_thread)
		push(out, DETAIL_NOTE, _("Memory belongs to the address space: every thread shows its process's."),
		     NULL);

	push(out, DETAIL_HEADING, _("Context switches"), NULL);
	/* TRANSLATORS: switches when the task waited (I/O, locks, sleep) */
	ctxt_row(out, _("Voluntary"), t, true);
	/* TRANSLATORS: switches when the task was preempted */
	ctxt_row(out, _("Involuntary"), t, false);
	if (!is_thread)
		push(out, DETAIL_NOTE, _("Process rows count every thread of the group."), NULL);
	if (t->partial)
		partial_note(out, partial_why);

	if (!is_thread && t->cmdline) {
		push(out, DETAIL_HEADING, _("Command line"), NULL);
		detail_command(t, out);
	}
}

void detail_command(const struct tv_task *t, struct detail_lines *out)
{
	/* the whole command line, which the table cuts; raw bytes of the task */
	if (t->cmdline)
		push(out, DETAIL_NOTE, t->cmdline, NULL);
}

/* ---- a control group's row ---- */

/* One resource's pressure: "some: avg10 2.16%, 3.1% of the interval; full: ...". */
static void pressure_row(struct detail_lines *l, const char *label, const struct tv_pressure *p)
{
	char v[256], a[64], b[64];
	if (!p->some_known && !p->full_known) {
		row(l, label, UNKNOWN_TEXT);
		return;
	}
	v[0] = '\0';
	fmt_pct(a, sizeof(a), p->some_known ? p->some_avg10 : NAN);
	fmt_pct(b, sizeof(b), p->some_pct);
	/* TRANSLATORS: pressure stall information: the kernel's 10 s average, then
	   the share of taskview's interval; both are percentages such as "2.5%" */
	cat(v, sizeof(v), _("some: avg10 %s, %s of the interval"), a, b);
	fmt_pct(a, sizeof(a), p->full_known ? p->full_avg10 : NAN);
	fmt_pct(b, sizeof(b), p->full_pct);
	cat(v, sizeof(v), "; ");
	/* TRANSLATORS: as "some: ...": all non-idle tasks stalled at once */
	cat(v, sizeof(v), _("full: avg10 %s, %s of the interval"), a, b);
	row(l, label, v);
}

static void bytes_row(struct detail_lines *l, const char *label, int64_t bytes)
{
	kib_row(l, label, bytes == TV_UNKNOWN ? TV_UNKNOWN : bytes / 1024);
}

/* A host's CPUs, load and CPU time (the hosts' screen). */
static void host_rows(struct detail_lines *out, const struct snapshot *h)
{
	char v[128];
	fmt_int(v, sizeof(v), h->ncpus ? (int64_t)h->ncpus : TV_UNKNOWN);
	row(out, _("CPUs online"), v);
	const double *l = h->machine.load;
	if (machine_load_known(&h->machine))
		/* TRANSLATORS: a host's load averages over 1, 5 and 15 minutes */
		snprintf(v, sizeof(v), _("%.2f, %.2f, %.2f (1, 5 and 15 minutes)"), l[0], l[1], l[2]);
	else
		snprintf(v, sizeof(v), "%s", UNKNOWN_TEXT);
	row(out, _("Load"), v);
	fmt_pct(v, sizeof(v), h->machine.cpu_pct);
	/* TRANSLATORS: a host's CPU time over the interval, every task and interrupt of it */
	row(out, _("CPU of the host"), v);
}

/* A host's memory: in use (its row's), and what it has. */
static void host_memory(struct detail_lines *out, const struct tv_cgroup *cg)
{
	const struct tv_machine *m = &cg->host->machine;
	push(out, DETAIL_HEADING, _("Memory of the host"), NULL);
	/* TRANSLATORS: a host's memory in use: MemTotal less MemAvailable of its /proc/meminfo */
	bytes_row(out, _("In use (total less available)"), cg->mem_bytes);
	kib_row(out, _("Total"), m->mem_total);
	bytes_row(out, _("Swap in use"), cg->swap_bytes);
	kib_row(out, _("Swap total"), m->swap_total);
	if (cg->mem_bytes == TV_UNKNOWN && cg->mem_why)
		push(out, DETAIL_NOTE, cg->mem_why, NULL);
	else
		push(out, DETAIL_NOTE, _("What the host's programs and kernel hold, without the cache it can drop: not a sum of its processes' RSS."),
		     NULL);
}

void detail_build_group(const struct row_group *g, double interval, const char *partial_why,
			struct detail_lines *out)
{
	const struct tv_task *t = &g->task;
	const struct tv_cgroup *cg = t->cgroup;
	char v[256], a[64], b[64];

	detail_lines_free(out);
	push(out, DETAIL_HEADING, cg->host ? _("Host") : _("Control group"), NULL);
	if (!cg->host)
		row(out, _("Path"), cg->path);
	row(out, _("Name"), cg->unit);
	size_t own = 0;
	for (size_t i = 0; i < g->nmembers; i++)
		own += g->members[i]->cgroup == cg;
	/* TRANSLATORS: processes a group row sums: %1$zu in all, %2$zu of them directly in the group */
	snprintf(v, sizeof(v), P_("%zu shown, %zu of them in the group itself", "%zu shown, %zu of them in the group itself",
				  g->nmembers), g->nmembers, own);
	row(out, _("Processes"), v);
	fmt_int(a, sizeof(a), t->nthreads);
	row(out, _("Threads"), a);
	if (cg->host)
		host_rows(out, cg->host);

	if (interval > 0 && isfinite(interval))
		/* TRANSLATORS: section title; %.1f is the interval in seconds */
		snprintf(v, sizeof(v), _("Sums of its processes (interval %.1f s)"), interval);
	else
		snprintf(v, sizeof(v), "%s", _("Sums of its processes"));
	push(out, DETAIL_HEADING, v, NULL);
	fmt_pct(a, sizeof(a), t->cpu_pct);
	mark(a, sizeof(a), t, TV_PART_CPU);
	row(out, _("CPU in the interval"), a);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		fmt_pct(a, sizeof(a), t->delay_pct[c]);
		mark(a, sizeof(a), t, TV_PART_DELAY + c);
		fmt_ms(b, sizeof(b), t->delay_avg_ms[c]);
		mark(b, sizeof(b), t, TV_PART_DELAY + c);
		v[0] = '\0';
		cat(v, sizeof(v), _("%s of the interval"), a);
		cat(v, sizeof(v), "; ");
		cat(v, sizeof(v), _("avg %s"), b);
		row(out, _(class_names[c]), v);
	}
	ctxt_row(out, _("Voluntary"), t, true);
	ctxt_row(out, _("Involuntary"), t, false);
	push(out, DETAIL_NOTE,
	     /* xgettext:no-c-format */
	     _("A group sums the processes shown in it and in its nested groups, their exited threads included; "
	       "shares of the interval can pass 100%."),
	     NULL);

	if (cg->host) {
		host_memory(out, cg);
	} else {
		push(out, DETAIL_HEADING, _("Memory of the group"), NULL);
		bytes_row(out, _("Charged (memory.current)"), cg->mem_bytes);
		bytes_row(out, _("Swap (memory.swap.current)"), cg->swap_bytes);
		if (cg->mem_bytes == TV_UNKNOWN && cg->mem_why)
			push(out, DETAIL_NOTE, cg->mem_why, NULL);
		else
			push(out, DETAIL_NOTE,
			     _("What the kernel charges to the group, page cache included: not a sum of its processes' RSS."),
			     NULL);
	}

	push(out, DETAIL_HEADING, cg->host ? _("Pressure of the host") : _("Pressure of the group"), NULL);
	pressure_row(out, _("CPU"), &cg->psi[TV_RES_CPU]);
	pressure_row(out, _("Block I/O"), &cg->psi[TV_RES_IO]);
	pressure_row(out, _("Memory"), &cg->psi[TV_RES_MEMORY]);
	if (cg->psi_why)
		push(out, DETAIL_NOTE, cg->psi_why, NULL);
	else
		push(out, DETAIL_NOTE,
		     _("some: at least one of its tasks waited for the resource; full: all of its non-idle tasks did at once."),
		     NULL);
	if (t->partial)
		partial_note(out, partial_why);
}
