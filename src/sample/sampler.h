/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sampling: reads /proc (and taskstats, plugins) into a snapshot, reading only what is needed. */
#ifndef TV_SAMPLE_SAMPLER_H
#define TV_SAMPLE_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "view/filter.h"

struct sampler;
struct plugin_host;
struct ts_client;
struct cmdline_cache;

struct sample_opts {
	unsigned needs;                 /* enum col_need bits of the shown columns */
	/* may be NULL; its PIDs and user select the processes read. Its text is
	 * not used here: the view matches it (rows_build), so that typing a
	 * filter works on the sample already taken */
	const struct filter *filter;
	bool all_threads;               /* -H: read the threads of every shown process */
	/* processes unfolded in the TUI: a callback, or a sorted list; none = none */
	bool (*expanded)(void *ctx, int32_t tgid);
	void *expanded_ctx;
	const int32_t *expanded_list;
	size_t nexpanded;
	const bool *plugin_shown;       /* by plugin slot; NULL = all */
	bool details_all;               /* read what is otherwise read for the rows shown only
	                                   (sampler_fill_rows) for every row: batch output, or a sort
	                                   key that needs it */
	double cmdline_wait;            /* seconds to wait for command lines not read yet (0: none) */
	/* seconds the thread stacks' reads may take in one refresh, all processes
	 * together (0: no limit): reading a process's maps and pagemap waits for
	 * its memory-map lock, which a process that forks or maps often holds;
	 * stacks not read by then are unknown for that refresh */
	double stacks_budget;
	int32_t peaks_tid;              /* a thread row whose delay extremes are kept (tv_task.peaks); 0: none */
	/* Read the name of every thread of the folded processes (task/TID/comm)
	 * into tv_task.tnames: a text filter and the TUI's search match thread
	 * names without unfolding. Added for the TUI; costs one small read per
	 * thread, so only while a filter or search is in use. */
	bool thread_names;
	/* Without taskstats a thread's switch counts cost a status read each
	 * time it ran. With rows_limited they are read only for the rows on
	 * screen: the thread rows whose TIDs are in rows_tids and every thread
	 * of the processes whose TGIDs are in rows_tgids (both sorted); any
	 * other thread that ran since its last read shows them unknown for
	 * that refresh. Off (batch output, a sort or a sum over every row
	 * that needs them): every thread's. */
	bool rows_limited;
	const int32_t *rows_tids, *rows_tgids;
	size_t nrows_tids, nrows_tgids;
	/* A recording: every process's threads that ended get an entry of their own
	 * (tv_task.exited), for a replay to list. Otherwise only processes whose
	 * threads are read or shown get them; the others count them. */
	bool keep_exited;
	/* The machine's CPU time and memory (snapshot.machine): for a viewer of
	 * several hosts; two more reads a refresh (its load is read anyway) */
	bool machine;
};

/* Returns NULL and sets *err (malloc'd) when /proc cannot be used. */
struct sampler *sampler_new(char **err);
void sampler_free(struct sampler *s);
/* Optional sources; the sampler does not own them. */
void sampler_set_taskstats(struct sampler *s, struct ts_client *ts);
void sampler_set_plugins(struct sampler *s, struct plugin_host *ph, size_t npvals);

/* sample_opts.stacks_budget for a refresh every interval seconds: half of it,
 * and at least 1 s (the stacks of a few thousand threads, on a busy machine). */
double sampler_stacks_budget(double interval);

/* Takes one snapshot. Returns 0, or -1 with *err set when /proc cannot be read at all, or
 * when sampler_cancel asked it to stop. */
int sampler_take(struct sampler *s, const struct sample_opts *o, struct snapshot *out, char **err);
/* Asks a sampler_take in progress, on another thread, to stop at its next step: quitting
 * never waits for a whole refresh of a busy machine. Safe from any thread. */
void sampler_cancel(struct sampler *s);

/*
 * What is read only for the rows shown: the state, nice and priority of
 * thread rows (NEED_TSTAT in needs), and command lines (NEED_CMDLINE; from
 * the cache, never waiting). tasks are the rows' tasks, snapshot_task() finds
 * each one's owner in snap, a snapshot this sampler took, and only what that
 * task lacks is set (what it holds is the snapshot's: nothing is freed or
 * replaced; a command line read again shows in the next sample). Safe to
 * call from another thread than sampler_take's (it touches neither its
 * files nor its buffers).
 */
void sampler_fill_rows(struct sampler *s, struct snapshot *snap, const struct tv_task *const *tasks, size_t n,
		       unsigned needs);

/* The command-line cache, for a caller that waits on its notify fd. */
struct cmdline_cache *sampler_cmdlines(struct sampler *s);

/* Why exit records are not watched (translated), or NULL while they are. */
const char *sampler_exits_unwatched(const struct sampler *s);

#endif
