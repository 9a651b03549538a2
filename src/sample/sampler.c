/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One refresh: list /proc, read each selected process through files kept
 * open, its threads where the view or a sum needs them, ask taskstats, and
 * time every counter at its own read.
 */
#include "sample/sampler.h"
#include "sample/sampler_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "model/column.h"
#include "sample/bpf/bpf_exits.h"
#include "sample/bpf/bpf_tasks.h"
#include "sample/proc/cmdline.h"
#include "sample/proc/cpuclock.h"
#include "plugin/plugin_host.h"
#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"
#include "sample/proc/system.h"
#include "sample/taskstats/taskstats.h"
#include "sample/taskstats/taskstats_listen.h"
#include "sample/proc/users.h"
#include "util/clock.h"
#include "util/i18n.h"

static char *strdup_printf(const char *fmt, const char *arg)
{
	char tmp[512];
	snprintf(tmp, sizeof(tmp), fmt, arg);
	return strdup(tmp);
}

/*
 * Whether /proc lists the kernel's threads (kthreadd is PID 2 of the initial
 * PID namespace). A container's /proc (its own PID namespace) and one that
 * hides other users' processes list none: their task counts are not those
 * of /proc/loadavg, which are the host's.
 */
static bool lists_kernel_threads(struct sampler *s)
{
	struct proc_stat st;
	ssize_t n = sampler_read(s, NULL, "2/stat");
	return n > 0 && proc_parse_stat(s->buf, (size_t)n, &st) == 0 && (st.flags & PROC_PF_KTHREAD);
}

struct sampler *sampler_new(char **err)
{
	*err = NULL;
	struct sampler *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	tracked_init(&s->tr);
	s->procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->procfd < 0 || faccessat(s->procfd, "self/stat", R_OK, 0) < 0) {
		*err = strdup_printf(_("cannot read /proc: %s (is procfs mounted?)"), strerror(errno));
		goto fail;
	}
	int dfd = dup(s->procfd);
	s->procdir = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!s->procdir && dfd >= 0)
		close(dfd);
	s->buf = malloc(SAMPLER_READ_CAP);
	s->users = users_new();
	s->cmd = cmdline_new(s->procfd);
	s->cg = cgroups_new(&s->tr.fds);
	for (int r = 0; r < 3; r++)
		s->fd_pressure[r] = -1;
	s->fd_loadavg = s->fd_stat = s->fd_meminfo = -1;
	s->fd_self_statm = s->fd_helper_stat = s->fd_helper_statm = -1;
	long hz = sysconf(_SC_CLK_TCK);
	s->hz = hz > 0 ? (double)hz : 100.0;
	if (!s->procdir || !s->buf || !s->users || !s->cmd || !s->cg) {
		*err = strdup(_("out of memory"));
		goto fail;
	}
	s->counts_listed = !lists_kernel_threads(s);
	return s;
fail:
	sampler_free(s);
	return NULL;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	ts_listen_stop(s->listen);
	bpf_exits_free(s->bexits);
	bpf_tasks_free(s->bpf);
	cmdline_free(s->cmd);
	cgroups_free(s->cg);
	for (int r = 0; r < 3; r++)
		fd_budget_close(&s->tr.fds, &s->fd_pressure[r]);
	fd_budget_close(&s->tr.fds, &s->fd_loadavg);
	fd_budget_close(&s->tr.fds, &s->fd_stat);
	fd_budget_close(&s->tr.fds, &s->fd_meminfo);
	fd_budget_close(&s->tr.fds, &s->fd_self_statm);
	fd_budget_close(&s->tr.fds, &s->fd_helper_stat);
	fd_budget_close(&s->tr.fds, &s->fd_helper_statm);
	tracked_free(&s->tr);
	users_free(s->users);
	if (s->procdir)
		closedir(s->procdir);
	if (s->procfd >= 0)
		close(s->procfd);
	free(s->pending);
	free(s->pending_room);
	free(s->slots);
	free(s->buf);
	free(s);
}

void sampler_set_taskstats(struct sampler *s, struct ts_client *ts)
{
	s->ts = ts;
	/* with permission to query, exit records are watched too */
	if (ts && !s->listen && !s->bexits && !s->listen_tried && sampler_ts_usable(s)) {
		s->listen_tried = true;
		/* the BPF program costs a refresh no netlink message per exit;
		 * TASKVIEW_EXITS=netlink keeps the listener */
		const char *e = getenv("TASKVIEW_EXITS");
		const char *why;
		if (!e || strcmp(e, "netlink") != 0)
			s->bexits = bpf_exits_open(&why);
		if (!s->bexits)
			s->listen = ts_listen_start(&s->listen_why);
	}
}

