/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "export/openmetrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Help texts stay in English: they are part of the metrics' interface, the
 * same on every host that feeds one server (docs/metrics.md). */

static const char *const class_names[TV_DELAY_NCLASS] = {
	"cpu", "io", "swapin", "reclaim", "thrashing", "compact", "wpcopy", "irq",
};
static const char *const resource_names[TV_RES_N] = {"cpu", "io", "memory"};

/* --- the whole system --- */
static const struct om_family f_timestamp = {
	"taskview_sample_timestamp_seconds", OM_GAUGE, "seconds",
	"Unix time at which the sample was taken"};
static const struct om_family f_exits_watched = {
	"taskview_exits_watched", OM_GAUGE, NULL,
	"1 when the kernel's exit records were received for the whole interval (group counters then include "
	"the last moments of processes that ended), else 0"};
static const struct om_family f_exit_records = {
	"taskview_exit_records", OM_COUNTER, NULL,
	"Exit records received from the kernel (one per thread that ended) since taskview started"};
static const struct om_family f_exit_lost = {
	"taskview_exit_records_lost", OM_COUNTER, NULL,
	"Exit records the kernel dropped since taskview started (exit storms): counters of those processes "
	"miss their last moments"};
static const struct om_family f_psi_some = {
	"taskview_pressure_some_seconds", OM_COUNTER, "seconds",
	"Time in which some tasks stalled on the resource (/proc/pressure)"};
static const struct om_family f_psi_full = {
	"taskview_pressure_full_seconds", OM_COUNTER, "seconds",
	"Time in which all non-idle tasks stalled on the resource at once (/proc/pressure)"};

/* --- per group --- */
static const struct om_family f_g_procs = {
	"taskview_group_processes", OM_GAUGE, NULL, "Processes in the group"};
static const struct om_family f_g_threads = {
	"taskview_group_threads", OM_GAUGE, NULL, "Threads of the group's processes"};
static const struct om_family f_g_cpu = {
	"taskview_group_cpu_seconds", OM_COUNTER, "seconds",
	"CPU time (user + system) of the group's processes, those that ended included"};
static const struct om_family f_g_vol = {
	"taskview_group_voluntary_context_switches", OM_COUNTER, NULL,
	"Voluntary context switches (waits for I/O, locks, sleep) of the group's processes, those that ended included"};
static const struct om_family f_g_invol = {
	"taskview_group_involuntary_context_switches", OM_COUNTER, NULL,
	"Involuntary context switches (preemptions) of the group's processes, those that ended included"};
static const struct om_family f_g_delay = {
	"taskview_group_delay_seconds", OM_COUNTER, "seconds",
	"Time the group's processes waited, per delay accounting class, those that ended included"};
static const struct om_family f_g_delays = {
	"taskview_group_delay_events", OM_COUNTER, NULL,
	"Waits of the group's processes, per delay accounting class, those that ended included"};
static const struct om_family f_g_rss = {
	"taskview_group_resident_memory_bytes", OM_GAUGE, "bytes",
	"Sum of the processes' resident memory (VmRSS; shared pages count in each process)"};
static const struct om_family f_g_virt = {
	"taskview_group_virtual_memory_bytes", OM_GAUGE, "bytes", "Sum of the processes' virtual memory size (VmSize)"};
static const struct om_family f_g_pte = {
	"taskview_group_page_table_bytes", OM_GAUGE, "bytes", "Sum of the processes' page tables (VmPTE)"};
static const struct om_family f_g_swap = {
	"taskview_group_swap_bytes", OM_GAUGE, "bytes", "Sum of the processes' swapped-out memory (VmSwap)"};
static const struct om_family f_g_cgmem = {
	"taskview_group_cgroup_memory_bytes", OM_GAUGE, "bytes",
	"Memory charged to the group's control group, its sub-groups included (memory.current)"};
static const struct om_family f_g_cgswap = {
	"taskview_group_cgroup_swap_bytes", OM_GAUGE, "bytes",
	"Swap used by the group's control group, its sub-groups included (memory.swap.current)"};
static const struct om_family f_g_psi_some = {
	"taskview_group_pressure_some_seconds", OM_COUNTER, "seconds",
	"Time in which some of the control group's tasks stalled on the resource"};
static const struct om_family f_g_psi_full = {
	"taskview_group_pressure_full_seconds", OM_COUNTER, "seconds",
	"Time in which all of the control group's non-idle tasks stalled on the resource at once"};

/* --- per process (--top) --- */
static const struct om_family f_p_cpu = {
	"taskview_process_cpu_seconds", OM_COUNTER, "seconds", "CPU time (user + system) of the process"};
