/*
 * Column plugins, host side: finds and loads plugins (include/taskview/plugin.h),
 * appends their columns to the column set and runs their callbacks each refresh.
 *
 * Search order: explicit files (--plugin), then $XDG_DATA_HOME/taskview/plugins
 * (default ~/.local/share/taskview/plugins), then TV_PLUGINDIR ($TASKVIEW_PLUGINDIR
 * when set, absolute and taskview is not set-id). Never the current
 * directory. A file name found earlier shadows the same name found later.
 */
#ifndef TV_SAMPLE_PLUGIN_HOST_H
#define TV_SAMPLE_PLUGIN_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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
/* Number of plugin slots (0 when no plugin columns; h may be NULL). */
size_t plugin_host_nslots(const struct plugin_host *h);

/*
 * One refresh, on the sampling thread: begin, collect for each task, end.
 * msg_cb may be called from these when a plugin goes over its time budget
 * (TASKVIEW_PLUGIN_BUDGET_MS + TASKVIEW_PLUGIN_BUDGET_US_PER_TASK for each task
 * it was called for, per refresh) and is disabled.
 *
 * collect fills t->pvals for one task whose /proc directory (/proc/PID, or
 * /proc/PID/task/TID on thread rows) is open as dirfd. shown is indexed by slot
 * (NULL = every slot); plugins none of whose columns is shown (or applies to the
 * row) are not called, and t->pvals (nslots entries) is allocated only when one is.
 */
void plugin_host_begin(struct plugin_host *h);
void plugin_host_collect(struct plugin_host *h, struct tv_task *t, int dirfd, const bool *shown);
void plugin_host_end(struct plugin_host *h);

/* Calls the plugins' free_state and unloads them. h may be NULL. */
void plugin_host_free(struct plugin_host *h);

/* The getter of every plugin column: reads t->pvals[c->arg]. Counters give the
 * rate the model derived (unknown until two refreshes). */
struct tv_value plugin_column_get(const struct column *c, const struct tv_task *t);

/*
 * --check-plugin: loads one file as if given with --plugin, prints its columns
 * and one sample taken on taskview's own process to out, rejections to err.
 * Returns 0 when the plugin is good, 1 when not.
 */
int plugin_check_file(const char *path, FILE *out, FILE *err);

#endif
