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

struct sample_opts {
	unsigned needs;                 /* enum col_need bits of the shown columns */
	/* may be NULL; its PIDs and user select the processes read. Its text is
	 * not used here: the view matches it (rows_build), so that typing a
	 * filter works on the sample already taken */
	const struct filter *filter;
	bool all_threads;               /* -H: read the threads of every shown process */
	/* processes unfolded in the TUI; NULL = none */
	bool (*expanded)(void *ctx, int32_t tgid);
	void *expanded_ctx;
	const bool *plugin_shown;       /* by plugin slot; NULL = all */
	/* Read the name of every thread of the folded processes (task/TID/comm)
	 * into tv_task.tnames: a text filter and the TUI's search match thread
	 * names without unfolding. Added for the TUI; costs one small read per
	 * thread, so only while a filter or search is in use. */
	bool thread_names;
};

/* Returns NULL and sets *err (malloc'd) when /proc cannot be used. */
struct sampler *sampler_new(char **err);
void sampler_free(struct sampler *s);
/* Optional sources; the sampler does not own them. */
void sampler_set_taskstats(struct sampler *s, struct ts_client *ts);
void sampler_set_plugins(struct sampler *s, struct plugin_host *ph, size_t npvals);

/* Takes one snapshot. Returns 0, or -1 with *err set when /proc cannot be read at all. */
int sampler_take(struct sampler *s, const struct sample_opts *o, struct snapshot *out, char **err);

#endif