void sampler_set_plugins(struct sampler *s, struct plugin_host *ph, size_t npvals)
{
	s->ph = ph;
	s->npvals = npvals;
}

struct cmdline_cache *sampler_cmdlines(struct sampler *s)
{
	return s->cmd;
}

const char *sampler_exits_unwatched(const struct sampler *s)
{
	if (s->listen || s->bexits)
		return NULL;
	if (s->listen_why)
		return s->listen_why;
	return _("exit records need taskstats with CAP_NET_ADMIN");
}

bool sampler_ts_usable(const struct sampler *s)
{
	if (!s->ts)
		return false;
	enum ts_state st = ts_state(s->ts);
	return st == TS_ON || st == TS_OFF;
}

ssize_t sampler_read(struct sampler *s, int *fd, const char *path)
{
	if (fd && *fd < 0) {
		*fd = fd_budget_open(&s->tr.fds, s->procfd, path);
		if (*fd >= 0)
			s->io.opens++;
	}
	s->io.reads++;
	if (fd && *fd >= 0) {
		ssize_t n = proc_pread(*fd, s->buf, SAMPLER_READ_CAP);
		/* a kept file of a task that is gone fails: never fall back to the
		 * path, which may name a new task under the same ID by now */
		if (n < 0)
			fd_budget_close(&s->tr.fds, fd);
		return n;
	}
	s->io.opens++;
	return proc_read_at(s->procfd, path, s->buf, SAMPLER_READ_CAP);
}

struct timed {
	struct sampler *s;
	int *fd;
	const char *path;
};

static ssize_t timed_read(void *ctx)
{
	struct timed *t = ctx;
	return sampler_read(t->s, t->fd, t->path);
}

ssize_t sampler_read_timed(struct sampler *s, int *fd, const char *path, double *when)
{
	struct timed t = {s, fd, path};
	unsigned again;
	ssize_t n = clock_timed_read(timed_read, &t, when, &again);
	s->io.reads -= again;
	s->io.rereads += again;
	return n;
}

static int cmp_i32(const void *a, const void *b);

