/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin host: loads the files found (plugin_discover.c) into the helper
 * (plugin_load.c), appends their columns, disables plugins, ends the helper.
 * See plugin_host.h and plugin_priv.h.
 */
#include "plugin/plugin_host.h"
#include "plugin/plugin_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/text.h"

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
	if (!h->msg_cb)
		return;
	/* a message may carry a plugin's strings (an invalid name, the helper's
	 * words, a file name from a plugin directory): they reach a terminal */
	struct buf b;
	buf_init(&b);
	text_sanitize_own(&b, line, strlen(line), SIZE_MAX, text_locale_utf8());
	h->msg_cb(h->ctx, b.oom ? _("out of memory") : buf_str(&b));
	buf_free(&b);
}

void plugin_disable(struct plugin_host *h, struct plugin *p, const char *reason)
{
	if (p->disabled)
		return;
	p->disabled = true;
	/* the reason before the file: a status line cut at the screen's width keeps it */
	plugin_say(h, _("plugin %s disabled: %s; its columns show as unknown (%s)"), p->name, reason, p->path);
}

int64_t plugin_budget_ns(size_t ncalls)
{
	return (int64_t)TASKVIEW_PLUGIN_BUDGET_MS * 1000000 + (int64_t)ncalls * TASKVIEW_PLUGIN_BUDGET_US_PER_TASK * 1000;
}

double plugin_deadline_s(size_t ncalls)
{
	return PLUGIN_DEADLINE_S + PLUGIN_DEADLINE_FACTOR * (double)plugin_budget_ns(ncalls) / 1e9;
}

bool plugin_child_starved(const struct plugin_child *c, const struct child_look *asked, struct child_look *last,
                          size_t ncalls, double now)
{
	struct child_look l;
	plugin_child_look(c, now, &l);
	bool waited = (double)plugin_child_waited(last, &l) >= (now - last->at) * 1e9 / 4;
	*last = l;
	if (asked->cpu_ns < 0 || l.cpu_ns < 0 || now - asked->at >= PLUGIN_STARVED_MAX_S)
		return false;
	return (l.runnable || waited) && l.cpu_ns - asked->cpu_ns < PLUGIN_DEADLINE_FACTOR * plugin_budget_ns(ncalls);
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

/* --- loading --- */

/* Takes what the helper declared for file i: columns, names. -1 after saying
 * why it is refused (a duplicate, out of memory). */
static int accept_plugin(struct plugin_host *h, size_t i, struct loaded_decl *l, struct colset *cs)
{
	struct plugin *p = &h->v[i];
	char why[MSG_MAX];
	if (check_duplicates(h, l->cols, l->decl.ncols, cs, why, sizeof(why)) < 0) {
		plugin_say(h, _("plugin %s: %s"), p->path, why);
		plugin_send_drop(h, (uint32_t)i);
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
		plugin_send_drop(h, (uint32_t)i);
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
		enum load_result res = plugin_child_load(h, (uint32_t)i, p->cfd, p->path, &l, why, sizeof(why));
		int ok = -1;
		if (res == LOAD_OK)
			ok = accept_plugin(h, i, &l, cs);
		else
			plugin_say(h, _("plugin %s: %s"), p->path, why);
		plugin_loaded_free(&l);
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
	if (plugin_discover(h, o) < 0 || (h->n && load_all(h, cs) < 0)) {
		cs->n = n0;
		plugin_host_free(h);
		*fatal = true;
		return NULL;
	}
	return h;
}

pid_t plugin_host_helper_pid(const struct plugin_host *h)
{
	return h && h->child && !h->child->reaped ? h->child->pid : 0;
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
