/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "export/openmetrics.h"

#include <math.h>
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
static const struct om_family f_unattributed = {
	"taskview_unattributed_cpu_seconds", OM_COUNTER, "seconds",
	"CPU time of processes whose group is unknown: those that started and ended between two samples "
	"(seen only in their exit records) and those whose control group could not be read"};
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

/* --- per command (--top): a group's processes of one name --- */
static const struct om_family f_c_procs = {
	"taskview_command_processes", OM_GAUGE, NULL, "Processes of the command (of this name in the group)"};
static const struct om_family f_c_threads = {
	"taskview_command_threads", OM_GAUGE, NULL, "Threads of the command's processes"};
static const struct om_family f_c_cpu = {
	"taskview_command_cpu_seconds", OM_COUNTER, "seconds",
	"CPU time (user + system) of the command's processes, those that ended included"};
static const struct om_family f_c_vol = {
	"taskview_command_voluntary_context_switches", OM_COUNTER, NULL,
	"Voluntary context switches of the command's processes, those that ended included"};
static const struct om_family f_c_invol = {
	"taskview_command_involuntary_context_switches", OM_COUNTER, NULL,
	"Involuntary context switches of the command's processes, those that ended included"};
static const struct om_family f_c_delay = {
	"taskview_command_delay_seconds", OM_COUNTER, "seconds",
	"Time the command's processes waited, per delay accounting class, those that ended included"};
static const struct om_family f_c_delays = {
	"taskview_command_delay_events", OM_COUNTER, NULL,
	"Waits of the command's processes, per delay accounting class, those that ended included"};
static const struct om_family f_c_rss = {
	"taskview_command_resident_memory_bytes", OM_GAUGE, "bytes", "Sum of the processes' resident memory (VmRSS)"};
static const struct om_family f_c_virt = {
	"taskview_command_virtual_memory_bytes", OM_GAUGE, "bytes", "Sum of the processes' virtual memory size (VmSize)"};
static const struct om_family f_c_pte = {
	"taskview_command_page_table_bytes", OM_GAUGE, "bytes", "Sum of the processes' page tables (VmPTE)"};
static const struct om_family f_c_swap = {
	"taskview_command_swap_bytes", OM_GAUGE, "bytes", "Sum of the processes' swapped-out memory (VmSwap)"};

/* Series each kind of subject can have: keep in step with the families above. */
enum {
	SERIES_SYSTEM = 5 + 2 * TV_RES_N,
	SERIES_GROUP = 5 + 2 * TV_DELAY_NCLASS + 6 + 2 * TV_RES_N,
	SERIES_COMMAND = 5 + 2 * TV_DELAY_NCLASS + 4,
};