bool sampler_threads_shown(const struct sample_opts *o, int32_t tgid)
{
	if (o->all_threads || (o->expanded && o->expanded(o->expanded_ctx, tgid)))
		return true;
	return o->nexpanded && bsearch(&tgid, o->expanded_list, o->nexpanded, sizeof(tgid), cmp_i32);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Ids in the PID list that are threads select their process: a copy of the
 * filter with every such id replaced by its TGID (from its status file). */
static struct filter *filter_with_tgids(struct sampler *s, const struct filter *f, const int32_t *pids,
					size_t npids)
{
	if (!f || f->npids == 0)
		return NULL;
	struct filter *g = calloc(1, sizeof(*g));
	if (g)
		filter_init(g);
	if (!g || !(g->pids = malloc(f->npids * sizeof(*g->pids)))) {
		filter_free(g);
		free(g);
		return NULL;
	}
	g->uid = f->uid;
	for (size_t i = 0; i < f->npids; i++) {
		int32_t id = f->pids[i], tgid = id;
		if (!npids || !bsearch(&id, pids, npids, sizeof(*pids), cmp_i32)) {
			char name[48];
			struct proc_status ps;
			snprintf(name, sizeof(name), "%d/status", id);
			ssize_t n = sampler_read(s, NULL, name);
			if (n > 0 && proc_parse_status(s->buf, (size_t)n, &ps) == 0 && ps.tgid != TV_UNKNOWN)
				tgid = (int32_t)ps.tgid;
		}
		g->pids[g->npids++] = tgid;
	}
	qsort(g->pids, g->npids, sizeof(*g->pids), cmp_i32);
	return g;
}

/* The pids in /proc, ascending (the kernel lists them in order; sorted anyway). */
static int32_t *list_pids(struct sampler *s, size_t *n)
{
	size_t cap = s->last_npids + 64, k = 0;
	int32_t *v = malloc(cap * sizeof(*v));
	struct dirent *de;
	rewinddir(s->procdir);
	s->io.lists++;
	while (v && (de = readdir(s->procdir))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (k == cap) {
			int32_t *nv = realloc(v, 2 * cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
			cap *= 2;
		}
		v[k++] = (int32_t)atoi(de->d_name);
	}
	if (v)
		qsort(v, k, sizeof(*v), cmp_i32);
	*n = k;
	s->last_npids = k;
	return v;
}

/* The whole system's pressure stall information, through files kept open. */
static void system_pressure(struct sampler *s, struct snapshot *out)
{
	static const char *const files[TV_RES_N] = {"pressure/cpu", "pressure/io", "pressure/memory"};
	int err = 0;
	bool any = false;
	for (int r = 0; r < TV_RES_N; r++) {
		struct psi psi;
		pressure_unknown(&out->pressure[r]);
		ssize_t n = sampler_read(s, &s->fd_pressure[r], files[r]);
		if (n < 0) {
			err = (int)-n;
			continue;
		}
		if (psi_parse(s->buf, (size_t)n, &psi) == 0) {
			pressure_from_psi(&out->pressure[r], &psi);
			any = true;
		}
	}
	out->t_pressure = clock_now(CLOCK_MONOTONIC);
	if (!any)
		out->pressure_why = err == ENOENT ? _("the kernel has no pressure stall information (CONFIG_PSI)")
			: err == EOPNOTSUPP ? _("pressure stall information is off: boot with psi=1")
					    : _("pressure stall information is unreadable");
}

/* The control group of a process, through its cgroup file kept open. false when the cgroup filter leaves it out. */
static bool process_cgroup(struct sampler *s, struct tv_task *t, const struct filter *f)
{
	t->cgroup = cgroups_listed(s->cg, t->tgid);
	if (!t->cgroup) {
		struct tracked_proc *tp = tracked_find(&s->tr, t->tgid);
		char path[48];
		snprintf(path, sizeof(path), "%d/cgroup", t->tgid);
		ssize_t n = sampler_read(s, tp ? &tp->fd_cgroup : NULL, path);
		/* a file that filled the buffer may be cut in its last line (the
		 * unified hierarchy's): the group is unknown then, never a guess */
		if (n > 0 && (size_t)n + 1 < SAMPLER_READ_CAP)
			t->cgroup = cgroups_member(s->cg, s->buf, (size_t)n);
	}
	return filter_matches_cgroup(f, t->cgroup ? t->cgroup->path : NULL, t->cgroup ? t->cgroup->unit : NULL);
}

/* Runnable and total threads of the whole system, from /proc/loadavg. */
static void system_counts(struct sampler *s, struct snapshot *out)
{
	ssize_t n = sampler_read(s, &s->fd_loadavg, "loadavg");
	unsigned long run, total;
	if (n > 0 && sscanf(s->buf, "%*s %*s %*s %lu/%lu", &run, &total) == 2) {
		out->sys_running = run;
		out->sys_threads = total;
	}
	if (n > 0)
		(void)system_parse_loadavg(s->buf, out->machine.load);
}

/* The machine's CPU time and memory (sample_opts.machine), through files kept open. */
static void system_machine(struct sampler *s, struct snapshot *out)
{
	struct tv_machine *m = &out->machine;
	struct sys_cpu c;
	double when = 0;
	if (sampler_read_timed(s, &s->fd_stat, "stat", &when) > 0 && system_parse_cpu_all(s->buf, &c) == 0) {
		double us = (double)system_cpu_busy(&c) * 1e6 / s->hz;
		if (us < (double)MACHINE_BUSY_US_MAX) {
			m->busy_us = (int64_t)us;
			m->t_busy = when;
		}
	}
	if (sampler_read(s, &s->fd_meminfo, "meminfo") > 0) {
		struct sys_mem mem;
		system_parse_meminfo(s->buf, &mem);
		/* -1: the line is missing */
		m->mem_total = mem.total >= 0 ? mem.total : TV_UNKNOWN;
		m->mem_available = mem.available >= 0 ? mem.available : TV_UNKNOWN;
		m->swap_total = mem.swap_total >= 0 ? mem.swap_total : TV_UNKNOWN;
		m->swap_free = mem.swap_free >= 0 ? mem.swap_free : TV_UNKNOWN;
	}
}

/* The counts of the tasks /proc lists (sampler.counts_listed), from the
 * processes read: all of them unless a filter skipped some. */
static void listed_counts(struct snapshot *out, bool all_read)
{
	out->sys_threads = out->sys_running = TV_COUNT_UNKNOWN;
	if (!all_read)
		return;
	size_t threads = 0, running = 0;
	bool one_each = true;
	for (size_t i = 0; i < out->nprocs; i++) {
		const struct tv_task *p = &out->procs[i];
		if (p->nthreads < 1)
			return;
		threads += (size_t)p->nthreads;
		/* a process's stat gives its leader's state only */
		one_each = one_each && p->nthreads == 1;
		running += p->state == 'R';
	}
	out->sys_threads = threads;
	if (one_each)
		out->sys_running = running;
}

/* Fills what the leader's stat says of a process; its CPU time is read next, from its CPU clock. */
static void task_from_stat(struct tv_task *t, const struct proc_stat *st)
{
	t->tid = t->tgid = st->pid;
	t->ppid = st->ppid;
	t->details_read = true;
	t->state = st->state;
	t->nice = st->nice;
	t->prio = st->prio;
	t->nthreads = st->nthreads;
	t->start_ticks = st->start_ticks;
	t->kthread = (st->flags & PROC_PF_KTHREAD) != 0;
	task_set_comm(t, st->comm, sizeof(st->comm));
}

void sampler_memory_from_status(struct tv_task *t, const struct proc_status *ps)
{
	struct tv_mem m = tv_mem_unknown;
	m.size = ps->vm_size;
	m.rss = ps->vm_rss;
	m.pte = ps->vm_pte;
	m.swap = ps->vm_swap;
	m.stk = ps->vm_stk;
	m.hwm = ps->vm_hwm;
	m.rss_anon = ps->rss_anon;
	m.rss_file = ps->rss_file;
	m.rss_shmem = ps->rss_shmem;
	if (!t->mem && memcmp(&m, &tv_mem_unknown, sizeof(m)) == 0)
		return; /* a kernel thread: no block for nothing */
	struct tv_mem *w = task_mem_mut(t);
	if (w) {
		/* the stacks, read after the status, stay */
		m.stack_size = w->stack_size;
		m.stack_rss = w->stack_rss;
		m.stacks = w->stacks;
		m.nstacks = w->nstacks;
		*w = m;
	}
}

/* The bracketed name that stands for a command line there is none of. */
static char *bracketed(const char *comm)
{
	size_t l = strlen(comm);
	char *b = malloc(l + 3);
	if (b) {
		b[0] = '[';
		memcpy(b + 1, comm, l);
		memcpy(b + 1 + l, "]", 2);
	}
	return b;
}

/* The command line from the cache: NULL (unknown) while it is being read. */
void sampler_cmdline_fill(struct cmdline_cache *c, struct tv_task *t, double max_age)
{
	if (t->cmdline || t->is_thread)
		return;
	char *cmd = NULL;
	bool cut = false;
	enum cmdline_state st = cmdline_get(c, t->tgid, t->start_ticks, task_comm(t), max_age, &cmd, &cut);
	if (st == CMDLINE_READY)
		t->cmdline = cmd ? cmd : bracketed(task_comm(t)); /* empty: kernel thread or zombie */
	else if (st == CMDLINE_GONE)
		t->cmdline = bracketed(task_comm(t));
}

/*
 * A process's CPU time, exited threads included: its CPU clock, in ns, timed
 * at the read. Where the kernel has none, the process's stat (utime + stime
 * over every thread, dead ones included, in clock ticks). Returns -1 when the
 * process is gone.
 */
static int process_cpu(struct sampler *s, struct tv_task *t)
{
	int64_t ns;
	double when;
	if (cpuclock_read(t->tgid, &ns, &when) == 0) {
		t->cpu_ns = ns;
		t->cpu_fine = true;
		t->t_cpu = when;
		return 0;
	}
	char path[32];
	snprintf(path, sizeof(path), "%d/stat", t->tgid);
	ssize_t n = sampler_read_timed(s, NULL, path, &when);
	struct proc_stat st;
	if (n < 0 || proc_parse_stat(s->buf, (size_t)n, &st) < 0 || st.start_ticks != t->start_ticks)
		return -1;
	t->cpu_ns = (int64_t)((double)(st.utime + st.stime) * (1e9 / s->hz));
	t->cpu_fine = false;
	t->t_cpu = when;
	return 0;
}

/* The process's I/O counters (NEED_IO); unknown where its io file is not ours to read. */
static void process_io(struct sampler *s, struct tv_task *t)
{
	struct tracked_proc *tp = tracked_find(&s->tr, t->tgid);
	if (!tp || tp->io_denied)
		return;
	char path[32];
	snprintf(path, sizeof(path), "%d/io", t->tgid);
	double when;
	ssize_t n = sampler_read_timed(s, &tp->fd_io, path, &when);
	struct proc_io io;
	tp->io_denied = n == -EACCES || n == -EPERM;
	struct tv_mem *m = n < 0 || proc_parse_io(s->buf, (size_t)n, &io) < 0 ? NULL : task_mem_mut(t);
	if (!m)
		return;
	m->io_read = io.read_bytes;
	m->io_write = io.write_bytes;
	m->t_io = when;
}

/*
 * The leader's own task/PID/stat: what taskview takes from stat (state,
 * priority, start, thread count) reads the same there as in /proc/PID/stat,
 * which walks the thread list twice to sum times the CPU clock gives whole.
 */
static void stat_path(char *path, size_t n, int32_t pid)
{
	snprintf(path, n, "%d/task/%d/stat", pid, pid);
}

/* Reads one process's stat and status. Returns -1 when it is gone, -2 when the filter leaves it out. */
static int process_read(struct sampler *s, int32_t pid, struct tv_task *t, const struct filter *sel,
			struct lead_status *lead)
{
	char path[48];
	struct tracked_proc *tp = tracked_get(&s->tr, pid);
	if (!tp)
		return -1;
	stat_path(path, sizeof(path), pid);
	ssize_t n = sampler_read(s, &tp->fd_stat, path);
	struct proc_stat st;
	if (n < 0 || proc_parse_stat(s->buf, (size_t)n, &st) < 0)
		return -1; /* gone since the listing */
	if (tp->start != st.start_ticks) {
		/* a new task under this pid: what was kept belongs to the old one */
		if (tp->start != TV_START_UNKNOWN) {
			tracked_reset(&s->tr, tp);
			stat_path(path, sizeof(path), pid);
			tp->fd_stat = fd_budget_open(&s->tr.fds, s->procfd, path);
		}
		tp->start = st.start_ticks;
	}
	task_init(t);
	task_from_stat(t, &st);
	if (process_cpu(s, t) < 0)
		return -1;

	/* memory, owner and the leader's switches; every selected process */
	struct proc_status *ps = &lead->ps;
	snprintf(path, sizeof(path), "%d/status", pid);
	n = sampler_read_timed(s, &tp->fd_status, path, &lead->when);
	if (n == -ENOENT || n == -ESRCH)
		return -1;
	if (n < 0 || proc_parse_status(s->buf, (size_t)n, ps) < 0)
		proc_parse_status("", 0, ps); /* unreadable: every field unknown */
	tp->seen = true; /* kept even when filtered out: its files are read again next time */
	if (!filter_wants_uid(sel, ps->euid))
		return -2;
	t->uid = ps->euid;
	t->user = ps->euid != TV_UNKNOWN ? users_name(s->users, ps->euid) : NULL;
	sampler_memory_from_status(t, ps);
	return 0;
}

/* Plugin values of the process rows and of the thread rows shown, in one call. */
static void plugins_collect(struct sampler *s, const struct sample_opts *o, struct snapshot *out)
{
	size_t n = 0;
	for (size_t i = 0; i < out->nprocs; i++)
		n += 1 + (out->procs[i].threads_are_rows ? out->procs[i].nthreads_read : 0);
	struct tv_task **tasks = malloc((n ? n : 1) * sizeof(*tasks));
	if (!tasks)
		return;
	size_t k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		tasks[k++] = p;
		for (size_t j = 0; p->threads_are_rows && j < p->nthreads_read; j++)
			tasks[k++] = &p->threads[j];
	}
	plugin_host_collect_all(s->ph, tasks, k, o->plugin_shown);
	free(tasks);
}

static int cmp_task_tgid(const void *a, const void *b)
{
	const struct tv_task *x = a, *y = b;
	return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

/* Resident KiB of a process from its statm, through a kept file; 0 when unreadable. */
static int64_t statm_rss(struct sampler *s, int *fd, const char *path)
{
	unsigned long size, res;
	ssize_t n = sampler_read(s, fd, path);
	if (n > 0 && sscanf(s->buf, "%lu %lu", &size, &res) == 2)
		return (int64_t)res * (sysconf(_SC_PAGESIZE) / 1024);
	return 0;
}

/* What taskview itself cost since the previous refresh, its plugin helper included. */
static void self_cost(struct sampler *s, struct snapshot *out)
{
	struct rusage ru;
	char path[48];
	out->self.cpu_ms = NAN;
	int64_t rss = statm_rss(s, &s->fd_self_statm, "self/statm");
	double helper_ms = 0;
	pid_t hp = plugin_host_helper_pid(s->ph);
	if (hp != s->helper) {
		/* a helper restarted since counts from now */
		fd_budget_close(&s->tr.fds, &s->fd_helper_stat);
		fd_budget_close(&s->tr.fds, &s->fd_helper_statm);
		s->helper = 0;
	}
	struct proc_stat st;
	snprintf(path, sizeof(path), "%d/stat", (int)hp);
	ssize_t n = hp ? sampler_read(s, &s->fd_helper_stat, path) : -1;
	if (n > 0 && proc_parse_stat(s->buf, (size_t)n, &st) == 0) {
		double cpu = (double)(st.utime + st.stime) / s->hz;
		if (s->helper == hp)
			helper_ms = (cpu - s->last_helper) * 1000.0;
		s->helper = hp;
		s->last_helper = cpu;
		snprintf(path, sizeof(path), "%d/statm", (int)hp);
		rss += statm_rss(s, &s->fd_helper_statm, path);
	}
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
			     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
		if (s->have_cpu)
			out->self.cpu_ms = (cpu - s->last_cpu) * 1000.0 + helper_ms;
		s->last_cpu = cpu;
		s->have_cpu = true;
	}
	out->self.rss_kib = rss > 0 ? rss : TV_UNKNOWN;
	out->self.opens = s->io.opens;
	out->self.reads = s->io.reads;
	out->self.queries = s->io.queries;
	out->self.exit_probes = s->io.exit_probes;
	out->self.kept_fds = s->tr.fds.used;
	out->self.reader = s->bpf_pass > 0 ? TV_READER_BPF : TV_READER_PROC;
	out->self.reader_why = s->bpf_pass > 0 ? NULL : s->bpf_why_now;
}

/* Every row will be shown (batch output): read what is otherwise read for the rows on screen only. */
static void fill_all(struct sampler *s, const struct sample_opts *o, struct snapshot *out)
{
	for (size_t i = 0; (o->needs & NEED_TSTAT) && i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		for (size_t j = 0; p->threads_are_rows && j < p->nthreads_read; j++)
			sampler_fill_one(s, &p->threads[j], out->boot_ticks, &s->io);
	}
}

void sampler_cancel(struct sampler *s)
{
	atomic_store(&s->cancel, true);
}

static void task_delays_unknown(struct tv_task *t)
{
	for (int c = TV_DELAY_CPU + 1; c < TV_DELAY_NCLASS; c++)
		t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
}

/* Delay accounting off: the kernel adds to no class but CPU (which schedstat
 * keeps), so what a reader found there is no measurement. The taskstats
 * replies are masked already; the BPF pass reads the counters directly. */
static void delays_unknown_while_off(const struct sampler *s, struct snapshot *out)
{
	if (!s->ts || ts_state(s->ts) != TS_OFF)
		return;
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		task_delays_unknown(p);
		for (size_t j = 0; j < p->nthreads_read; j++)
			task_delays_unknown(&p->threads[j]);
		for (size_t j = 0; j < p->nexited; j++)
			task_delays_unknown(&p->exited[j]);
	}
	for (size_t i = 0; i < out->ngone; i++)
		task_delays_unknown(&out->gone[i]);
}

