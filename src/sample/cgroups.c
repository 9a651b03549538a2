#include "sample/cgroups.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/task.h"
#include "sample/proc_read.h"
#include "util/clock.h"
#include "util/i18n.h"

#define CG_PATH_MAX 4096
#define CG_BUF 4096

enum { F_MEM, F_SWAP, F_CPU_P, F_IO_P, F_MEM_P, F_N };
static const char *const file_names[F_N] = {
	"memory.current", "memory.swap.current", "cpu.pressure", "io.pressure", "memory.pressure",
};

/* A group known across refreshes: its files kept open. */
struct entry {
	char *path;
	int fd[F_N];
	bool missing[F_N];  /* not there (no such controller): not tried again */
	bool used;
	struct tv_cgroup *now; /* this refresh's reading, handed to the snapshot */
};

struct cgroups {
	enum cgroup_version version;
	int rootfd;           /* the hierarchy's mount */
	struct fd_budget *fds;
	struct entry *v;      /* sorted by path */
	size_t n, cap;
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
	if (c->rootfd >= 0)
		close(c->rootfd);
	free(c);
}

enum cgroup_version cgroups_version(const struct cgroups *c)
{
	return c->version;
}

void cgroups_begin(struct cgroups *c)
{
	for (size_t i = 0; i < c->n; i++) {
		c->v[i].used = false;
		cgroup_free(c->v[i].now);
		c->v[i].now = NULL;
	}
}

static struct entry *find(struct cgroups *c, const char *path)
{
	struct entry key = {.path = (char *)path};
	if (c->n == 0)
		return NULL; /* bsearch must not be given a NULL array, even an empty one */
	return bsearch(&key, c->v, c->n, sizeof(*c->v), cmp_entry);
}

/* The entry of path and of each ancestor, this refresh's reading created. */
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
		char unit[256];
		cgroup_unit_name(path, unit, sizeof(unit));
		e->now->unit = strdup(unit);
		e->now->mem_bytes = e->now->swap_bytes = TV_UNKNOWN;
		for (int r = 0; r < TV_RES_N; r++)
			pressure_unknown(&e->now->psi[r]);
		if (!e->now->path || !e->now->unit)
			return NULL;
	}
	return e;
}

const struct tv_cgroup *cgroups_member(struct cgroups *c, const char *buf, size_t len)
{
	char path[CG_PATH_MAX];
	if (c->version == CGROUP_NONE || cgroup_parse_membership(buf, len, path, sizeof(path)) == CGROUP_NONE)
		return NULL;
	/* every ancestor is a group too: the view nests them */
	for (char *slash = path + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		use(c, path);
		*slash = '/';
	}
	if (strcmp(path, "/") != 0)
		use(c, "/");
	struct entry *e = use(c, path);
	return e ? e->now : NULL;
}

/* Reads one of a group's files, through a kept descriptor when the budget allows. */
static ssize_t read_file(struct cgroups *c, struct entry *e, int f)
{
	if (e->missing[f])
		return -ENOENT;
	if (e->fd[f] < 0) {
		char rel[CG_PATH_MAX + 32];
		snprintf(rel, sizeof(rel), "%s/%s", e->path[1] ? e->path + 1 : ".", file_names[f]);
		e->fd[f] = fd_budget_open(c->fds, c->rootfd, rel);
		if (e->fd[f] < 0) {
			/* not there (no such controller), or over budget: read it once this way */
			ssize_t n = proc_read_at(c->rootfd, rel, c->buf, sizeof(c->buf));
			if (n == -ENOENT)
				e->missing[f] = true;
			return n;
		}
	}
	ssize_t n = proc_pread(e->fd[f], c->buf, sizeof(c->buf));
	if (n < 0)
		fd_budget_close(c->fds, &e->fd[f]);
	return n;
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

static void read_group(struct cgroups *c, struct entry *e)
{
	struct tv_cgroup *g = e->now;
	g->mem_bytes = read_bytes(c, e, F_MEM);
	g->swap_bytes = read_bytes(c, e, F_SWAP);
	for (int r = 0; r < TV_RES_N; r++) {
		struct psi psi;
		ssize_t n = read_file(c, e, F_CPU_P + r);
		if (n > 0 && psi_parse(c->buf, (size_t)n, &psi) == 0)
			pressure_from_psi(&g->psi[r], &psi);
	}
	g->t_read = clock_now(CLOCK_MONOTONIC);
}

void cgroups_end(struct cgroups *c, struct snapshot *out)
{
	size_t used = 0;
	for (size_t i = 0; i < c->n; i++)
		used += c->v[i].used;
	out->cgroups = calloc(used ? used : 1, sizeof(*out->cgroups));
	size_t k = 0, w = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->v[i];
		if (!e->used) {
			entry_close(c, e); /* not a group of any process now */
			continue;
		}
		if (c->version == CGROUP_V2)
			read_group(c, e);
		if (out->cgroups)
			out->cgroups[k++] = e->now;
		else
			cgroup_free(e->now);
		e->now = NULL;
		c->v[w++] = *e;
	}
	c->n = w;
	out->ncgroups = k;
	/* parents, now that every group has its place */
	for (size_t i = 0; i < k; i++) {
		struct tv_cgroup *g = out->cgroups[i];
		char *slash = strrchr(g->path, '/');
		if (!slash || strcmp(g->path, "/") == 0)
			continue;
		char parent[CG_PATH_MAX];
		size_t pl = slash == g->path ? 1 : (size_t)(slash - g->path);
		if (pl >= sizeof(parent))
			continue;
		memcpy(parent, g->path, pl);
		parent[pl] = '\0';
		for (size_t j = 0; j < k; j++)
			if (strcmp(out->cgroups[j]->path, parent) == 0)
				g->parent = out->cgroups[j];
	}
	if (c->version == CGROUP_NONE)
		out->cgroups_why = _("no control group hierarchy is mounted");
	else if (c->version == CGROUP_V1_SYSTEMD)
		out->cgroups_why = _("only cgroup v1 is mounted: groups have no memory or pressure files of their own");
}
