/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "app.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/plugin_host.h"
#include "sample/taskstats/taskstats.h"
#include "util/i18n.h"

static void app_stderr_msg(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "taskview: %s\n", line);
}

/* The shown columns (-o) and the sort column (-s) from the full set. */
static int app_select(struct app *a, const struct cli_opts *o);

static int app_start(struct app *a)
{
	memset(a, 0, sizeof(*a));
	const char *cs = nl_langinfo(CODESET);
	a->utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
	if (colset_init(&a->cs) < 0) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	return 0;
}

int app_init_replay(struct app *a, const struct cli_opts *o, int (*add_columns)(void *ctx, struct colset *cs),
		    void *ctx)
{
	if (app_start(a))
		return 1;
	if (add_columns && add_columns(ctx, &a->cs) < 0) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	return app_select(a, o);
}

int app_init(struct app *a, const struct cli_opts *o, void (*msg_cb)(void *ctx, const char *line), void *ctx)
{
	if (app_start(a))
		return 1;
	if (!msg_cb)
		msg_cb = app_stderr_msg;
	struct plugin_host_opts po = {
		.explicit_files = o->plugins,
		.nexplicit = o->nplugins,
		.no_discovery = o->no_plugins,
	};
	bool fatal = false;
	a->plugins = plugin_host_load(&po, &a->cs, msg_cb, ctx, &fatal);
	if (fatal)
		return 2;
	return app_select(a, o);
}

static int app_select(struct app *a, const struct cli_opts *o)
{
	if (o->columns) {
		char *bad = NULL;
		if (colsel_parse(&a->cs, o->columns, &a->sel, &bad) < 0) {
			char *ids = colset_ids_joined(&a->cs);
			fprintf(stderr, _("taskview: unknown column '%s'; valid columns: %s\n"), bad ? bad : o->columns,
				ids ? ids : "");
			free(ids);
			free(bad);
			return 2;
		}
	} else if (colsel_default(&a->cs, &a->sel) < 0 ||
		   (o->group == CLI_GROUP_CGROUP && colsel_add_group_columns(&a->cs, &a->sel) < 0)) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	a->sort_col = colset_index(&a->cs, o->sort ? o->sort : "cpu");
	if (a->sort_col < 0) {
		char *ids = colset_ids_joined(&a->cs);
		fprintf(stderr, _("taskview: unknown sort column '%s'; valid columns: %s\n"), o->sort, ids ? ids : "");
		free(ids);
		return 2;
	}
	a->reverse = o->reverse;
	return 0;
}

void app_free(struct app *a)
{
	if (a->ts)
		ts_close(a->ts);
	plugin_host_free(a->plugins);
	colsel_free(&a->sel);
	colset_free(&a->cs);
}

unsigned app_needs(const struct app *a)
{
	unsigned needs = colsel_needs(&a->cs, &a->sel) | NEED_STAT;
	/* the sort key is read even when not shown */
	needs |= a->cs.cols[a->sort_col].needs;
	return needs;
}

void app_open_taskstats(struct app *a, unsigned needs)
{
	/* the socket is opened only when a delay column or a process sum of
	 * context switches needs it */
	if (!a->ts && (needs & (NEED_DELAY | NEED_CTXT)))
		a->ts = ts_open();
}

bool *app_plugin_shown(const struct app *a)
{
	size_t nslots = plugin_host_nslots(a->plugins);
	if (nslots == 0)
		return NULL;
	bool *shown = calloc(nslots, sizeof(*shown));
	if (!shown)
		return NULL;
	for (size_t i = 0; i < a->sel.n; i++) {
		const struct column *c = &a->cs.cols[a->sel.idx[i]];
		if ((size_t)a->sel.idx[i] >= a->cs.nbuiltin && (size_t)c->arg < nslots)
			shown[c->arg] = true;
	}
	const struct column *sc = &a->cs.cols[a->sort_col];
	if ((size_t)a->sort_col >= a->cs.nbuiltin && (size_t)sc->arg < nslots)
		shown[sc->arg] = true;
	return shown;
}

const char *app_delay_state(const struct app *a, const char **message)
{
	if (!a->ts) {
		*message = NULL;
		return "unsupported";
	}
	const char *m = ts_message(a->ts);
	*message = m && *m ? m : NULL;
	return ts_state_name(ts_state(a->ts));
}
