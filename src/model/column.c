/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/column.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/cgroup.h"
#include "util/i18n.h"

static struct tv_value get_pid(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_id_pid(t->tid)); }
static struct tv_value get_tgid(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_id_pid(t->tgid)); }
static struct tv_value get_ppid(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_id_pid(t->ppid)); }
static struct tv_value get_host(const struct column *c, const struct tv_task *t)
{
	/* a host's own row (its group), or one of its control groups, nested under it */
	if (t->is_group) {
		const struct tv_cgroup *g = t->cgroup;
		while (g && g->parent)
			g = g->parent;
		return value_str(g ? g->unit : NULL);
	}
	unsigned h = task_id_host(t->tgid);
	return value_str(c->names && h < (unsigned)c->arg ? c->names[h] : NULL);
}
static struct tv_value get_user(const struct column *c, const struct tv_task *t) { (void)c; return value_str(t->user); }
static struct tv_value get_nice(const struct column *c, const struct tv_task *t) { (void)c; return t->nice == TV_UNKNOWN32 ? value_unknown() : value_int(t->nice); }
static struct tv_value get_prio(const struct column *c, const struct tv_task *t) { (void)c; return t->prio == TV_UNKNOWN32 ? value_unknown() : value_int(t->prio); }
static struct tv_value get_cpu(const struct column *c, const struct tv_task *t) { (void)c; return value_float(t->cpu_pct); }
static struct tv_value get_threads(const struct column *c, const struct tv_task *t) { (void)c; return value_int(t->nthreads); }
static struct tv_value get_vm_size(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_mem(t)->size); }
static struct tv_value get_vm_rss(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_mem(t)->rss); }
static struct tv_value get_vm_pte(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_mem(t)->pte); }
static struct tv_value get_vm_swap(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_mem(t)->swap); }
static struct tv_value get_stack_size(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_stack_size(t)); }
static struct tv_value get_stack_rss(const struct column *c, const struct tv_task *t) { (void)c; return value_int(task_stack_rss(t)); }
static struct tv_value get_ctxt_vol(const struct column *c, const struct tv_task *t) { (void)c; return value_int(t->ctxt_vol); }
static struct tv_value get_ctxt_invol(const struct column *c, const struct tv_task *t) { (void)c; return value_int(t->ctxt_invol); }
static struct tv_value get_ctxt_vol_rate(const struct column *c, const struct tv_task *t) { (void)c; return value_float(t->ctxt_vol_rate); }
static struct tv_value get_ctxt_invol_rate(const struct column *c, const struct tv_task *t) { (void)c; return value_float(t->ctxt_invol_rate); }
static struct tv_value get_cgroup(const struct column *c, const struct tv_task *t) { (void)c; return value_str(t->cgroup ? t->cgroup->path : NULL); }
static struct tv_value get_unit(const struct column *c, const struct tv_task *t) { (void)c; return value_str(t->cgroup ? t->cgroup->unit : NULL); }
/* A name is known or unknown, never empty: a thread that ended before it
 * was read and whose exit record did not come has none. */
static struct tv_value name_value(const char *s)
{
	return s && *s ? value_str(s) : value_unknown();
}

static struct tv_value get_comm(const struct column *c, const struct tv_task *t) { (void)c; return name_value(t->is_group ? t->cgroup->unit : task_comm(t)); }
static struct tv_value get_io_read_rate(const struct column *c, const struct tv_task *t) { (void)c; return value_float(task_mem(t)->io_read_rate); }
static struct tv_value get_io_write_rate(const struct column *c, const struct tv_task *t) { (void)c; return value_float(task_mem(t)->io_write_rate); }
static struct tv_value get_delay_pct(const struct column *c, const struct tv_task *t) { return value_float(t->delay_pct[c->arg]); }
static struct tv_value get_delay_avg(const struct column *c, const struct tv_task *t) { return value_float(t->delay_avg_ms[c->arg]); }

static struct tv_value get_state(const struct column *c, const struct tv_task *t)
{
	(void)c;
	static const char states[] = "RSDZTtWXxKPI";
	const char *p = t->state ? strchr(states, t->state) : NULL;
	if (!p)
		return value_unknown();
	/* point into a static table so the value outlives the call */
	static const char *const names[] = {"R", "S", "D", "Z", "T", "t", "W", "X", "x", "K", "P", "I"};
	return value_str(names[p - states]);
}

