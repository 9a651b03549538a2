/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/cgroups/cgroups.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/column.h"
#include "model/task.h"
#include "sample/proc/proc_read.h"
#include "util/clock.h"
#include "util/i18n.h"

#define CG_PATH_MAX 4096
#define CG_BUF 4096
/* A file found missing (no such controller) is tried again after this many
 * refreshes: a controller can be enabled while taskview runs. */
#define CG_RETRY_MISSING 30

enum { F_MEM, F_SWAP, F_CPU_P, F_IO_P, F_MEM_P, F_PROCS, F_CPU_STAT, F_N };
static const char *const file_names[F_N] = {
	"memory.current", "memory.swap.current", "cpu.pressure", "io.pressure", "memory.pressure", "cgroup.procs",
	"cpu.stat",
};

/* A group known across refreshes: its files kept open. */
struct entry {
	char *path;
	int fd[F_N];
	bool missing[F_N];  /* not there (no such controller): not tried again for a while */
	int err[F_N];       /* the last read's -errno, 0 when it was read */
	bool used;
	size_t members;     /* processes found directly in it this refresh */
	bool listed;        /* its cgroup.procs was read at the start of this refresh */
	uint64_t id;        /* its directory's inode, the kernel's id of a v2 group; 0 when not known */
	struct tv_cgroup *now; /* this refresh's reading, handed to the snapshot */
};

/* A process its group's cgroup.procs listed at the start of the refresh. */
struct listed {
	int32_t pid;
	const char *path;   /* its group's (entry.path); NULL: listed by two groups */
};

