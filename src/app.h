/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What batch and interactive mode share: columns, plugins, taskstats, sort. */
#ifndef TV_APP_H
#define TV_APP_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "model/column.h"

struct plugin_host;
struct ts_client;

struct app {
	struct colset cs;
	struct colsel sel;       /* shown columns */
	int sort_col;            /* index into cs */
	bool reverse;
	struct plugin_host *plugins;
	struct ts_client *ts;    /* opened when a shown column needs it */
	bool utf8;
};

/* Loads plugins and resolves -o/-s. Returns 0, or the exit status (2 for bad
 * input) after printing a message to stderr. Plugin messages go to msg_cb. */
int app_init(struct app *a, const struct cli_opts *o, void (*msg_cb)(void *ctx, const char *line), void *ctx);
/* The same for a replay: no plugins, the columns add_columns appends instead (NULL: none). */
int app_init_replay(struct app *a, const struct cli_opts *o, int (*add_columns)(void *ctx, struct colset *cs),
		    void *ctx);
void app_free(struct app *a);

/* Opens taskstats if the shown columns (or process sums) need it; idempotent. */
void app_open_taskstats(struct app *a, unsigned needs);
/* What the sampler must read for the shown columns. */
unsigned app_needs(const struct app *a);
/* plugin slots shown, as a malloc'd bool array (NULL if no plugin columns) */
bool *app_plugin_shown(const struct app *a);

/* The "delayacct" state for JSON and headers. */
const char *app_delay_state(const struct app *a, const char **message);

#endif