double sampler_stacks_budget(double interval)
{
	return interval / 2 > 1.0 ? interval / 2 : 1.0;
}

int sampler_take(struct sampler *s, const struct sample_opts *o, struct snapshot *out, char **err)
{
	*err = NULL;
	memset(out, 0, sizeof(*out));
	memset(&s->io, 0, sizeof(s->io));
	out->npvals = s->npvals;
	out->needs = o->needs;
	out->thread_names = o->thread_names;
	sampler_bpf_prepare(s, o->all_threads);
	out->mono = clock_now(CLOCK_MONOTONIC);
	out->wall = clock_now(CLOCK_REALTIME);
	out->boot_offset = clock_now(CLOCK_BOOTTIME) - out->mono;
	out->hz = s->hz;
	out->ncpus = (size_t)cpuclock_online_cpus();
	out->cpu_clock = true;
	out->boot_ticks = (out->mono + out->boot_offset) * s->hz;
	s->stacks_budget = o->stacks_budget;
	s->stacks_spent = 0;

	size_t npids = 0;
	int32_t *pids = list_pids(s, &npids);
	if (!pids) {
		*err = strdup(_("out of memory"));
		return -1;
	}
	out->sys_procs = npids;
	machine_unknown(&out->machine);
	system_counts(s, out);
	if (o->machine)
		system_machine(s, out);
	sampler_bpf_begin(s, o->all_threads, out->sys_threads);
	system_pressure(s, out);
	bool cg = (o->needs & NEED_CGROUP) || (o->filter && o->filter->cgroup);
	if (cg)
		cgroups_begin(s->cg);
	struct filter *byid = filter_with_tgids(s, o->filter, pids, npids);
	const struct filter *sel = byid ? byid : o->filter;

	out->procs = calloc(npids ? npids : 1, sizeof(*out->procs));
	if (!out->procs) {
		free(pids);
		filter_free(byid);
		free(byid);
		*err = strdup(_("out of memory"));
		return -1;
	}
	if (s->ts)
		ts_refresh_state(s->ts); /* the sysctl may change while we run */
	tracked_unsee(&s->tr);
	size_t k = 0;
	bool all_read = true; /* no process left unread by a filter */
	for (size_t i = 0; i < npids && !atomic_load_explicit(&s->cancel, memory_order_relaxed); i++) {
		int32_t pid = pids[i];
		if (!filter_wants_pid(sel, pid)) {
			all_read = false;
			continue;
		}
		struct tv_task *t = &out->procs[k];
		struct lead_status lead;
		int r = process_read(s, pid, t, sel, &lead);
		if (r < 0 || (cg && !process_cgroup(s, t, o->filter))) {
			all_read = all_read && r == -1; /* gone is not left out */
			task_clear(t, 0);
			continue;
		}
		if (o->needs & NEED_IO)
			process_io(s, t);
		sampler_threads_read(s, o, t, &lead);
		k++;
	}
	free(pids);
	out->nprocs = k;
	if (s->counts_listed)
		listed_counts(out, all_read);
	if (atomic_load(&s->cancel)) {
		/* stopped: what was read is dropped, the tracked tasks stay as they were */
		if (cg)
			cgroups_end(s->cg, out);
		filter_free(byid);
		free(byid);
		snapshot_free(out);
		*err = strdup(_("stopped"));
		return -1;
	}
	tracked_sweep(&s->tr);
	if (cg)
		cgroups_end(s->cg, out);
	if (k > 1) /* qsort's array must not be NULL, even when empty */
		qsort(out->procs, k, sizeof(*out->procs), cmp_task_tgid);
	if (sampler_ts_usable(s))
		sampler_taskstats(s, o, out);
	sampler_exits(s, o, out, sel);
	delays_unknown_while_off(s, out);
	sampler_partial_totals(s, out);
	if (s->ph && s->npvals)
		plugins_collect(s, o, out);
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tracked_proc *tp = tracked_find(&s->tr, out->procs[i].tgid);
		if (tp && tp->live_tid)
			cmdline_read_from(s->cmd, tp->pid, tp->start, tp->live_tid);
	}
	/* command lines from the cache: a process's is read once, in the
	 * background; the rows shown refresh theirs (sampler_fill_rows). One
	 * stuck behind a hung process is not waited for longer than asked. */
	if (o->needs & NEED_CMDLINE) {
		for (size_t i = 0; i < out->nprocs; i++)
			sampler_cmdline_fill(s->cmd, &out->procs[i], INFINITY);
		if (o->cmdline_wait > 0)
			(void)cmdline_wait(s->cmd, o->cmdline_wait);
		for (size_t i = 0; o->cmdline_wait > 0 && i < out->nprocs; i++)
			sampler_cmdline_fill(s->cmd, &out->procs[i], INFINITY);
	}
	if (o->details_all)
		fill_all(s, o, out);
	cmdline_sweep(s->cmd);
	filter_free(byid);
	free(byid);
	self_cost(s, out);
	s->prev_boot_ticks = out->boot_ticks;
	return 0;
}