struct cgroups {
	enum cgroup_version version;
	int rootfd;           /* the hierarchy's mount */
	struct fd_budget *fds;
	struct entry *v;      /* sorted by path */
	size_t n, cap;
	struct listed *known; /* sorted by pid */
	size_t nknown, capknown;
	unsigned refreshes;
	int memctl;           /* the root offers the memory controller: 1, 0, or -1 not read yet */
	uint64_t opens, reads;
	char *big;            /* cgroup.procs of a big group */
	size_t bigcap;
	char buf[CG_BUF];
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

struct cgroups *cgroups_new(struct fd_budget *fds)
{
	struct cgroups *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->fds = fds;
	c->rootfd = -1;
	c->memctl = -1;
	char *mi = malloc(1 << 20);
	ssize_t n = mi ? proc_read_at(AT_FDCWD, "/proc/self/mountinfo", mi, 1 << 20) : -1;
	char mount[CG_PATH_MAX];
	static const enum cgroup_version order[] = {CGROUP_V2, CGROUP_V1_SYSTEMD};
	for (size_t i = 0; n > 0 && i < 2 && c->rootfd < 0; i++) {
		if (!cgroup_parse_mount(mi, (size_t)n, order[i], mount, sizeof(mount)))
			continue;
		c->rootfd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (c->rootfd >= 0)
			c->version = order[i];
	}
	free(mi);
	return c;
}

static void entry_close(struct cgroups *c, struct entry *e)
{
	for (int f = 0; f < F_N; f++)
		fd_budget_close(c->fds, &e->fd[f]);
	free(e->path);
	cgroup_free(e->now);
}

void cgroups_free(struct cgroups *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		entry_close(c, &c->v[i]);
	free(c->v);
	free(c->known);
	free(c->big);
	if (c->rootfd >= 0)
		close(c->rootfd);
	free(c);
}

enum cgroup_version cgroups_version(const struct cgroups *c)
{
	return c->version;
}

/* Reads one of a group's files into buf (cap bytes), through a kept
 * descriptor when the budget allows. */
static ssize_t read_into(struct cgroups *c, struct entry *e, int f, char *buf, size_t cap)
{
	if (e->missing[f])
		return e->err[f] = -ENOENT;
	ssize_t n;
	if (e->fd[f] < 0) {
		char rel[CG_PATH_MAX + 32];
		snprintf(rel, sizeof(rel), "%s/%s", e->path[1] ? e->path + 1 : ".", file_names[f]);
		c->opens++;
		e->fd[f] = fd_budget_open(c->fds, c->rootfd, rel);
		if (e->fd[f] < 0) {
			/* not there (no such controller), or over budget: read it once this way */
			c->reads++;
			n = proc_read_at(c->rootfd, rel, buf, cap);
			if (n == -ENOENT)
				e->missing[f] = true;
			e->err[f] = n < 0 ? (int)n : 0;
			return n;
		}
	}
	c->reads++;
	n = proc_pread(e->fd[f], buf, cap);
	if (n < 0)
		fd_budget_close(c->fds, &e->fd[f]);
	e->err[f] = n < 0 ? (int)n : 0;
	return n;
}

static ssize_t read_file(struct cgroups *c, struct entry *e, int f)
{
	return read_into(c, e, f, c->buf, sizeof(c->buf));
}

struct timed {
	struct cgroups *c;
	struct entry *e;
	int f;
};

static ssize_t timed_read(void *ctx)
{
	struct timed *t = ctx;
	return read_file(t->c, t->e, t->f);
}

/* A counter file a rate is taken from, timed (clock_timed_read); a read taken again is one read. */
static ssize_t read_counters(struct cgroups *c, struct entry *e, int f, double *when)
{
	struct timed t = {c, e, f};
	unsigned again;
	ssize_t n = clock_timed_read(timed_read, &t, when, &again);
	c->reads -= again;
	return n;
}

/* A group's cgroup.procs, whatever its length: in c->big. */
static ssize_t read_procs(struct cgroups *c, struct entry *e)
{
	if (!c->big) {
		c->bigcap = 16384;
		c->big = malloc(c->bigcap);
		if (!c->big)
			return -ENOMEM;
	}
	for (;;) {
		ssize_t n = read_into(c, e, F_PROCS, c->big, c->bigcap);
		if (n < 0 || (size_t)n + 1 < c->bigcap)
			return n;
		char *nb = realloc(c->big, 2 * c->bigcap);
		if (!nb)
			return -ENOMEM;
		c->big = nb;
		c->bigcap *= 2;
	}
}

static int cmp_listed(const void *a, const void *b)
{
	int32_t x = ((const struct listed *)a)->pid, y = ((const struct listed *)b)->pid;
	return (x > y) - (x < y);
}

static void listed_add(struct cgroups *c, int32_t pid, const char *path)
{
	if (c->nknown == c->capknown) {
		size_t cap = c->capknown ? 2 * c->capknown : 256;
		struct listed *v = realloc(c->known, cap * sizeof(*v));
		if (!v)
			return; /* not listed: its cgroup file is read instead */
		c->known = v;
		c->capknown = cap;
	}
	c->known[c->nknown++] = (struct listed){pid, path};
}

/*
 * The groups that held processes in the last refresh list their processes
 * now: a process found there needs no read of its /proc/PID/cgroup, which
 * costs as much as its stat. A process listed by no known group (new, or
 * moved to a group not known yet) is read the usual way; one listed twice
 * (threads in other groups of a threaded subtree) too.
 */
static void list_members(struct cgroups *c)
{
	c->nknown = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->v[i];
		e->listed = false;
		if (!e->members)
			continue;
		ssize_t n = read_procs(c, e);
		if (n < 0)
			continue;
		e->listed = true;
		/* one PID a line; anything else ends the list */
		int64_t pid = 0;
		bool digits = false;
		for (const char *p = c->big, *end = c->big + n; p < end; p++) {
			if (*p >= '0' && *p <= '9' && pid <= INT32_MAX) {
				pid = pid * 10 + (*p - '0');
				digits = true;
				continue;
			}
			if (*p != '\n')
				break;
			if (digits && pid > 0 && pid <= INT32_MAX)
				listed_add(c, (int32_t)pid, e->path);
			pid = 0;
			digits = false;
		}
	}
	if (c->nknown > 1)
		qsort(c->known, c->nknown, sizeof(*c->known), cmp_listed);
	/* twice: threads of one process in two groups, or a move between two reads */
	size_t w = 0;
	for (size_t i = 0; i < c->nknown; i++) {
		if (w && c->known[w - 1].pid == c->known[i].pid) {
			if (c->known[w - 1].path != c->known[i].path)
				c->known[w - 1].path = NULL;
			continue;
		}
		c->known[w++] = c->known[i];
	}
	c->nknown = w;
}

void cgroups_begin(struct cgroups *c)
{
	c->opens = c->reads = 0;
	bool retry = ++c->refreshes % CG_RETRY_MISSING == 0;
	if (retry)
		c->memctl = -1;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->v[i];
		e->used = false;
		cgroup_free(e->now);
		e->now = NULL;
		for (int f = 0; retry && f < F_N; f++)
			e->missing[f] = false;
	}
	if (c->version != CGROUP_NONE)
		list_members(c);
	for (size_t i = 0; i < c->n; i++)
		c->v[i].members = 0;
}

static struct entry *find(struct cgroups *c, const char *path)
{
	struct entry key = {.path = (char *)path};
	if (c->n == 0)
		return NULL; /* bsearch must not be given a NULL array, even an empty one */
	return bsearch(&key, c->v, c->n, sizeof(*c->v), cmp_entry);
}