static const struct om_family f_p_vol = {
	"taskview_process_voluntary_context_switches", OM_COUNTER, NULL, "Voluntary context switches of the process"};
static const struct om_family f_p_invol = {
	"taskview_process_involuntary_context_switches", OM_COUNTER, NULL,
	"Involuntary context switches of the process"};
static const struct om_family f_p_delay = {
	"taskview_process_delay_seconds", OM_COUNTER, "seconds",
	"Time the process waited, per delay accounting class"};
static const struct om_family f_p_delays = {
	"taskview_process_delay_events", OM_COUNTER, NULL, "Waits of the process, per delay accounting class"};
static const struct om_family f_p_threads = {
	"taskview_process_threads", OM_GAUGE, NULL, "Threads of the process"};
static const struct om_family f_p_rss = {
	"taskview_process_resident_memory_bytes", OM_GAUGE, "bytes", "Resident memory of the process (VmRSS)"};
static const struct om_family f_p_virt = {
	"taskview_process_virtual_memory_bytes", OM_GAUGE, "bytes", "Virtual memory size of the process (VmSize)"};
static const struct om_family f_p_pte = {
	"taskview_process_page_table_bytes", OM_GAUGE, "bytes", "Page tables of the process (VmPTE)"};
static const struct om_family f_p_swap = {
	"taskview_process_swap_bytes", OM_GAUGE, "bytes", "Swapped-out memory of the process (VmSwap)"};

/* Series each kind of subject can have: keep in step with the families above. */
enum {
	SERIES_SYSTEM = 4 + 2 * TV_RES_N,
	SERIES_GROUP = 5 + 2 * TV_DELAY_NCLASS + 6 + 2 * TV_RES_N,
	SERIES_PROCESS = 3 + 2 * TV_DELAY_NCLASS + 5,
};

size_t openmetrics_max_series(size_t top, size_t ngroups)
{
	return SERIES_SYSTEM + SERIES_GROUP * ngroups + SERIES_PROCESS * top;
}

/* Values in base units: ns and µs become seconds, KiB bytes. */
enum { SCALE_NS = 9, SCALE_US = 6, SCALE_MS = 3 };

static void sample_known(struct om_writer *w, const struct om_label *l, size_t nl, int64_t v, int scale)
{
	if (v != TV_UNKNOWN)
		om_sample(w, l, nl, v, scale);
}

static void sample_kib(struct om_writer *w, const struct om_label *l, size_t nl, int64_t kib)
{
	if (kib != TV_UNKNOWN && kib <= INT64_MAX / 1024)
		om_sample(w, l, nl, kib * 1024, 0);
}

static void render_system(struct buf *out, enum om_dialect d, const struct accum *a, const struct snapshot *cur)
{
	struct om_writer w;
	if (isfinite(cur->wall)) {
		om_family_begin(&w, out, d, &f_timestamp);
		om_sample(&w, NULL, 0, llround(cur->wall * 1000), SCALE_MS);
	}
	om_family_begin(&w, out, d, &f_exits_watched);
	om_sample(&w, NULL, 0, cur->exits_watched ? 1 : 0, 0);
	/* counted only when the listener ran at all: without it both are unknown */
	if (a->exits_ever) {
		om_family_begin(&w, out, d, &f_exit_records);
		om_sample(&w, NULL, 0, (int64_t)a->exit_records, 0);
		om_family_begin(&w, out, d, &f_exit_lost);
		om_sample(&w, NULL, 0, (int64_t)a->exit_lost, 0);
	}
	om_family_begin(&w, out, d, &f_psi_some);
	for (int r = 0; r < TV_RES_N; r++) {
		struct om_label l = {"resource", resource_names[r]};
		if (cur->pressure[r].some_known)
			sample_known(&w, &l, 1, cur->pressure[r].some_us, SCALE_US);
	}
	om_family_begin(&w, out, d, &f_psi_full);
	for (int r = 0; r < TV_RES_N; r++) {
		struct om_label l = {"resource", resource_names[r]};
		if (cur->pressure[r].full_known)
			sample_known(&w, &l, 1, cur->pressure[r].full_us, SCALE_US);
	}
}

/* A counter of every group: its total, where known. */
static void group_counter(struct buf *out, enum om_dialect d, const struct accum *a, const struct om_family *f,
			  int field, int scale)
{
	struct om_writer w;
	om_family_begin(&w, out, d, f);
	for (size_t i = 0; i < a->ngroups; i++) {
		struct om_label l = {"group", a->groups[i].name};
		if (accum_group_shown(&a->groups[i]))
			sample_known(&w, &l, 1, a->groups[i].total[field], scale);
	}
}

