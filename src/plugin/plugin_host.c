/*
 * Finds and checks plugin files, has the helper load them, appends their
 * columns; restarts the helper without a plugin that broke it. See
 * plugin_host.h and plugin_priv.h.
 */
#include "plugin/plugin_host.h"
#include "plugin/plugin_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util/clock.h"
#include "util/i18n.h"

#define MSG_MAX 1024
/* How long a helper may take to free its plugins when taskview quits. */
#define QUIT_GRACE_S 1.0

void plugin_say(const struct plugin_host *h, const char *fmt, ...)
{
	char line[MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (h->msg_cb)
		h->msg_cb(h->ctx, line);
}

void plugin_disable(struct plugin_host *h, struct plugin *p, const char *reason)
{
	if (p->disabled)
		return;
	p->disabled = true;
	plugin_say(h, _("plugin %s (%s): disabled: %s; its columns show as unknown"), p->name, p->path, reason);
}

int64_t plugin_budget_ns(size_t ncalls)
{
	return (int64_t)TASKVIEW_PLUGIN_BUDGET_MS * 1000000 + (int64_t)ncalls * TASKVIEW_PLUGIN_BUDGET_US_PER_TASK * 1000;
}

double plugin_deadline_s(size_t ncalls)
{
	return PLUGIN_DEADLINE_S + PLUGIN_DEADLINE_FACTOR * (double)plugin_budget_ns(ncalls) / 1e9;
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
	plugin_colinfo_free(p->cols, p->ncols);
	if (p->fd >= 0)
		close(p->fd);
	free(p->name);
	free(p->desc);
	free(p->cost);
	free(p->path);
}

/* A file that will never be loaded: keeps its place (its index is what the
 * helper knows it by), without columns. */
static void plugin_refuse(struct plugin *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	p->loaded = false;
}

/* Column ids are global: built-ins and every other plugin's. */
static int check_duplicates(const struct plugin_host *h, const struct plugin_colinfo *cols, uint32_t ncols,
                            const struct colset *cs, char *why, size_t whylen)
{
	for (uint32_t k = 0; k < ncols; k++) {
		int idx = colset_index(cs, cols[k].id);
		if (idx < 0)
			continue;
		if ((size_t)idx < cs->nbuiltin) {
			snprintf(why, whylen, _("duplicate column id: %s is a built-in column"), cols[k].id);
			return -1;
		}
		const char *owner = "?";
		for (size_t i = 0; i < h->n; i++)
			if (h->v[i].loaded && (size_t)cs->cols[idx].arg >= h->v[i].first_slot &&
			    (size_t)cs->cols[idx].arg < h->v[i].first_slot + h->v[i].ncols)
				owner = h->v[i].path;
		snprintf(why, whylen, _("duplicate column id: %s is already declared by %s"), cols[k].id, owner);
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

/* --- loading a file into the helper --- */

enum load_result {
	LOAD_OK,
	LOAD_REFUSED, /* the helper (or our check of its answer) refused it; the helper lives on */
	LOAD_BROKE,   /* it crashed, hung, wrote output or garbage: the helper is gone */
};

struct loaded_decl {
	struct plugin_decl decl;
	struct plugin_colinfo *cols;
};

/* The helper's answer to WIRE_LOAD of plugin index: checked again here, since
 * the helper ran the plugin's code to make it. */
static enum load_result load_answer(uint32_t type, struct wire_reader *r, uint32_t index, struct loaded_decl *out,
                                    char **output, char *why, size_t whylen)
{
	bool null;
	if ((type != WIRE_LOADED && type != WIRE_REFUSED) || wire_get_u32(r) != index) {
		snprintf(why, whylen, "%s", _("malformed answer while loading"));
		return LOAD_BROKE;
	}
	if (type == WIRE_REFUSED) {
		char *msg = wire_get_str(r, MSG_MAX, &null);
		if (!msg || plugin_answer_output(r, output) < 0 || !wire_done(r)) {
			free(msg);
			snprintf(why, whylen, "%s", _("malformed answer while loading"));
			return LOAD_BROKE;
		}
		snprintf(why, whylen, "%s", msg);
		free(msg);
		return LOAD_REFUSED;
	}
	if (plugin_decl_get(r, &out->decl) < 0 || plugin_answer_output(r, output) < 0 || !wire_done(r)) {
		snprintf(why, whylen, "%s", _("malformed answer while loading"));
		return LOAD_BROKE;
	}
	const struct plugin_decl *d = &out->decl;
	if (d->abi_major != TASKVIEW_PLUGIN_ABI_MAJOR || d->abi_minor > TASKVIEW_PLUGIN_ABI_MINOR ||
	    plugin_check_declaration(d->name, d->desc, d->cols, d->ncols, &out->cols, why, whylen) < 0) {
		if (!*why)
			snprintf(why, whylen, "%s", _("malformed answer while loading"));
		return LOAD_BROKE;
	}
	return LOAD_OK;
}

/*
 * Loads plugin index (its file is cfd in the helper) and checks the answer.
 * On LOAD_BROKE the helper has been killed and freed.
 */
static enum load_result child_load(struct plugin_host *h, uint32_t index, int cfd, const char *path,
                                   struct loaded_decl *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	why[0] = '\0';
	struct plugin_child *c = h->child;
	double deadline = clock_now(CLOCK_MONOTONIC) + plugin_deadline_s(0);
	struct buf b;
	buf_init(&b);
	size_t f = wire_begin(&b, WIRE_LOAD);
	wire_u32(&b, index);
	wire_u32(&b, (uint32_t)cfd);
	wire_str(&b, path);
	wire_end(&b, f);
	int sent = plugin_child_send(c, &b, deadline);
	buf_free(&b);

	uint32_t type = 0;
	struct wire_reader r;
	enum child_wait w = sent < 0 ? CHILD_DIED : plugin_child_wait(c, deadline, NULL, NULL, &type, &r);
	enum load_result res = LOAD_BROKE;
	char *output = NULL;
	char status[128];
	if (w == CHILD_FRAME) {
		res = load_answer(type, &r, index, out, &output, why, whylen);
		plugin_child_consume(c);
		if (res != LOAD_BROKE && output) {
			/* its code ran in the helper and wrote where plugins must not */
			snprintf(why, whylen, _("wrote to standard output or error while loading: %s"), output);
			res = LOAD_BROKE;
		}
	} else if (w == CHILD_TIMEOUT) {
		snprintf(why, whylen, _("hung while loading: no answer within %.1f s (a constructor or init loops or blocks)"),
		         plugin_deadline_s(0));
	} else if (w == CHILD_DIED) {
		plugin_child_reap(c, 0.5);
		output = plugin_child_leftover(c);
		plugin_child_status(c, status, sizeof(status));
		if (output)
			snprintf(why, whylen, _("crashed while loading: the plugin helper ended (%s); its last output: %s"),
			         status, output);
		else
			snprintf(why, whylen, _("crashed while loading: the plugin helper ended (%s)"), status);
	} else {
		snprintf(why, whylen, "%s", _("malformed answer while loading"));
	}
	free(output);
	if (res == LOAD_BROKE) {
		plugin_child_free(c);
		h->child = NULL;
	}
	if (res != LOAD_OK) {
		plugin_colinfo_free(out->cols, out->decl.ncols);
		out->cols = NULL;
		plugin_decl_free(&out->decl);
	}
	return res;
}

static void send_drop(struct plugin_host *h, uint32_t index)
{
	struct buf b;
	buf_init(&b);
	size_t f = wire_begin(&b, WIRE_DROP);
	wire_u32(&b, index);
	wire_end(&b, f);
	plugin_child_send(h->child, &b, clock_now(CLOCK_MONOTONIC) + PLUGIN_DEADLINE_S);
	buf_free(&b);
}

/* Starts a helper holding every file still to be loaded or loaded again. */
static int child_start(struct plugin_host *h, char *why, size_t whylen)
{
	int *fds = calloc(h->n ? h->n : 1, sizeof(*fds));
	int *cfds = calloc(h->n ? h->n : 1, sizeof(*cfds));
	if (!fds || !cfds) {
		free(fds);
		free(cfds);
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -1;
	}
	for (size_t i = 0; i < h->n; i++)
		fds[i] = h->v[i].disabled ? -1 : h->v[i].fd;
	h->child = plugin_child_start(fds, h->n, cfds, why, whylen);
	for (size_t i = 0; i < h->n; i++)
		h->v[i].cfd = h->child ? cfds[i] : -1;
	free(fds);
	free(cfds);
	return h->child ? 0 : -1;
}

/* Is the second load of a plugin the same as the first? */
static bool same_declaration(const struct plugin *p, const struct loaded_decl *l)
{
	if (l->decl.ncols != p->ncols)
		return false;
	for (uint32_t k = 0; k < p->ncols; k++) {
		const struct plugin_colinfo *a = &p->cols[k], *b = &l->cols[k];
		if (strcmp(a->id, b->id) != 0 || a->type != b->type || a->counter != b->counter || a->applies != b->applies)
			return false;
	}
	return true;
}

int plugin_host_restart(struct plugin_host *h)
{
	char why[MSG_MAX];
	for (;;) {
		if (h->child) {
			plugin_child_free(h->child);
			h->child = NULL;
		}
		if (child_start(h, why, sizeof(why)) < 0) {
			char reason[MSG_MAX + 64];
			snprintf(reason, sizeof(reason), _("the plugin helper cannot be started: %s"), why);
			for (size_t i = 0; i < h->n; i++)
				if (h->v[i].loaded)
					plugin_disable(h, &h->v[i], reason);
			return -1;
		}
		bool broke = false;
		for (size_t i = 0; i < h->n && !broke; i++) {
			struct plugin *p = &h->v[i];
			if (!p->loaded || p->disabled)
				continue;
			struct loaded_decl l;
			enum load_result res = child_load(h, (uint32_t)i, p->cfd, p->path, &l, why, sizeof(why));
			if (res == LOAD_OK && !same_declaration(p, &l))
				plugin_disable(h, p, _("it declared other columns when loaded again"));
			else if (res != LOAD_OK)
				plugin_disable(h, p, why);
			if (res == LOAD_OK) {
				plugin_colinfo_free(l.cols, l.decl.ncols);
				plugin_decl_free(&l.decl);
			}
			broke = res == LOAD_BROKE;
		}
		if (!broke)
			return 0;
	}
}

void plugin_host_stop_child(struct plugin_host *h, double grace)
{
	if (!h->child)
		return;
	if (grace > 0) {
		struct buf b;
		buf_init(&b);
		size_t f = wire_begin(&b, WIRE_QUIT);
		wire_end(&b, f);
		if (plugin_child_send(h->child, &b, clock_now(CLOCK_MONOTONIC) + grace) == 0)
			plugin_child_reap(h->child, grace);
		buf_free(&b);
	}
	plugin_child_free(h->child);
	h->child = NULL;
}

/* --- finding files --- */

/* Opens one file, checks who may change it. Returns the descriptor, or -1
 * after saying why it is refused. */
static int open_checked(struct plugin_host *h, const char *path, bool check_dir)
{
	char why[MSG_MAX];
	if (check_dir) {
		/* an explicit file: its directory must be as trustworthy as a plugin directory */
		const char *slash = strrchr(path, '/');
		char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
		const char *bad = dir ? plugin_trust_dir(dir, false, why, sizeof(why)) : NULL;
		free(dir);
		if (bad) {
			plugin_say(h, _("plugin %s: refused: %s"), path, why);
			return -1;
		}
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		plugin_say(h, _("plugin %s: cannot load: %s"), path, strerror(errno));
		return -1;
	}
	if (plugin_trust_file(fd, path, why, sizeof(why))) {
		plugin_say(h, _("plugin %s: refused: %s"), path, why);
		close(fd);
		return -1;
	}
	return fd;
}

/* Adds a file to load, in search order. -1 when it is refused already. */
static int add_file(struct plugin_host *h, const char *path, bool explicit_file)
{
	int fd = open_checked(h, path, explicit_file);
	if (fd < 0)
		return -1;
	struct plugin *v = realloc(h->v, (h->n + 1) * sizeof(*v));
	char *copy = strdup(path);
	if (!v || !copy) {
		if (v)
			h->v = v;
		free(copy);
		close(fd);
		plugin_say(h, _("plugin %s: cannot load: %s"), path, strerror(ENOMEM));
		return -1;
	}
	h->v = v;
	h->v[h->n++] = (struct plugin){.path = copy, .fd = fd, .cfd = -1, .explicit_file = explicit_file, .cpu_ns = -1};
	return 0;
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

/* TASKVIEW_PLUGINDIR replaces the built-in system directory: tests and uninstalled
 * builds point it at their own modules. Not for a set-id or capability-bearing
 * taskview, which trusts only the directory it was built with. */
static const char *system_plugin_dir(void)
{
	const char *env = secure_getenv("TASKVIEW_PLUGINDIR");
	return env && *env ? env : TV_PLUGINDIR;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void discover_dir(struct plugin_host *h, const char *dir, bool user_dir)
{
	char why[MSG_MAX];
	struct stat st;
	if (stat(dir, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			plugin_say(h, _("plugin directory %s: skipped: %s"), dir, strerror(errno));
		return;
	}
	if (plugin_trust_dir(dir, user_dir, why, sizeof(why))) {
		plugin_say(h, _("plugin directory %s: skipped: %s"), dir, why);
		return;
	}
	DIR *d = opendir(dir);
	if (!d) {
		plugin_say(h, _("plugin directory %s: skipped: %s"), dir, strerror(errno));
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
	if (n) /* qsort's array must not be NULL, even when empty */
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		char *path = NULL;
		if (!seen_before(h, names[i]) && asprintf(&path, "%s/%s", dir, names[i]) >= 0) {
			add_file(h, path, false);
			free(path);
		}
		free(names[i]);
	}
	free(names);
}

/* --- loading --- */

/* Takes what the helper declared for file i: columns, names. -1 after saying
 * why it is refused (a duplicate, out of memory). */
static int accept_plugin(struct plugin_host *h, size_t i, struct loaded_decl *l, struct colset *cs)
{
	struct plugin *p = &h->v[i];
	char why[MSG_MAX];
	if (check_duplicates(h, l->cols, l->decl.ncols, cs, why, sizeof(why)) < 0) {
		plugin_say(h, _("plugin %s: %s"), p->path, why);
		send_drop(h, (uint32_t)i);
		return -1;
	}
	p->name = l->decl.name;
	p->desc = l->decl.desc;
	p->abi_major = l->decl.abi_major;
	p->abi_minor = l->decl.abi_minor;
	l->decl.name = l->decl.desc = NULL;
	p->cols = l->cols;
	p->ncols = l->decl.ncols;
	l->cols = NULL;
	if (asprintf(&p->cost, _("read by plugin %s (%s)"), p->name, p->path) < 0)
		p->cost = NULL;
	if (!p->cost || append_columns(h, p, cs) < 0) {
		plugin_say(h, _("plugin %s: cannot load: %s"), p->path, strerror(ENOMEM));
		send_drop(h, (uint32_t)i);
		return -1;
	}
	p->first_slot = h->nslots;
	h->nslots += p->ncols;
	p->loaded = true;
	return 0;
}

/* Loads the files found, in order. -1 when an explicit one fails. */
static int load_all(struct plugin_host *h, struct colset *cs)
{
	char why[MSG_MAX];
	for (size_t i = 0; i < h->n; i++) {
		struct plugin *p = &h->v[i];
		if (!h->child && plugin_host_restart(h) < 0) {
			plugin_say(h, _("plugin %s: cannot load: the plugin helper cannot be started"), p->path);
			plugin_refuse(p);
			if (p->explicit_file)
				return -1;
			continue;
		}
		struct loaded_decl l;
		enum load_result res = child_load(h, (uint32_t)i, p->cfd, p->path, &l, why, sizeof(why));
		int ok = -1;
		if (res == LOAD_OK)
			ok = accept_plugin(h, i, &l, cs);
		else
			plugin_say(h, _("plugin %s: %s"), p->path, why);
		plugin_colinfo_free(l.cols, l.decl.ncols);
		plugin_decl_free(&l.decl);
		if (ok < 0) {
			plugin_refuse(p);
			if (p->explicit_file)
				return -1;
		}
	}
	return 0;
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
	if (plugin_secure() && o->nexplicit) {
		plugin_say(h, _("%s: refused: taskview runs with elevated privileges (file capabilities or setuid); only plugins from %s are loaded"),
		           o->explicit_files[0], TV_PLUGINDIR);
		goto fatal;
	}
	for (size_t i = 0; i < o->nexplicit; i++) {
		seen_before(h, o->explicit_files[i]);
		if (add_file(h, o->explicit_files[i], true) < 0)
			goto fatal;
	}
	if (!o->no_discovery) {
		char *user = plugin_secure() ? NULL : user_plugin_dir();
		if (user)
			discover_dir(h, user, true);
		free(user);
		discover_dir(h, system_plugin_dir(), false);
	}
	if (h->n && load_all(h, cs) < 0)
		goto fatal;
	return h;
fatal:
	cs->n = n0;
	plugin_host_free(h);
	*fatal = true;
	return NULL;
}

size_t plugin_host_nslots(const struct plugin_host *h)
{
	return h ? h->nslots : 0;
}

void plugin_host_set_interrupt(struct plugin_host *h, bool (*interrupted)(void *ctx), void *ctx)
{
	if (!h)
		return;
	h->interrupted = interrupted;
	h->ictx = ctx;
}

void plugin_host_free(struct plugin_host *h)
{
	if (!h)
		return;
	/* a helper still busy with a refresh is not waited for: quitting must not
	 * hang on a plugin */
	bool busy = h->round.next < h->round.nexpect;
	plugin_host_stop_child(h, busy ? 0 : QUIT_GRACE_S);
	free(h->round.expect);
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
