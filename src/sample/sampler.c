#include "sample/sampler.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libproc2/pids.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/column.h"
#include "plugin/plugin_host.h"
#include "sample/proc_parse.h"
#include "sample/proc_read.h"
#include "sample/taskstats.h"
#include "sample/users.h"
#include "util/clock.h"
#include "util/i18n.h"

/* Only fields of /proc/PID/stat: libproc2 then opens nothing else per process. */
enum {
	IT_PID, IT_PPID, IT_STATE, IT_NICE, IT_PRIO, IT_TICS, IT_BEGAN, IT_NLWP, IT_EUID, IT_COUNT
};
static enum pids_item sampler_items[IT_COUNT] = {
	PIDS_ID_PID, PIDS_ID_PPID, PIDS_STATE, PIDS_NICE, PIDS_PRIORITY,
	PIDS_TICS_ALL, PIDS_TICS_BEGAN, PIDS_NLWP, PIDS_ID_EUID,
};

/* libproc2's accessor takes an unused info argument */
#define STACK_VAL(item, type, stack) PIDS_VAL(item, type, stack, NULL)

#define READ_CAP 65536 /* command lines longer than this are cut */

struct sampler {
	struct pids_info *info;
	struct users *users;
	struct ts_client *ts;
	struct plugin_host *ph;
	size_t npvals;
	int procfd;
	char *buf;
};

static char *strdup_printf(const char *fmt, const char *arg)
{
	char tmp[512];
	snprintf(tmp, sizeof(tmp), fmt, arg);
	return strdup(tmp);
}

struct sampler *sampler_new(char **err)
{
	*err = NULL;
	struct sampler *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->procfd < 0 || faccessat(s->procfd, "self/stat", R_OK, 0) < 0) {
		*err = strdup_printf(_("cannot read /proc: %s (is procfs mounted?)"), strerror(errno));
		goto fail;
	}
	s->buf = malloc(READ_CAP);
	s->users = users_new();
	if (!s->buf || !s->users || procps_pids_new(&s->info, sampler_items, IT_COUNT) < 0) {
		*err = strdup(_("cannot initialise libproc2"));
		goto fail;
	}
	return s;
fail:
	sampler_free(s);
	return NULL;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	if (s->info)
		procps_pids_unref(&s->info);
	users_free(s->users);
	if (s->procfd >= 0)
		close(s->procfd);
	free(s->buf);
	free(s);
}

void sampler_set_taskstats(struct sampler *s, struct ts_client *ts)
{
	s->ts = ts;
}

void sampler_set_plugins(struct sampler *s, struct plugin_host *ph, size_t npvals)
{
	s->ph = ph;
	s->npvals = npvals;
}

static bool ts_usable(const struct sampler *s)
{
	if (!s->ts)
		return false;
	enum ts_state st = ts_state(s->ts);
	return st == TS_ON || st == TS_OFF;
}

/* What to read of each thread: stat makes it a displayable row, status adds
 * its switch counts. */
enum { THREAD_STAT = 1, THREAD_STATUS = 2 };

/* Fills a thread from its stat and/or status file; memory and owner come
 * from the process, the leader's switch counts from the process's status
 * (lead), already read. Without stat only the switch counts are known. */
static int thread_read(struct sampler *s, int taskfd, int32_t tid, const struct tv_task *proc,
		       const struct proc_status *lead, unsigned what, struct tv_task *t)
{
	char name[32];
	ssize_t n;
	task_init(t);
	t->is_thread = true;
	t->tid = tid;
	t->tgid = proc->tgid;
	t->start_ticks = TV_START_UNKNOWN;
	if (what & THREAD_STAT) {
		struct proc_stat st;
		snprintf(name, sizeof(name), "%d/stat", tid);
		n = proc_read_at(taskfd, name, s->buf, READ_CAP);
		if (n < 0 || proc_parse_stat(s->buf, (size_t)n, &st) < 0)
			return -1; /* gone */
		t->ppid = proc->ppid;
		t->start_ticks = st.start_ticks;
		t->state = st.state;
		t->nice = st.nice;
		t->prio = st.prio;
		t->cpu_ticks = (int64_t)(st.utime + st.stime);
		t->nthreads = st.nthreads;
		memcpy(t->comm, st.comm, sizeof(t->comm));
		t->uid = proc->uid;
		t->user = proc->user;
		t->vm_size = proc->vm_size;
		t->vm_rss = proc->vm_rss;
		t->vm_pte = proc->vm_pte;
		t->vm_swap = proc->vm_swap;
		t->vm_stk = proc->vm_stk;
		t->vm_hwm = proc->vm_hwm;
	}
	if (what & THREAD_STATUS) {
		struct proc_status ps;
		const struct proc_status *from = tid == proc->tgid && lead->ctxt_vol != TV_UNKNOWN ? lead : NULL;
		if (!from) {
			snprintf(name, sizeof(name), "%d/status", tid);
			n = proc_read_at(taskfd, name, s->buf, READ_CAP);
			if (n >= 0 && proc_parse_status(s->buf, (size_t)n, &ps) == 0)
				from = &ps;
		}
		if (from) {
			t->ctxt_vol = from->ctxt_vol;
			t->ctxt_invol = from->ctxt_invol;
		} else if (!(what & THREAD_STAT)) {
			return -1; /* gone, and nothing else was read */
		}
	}
	return 0;
}