static struct tv_value get_time(const struct column *c, const struct tv_task *t)
{
	(void)c;
	if (t->cpu_ns == TV_UNKNOWN)
		return value_unknown();
	return value_float((double)t->cpu_ns / 1e9);
}

static struct tv_value get_rss_virt(const struct column *c, const struct tv_task *t)
{
	(void)c;
	const struct tv_mem *m = task_mem(t);
	if (m->rss == TV_UNKNOWN || m->size == TV_UNKNOWN || m->size <= 0)
		return value_unknown();
	return value_float(100.0 * (double)m->rss / (double)m->size);
}

static struct tv_value get_command(const struct column *c, const struct tv_task *t)
{
	(void)c;
	/* a group row shows the group's readable name; thread rows their own
	 * name: threads share the command line */
	if (t->is_group)
		return value_str(t->cgroup->about ? t->cgroup->about : t->cgroup->unit);
	if (t->is_thread)
		return name_value(task_comm(t));
	return value_str(t->cmdline); /* unknown until read; "[name]" when there is none */
}

/* Share of the interval in which some (or all) of a group's tasks stalled on
 * the resource; arg: enum tv_resource, + TV_RES_N for the "full" line. */
static struct tv_value get_pressure(const struct column *c, const struct tv_task *t)
{
	const struct tv_pressure *p = &t->cgroup->psi[c->arg % TV_RES_N];
	return value_float(c->arg >= TV_RES_N ? p->full_pct : p->some_pct);
}

#define COST_STAT   N_("/proc/PID/stat, read for every process anyway")
#define COST_STATUS N_("/proc/PID/status of each shown process")
#define COST_CTXT   N_("process rows: one taskstats TGID query, or without taskstats the status file of every thread that ran (interactive: of the rows on screen)")
#define COST_PSI    N_("the group's pressure file, read once per refresh for each group")
#define COST_STACK  N_("every thread of each shown process: its task/TID/syscall and maps once, then its stack's pagemap entries each refresh (needs ptrace permission)")
#define COST_IO     N_("/proc/PID/io of every selected process (needs ptrace permission: as a user, only one's own)")
#define COST_DELAY  N_("one taskstats query per shown row (TGID for processes, PID for threads)")

/* Headers are translated; keep them short: a translated header may widen its
 * column (format_col_width), so each comment gives the English width + 2. */
/* Added by the hosts' screen only: every other output names the host its own way. */
static const struct column host_column =
	/* TRANSLATORS: column header of the hosts' screen, at most 8 characters */
	{"host", N_("HOST"), N_("The host the task runs on (--host)"),
	 COL_STRING, 8, COL_ALIGN_LEFT, false, false, 0, N_("none: the host that sent it"), get_host, 0, COL_ROWS_BOTH, false, 0,
	 COL_GROUP_TOO, NULL};

struct column column_host(const char *const *names, size_t n)
{
	struct column c = host_column;
	c.names = names;
	c.arg = n < TV_ID_HOSTS_MAX ? (int)n : TV_ID_HOSTS_MAX;
	return c;
}