/* The entry of path, this refresh's reading created. */
static struct entry *use(struct cgroups *c, const char *path)
{
	struct entry *e = find(c, path);
	if (!e) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 64;
			struct entry *v = realloc(c->v, cap * sizeof(*v));
			if (!v)
				return NULL;
			c->v = v;
			c->cap = cap;
		}
		struct entry ne = {.path = strdup(path)};
		if (!ne.path)
			return NULL;
		struct stat st;
		/* what an exit record names the group by (bpf_get_current_cgroup_id) */
		if (c->version == CGROUP_V2 && fstatat(c->rootfd, path[1] ? path + 1 : ".", &st, 0) == 0)
			ne.id = (uint64_t)st.st_ino;
		for (int f = 0; f < F_N; f++)
			ne.fd[f] = -1;
		c->v[c->n++] = ne;
		qsort(c->v, c->n, sizeof(*c->v), cmp_entry);
		e = find(c, path);
	}
	e->used = true;
	if (!e->now) {
		e->now = calloc(1, sizeof(*e->now));
		if (!e->now)
			return NULL;
		e->now->path = strdup(path);
		e->now->id = e->id;
		char unit[256];
		cgroup_unit_name(path, unit, sizeof(unit));
		e->now->unit = strdup(unit);
		e->now->mem_bytes = e->now->swap_bytes = TV_UNKNOWN;
		cgroup_cpu_unknown(e->now);
		for (int r = 0; r < TV_RES_N; r++)
			pressure_unknown(&e->now->psi[r]);
		if (!e->now->path || !e->now->unit)
			return NULL;
	}
	return e;
}

/* The group of path for a process in it, with its ancestors: the view nests them. */
static const struct tv_cgroup *member_of(struct cgroups *c, const char *group)
{
	/* most processes share a group with another: its ancestors are in already */
	struct entry *known = find(c, group);
	if (known && known->used && known->now) {
		known->members++;
		return known->now;
	}
	char path[CG_PATH_MAX];
	size_t len = strlen(group);
	if (len >= sizeof(path))
		return NULL;
	memcpy(path, group, len + 1);
	for (char *slash = path + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		use(c, path);
		*slash = '/';
	}
	if (strcmp(path, "/") != 0)
		use(c, "/");
	struct entry *e = use(c, path);
	if (!e)
		return NULL;
	e->members++;
	return e->now;
}

const struct tv_cgroup *cgroups_member(struct cgroups *c, const char *buf, size_t len)
{
	char path[CG_PATH_MAX];
	if (c->version == CGROUP_NONE || cgroup_parse_membership(buf, len, path, sizeof(path)) == CGROUP_NONE)
		return NULL;
	return member_of(c, path);
}

const struct tv_cgroup *cgroups_listed(struct cgroups *c, int32_t pid)
{
	struct listed key = {pid, NULL};
	const struct listed *l = c->nknown ? bsearch(&key, c->known, c->nknown, sizeof(*c->known), cmp_listed) : NULL;
	/* the entry's path string stays where it is until cgroups_end, however
	 * use() moves the entries */
	return l && l->path ? member_of(c, l->path) : NULL;
}

static int64_t read_bytes(struct cgroups *c, struct entry *e, int f)
{
	ssize_t n = read_file(c, e, f);
	char *end;
	if (n <= 0)
		return TV_UNKNOWN;
	errno = 0;
	long long v = strtoll(c->buf, &end, 10);
	if (errno || end == c->buf || v < 0)
		return TV_UNKNOWN;
	return v;
}

void pressure_from_psi(struct tv_pressure *p, const struct psi *psi)
{
	pressure_unknown(p);
	if (psi->some.known) {
		p->some_known = true;
		p->some_avg10 = psi->some.avg10;
		p->some_us = psi->some.total_us > INT64_MAX ? TV_UNKNOWN : (int64_t)psi->some.total_us;
	}
	if (psi->full.known) {
		p->full_known = true;
		p->full_avg10 = psi->full.avg10;
		p->full_us = psi->full.total_us > INT64_MAX ? TV_UNKNOWN : (int64_t)psi->full.total_us;
	}
}

/* Whether the hierarchy's root offers the memory controller at all. */
static bool memory_controller(struct cgroups *c)
{
	c->opens++;
	c->reads++;
	ssize_t n = proc_read_at(c->rootfd, "cgroup.controllers", c->buf, sizeof(c->buf));
	for (char *p = c->buf; n > 0 && (p = strstr(p, "memory")); p += 6)
		if ((p == c->buf || p[-1] == ' ') && (p[6] == ' ' || p[6] == '\n' || p[6] == '\0'))
			return true;
	return false;
}