/* A counter per delay class of every group. */
static void group_delay(struct buf *out, enum om_dialect d, const struct accum *a, const struct om_family *f,
			int first_field, int scale)
{
	struct om_writer w;
	om_family_begin(&w, out, d, f);
	for (size_t i = 0; i < a->ngroups; i++)
		for (int c = 0; c < TV_DELAY_NCLASS && accum_group_shown(&a->groups[i]); c++) {
			struct om_label l[2] = {{"group", a->groups[i].name}, {"class", class_names[c]}};
			sample_known(&w, l, 2, a->groups[i].total[first_field + c], scale);
		}
}

enum gauge_kind { G_PROCS, G_THREADS, G_RSS, G_VIRT, G_PTE, G_SWAP, G_CGMEM, G_CGSWAP };

static void group_gauge(struct buf *out, enum om_dialect d, const struct accum *a, const struct om_family *f,
			enum gauge_kind k)
{
	struct om_writer w;
	om_family_begin(&w, out, d, f);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct accum_gauges *g = &a->groups[i].g;
		struct om_label l = {"group", a->groups[i].name};
		if (!accum_group_shown(&a->groups[i]))
			continue;
		switch (k) {
		case G_PROCS: sample_known(&w, &l, 1, g->procs, 0); break;
		case G_THREADS: sample_known(&w, &l, 1, g->threads, 0); break;
		case G_RSS: sample_kib(&w, &l, 1, g->rss_kib); break;
		case G_VIRT: sample_kib(&w, &l, 1, g->vm_kib); break;
		case G_PTE: sample_kib(&w, &l, 1, g->pte_kib); break;
		case G_SWAP: sample_kib(&w, &l, 1, g->swap_kib); break;
		case G_CGMEM: sample_known(&w, &l, 1, g->cg_mem_bytes, 0); break;
		case G_CGSWAP: sample_known(&w, &l, 1, g->cg_swap_bytes, 0); break;
		}
	}
}

static void group_pressure(struct buf *out, enum om_dialect d, const struct accum *a, const struct om_family *f,
			   bool full)
{
	struct om_writer w;
	om_family_begin(&w, out, d, f);
	for (size_t i = 0; i < a->ngroups; i++)
		for (int r = 0; r < TV_RES_N && accum_group_shown(&a->groups[i]); r++) {
			const struct tv_pressure *p = &a->groups[i].g.psi[r];
			struct om_label l[2] = {{"group", a->groups[i].name}, {"resource", resource_names[r]}};
			if (full ? p->full_known : p->some_known)
				sample_known(&w, l, 2, full ? p->full_us : p->some_us, SCALE_US);
		}
}

static void render_groups(struct buf *out, enum om_dialect d, const struct accum *a)
{
	group_gauge(out, d, a, &f_g_procs, G_PROCS);
	group_gauge(out, d, a, &f_g_threads, G_THREADS);
	group_counter(out, d, a, &f_g_cpu, ACC_CPU_NS, SCALE_NS);
	group_counter(out, d, a, &f_g_vol, ACC_CTXT_VOL, 0);
	group_counter(out, d, a, &f_g_invol, ACC_CTXT_INVOL, 0);
	group_delay(out, d, a, &f_g_delay, ACC_DELAY_NS, SCALE_NS);
	group_delay(out, d, a, &f_g_delays, ACC_DELAY_COUNT, 0);
	group_gauge(out, d, a, &f_g_rss, G_RSS);
	group_gauge(out, d, a, &f_g_virt, G_VIRT);
	group_gauge(out, d, a, &f_g_pte, G_PTE);
	group_gauge(out, d, a, &f_g_swap, G_SWAP);
	group_gauge(out, d, a, &f_g_cgmem, G_CGMEM);
	group_gauge(out, d, a, &f_g_cgswap, G_CGSWAP);
	group_pressure(out, d, a, &f_g_psi_some, false);
	group_pressure(out, d, a, &f_g_psi_full, true);
}

/* --- the processes using the most CPU --- */
struct top_proc {
	const struct tv_task *t;
	const struct accum_proc *p; /* its highest counters; NULL if not tracked */
	char pid[16];
	struct om_label l[4];       /* group, comm, pid, and a class when needed */
};

static int busier(const void *x, const void *y)
{
	const struct tv_task *s = *(const struct tv_task *const *)x, *t = *(const struct tv_task *const *)y;
	bool sk = !isnan(s->cpu_pct), tk = !isnan(t->cpu_pct);
	if (sk != tk)
		return sk ? -1 : 1; /* unknown CPU% last */
	if (sk && s->cpu_pct != t->cpu_pct)
		return s->cpu_pct > t->cpu_pct ? -1 : 1;
	return s->tgid < t->tgid ? -1 : s->tgid > t->tgid;
}

