/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading plugin files into the helper (WIRE_LOAD; its answer is checked again
 * here, since the helper ran the plugin's code to make it), and starting the
 * helper again with the plugins that are left.
 */
#include "plugin/plugin_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/i18n.h"

#define MSG_MAX 1024

void plugin_loaded_free(struct loaded_decl *l)
{
	/* the column infos first: the declaration counts them */
	plugin_colinfo_free(l->cols, l->decl.ncols);
	l->cols = NULL;
	plugin_decl_free(&l->decl);
}

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

enum load_result plugin_child_load(struct plugin_host *h, uint32_t index, int cfd, const char *path,
                                   struct loaded_decl *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	why[0] = '\0';
	struct plugin_child *c = h->child;
	struct child_look asked, last;
	plugin_child_look(c, clock_now(CLOCK_MONOTONIC), &asked);
	last = asked;
	double deadline = asked.at + plugin_deadline_s(0);
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
	/* a helper kept off the CPUs (a busy machine, a CPU quota) is not hung: as for a refresh's answer */
	while (w == CHILD_TIMEOUT && plugin_child_starved(c, &asked, &last, 0, clock_now(CLOCK_MONOTONIC)))
		w = plugin_child_wait(c, clock_now(CLOCK_MONOTONIC) + PLUGIN_STARVED_STEP_S, NULL, NULL, &type, &r);
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
		         clock_now(CLOCK_MONOTONIC) - asked.at);
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
	if (res != LOAD_OK)
		plugin_loaded_free(out);
	return res;
}

void plugin_send_drop(struct plugin_host *h, uint32_t index)
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
			enum load_result res = plugin_child_load(h, (uint32_t)i, p->cfd, p->path, &l, why, sizeof(why));
			if (res == LOAD_OK && !same_declaration(p, &l))
				plugin_disable(h, p, _("it declared other columns when loaded again"));
			else if (res != LOAD_OK)
				plugin_disable(h, p, why);
			if (res == LOAD_OK)
				plugin_loaded_free(&l);
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
