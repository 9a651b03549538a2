/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Column plugins, host side: finds plugin files (include/taskview/plugin.h),
 * has them loaded by a helper process, appends their columns to the column set
 * and fills their values each refresh. Plugin code never runs in taskview's
 * process: a plugin that crashes, exits, hangs, writes to stdout or stderr,
 * sends garbage or keeps going over its CPU budget is named in a message and
 * disabled, and the others go on (after a restart of the helper when needed).
 *
 * Search order: explicit files (--plugin), then $XDG_DATA_HOME/taskview/plugins
 * (default ~/.local/share/taskview/plugins), then the system directory: TV_PLUGINDIR,
 * or $TASKVIEW_PLUGINDIR when set (ignored with elevated privileges). Never the
 * current directory. A file name found earlier shadows the same name found later.
 *
 * A program that uses this must call plugin_helper_dispatch() (plugin_helper.h)
 * first thing in main(): the helper is that program's own binary.
 */
#ifndef TV_PLUGIN_PLUGIN_HOST_H
#define TV_PLUGIN_PLUGIN_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "model/column.h"
#include "model/task.h"
#include "model/value.h"

struct plugin_host;

struct plugin_host_opts {
	const char *const *explicit_files; /* --plugin FILE, in command-line order */
	size_t nexplicit;
	bool no_discovery;                 /* --no-plugins: explicit files only */
};

/*
 * Loads plugins and appends their columns to cs; a column's arg is its slot,
 * the index into every task's pvals. Each rejection or warning is one line
 * passed to msg_cb ("plugin FILE: STAGE: detail"). A discovered plugin that
 * fails is skipped. When an explicit file fails, returns NULL with *fatal set
 * and cs back as it was (the caller exits 2). Also returns NULL, *fatal unset,
 * when out of memory. The column strings belong to the host: use cs only
 * while the host lives.
 */
struct plugin_host *plugin_host_load(const struct plugin_host_opts *o, struct colset *cs,
                                     void (*msg_cb)(void *ctx, const char *line), void *ctx,
                                     bool *fatal);
/* The helper process plugins run in, 0 when none runs (h may be NULL): its
 * cost is part of taskview's own. */
pid_t plugin_host_helper_pid(const struct plugin_host *h);
/* Number of plugin slots (0 when no plugin columns; h may be NULL). */
size_t plugin_host_nslots(const struct plugin_host *h);

/*
 * One refresh, on the sampling thread: fills tasks[i]->pvals for n tasks (process
 * rows and thread rows; a task is named by tid, tgid and is_thread, and the helper
 * reads /proc/TGID or /proc/TGID/task/TID). shown is indexed by slot (NULL = every
 * slot); a plugin none of whose columns is shown is not called at all, nor for a
 * row none of its shown columns applies to, and a task's pvals (nslots entries) is
 * allocated only when some plugin column is wanted on it. A value the plugin did
 * not give is unknown; counter columns hold the raw counter, which model/delta.c
 * turns into a rate. The tasks must stay put until the call returns.
 *
 * Blocks until every plugin asked has answered or failed; msg_cb is called from
 * here when one is disabled. A plugin that does not answer is given up after
 * TASKVIEW_PLUGIN_DEADLINE_MS plus ten times its budget, or sooner when the
 * interrupt predicate says so (the values not received are unknown then).
 */
void plugin_host_collect_all(struct plugin_host *h, struct tv_task *const *tasks, size_t n, const bool *shown);

/*
 * interrupted(ctx) is asked while plugin_host_collect_all waits for a slow
 * plugin: when a signal arrives, and every 50 ms once the wait has lasted
 * 200 ms. When it returns true, the call returns at once; the plugins that
 * have not answered yet show unknown in this refresh, and their answers are
 * awaited (and dropped) by the next call, within the same deadline. For an
 * interactive screen: a key or a quit signal must not wait for a plugin.
 * It runs on the thread that calls plugin_host_collect_all.
 */
void plugin_host_set_interrupt(struct plugin_host *h, bool (*interrupted)(void *ctx), void *ctx);

/* Ends the helper (its plugins' free_state runs there, for up to a second;
 * a helper still busy with a plugin is killed at once). h may be NULL. */
void plugin_host_free(struct plugin_host *h);

/* The getter of every plugin column: reads t->pvals[c->arg]. Counters give the
 * rate the model derived (unknown until two refreshes). */
struct tv_value plugin_column_get(const struct column *c, const struct tv_task *t);

/*
 * --check-plugin: loads one file as if given with --plugin, in a helper like any
 * run, prints its columns and a sample taken on taskview's own process to out,
 * rejections and failures to err. Returns 0 when the plugin is good, 1 when it
 * cannot be loaded, crashes, hangs, writes output, sends garbage or goes over its
 * CPU budget in TASKVIEW_PLUGIN_BUDGET_REFRESHES refreshes.
 */
int plugin_check_file(const char *path, FILE *out, FILE *err);

#endif