static int cmp_task_tid(const void *a, const void *b)
{
	const struct tv_task *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static DIR *task_dir_open(int piddir)
{
	int taskfd = proc_open_dir(piddir, "task");
	if (taskfd < 0)
		return NULL;
	DIR *d = fdopendir(taskfd);
	if (!d)
		close(taskfd);
	return d;
}

/* Does the view show this process's threads? Then they are read in full,
 * queried one by one and handed to plugins. */
static bool threads_shown(const struct sample_opts *o, int32_t tgid)
{
	return o->all_threads || (o->expanded && o->expanded(o->expanded_ctx, tgid));
}

/* Reads every thread of proc from /proc/PID/task (what: THREAD_*); lead is
 * the process's status. */
static void threads_read(struct sampler *s, int piddir, struct tv_task *proc, const struct proc_status *lead,
			 unsigned what)
{
	DIR *d = task_dir_open(piddir);
	if (!d)
		return;
	size_t cap = proc->nthreads > 0 ? (size_t)proc->nthreads + 4 : 8;
	struct tv_task *v = malloc(cap * sizeof(*v));
	size_t n = 0;
	struct dirent *de;
	while (v && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (n == cap) {
			struct tv_task *nv = realloc(v, 2 * cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
			cap *= 2;
		}
		if (thread_read(s, dirfd(d), (int32_t)atoi(de->d_name), proc, lead, what, &v[n]) == 0)
			n++;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_task_tid);
	proc->threads = v;
	proc->nthreads_read = n;
	proc->threads_complete = v != NULL;
	proc->threads_are_rows = v != NULL && (what & THREAD_STAT);
}

/* For the text filter: does any thread name match? Reads only task/TID/comm. */
static bool threads_match_text(struct sampler *s, int piddir, const struct filter *f)
{
	DIR *d = task_dir_open(piddir);
	if (!d)
		return false;
	bool hit = false;
	struct dirent *de;
	while (!hit && (de = readdir(d))) {
		char name[32];
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(name, sizeof(name), "%.16s/comm", de->d_name);
		ssize_t n = proc_read_at(dirfd(d), name, s->buf, READ_CAP);
		if (n <= 0)
			continue;
		if (s->buf[n - 1] == '\n')
			s->buf[n - 1] = '\0';
		hit = filter_matches_text(f, s->buf, NULL);
	}
	closedir(d);
	return hit;
}

/* The process's ctxt totals as the sum over the threads read. */
static void ctxt_sum_threads(struct tv_task *p)
{
	int64_t vol = 0, invol = 0;
	if (p->nthreads_read == 0)
		return; /* nothing read: unknown, not 0 */
	for (size_t i = 0; i < p->nthreads_read; i++) {
		const struct tv_task *t = &p->threads[i];
		if (t->ctxt_vol == TV_UNKNOWN || t->ctxt_invol == TV_UNKNOWN)
			return;
		vol += t->ctxt_vol;
		invol += t->ctxt_invol;
	}
	p->ctxt_vol = vol;
	p->ctxt_invol = invol;
}

/* Reads what the shown columns need of one selected process. Returns -1 when it vanished or is filtered out. */
static int process_read(struct sampler *s, const struct sample_opts *o, struct tv_task *t, int piddir)
{
	const struct filter *f = o->filter;
	bool want_text = f && f->text;
	bool thread_sum = (o->needs & NEED_CTXT) && !ts_usable(s);
	bool shown = threads_shown(o, t->tgid);
	bool read_threads = shown || (thread_sum && t->nthreads > 1);
	ssize_t n;
	struct proc_status ps;

	/* status is read for every selected process: besides memory and switches
	 * it has the raw name, which libproc2 only gives escaped */
	n = proc_read_at(piddir, "status", s->buf, READ_CAP);
	if (n == -ENOENT || n == -ESRCH)
		return -1; /* vanished mid-scan */
	if (n < 0 || proc_parse_status(s->buf, (size_t)n, &ps) < 0)
		proc_parse_status("", 0, &ps); /* unreadable: every field unknown */
	memcpy(t->comm, ps.name, sizeof(t->comm));
	t->vm_size = ps.vm_size;
	t->vm_rss = ps.vm_rss;
	t->vm_pte = ps.vm_pte;
	t->vm_swap = ps.vm_swap;
	t->vm_stk = ps.vm_stk;
	t->vm_hwm = ps.vm_hwm;
	/* the leader's own switches are the process total when it has no other thread */
	if (thread_sum && !read_threads) {
		t->threads = calloc(1, sizeof(*t->threads));
		if (t->threads) {
			struct tv_task *l = t->threads;
			task_init(l);
			l->is_thread = true;
			l->tid = l->tgid = t->tgid;
			l->start_ticks = t->start_ticks;
			l->ctxt_vol = ps.ctxt_vol;
			l->ctxt_invol = ps.ctxt_invol;
			t->nthreads_read = 1;
			t->threads_complete = true;
		}
	}
	if ((o->needs & NEED_CMDLINE) || want_text) {
		n = proc_read_at(piddir, "cmdline", s->buf, READ_CAP);
		if (n > 0) {
			char *cmd = malloc((size_t)n + 1);
			if (cmd && proc_parse_cmdline(s->buf, (size_t)n, cmd, (size_t)n + 1) > 0) {
				t->cmdline = cmd;
			} else {
				free(cmd);
			}
		}
		/* EACCES or empty (kernel thread, zombie): show the name in brackets */
		if (!t->cmdline && n != -ENOENT && n != -ESRCH) {
			size_t l = strlen(t->comm);
			t->cmdline = malloc(l + 3);
			if (t->cmdline) {
				t->cmdline[0] = '[';
				memcpy(t->cmdline + 1, t->comm, l);
				memcpy(t->cmdline + 1 + l, "]", 2);
			}
		}
	}
	if (want_text && !filter_matches_text(f, t->comm, t->cmdline) &&
	    !(t->nthreads > 1 && threads_match_text(s, piddir, f)))
		return -1;

	/* a folded process needs only its threads' switch counts: status alone */
	if (read_threads)
		threads_read(s, piddir, t, &ps, (shown ? THREAD_STAT : 0) | (thread_sum ? THREAD_STATUS : 0));
	if (thread_sum)
		ctxt_sum_threads(t);
	return 0;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Ids in the PID list that are threads select their process: a copy of the
 * filter with every such id replaced by its TGID (from its status file). */
static struct filter *filter_with_tgids(struct sampler *s, const struct filter *f, struct pids_fetch *fe)
{
	if (!f || f->npids == 0)
		return NULL;
	size_t total = (size_t)fe->counts->total;
	int32_t *procs = malloc((total ? total : 1) * sizeof(*procs));
	struct filter *g = calloc(1, sizeof(*g));
	if (g)
		filter_init(g);
	if (!procs || !g || !(g->pids = malloc(f->npids * sizeof(*g->pids)))) {
		free(procs);
		filter_free(g);
		free(g);
		return NULL;
	}
	for (size_t k = 0; k < total; k++)
		procs[k] = STACK_VAL(IT_PID, s_int, fe->stacks[k]);
	qsort(procs, total, sizeof(*procs), cmp_i32);
	g->uid = f->uid;
	for (size_t i = 0; i < f->npids; i++) {
		int32_t id = f->pids[i], tgid = id;
		if (!bsearch(&id, procs, total, sizeof(*procs), cmp_i32)) {
			char name[48];
			struct proc_status ps;
			snprintf(name, sizeof(name), "%d/status", id);
			ssize_t n = proc_read_at(s->procfd, name, s->buf, READ_CAP);
			if (n > 0 && proc_parse_status(s->buf, (size_t)n, &ps) == 0 && ps.tgid != TV_UNKNOWN)
				tgid = (int32_t)ps.tgid;
		}
		g->pids[g->npids++] = tgid;
	}
	free(procs);
	qsort(g->pids, g->npids, sizeof(*g->pids), cmp_i32);
	return g;
}

/* Asks taskstats for process sums (TGID) and for the thread rows shown. */
static void taskstats_collect(struct sampler *s, const struct sample_opts *o, struct snapshot *out)
{
	size_t nq = 0;
	for (size_t i = 0; i < out->nprocs; i++)
		nq += 1 + (threads_shown(o, out->procs[i].tgid) ? out->procs[i].nthreads_read : 0);
	struct ts_query *q = calloc(nq ? nq : 1, sizeof(*q));
	if (!q)
		return;
	size_t k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		bool shown = threads_shown(o, out->procs[i].tgid);
		q[k++] = (struct ts_query){.id = out->procs[i].tgid, .tgid = true};
		for (size_t j = 0; shown && j < out->procs[i].nthreads_read; j++)
			q[k++] = (struct ts_query){.id = out->procs[i].threads[j].tid, .tgid = false};
	}
	if (ts_query_batch(s->ts, q, nq) < 0) {
		free(q);
		return;
	}
	bool off = ts_state(s->ts) == TS_OFF;
	k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		size_t nt = threads_shown(o, p->tgid) ? p->nthreads_read : 0;
		for (size_t j = 0; j <= nt; j++, k++) {
			struct tv_task *t = j == 0 ? p : &p->threads[j - 1];
			if (!q[k].ok)
				continue;
			t->ctxt_vol = q[k].r.nvcsw;
			t->ctxt_invol = q[k].r.nivcsw;
			memcpy(t->delay, q[k].r.delay, sizeof(t->delay));
			/* with the switch off the kernel still reports CPU delay; other classes are meaningless zeros */
			for (int c = 0; off && c < TV_DELAY_NCLASS; c++)
				if (c != TV_DELAY_CPU)
					t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN};
		}
	}
	out->ctxt_from_group = true;
	free(q);
}

