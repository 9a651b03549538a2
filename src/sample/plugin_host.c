/* Finds, loads and runs column plugins; see plugin_host.h. */
#include "sample/plugin_host.h"
#include "sample/plugin_priv.h"

#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "util/i18n.h"

#define BUDGET_NS ((int64_t)TASKVIEW_PLUGIN_BUDGET_MS * 1000000)
#define BUDGET_NS_PER_TASK ((int64_t)TASKVIEW_PLUGIN_BUDGET_US_PER_TASK * 1000)
#define MSG_MAX 1024
/* Entry symbols of other majors probed to tell "wrong ABI" from "not a plugin". */
#define PROBE_MAJOR_MAX 16

typedef const struct taskview_plugin *(*entry_fn)(void);

static void say(const struct plugin_host *h, const char *fmt, ...)
{
	char line[MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (h->msg_cb)
		h->msg_cb(h->ctx, line);
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Records a plugin file name; true when the name was met before (an earlier
 * directory in the search order shadows it). */
static bool seen_before(struct plugin_host *h, const char *path)
{
	const char *name = base_name(path);
	for (size_t i = 0; i < h->nseen; i++)
		if (strcmp(h->seen[i], name) == 0)
			return true;
	char **p = realloc(h->seen, (h->nseen + 1) * sizeof(*p));
	if (!p)
		return false;
	h->seen = p;
	if ((h->seen[h->nseen] = strdup(name)))
		h->nseen++;
	return false;
}

static entry_fn find_entry(void *dl, const char *symbol)
{
	void *sym = dlsym(dl, symbol);
	entry_fn fn = NULL;
	/* POSIX guarantees this round trip; memcpy keeps pedantic compilers quiet */
	if (sym)
		memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

/* The ABI major a file was built for when it is not ours; -1 if none. */
static int other_major(void *dl)
{
	for (int m = 0; m <= PROBE_MAJOR_MAX; m++) {
		char sym[32];
		if (m == TASKVIEW_PLUGIN_ABI_MAJOR)
			continue;
		snprintf(sym, sizeof(sym), "taskview_plugin_v%d", m);
		if (dlsym(dl, sym))
			return m;
	}
	return -1;
}

/* dlerror() names the /proc/self/fd path we opened; users know the file by its own name. */
static void dl_error_text(char *buf, size_t n, const char *fdpath, const char *path)
{
	const char *e = dlerror();
	if (!e)
		e = "unknown error";
	size_t l = strlen(fdpath);
	if (strncmp(e, fdpath, l) == 0)
		snprintf(buf, n, "%s%s", path, e + l);
	else
		snprintf(buf, n, "%s", e);
}

static enum col_type col_type_of(const struct plugin_colinfo *c)
{
	if (c->counter)
		return COL_RATE;
	switch (c->type) {
	case TASKVIEW_TYPE_INTEGER: return COL_INT;
	case TASKVIEW_TYPE_FLOAT: return COL_FLOAT;
	case TASKVIEW_TYPE_BYTES: return COL_BYTES;
	case TASKVIEW_TYPE_PERCENT: return COL_PERCENT;
	default: return COL_STRING;
	}
}

static void plugin_release(struct plugin *p)
{
	if (p->inited && p->d.free_state)
		p->d.free_state(p->state);
	plugin_colinfo_free(p->cols, p->ncols);
	if (p->dl)
		dlclose(p->dl);
	free(p->wanted);
	free(p->cost);
	free(p->path);
}

/* Column ids are global: built-ins and every other plugin's. */
static int check_duplicates(const struct plugin_host *h, const struct plugin *p, const struct colset *cs,
                            char *why, size_t whylen)
{
	for (uint32_t k = 0; k < p->ncols; k++) {
		int idx = colset_index(cs, p->cols[k].id);
		if (idx < 0)
			continue;
		if ((size_t)idx < cs->nbuiltin) {
			snprintf(why, whylen, _("duplicate column id: %s is a built-in column"), p->cols[k].id);
			return -1;
		}
		const char *owner = "?";
		for (size_t i = 0; i < h->n; i++)
			if ((size_t)cs->cols[idx].arg >= h->v[i].first_slot &&
			    (size_t)cs->cols[idx].arg < h->v[i].first_slot + h->v[i].ncols)
				owner = h->v[i].path;
		snprintf(why, whylen, _("duplicate column id: %s is already declared by %s"), p->cols[k].id, owner);
		return -1;
	}
	return 0;
}

static int append_columns(struct plugin_host *h, struct plugin *p, struct colset *cs)
{
	size_t n0 = cs->n;
	for (uint32_t k = 0; k < p->ncols; k++) {
		const struct plugin_colinfo *ci = &p->cols[k];
		struct column c = {
			.id = ci->id,
			.header = ci->header,
			.desc = ci->desc,
			.type = col_type_of(ci),
			.width = (int)ci->width,
			.align = ci->align == TASKVIEW_ALIGN_LEFT ||
			         (ci->align == TASKVIEW_ALIGN_DEFAULT && ci->type == TASKVIEW_TYPE_STRING)
			             ? COL_ALIGN_LEFT : COL_ALIGN_RIGHT,
			.sort_descending = ci->type != TASKVIEW_TYPE_STRING,
			.shown_default = false,
			.needs = NEED_PLUGIN,
			.cost = p->cost,
			.get = plugin_column_get,
			.arg = (int)(h->nslots + k),
			.applies = ci->applies,
			.counter = ci->counter,
		};
		if (colset_add(cs, &c) < 0) {
			cs->n = n0;
			return -1;
		}
	}
	return 0;
}

/*
 * Names the open file as /proc/self/fd/N for dlopen. The dynamic loader finds
 * loaded objects by name first, so N must not be a number an earlier, still
 * resident plugin was loaded through (a C++ plugin, for one, may never unload):
 * move to another number until the name is free. Returns the descriptor to use
 * (closing fd if it moved), or -1.
 */
static int fresh_fd_name(int fd, char *name, size_t len)
{
	for (int tries = 0; tries < 64; tries++) {
		snprintf(name, len, "/proc/self/fd/%d", fd);
		void *old = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
		if (!old)
			return fd;
		struct link_map *lm = NULL;
		bool stale = dlinfo(old, RTLD_DI_LINKMAP, &lm) == 0 && lm && strcmp(lm->l_name, name) == 0;
		dlclose(old);
		if (!stale)
			return fd; /* the same file loaded before under another name: a duplicate */
		int nfd = fcntl(fd, F_DUPFD_CLOEXEC, fd + 1);
		close(fd);
		if (nfd < 0)
			return -1;
		fd = nfd;
	}
	close(fd);
	return -1;
}

/* Loads one file. Returns 0, or -1 after saying why it was rejected. */
static int load_file(struct plugin_host *h, const char *path, bool check_dir, struct colset *cs)
{
	char why[MSG_MAX];
	if (check_dir) {
		/* an explicit file: its directory must be as trustworthy as a plugin directory */
		const char *slash = strrchr(path, '/');
		char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
		const char *bad = dir ? plugin_trust_dir(dir, false, why, sizeof(why)) : NULL;
		free(dir);
		if (bad) {
			say(h, _("plugin %s: refused: %s"), path, why);
			return -1;
		}
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say(h, _("plugin %s: cannot load: %s"), path, strerror(errno));
		return -1;
	}
	if (plugin_trust_file(fd, path, why, sizeof(why))) {
		say(h, _("plugin %s: refused: %s"), path, why);
		close(fd);
		return -1;
	}
	/* load the file just checked, not whatever the path names by now */
	char fdpath[64];
	fd = fresh_fd_name(fd, fdpath, sizeof(fdpath));
	void *dl = fd < 0 ? NULL : dlopen(fdpath, RTLD_NOW | RTLD_LOCAL);
	if (fd >= 0)
		close(fd);
	if (!dl) {
		dl_error_text(why, sizeof(why), fdpath, path);
		say(h, _("plugin %s: cannot load: %s"), path, why);
		return -1;
	}

	struct plugin p = {.dl = dl};
	entry_fn entry = find_entry(dl, "taskview_plugin_v1");
	const struct taskview_plugin *raw = entry ? entry() : NULL;
	int major;
	if (!entry && (major = other_major(dl)) >= 0) {
		say(h, _("plugin %s: ABI mismatch: the plugin needs ABI %d (taskview_plugin_v%d), taskview %s provides ABI %d.%d"),
		    path, major, major, TV_VERSION, TASKVIEW_PLUGIN_ABI_MAJOR, TASKVIEW_PLUGIN_ABI_MINOR);
		goto fail;
	}
	if (!entry) {
		say(h, _("plugin %s: not a taskview plugin: no taskview_plugin_v1 symbol"), path);
		goto fail;
	}
	if (!raw) {
		say(h, _("plugin %s: not a taskview plugin: taskview_plugin_v1 returned NULL"), path);
		goto fail;
	}
	if (plugin_validate(raw, &p.d, &p.cols, why, sizeof(why)) < 0) {
		say(h, _("plugin %s: %s"), path, why);
		goto fail;
	}
	p.ncols = p.d.ncolumns;
	if (check_duplicates(h, &p, cs, why, sizeof(why)) < 0) {
		say(h, _("plugin %s: %s"), path, why);
		goto fail;
	}
	p.path = strdup(path);
	p.wanted = calloc(p.ncols, sizeof(*p.wanted));
	if (asprintf(&p.cost, _("read by plugin %s (%s)"), p.d.name, path) < 0)
		p.cost = NULL;
	if (!p.path || !p.wanted || !p.cost) {
		say(h, _("plugin %s: cannot load: %s"), path, strerror(ENOMEM));
		goto fail;
	}
	if (p.d.init) {
		int32_t rc = p.d.init(plugin_api_host(), &p.state);
		if (rc != 0) {
			say(h, _("plugin %s: init failed: %s"), path, rc < 0 ? strerror(-rc) : _("non-zero return"));
			goto fail;
		}
		p.inited = true;
	}
	struct plugin *v = realloc(h->v, (h->n + 1) * sizeof(*v));
	if (!v || append_columns(h, &p, cs) < 0) {
		if (v)
			h->v = v;
		say(h, _("plugin %s: cannot load: %s"), path, strerror(ENOMEM));
		goto fail;
	}
	h->v = v;
	p.first_slot = h->nslots;
	h->nslots += p.ncols;
	h->v[h->n++] = p;
	return 0;
fail:
	plugin_release(&p);
	return -1;
}

static char *user_plugin_dir(void)
{
	/* secure_getenv: a set-id taskview must not take directories from the caller */
	const char *xdg = secure_getenv("XDG_DATA_HOME");
	char *dir = NULL;
	if (xdg && xdg[0] == '/') /* the spec says relative values are ignored */
		return asprintf(&dir, "%s/taskview/plugins", xdg) < 0 ? NULL : dir;
	const char *home = secure_getenv("HOME");
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home)
		return NULL;
	return asprintf(&dir, "%s/.local/share/taskview/plugins", home) < 0 ? NULL : dir;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void discover_dir(struct plugin_host *h, const char *dir, bool user_dir, struct colset *cs)
{
	char why[MSG_MAX];
	struct stat st;
	if (stat(dir, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			say(h, _("plugin directory %s: skipped: %s"), dir, strerror(errno));
		return;
	}
	if (plugin_trust_dir(dir, user_dir, why, sizeof(why))) {
		say(h, _("plugin directory %s: skipped: %s"), dir, why);
		return;
	}
	DIR *d = opendir(dir);
	if (!d) {
		say(h, _("plugin directory %s: skipped: %s"), dir, strerror(errno));
		return;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || l < 4 || strcmp(de->d_name + l - 3, ".so") != 0)
			continue;
		char **p = realloc(names, (n + 1) * sizeof(*p));
		if (!p)
			break;
		names = p;
		if ((names[n] = strdup(de->d_name)))
			n++;
	}
	closedir(d);
	/* a fixed order, so column order and shadowing do not depend on the file system */
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		char *path = NULL;
		if (!seen_before(h, names[i]) && asprintf(&path, "%s/%s", dir, names[i]) >= 0) {
			load_file(h, path, false, cs);
			free(path);
		}
		free(names[i]);
	}
	free(names);
}

struct plugin_host *plugin_host_load(const struct plugin_host_opts *o, struct colset *cs,
                                     void (*msg_cb)(void *ctx, const char *line), void *ctx,
                                     bool *fatal)
{
	*fatal = false;
	struct plugin_host *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->msg_cb = msg_cb;
	h->ctx = ctx;
	size_t n0 = cs->n;
	/* With file capabilities or setuid (setcap cap_net_admin+ep for delay
	 * accounting), a plugin of the caller's choosing would run with those
	 * privileges: only the system directory is trusted then. */
	bool secure = getauxval(AT_SECURE) != 0;
	if (secure && o->nexplicit) {
		say(h, _("%s: refused: taskview runs with elevated privileges (file capabilities or setuid); only plugins from %s are loaded"),
		    o->explicit_files[0], TV_PLUGINDIR);
		plugin_host_free(h);
		*fatal = true;
		return NULL;
	}
	for (size_t i = 0; i < o->nexplicit; i++) {
		seen_before(h, o->explicit_files[i]);
		if (load_file(h, o->explicit_files[i], true, cs) < 0) {
			cs->n = n0;
			plugin_host_free(h);
			*fatal = true;
			return NULL;
		}
	}
	if (!o->no_discovery) {
		char *user = secure ? NULL : user_plugin_dir();
		if (user)
			discover_dir(h, user, true, cs);
		free(user);
		/* TASKVIEW_PLUGINDIR stands in for the system directory (tests, builds not installed) */
		const char *sys = secure ? NULL : getenv("TASKVIEW_PLUGINDIR");
		discover_dir(h, sys && sys[0] == '/' ? sys : TV_PLUGINDIR, false, cs);
	}
	return h;
}

size_t plugin_host_nslots(const struct plugin_host *h)
{
	return h ? h->nslots : 0;
}

/* Adds a callback's time to the plugin's refresh total; over budget it is disabled. */
static void charge(struct plugin_host *h, struct plugin *p, int64_t t0)
{
	p->spent_ns += now_ns() - t0;
	int64_t budget = BUDGET_NS + (int64_t)p->ncalls * BUDGET_NS_PER_TASK;
	if (p->disabled || p->spent_ns <= budget)
		return;
	p->disabled = true;
	say(h, _("plugin %s (%s): disabled: its callbacks took %.1f ms in one refresh, over its budget of %.1f ms (%d ms, plus %d us per task; tasks: %zu); its columns show as unknown"),
	    p->d.name, p->path, (double)p->spent_ns / 1e6, (double)budget / 1e6,
	    TASKVIEW_PLUGIN_BUDGET_MS, TASKVIEW_PLUGIN_BUDGET_US_PER_TASK, p->ncalls);
}

void plugin_host_begin(struct plugin_host *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++) {
		struct plugin *p = &h->v[i];
		p->spent_ns = 0;
		p->ncalls = 0;
		if (p->disabled || !p->d.begin)
			continue;
		int64_t t0 = now_ns();
		p->d.begin(p->state, plugin_api_host());
		charge(h, p, t0);
	}
}

static bool applies_to(enum col_applies a, bool is_thread)
{
	return a == COL_ROWS_BOTH || (a == COL_ROWS_THREAD) == is_thread;
}

/* Marks the columns of p wanted on this row; false when none is. */
static bool plugin_wants(struct plugin *p, const struct tv_task *t, const bool *shown)
{
	bool any = false;
	for (uint32_t k = 0; k < p->ncols; k++) {
		p->wanted[k] = (!shown || shown[p->first_slot + k]) && applies_to(p->cols[k].applies, t->is_thread);
		any |= p->wanted[k];
	}
	return any;
}

void plugin_host_collect(struct plugin_host *h, struct tv_task *t, int dirfd, const bool *shown)
{
	if (!h)
		return;
	struct taskview_task task = {.t = t, .dirfd = dirfd};
	for (size_t i = 0; i < h->n; i++) {
		struct plugin *p = &h->v[i];
		if (p->disabled || !plugin_wants(p, t, shown))
			continue;
		/* allocated only when some plugin column is wanted: hidden columns cost nothing */
		if (!t->pvals) {
			t->pvals = calloc(h->nslots, sizeof(*t->pvals));
			if (!t->pvals)
				return;
			plugin_values_clear(t->pvals, h->nslots);
		}
		struct taskview_values v = {
			.pv = t->pvals + p->first_slot, .cols = p->cols, .wanted = p->wanted, .n = p->ncols,
		};
		p->ncalls++;
		int64_t t0 = now_ns();
		p->d.collect(p->state, plugin_api_host(), &task, &v);
		charge(h, p, t0);
		if (p->disabled)
			plugin_values_clear(v.pv, p->ncols);
	}
}

void plugin_host_end(struct plugin_host *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++) {
		struct plugin *p = &h->v[i];
		if (p->disabled || !p->d.end)
			continue;
		int64_t t0 = now_ns();
		p->d.end(p->state, plugin_api_host());
		charge(h, p, t0);
	}
}

void plugin_host_free(struct plugin_host *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++)
		plugin_release(&h->v[i]);
	for (size_t i = 0; i < h->nseen; i++)
		free(h->seen[i]);
	free(h->seen);
	free(h->v);
	free(h);
}

struct tv_value plugin_column_get(const struct column *c, const struct tv_task *t)
{
	if (!t->pvals || c->arg < 0)
		return value_unknown();
	const struct tv_pvalue *pv = &t->pvals[c->arg];
	if (!pv->known)
		return value_unknown();
	if (c->counter)
		return value_float(pv->f);
	switch (c->type) {
	case COL_INT:
	case COL_BYTES:
		return value_int(pv->i);
	case COL_STRING:
		return value_str(pv->s);
	default:
		return value_float(pv->f);
	}
}