static const struct column builtin_columns[] = {
	/* TRANSLATORS: column header, at most 9 characters */
	{"pid", N_("PID"), N_("Process ID; thread ID on thread rows"),
	 COL_INT, 7, COL_ALIGN_RIGHT, false, true, NEED_STAT, COST_STAT, get_pid, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"tgid", N_("TGID"), N_("Thread group ID: the process a thread belongs to"),
	 COL_INT, 7, COL_ALIGN_RIGHT, false, false, NEED_STAT, COST_STAT, get_tgid, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"ppid", N_("PPID"), N_("Parent process ID"),
	 COL_INT, 7, COL_ALIGN_RIGHT, false, false, NEED_STAT, COST_STAT, get_ppid, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 10 characters */
	{"user", N_("USER"), N_("Effective user of the process"),
	 COL_STRING, 8, COL_ALIGN_LEFT, false, true, NEED_USER, N_("owner of /proc/PID, name cached per uid"), get_user, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 3 characters */
	{"state", N_("S"), N_("State: R running, S sleeping, D uninterruptible, Z zombie, T stopped, t traced, I idle"),
	 COL_STATE, 1, COL_ALIGN_LEFT, false, true, NEED_STAT | NEED_TSTAT, COST_STAT, get_state, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 5 characters */
	{"nice", N_("NI"), N_("Nice value"),
	 COL_INT, 3, COL_ALIGN_RIGHT, true, false, NEED_STAT | NEED_TSTAT, COST_STAT, get_nice, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 5 characters */
	{"prio", N_("PRI"), N_("Kernel scheduling priority"),
	 COL_INT, 4, COL_ALIGN_RIGHT, true, false, NEED_STAT | NEED_TSTAT, COST_STAT, get_prio, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"cpu", N_("CPU%"),
	 /* xgettext:no-c-format */
	 N_("CPU use in the interval, % of one CPU (process rows: sum over threads; group rows: over processes)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, true, NEED_STAT, COST_STAT, get_cpu, 0, COL_ROWS_BOTH, false, TV_PART_CPU + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 11 characters */
	{"time", N_("TIME"), N_("Cumulative CPU time, user + system (JSON: seconds)"),
	 COL_SECONDS, 9, COL_ALIGN_RIGHT, true, false, NEED_STAT, COST_STAT, get_time, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 6 characters */
	{"threads", N_("THR"), N_("Number of threads"),
	 COL_INT, 5, COL_ALIGN_RIGHT, true, true, NEED_STAT, COST_STAT, get_threads, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"vm_size", N_("VIRT"), N_("Virtual memory size (VmSize), KiB: reserved, not necessarily used"),
	 COL_KIB, 6, COL_ALIGN_RIGHT, true, true, NEED_STATUS, COST_STATUS, get_vm_size, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"vm_rss", N_("RES"), N_("Resident memory (VmRSS), KiB; group rows: the group's memory.current"),
	 COL_KIB, 6, COL_ALIGN_RIGHT, true, true, NEED_STATUS | NEED_CGROUP_MEM, COST_STATUS, get_vm_rss, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 10 characters */
	{"rss_virt", N_("RES/VIRT"),
	 /* xgettext:no-c-format */
	 N_("Resident memory as % of virtual size"),
	 COL_PERCENT, 8, COL_ALIGN_RIGHT, true, false, NEED_STATUS, COST_STATUS, get_rss_virt, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"vm_pte", N_("PTE"), N_("Page-table size (VmPTE), KiB: what makes fork of a big process slow"),
	 COL_KIB, 5, COL_ALIGN_RIGHT, true, true, NEED_STATUS, COST_STATUS, get_vm_pte, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"vm_swap", N_("SWAP"), N_("Swapped-out memory (VmSwap), KiB; group rows: the group's memory.swap.current"),
	 COL_KIB, 5, COL_ALIGN_RIGHT, true, false, NEED_STATUS | NEED_CGROUP_MEM, COST_STATUS, get_vm_swap, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"stack_size", N_("STACK"), N_("Stack reserved, KiB: the size of the thread's stack mapping (process rows: sum over threads)"),
	 COL_KIB, 6, COL_ALIGN_RIGHT, true, false, NEED_STACK | NEED_STATUS, COST_STACK, get_stack_size, 0, COL_ROWS_BOTH, false, TV_PART_STACK + 1, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"stack_rss", N_("STKRES"), N_("Stack resident, KiB: pages of the thread's stack mapping in memory (process rows: sum over threads)"),
	 COL_KIB, 6, COL_ALIGN_RIGHT, true, false, NEED_STACK | NEED_STATUS, COST_STACK, get_stack_rss, 0, COL_ROWS_BOTH, false, TV_PART_STACK + 1, COL_GROUP_NONE, NULL},
	/* TRANSLATORS: column header, at most 10 characters */
	{"ctxt_vol", N_("VCSW"), N_("Voluntary context switches, total (process rows: sum over threads)"),
	 COL_INT, 8, COL_ALIGN_RIGHT, true, false, NEED_CTXT, COST_CTXT, get_ctxt_vol, 0, COL_ROWS_BOTH, false, TV_PART_CTXT_VOL + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 10 characters */
	{"ctxt_invol", N_("ICSW"), N_("Involuntary context switches, total (process rows: sum over threads)"),
	 COL_INT, 8, COL_ALIGN_RIGHT, true, false, NEED_CTXT, COST_CTXT, get_ctxt_invol, 0, COL_ROWS_BOTH, false, TV_PART_CTXT_INVOL + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"ctxt_vol_rate", N_("VCSW/s"), N_("Voluntary context switches per second (waiting for I/O, locks, sleep)"),
	 COL_RATE, 6, COL_ALIGN_RIGHT, true, true, NEED_CTXT, COST_CTXT, get_ctxt_vol_rate, 0, COL_ROWS_BOTH, false, TV_PART_CTXT_VOL_RATE + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"ctxt_invol_rate", N_("ICSW/s"), N_("Involuntary context switches per second (preempted)"),
	 COL_RATE, 6, COL_ALIGN_RIGHT, true, true, NEED_CTXT, COST_CTXT, get_ctxt_invol_rate, 0, COL_ROWS_BOTH, false, TV_PART_CTXT_INVOL_RATE + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"io_read_rate", N_("IOR/s"), N_("Bytes a second the process fetched from storage (read_bytes of /proc/PID/io: every thread, dead ones included; not what the page cache served)"),
	 COL_BYTES, 6, COL_ALIGN_RIGHT, true, false, NEED_IO, COST_IO, get_io_read_rate, 0, COL_ROWS_PROCESS, false, TV_PART_IO + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"io_write_rate", N_("IOW/s"), N_("Bytes a second the process sent towards storage, counted when it dirtied the pages (write_bytes of /proc/PID/io)"),
	 COL_BYTES, 6, COL_ALIGN_RIGHT, true, false, NEED_IO, COST_IO, get_io_write_rate, 0, COL_ROWS_PROCESS, false, TV_PART_IO + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"cpu_delay", N_("CPUD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for a CPU in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, true, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_CPU, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_CPU + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"cpu_delay_avg", N_("CPUDAVG"), N_("Average delay per wait for a CPU in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_CPU, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_CPU + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"io_delay", N_("IOD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for block I/O in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, true, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_IO, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_IO + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"io_delay_avg", N_("IODAVG"), N_("Average delay per block I/O event in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_IO, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_IO + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"swapin_delay", N_("SWPD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for swap-in in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_SWAPIN, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_SWAPIN + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"swapin_delay_avg", N_("SWPDAVG"), N_("Average delay per swap-in event in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_SWAPIN, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_SWAPIN + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"reclaim_delay", N_("RCLD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for memory reclaim in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_RECLAIM, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_RECLAIM + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"reclaim_delay_avg", N_("RCLDAVG"), N_("Average delay per memory reclaim event in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_RECLAIM, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_RECLAIM + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"thrashing_delay", N_("THRD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for thrashing in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_THRASHING, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_THRASHING + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"thrashing_delay_avg", N_("THRDAVG"), N_("Average delay per thrashing event in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_THRASHING, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_THRASHING + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"compact_delay", N_("CMPD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for memory compaction in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_COMPACT, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_COMPACT + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"compact_delay_avg", N_("CMPDAVG"), N_("Average delay per memory compaction event in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_COMPACT, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_COMPACT + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"wpcopy_delay", N_("WPCD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for write-protect copy in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_WPCOPY, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_WPCOPY + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"wpcopy_delay_avg", N_("WPCDAVG"), N_("Average delay per write-protect copy event in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_WPCOPY, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_WPCOPY + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"irq_delay", N_("IRQD%"),
	 /* xgettext:no-c-format */
	 N_("Time spent waiting for IRQ handling in the interval, % of the interval (process rows: sum over threads)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_pct, TV_DELAY_IRQ, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_IRQ + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"irq_delay_avg", N_("IRQDAVG"), N_("Average delay per IRQ handling event in the interval, ms"),
	 COL_MS, 7, COL_ALIGN_RIGHT, true, false, NEED_DELAY, COST_DELAY, get_delay_avg, TV_DELAY_IRQ, COL_ROWS_BOTH, false, TV_PART_DELAY + TV_DELAY_IRQ + 1, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"cpu_pressure", N_("CPUP%"),
	 /* xgettext:no-c-format */
	 N_("Group rows: % of the interval in which some of the group's tasks waited for a CPU (cpu.pressure, some)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_CGROUP | NEED_CGROUP_PSI, COST_PSI, get_pressure, TV_RES_CPU, COL_ROWS_BOTH, false, 0, COL_GROUP_ONLY, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"io_pressure", N_("IOP%"),
	 /* xgettext:no-c-format */
	 N_("Group rows: % of the interval in which some of the group's tasks waited for block I/O (io.pressure, some)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_CGROUP | NEED_CGROUP_PSI, COST_PSI, get_pressure, TV_RES_IO, COL_ROWS_BOTH, false, 0, COL_GROUP_ONLY, NULL},
	/* TRANSLATORS: column header, at most 7 characters */
	{"memory_pressure", N_("MEMP%"),
	 /* xgettext:no-c-format */
	 N_("Group rows: % of the interval in which some of the group's tasks waited for memory (memory.pressure, some)"),
	 COL_PERCENT, 5, COL_ALIGN_RIGHT, true, false, NEED_CGROUP | NEED_CGROUP_PSI, COST_PSI, get_pressure, TV_RES_MEMORY, COL_ROWS_BOTH, false, 0, COL_GROUP_ONLY, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"cpu_pressure_full", N_("CPUPF%"),
	 /* xgettext:no-c-format */
	 N_("Group rows: % of the interval in which all of the group's runnable tasks waited for a CPU (cpu.pressure, full)"),
	 COL_PERCENT, 6, COL_ALIGN_RIGHT, true, false, NEED_CGROUP | NEED_CGROUP_PSI, COST_PSI, get_pressure, TV_RES_N + TV_RES_CPU, COL_ROWS_BOTH, false, 0, COL_GROUP_ONLY, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"io_pressure_full", N_("IOPF%"),
	 /* xgettext:no-c-format */
	 N_("Group rows: % of the interval in which all of the group's non-idle tasks waited for block I/O (io.pressure, full)"),
	 COL_PERCENT, 6, COL_ALIGN_RIGHT, true, false, NEED_CGROUP | NEED_CGROUP_PSI, COST_PSI, get_pressure, TV_RES_N + TV_RES_IO, COL_ROWS_BOTH, false, 0, COL_GROUP_ONLY, NULL},
	/* TRANSLATORS: column header, at most 8 characters */
	{"memory_pressure_full", N_("MEMPF%"),
	 /* xgettext:no-c-format */
	 N_("Group rows: % of the interval in which all of the group's non-idle tasks waited for memory (memory.pressure, full)"),
	 COL_PERCENT, 6, COL_ALIGN_RIGHT, true, false, NEED_CGROUP | NEED_CGROUP_PSI, COST_PSI, get_pressure, TV_RES_N + TV_RES_MEMORY, COL_ROWS_BOTH, false, 0, COL_GROUP_ONLY, NULL},
	/* TRANSLATORS: column header, at most 22 characters */
	{"unit", N_("UNIT"), N_("The control group's readable name: systemd unit, container, Kubernetes pod, or the group's last part"),
	 COL_STRING, 20, COL_ALIGN_LEFT, false, false, NEED_CGROUP, N_("/proc/PID/cgroup of each process"), get_unit, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 22 characters */
	{"cgroup", N_("CGROUP"), N_("Control group (cgroup v2 path; on hosts with cgroup v1 only, the systemd hierarchy's)"),
	 COL_STRING, 20, COL_ALIGN_LEFT, false, false, NEED_CGROUP, N_("/proc/PID/cgroup of each process"), get_cgroup, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 17 characters */
	{"comm", N_("NAME"), N_("Task name (comm); thread names on thread rows"),
	 COL_STRING, 15, COL_ALIGN_LEFT, false, false, NEED_STAT, COST_STAT, get_comm, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
	/* TRANSLATORS: column header, at most 9 characters */
	{"command", N_("COMMAND"), N_("Full command line; [name] when there is none (kernel threads, zombies)"),
	 COL_STRING, 0, COL_ALIGN_LEFT, false, true, NEED_CMDLINE, N_("/proc/PID/cmdline of each shown process"), get_command, 0, COL_ROWS_BOTH, false, 0, COL_GROUP_TOO, NULL},
};

int colset_init(struct colset *cs)
{
	size_t n = sizeof(builtin_columns) / sizeof(builtin_columns[0]);
	cs->cols = malloc(n * sizeof(*cs->cols));
	if (!cs->cols)
		return -1;
	memcpy(cs->cols, builtin_columns, sizeof(builtin_columns));
	cs->n = cs->nbuiltin = n;
	return 0;
}

void colset_free(struct colset *cs)
{
	free(cs->cols);
	cs->cols = NULL;
	cs->n = cs->nbuiltin = 0;
}

int colset_add(struct colset *cs, const struct column *col)
{
	struct column *p = realloc(cs->cols, (cs->n + 1) * sizeof(*p));
	if (!p)
		return -1;
	cs->cols = p;
	cs->cols[cs->n] = *col;
	return (int)cs->n++;
}

int colset_index(const struct colset *cs, const char *id)
{
	for (size_t i = 0; i < cs->n; i++)
		if (strcmp(cs->cols[i].id, id) == 0)
			return (int)i;
	return -1;
}

const struct column *colset_find(const struct colset *cs, const char *id)
{
	int i = colset_index(cs, id);
	return i < 0 ? NULL : &cs->cols[i];
}

struct tv_value column_value(const struct column *col, const struct tv_task *t)
{
	if (t->is_group ? col->groups == COL_GROUP_NONE : col->groups == COL_GROUP_ONLY)
		return value_unknown();
	if (col->applies == COL_ROWS_PROCESS && t->is_thread)
		return value_unknown();
	if (col->applies == COL_ROWS_THREAD && !t->is_thread)
		return value_unknown();
	struct tv_value v = col->get(col, t);
	v.partial = v.kind != TV_V_UNKNOWN && col->part && (t->partial & TV_PART_BIT(col->part - 1));
	return v;
}

static int colsel_push(struct colsel *sel, int idx)
{
	int *p = realloc(sel->idx, (sel->n + 1) * sizeof(*p));
	if (!p)
		return -1;
	sel->idx = p;
	sel->idx[sel->n++] = idx;
	return 0;
}

int colsel_parse(const struct colset *cs, const char *list, struct colsel *out, char **bad)
{
	*bad = NULL;
	out->idx = NULL;
	out->n = 0;
	const char *p = list;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *end = p + strcspn(p, ",");
		const char *e = end;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		char *id = strndup(p, (size_t)(e - p));
		if (!id)
			goto fail;
		int i = colset_index(cs, id);
		bool all = i < 0 && strcmp(id, COLSEL_ALL) == 0;
		if (i < 0 && !all) {
			*bad = id;
			goto fail;
		}
		free(id);
		if (!all && colsel_push(out, i) < 0)
			goto fail;
		/* every column but those listed before it, in the order --list-columns gives */
		for (size_t k = 0; all && k < cs->n; k++)
			if (!colsel_has(out, (int)k) && colsel_push(out, (int)k) < 0)
				goto fail;
		if (!*end)
			return 0;
		p = end + 1;
	}
fail:
	colsel_free(out);
	return -1;
}

int colsel_default(const struct colset *cs, struct colsel *out)
{
	out->idx = NULL;
	out->n = 0;
	for (size_t i = 0; i < cs->nbuiltin; i++)
		if (cs->cols[i].shown_default && colsel_push(out, (int)i) < 0)
			return -1;
	return 0;
}

void colsel_free(struct colsel *sel)
{
	free(sel->idx);
	sel->idx = NULL;
	sel->n = 0;
}

bool colsel_has(const struct colsel *sel, int idx)
{
	for (size_t i = 0; i < sel->n; i++)
		if (sel->idx[i] == idx)
			return true;
	return false;
}

int colsel_add_group_columns(const struct colset *cs, struct colsel *sel)
{
	static const char *const ids[] = {"cpu_pressure", "io_pressure", "memory_pressure"};
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		int idx = colset_index(cs, ids[k]);
		if (idx < 0 || colsel_has(sel, idx))
			continue;
		if (colsel_push(sel, idx) < 0)
			return -1;
		/* before a trailing name column, which takes the rest of the line */
		size_t n = sel->n;
		const struct column *prev = n >= 2 ? &cs->cols[sel->idx[n - 2]] : NULL;
		if (prev && (strcmp(prev->id, "command") == 0 || strcmp(prev->id, "comm") == 0)) {
			sel->idx[n - 1] = sel->idx[n - 2];
			sel->idx[n - 2] = idx;
		}
	}
	return 0;
}

unsigned colsel_needs(const struct colset *cs, const struct colsel *sel)
{
	unsigned needs = 0;
	for (size_t i = 0; i < sel->n; i++)
		needs |= cs->cols[sel->idx[i]].needs;
	return needs;
}

char *colset_ids_joined(const struct colset *cs)
{
	size_t len = 1;
	for (size_t i = 0; i < cs->n; i++)
		len += strlen(cs->cols[i].id) + 2;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	for (size_t i = 0; i < cs->n; i++) {
		size_t l = strlen(cs->cols[i].id);
		if (i) {
			memcpy(p, ", ", 2);
			p += 2;
		}
		memcpy(p, cs->cols[i].id, l);
		p += l;
	}
	*p = '\0';
	return s;
}