static size_t top_pick(const struct accum *a, const struct snapshot *cur, size_t n, struct top_proc **out)
{
	*out = NULL;
	if (n > cur->nprocs)
		n = cur->nprocs;
	if (n == 0)
		return 0;
	const struct tv_task **order = malloc(cur->nprocs * sizeof(*order));
	struct top_proc *v = calloc(n, sizeof(*v));
	if (!order || !v) {
		free(order);
		free(v);
		return 0;
	}
	for (size_t i = 0; i < cur->nprocs; i++)
		order[i] = &cur->procs[i];
	qsort(order, cur->nprocs, sizeof(*order), busier);
	for (size_t i = 0; i < n; i++) {
		struct top_proc *tp = &v[i];
		tp->t = order[i];
		tp->p = accum_find(a, tp->t);
		snprintf(tp->pid, sizeof(tp->pid), "%d", (int)tp->t->tgid);
		tp->l[0] = (struct om_label){"group", accum_group_name(tp->t)};
		tp->l[1] = (struct om_label){"comm", task_comm(tp->t)};
		tp->l[2] = (struct om_label){"pid", tp->pid};
	}
	free(order);
	*out = v;
	return n;
}

/* A process's counter: the highest value it showed (a sum over live threads can fall). */
static void proc_counter(struct buf *out, enum om_dialect d, struct top_proc *v, size_t n,
			 const struct om_family *f, int field, int scale)
{
	struct om_writer w;
	om_family_begin(&w, out, d, f);
	for (size_t i = 0; i < n; i++)
		if (v[i].p)
			sample_known(&w, v[i].l, 3, v[i].p->hw[field], scale);
}

static void proc_delay(struct buf *out, enum om_dialect d, struct top_proc *v, size_t n,
		       const struct om_family *f, int first_field, int scale)
{
	struct om_writer w;
	om_family_begin(&w, out, d, f);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < TV_DELAY_NCLASS && v[i].p; c++) {
			v[i].l[3] = (struct om_label){"class", class_names[c]};
			sample_known(&w, v[i].l, 4, v[i].p->hw[first_field + c], scale);
		}
}

static void proc_gauge(struct buf *out, enum om_dialect d, struct top_proc *v, size_t n,
		       const struct om_family *f, enum gauge_kind k)
{
	struct om_writer w;
	om_family_begin(&w, out, d, f);
	for (size_t i = 0; i < n; i++) {
		const struct tv_task *t = v[i].t;
		switch (k) {
		case G_THREADS: sample_known(&w, v[i].l, 3, t->nthreads, 0); break;
		case G_RSS: sample_kib(&w, v[i].l, 3, task_mem(t)->rss); break;
		case G_VIRT: sample_kib(&w, v[i].l, 3, task_mem(t)->size); break;
		case G_PTE: sample_kib(&w, v[i].l, 3, task_mem(t)->pte); break;
		case G_SWAP: sample_kib(&w, v[i].l, 3, task_mem(t)->swap); break;
		default: break;
		}
	}
}

static void render_top(struct buf *out, enum om_dialect d, const struct accum *a, const struct snapshot *cur,
		       size_t top)
{
	struct top_proc *v;
	size_t n = top_pick(a, cur, top, &v);
	if (n == 0)
		return;
	proc_counter(out, d, v, n, &f_p_cpu, ACC_CPU_NS, SCALE_NS);
	proc_counter(out, d, v, n, &f_p_vol, ACC_CTXT_VOL, 0);
	proc_counter(out, d, v, n, &f_p_invol, ACC_CTXT_INVOL, 0);
	proc_delay(out, d, v, n, &f_p_delay, ACC_DELAY_NS, SCALE_NS);
	proc_delay(out, d, v, n, &f_p_delays, ACC_DELAY_COUNT, 0);
	proc_gauge(out, d, v, n, &f_p_threads, G_THREADS);
	proc_gauge(out, d, v, n, &f_p_rss, G_RSS);
	proc_gauge(out, d, v, n, &f_p_virt, G_VIRT);
	proc_gauge(out, d, v, n, &f_p_pte, G_PTE);
	proc_gauge(out, d, v, n, &f_p_swap, G_SWAP);
	free(v);
}

void openmetrics_render(struct buf *out, const struct accum *a, const struct snapshot *cur,
			const struct openmetrics_opts *o)
{
	render_system(out, o->dialect, a, cur);
	render_groups(out, o->dialect, a);
	render_top(out, o->dialect, a, cur, o->top);
	om_end(out, o->dialect);
}