/* Hands the process rows and the thread rows shown to the plugins, in one batch. */
static void plugins_collect(struct sampler *s, const struct sample_opts *o, struct snapshot *out)
{
	size_t n = 0;
	for (size_t i = 0; i < out->nprocs; i++)
		n += 1 + (threads_shown(o, out->procs[i].tgid) ? out->procs[i].nthreads_read : 0);
	struct tv_task **tasks = malloc((n ? n : 1) * sizeof(*tasks));
	if (!tasks)
		return;
	size_t k = 0;
	for (size_t i = 0; i < out->nprocs; i++) {
		struct tv_task *p = &out->procs[i];
		tasks[k++] = p;
		for (size_t j = 0; threads_shown(o, p->tgid) && j < p->nthreads_read; j++)
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

int sampler_take(struct sampler *s, const struct sample_opts *o, struct snapshot *out, char **err)
{
	*err = NULL;
	memset(out, 0, sizeof(*out));
	out->npvals = s->npvals;
	out->mono = clock_now(CLOCK_MONOTONIC);
	out->wall = clock_now(CLOCK_REALTIME);
	out->boot_ticks = clock_now(CLOCK_BOOTTIME) * (double)sysconf(_SC_CLK_TCK);

	struct pids_fetch *fe = procps_pids_reap(s->info, PIDS_FETCH_TASKS_ONLY);
	if (!fe) {
		*err = strdup_printf(_("cannot read /proc: %s"), strerror(errno));
		return -1;
	}
	size_t total = (size_t)fe->counts->total;
	struct filter *byid = filter_with_tgids(s, o->filter, fe);
	const struct filter *sel = byid ? byid : o->filter;

	out->procs = calloc(total ? total : 1, sizeof(*out->procs));
	if (!out->procs) {
		filter_free(byid);
		free(byid);
		*err = strdup(_("out of memory"));
		return -1;
	}
	if (s->ts)
		ts_refresh_state(s->ts); /* the sysctl may change while we run */
	size_t k = 0;
	for (size_t i = 0; i < total; i++) {
		struct pids_stack *st = fe->stacks[i];
		int32_t pid = STACK_VAL(IT_PID, s_int, st);
		int64_t nlwp = STACK_VAL(IT_NLWP, s_int, st);
		char state = STACK_VAL(IT_STATE, s_ch, st);
		out->sys_procs++;
		out->sys_threads += nlwp > 0 ? (size_t)nlwp : 0;
		out->sys_running += state == 'R';
		if (!filter_wants_pid(sel, pid) || !filter_wants_uid(o->filter, STACK_VAL(IT_EUID, u_int, st)))
			continue;
		struct tv_task *t = &out->procs[k];
		task_init(t);
		t->tid = t->tgid = pid;
		t->ppid = STACK_VAL(IT_PPID, s_int, st);
		t->state = state;
		t->nice = STACK_VAL(IT_NICE, s_int, st);
		t->prio = STACK_VAL(IT_PRIO, s_int, st);
		t->cpu_ticks = (int64_t)STACK_VAL(IT_TICS, ull_int, st);
		t->start_ticks = STACK_VAL(IT_BEGAN, ull_int, st);
		t->nthreads = nlwp;
		t->uid = STACK_VAL(IT_EUID, u_int, st);
		t->user = users_name(s->users, t->uid);

		char name[16];
		snprintf(name, sizeof(name), "%d", pid);
		int piddir = proc_open_dir(s->procfd, name);
		if (piddir < 0)
			continue; /* gone since the scan */
		if (process_read(s, o, t, piddir) < 0)
			task_clear(t, 0);
		else
			k++;
		close(piddir);
	}
	out->nprocs = k;
	qsort(out->procs, k, sizeof(*out->procs), cmp_task_tgid);
	if (s->ph)
		plugins_collect(s, o, out);
	if (ts_usable(s) && (o->needs & (NEED_CTXT | NEED_DELAY)))
		taskstats_collect(s, o, out);
	filter_free(byid);
	free(byid);
	return 0;
}