size_t openmetrics_max_series(size_t top, size_t ngroups)
{
	return SERIES_SYSTEM + SERIES_GROUP * ngroups + SERIES_COMMAND * top;
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

/* The parts of one exposition, each with its labels (its host's name). */
struct om_set {
	const struct om_out *to;
	const struct om_part *p;
	size_t n;
};

static void render_system(const struct om_set *s)
{
	struct om_writer w;
	om_family_begin(&w, &s->to[0], &f_timestamp);
	for (size_t k = 0; k < s->n; k++) {
		om_writer_to(&w, &s->to[k]);
		if (isfinite(s->p[k].sys.wall))
			om_sample(&w, NULL, 0, llround(s->p[k].sys.wall * 1000), SCALE_MS);
	}
	om_family_begin(&w, &s->to[0], &f_exits_watched);
	for (size_t k = 0; k < s->n; k++) {
		om_writer_to(&w, &s->to[k]);
		om_sample(&w, NULL, 0, s->p[k].sys.exits_watched ? 1 : 0, 0);
	}
	/* counted only when the listener ran at all: without it both are unknown */
	om_family_begin(&w, &s->to[0], &f_exit_records);
	for (size_t k = 0; k < s->n; k++) {
		om_writer_to(&w, &s->to[k]);
		if (s->p[k].groups->exits_ever)
			om_sample(&w, NULL, 0, (int64_t)s->p[k].groups->exit_records, 0);
	}
	om_family_begin(&w, &s->to[0], &f_exit_lost);
	for (size_t k = 0; k < s->n; k++) {
		om_writer_to(&w, &s->to[k]);
		if (s->p[k].groups->exits_ever)
			om_sample(&w, NULL, 0, (int64_t)s->p[k].groups->exit_lost, 0);
	}
	for (int full = 0; full < 2; full++) {
		om_family_begin(&w, &s->to[0], full ? &f_psi_full : &f_psi_some);
		for (size_t k = 0; k < s->n; k++) {
			om_writer_to(&w, &s->to[k]);
			for (int r = 0; r < TV_RES_N; r++) {
				const struct tv_pressure *pr = &s->p[k].sys.pressure[r];
				struct om_label l = {"resource", resource_names[r]};
				if (full ? pr->full_known : pr->some_known)
					sample_known(&w, &l, 1, full ? pr->full_us : pr->some_us, SCALE_US);
			}
		}
	}
}

/* Whether entry i has series: a group shown in this refresh with a known
 * name (the unknown one's CPU is the system's unattributed counter), a
 * command picked. */
static bool written(const struct accum *a, size_t i)
{
	const struct accum_group *g = &a->groups[i];
	if (!accum_group_shown(g))
		return false;
	return a->by_command ? g->picked : g->name[0] != '\0';
}

/* The labels naming entry i, then room for one more; returns how many. */
static size_t subject(const struct accum *a, size_t i, struct om_label l[3])
{
	l[0] = (struct om_label){"group", a->groups[i].name};
	if (!a->by_command)
		return 1;
	l[1] = (struct om_label){"comm", a->groups[i].comm};
	return 2;
}

/* Part k's groups, or its commands (NULL when it has none). */
static const struct accum *sums(const struct om_set *s, size_t k, bool commands)
{
	return commands ? s->p[k].commands : s->p[k].groups;
}

/* A counter of every group or command: its total, where known. */
static void group_counter(const struct om_set *s, bool commands, const struct om_family *f, int field, int scale)
{
	struct om_writer w;
	om_family_begin(&w, &s->to[0], f);
	for (size_t k = 0; k < s->n; k++) {
		const struct accum *a = sums(s, k, commands);
		om_writer_to(&w, &s->to[k]);
		for (size_t i = 0; a && i < a->ngroups; i++) {
			struct om_label l[3];
			size_t nl = subject(a, i, l);
			if (written(a, i))
				sample_known(&w, l, nl, a->groups[i].total[field], scale);
		}
	}
}

/* A counter per delay class. */
static void group_delay(const struct om_set *s, bool commands, const struct om_family *f, int first_field, int scale)
{
	struct om_writer w;
	om_family_begin(&w, &s->to[0], f);
	for (size_t k = 0; k < s->n; k++) {
		const struct accum *a = sums(s, k, commands);
		om_writer_to(&w, &s->to[k]);
		for (size_t i = 0; a && i < a->ngroups; i++) {
			struct om_label l[3];
			size_t nl = subject(a, i, l);
			for (int c = 0; c < TV_DELAY_NCLASS && written(a, i); c++) {
				l[nl] = (struct om_label){"class", class_names[c]};
				sample_known(&w, l, nl + 1, a->groups[i].total[first_field + c], scale);
			}
		}
	}
}

enum gauge_kind { G_PROCS, G_THREADS, G_RSS, G_VIRT, G_PTE, G_SWAP, G_CGMEM, G_CGSWAP };

static void group_gauge(const struct om_set *s, bool commands, const struct om_family *f, enum gauge_kind kind)
{
	struct om_writer w;
	om_family_begin(&w, &s->to[0], f);
	for (size_t k = 0; k < s->n; k++) {
		const struct accum *a = sums(s, k, commands);
		om_writer_to(&w, &s->to[k]);
		for (size_t i = 0; a && i < a->ngroups; i++) {
			const struct accum_gauges *g = &a->groups[i].g;
			struct om_label l[3];
			size_t nl = subject(a, i, l);
			if (!written(a, i))
				continue;
			switch (kind) {
			case G_PROCS: sample_known(&w, l, nl, g->procs, 0); break;
			case G_THREADS: sample_known(&w, l, nl, g->threads, 0); break;
			case G_RSS: sample_kib(&w, l, nl, g->rss_kib); break;
			case G_VIRT: sample_kib(&w, l, nl, g->vm_kib); break;
			case G_PTE: sample_kib(&w, l, nl, g->pte_kib); break;
			case G_SWAP: sample_kib(&w, l, nl, g->swap_kib); break;
			case G_CGMEM: sample_known(&w, l, nl, g->cg_mem_bytes, 0); break;
			case G_CGSWAP: sample_known(&w, l, nl, g->cg_swap_bytes, 0); break;
			}
		}
	}
}

static void group_pressure(const struct om_set *s, const struct om_family *f, bool full)
{
	struct om_writer w;
	om_family_begin(&w, &s->to[0], f);
	for (size_t k = 0; k < s->n; k++) {
		const struct accum *a = s->p[k].groups;
		om_writer_to(&w, &s->to[k]);
		for (size_t i = 0; i < a->ngroups; i++)
			for (int r = 0; r < TV_RES_N && written(a, i); r++) {
				const struct tv_pressure *p = &a->groups[i].g.psi[r];
				struct om_label l[2] = {{"group", a->groups[i].name}, {"resource", resource_names[r]}};
				if (full ? p->full_known : p->some_known)
					sample_known(&w, l, 2, full ? p->full_us : p->some_us, SCALE_US);
			}
	}
}

/* The CPU of the group whose name is unknown, while it is counted. */
static void render_unattributed(const struct om_set *s)
{
	struct om_writer w;
	om_family_begin(&w, &s->to[0], &f_unattributed);
	for (size_t k = 0; k < s->n; k++) {
		const struct accum *a = s->p[k].groups;
		om_writer_to(&w, &s->to[k]);
		for (size_t i = 0; i < a->ngroups; i++)
			if (a->groups[i].name[0] == '\0')
				sample_known(&w, NULL, 0, a->groups[i].total[ACC_CPU_NS], SCALE_NS);
	}
}

static void render_groups(const struct om_set *s)
{
	group_gauge(s, false, &f_g_procs, G_PROCS);
	group_gauge(s, false, &f_g_threads, G_THREADS);
	group_counter(s, false, &f_g_cpu, ACC_CPU_NS, SCALE_NS);
	group_counter(s, false, &f_g_vol, ACC_CTXT_VOL, 0);
	group_counter(s, false, &f_g_invol, ACC_CTXT_INVOL, 0);
	group_delay(s, false, &f_g_delay, ACC_DELAY_NS, SCALE_NS);
	group_delay(s, false, &f_g_delays, ACC_DELAY_COUNT, 0);
	group_gauge(s, false, &f_g_rss, G_RSS);
	group_gauge(s, false, &f_g_virt, G_VIRT);
	group_gauge(s, false, &f_g_pte, G_PTE);
	group_gauge(s, false, &f_g_swap, G_SWAP);
	group_gauge(s, false, &f_g_cgmem, G_CGMEM);
	group_gauge(s, false, &f_g_cgswap, G_CGSWAP);
	group_pressure(s, &f_g_psi_some, false);
	group_pressure(s, &f_g_psi_full, true);
}

static void render_commands(const struct om_set *s)
{
	group_gauge(s, true, &f_c_procs, G_PROCS);
	group_gauge(s, true, &f_c_threads, G_THREADS);
	group_counter(s, true, &f_c_cpu, ACC_CPU_NS, SCALE_NS);
	group_counter(s, true, &f_c_vol, ACC_CTXT_VOL, 0);
	group_counter(s, true, &f_c_invol, ACC_CTXT_INVOL, 0);
	group_delay(s, true, &f_c_delay, ACC_DELAY_NS, SCALE_NS);
	group_delay(s, true, &f_c_delays, ACC_DELAY_COUNT, 0);
	group_gauge(s, true, &f_c_rss, G_RSS);
	group_gauge(s, true, &f_c_virt, G_VIRT);
	group_gauge(s, true, &f_c_pte, G_PTE);
	group_gauge(s, true, &f_c_swap, G_SWAP);
}

int openmetrics_render_parts(struct buf *out, const struct om_part *parts, size_t n, enum om_dialect d)
{
	/* one part (a local exposition, every refresh) allocates nothing */
	struct om_out to_one;
	struct om_label host_one;
	struct om_out *to = n <= 1 ? &to_one : calloc(n, sizeof(*to));
	struct om_label *hosts = n <= 1 ? &host_one : calloc(n, sizeof(*hosts));
	if (!to || !hosts) {
		if (n > 1) {
			free(to);
			free(hosts);
		}
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		hosts[k] = (struct om_label){"host", parts[k].host ? parts[k].host : ""};
		to[k] = (struct om_out){out, d, &hosts[k], parts[k].host ? 1 : 0};
	}
	struct om_set s = {to, parts, n};
	if (n) {
		render_system(&s);
		render_unattributed(&s);
		render_groups(&s);
		render_commands(&s);
	}
	om_end(out, d);
	if (n > 1) {
		free(to);
		free(hosts);
	}
	return 0;
}

void om_system_of(const struct snapshot *cur, struct om_system *out)
{
	out->wall = cur->wall;
	out->exits_watched = cur->exits_watched;
	memcpy(out->pressure, cur->pressure, sizeof(out->pressure));
}

void openmetrics_render(struct buf *out, const struct accum *groups, const struct accum *commands,
			const struct snapshot *cur, const struct openmetrics_opts *o)
{
	struct om_part part = {.groups = groups, .commands = commands, .host = o->host};
	om_system_of(cur, &part.sys);
	if (openmetrics_render_parts(out, &part, 1, o->dialect) < 0)
		out->oom = true;
}