/* Why a group's memory is unknown. */
static const char *memory_why(struct cgroups *c, const struct entry *e)
{
	if (strcmp(e->path, "/") == 0)
		return _("the root group has no memory.current: the system's memory is in /proc/meminfo");
	if (e->err[F_MEM] != -ENOENT)
		return _("memory.current is unreadable");
	/* read again with the files found missing: a controller comes and goes rarely */
	if (c->memctl < 0)
		c->memctl = memory_controller(c);
	if (!c->memctl)
		return _("the memory controller is not in the cgroup v2 hierarchy (bound to cgroup v1, or not built)");
	return _("the memory controller is not enabled for this group (its parent's cgroup.subtree_control)");
}

/* A group's own files, those the shown columns need (out->needs). */
static void read_group(struct cgroups *c, struct entry *e, const struct snapshot *out)
{
	struct tv_cgroup *g = e->now;
	if (out->needs & NEED_CGROUP_CPU) {
		/* the group's own count: tasks that lived less than a refresh
		 * are in it, a sum over the processes seen misses them */
		struct cg_cpu_stat cs;
		ssize_t n = read_counters(c, e, F_CPU_STAT, &g->t_cpu);
		if (n > 0 && cg_cpu_stat_parse(c->buf, (size_t)n, &cs) == 0) {
			g->cpu_usage_us = cs.usage_us;
			g->cpu_user_us = cs.user_us < 0 ? TV_UNKNOWN : cs.user_us;
			g->cpu_system_us = cs.system_us < 0 ? TV_UNKNOWN : cs.system_us;
		}
	}
	if (out->needs & NEED_CGROUP_MEM) {
		g->mem_bytes = read_bytes(c, e, F_MEM);
		/* without swap accounting there is no memory.swap.current: that alone is no reason */
		g->swap_bytes = g->mem_bytes == TV_UNKNOWN ? TV_UNKNOWN : read_bytes(c, e, F_SWAP);
		if (g->mem_bytes == TV_UNKNOWN)
			g->mem_why = memory_why(c, e);
	}
	if (!(out->needs & NEED_CGROUP_PSI))
		return;
	int err = 0;
	for (int r = 0; r < TV_RES_N; r++) {
		struct psi psi;
		ssize_t n = read_file(c, e, F_CPU_P + r);
		if (n > 0 && psi_parse(c->buf, (size_t)n, &psi) == 0)
			pressure_from_psi(&g->psi[r], &psi);
		else if (n < 0 && !err)
			err = (int)-n;
	}
	g->t_read = clock_now(CLOCK_MONOTONIC);
	bool none = !g->psi[TV_RES_CPU].some_known && !g->psi[TV_RES_IO].some_known &&
		    !g->psi[TV_RES_MEMORY].some_known;
	if (none)
		g->psi_why = out->pressure_why ? out->pressure_why
			: err == EOPNOTSUPP ? _("pressure accounting is off for this group (cgroup.pressure is 0)")
			: err == ENOENT ? _("the group has no pressure files")
					: _("the group's pressure files are unreadable");
}

void cgroups_end(struct cgroups *c, struct snapshot *out)
{
	size_t used = 0;
	for (size_t i = 0; i < c->n; i++)
		used += c->v[i].used;
	out->cgroups = calloc(used ? used : 1, sizeof(*out->cgroups));
	if (c->version == CGROUP_NONE)
		out->cgroups_why = _("no control group hierarchy is mounted");
	else if (c->version == CGROUP_V1_SYSTEMD)
		out->cgroups_why = _("only cgroup v1 is mounted: groups have no memory or pressure files of their own");
	size_t k = 0, w = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->v[i];
		if (!e->used) {
			entry_close(c, e); /* not a group of any process now */
			continue;
		}
		if (c->version == CGROUP_V2) {
			read_group(c, e, out);
		} else {
			e->now->mem_why = e->now->psi_why = out->cgroups_why;
		}
		if (out->cgroups) {
			e->now->index = k;
			out->cgroups[k++] = e->now;
		} else
			cgroup_free(e->now);
		e->now = NULL;
		c->v[w++] = *e;
	}
	c->n = w;
	out->ncgroups = k;
	/* parents, now that every group has its place: the list is sorted by
	 * path, and every ancestor of a group is in it */
	for (size_t i = 0; i < k; i++) {
		struct tv_cgroup *g = out->cgroups[i];
		char *slash = strrchr(g->path, '/');
		if (!slash || strcmp(g->path, "/") == 0)
			continue;
		size_t pl = slash == g->path ? 1 : (size_t)(slash - g->path);
		size_t lo = 0, hi = i;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const char *p = out->cgroups[mid]->path;
			int cmp = strncmp(p, g->path, pl);
			if (cmp == 0 && p[pl] != '\0')
				cmp = 1;
			if (cmp == 0) {
				g->parent = out->cgroups[mid];
				break;
			}
			if (cmp < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	out->self.cgroup_opens = c->opens;
	out->self.cgroup_reads = c->reads;
}
