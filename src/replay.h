/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch output from a recording (-r PATH -b): the samples as batch mode
 * printed them, with the tasks that ended in each interval marked. */
#ifndef TV_REPLAY_H
#define TV_REPLAY_H

#include "app.h"
#include "cli.h"
#include "metrics.h"
#include "record/reader.h"
#include "render/json.h"
#include "util/buf.h"
#include "view/shown.h"

/* Returns the exit status. */
int replay_run(const struct cli_opts *o);

/* Writes out to stdout, flushed: a sample reaches a pipe as it is printed.
 * Returns 0, or -1 after telling the write error. */
int replay_emit(const struct buf *out);

/* What a replay front takes from the options; each returns 0, or 2 after
 * printing why to stderr. The step: -d as a whole number k of the
 * recording's intervals (1 without -d). */
int replay_step(const struct cli_opts *o, const struct rec_info *info, unsigned *k);
/* The times of --begin and --end (-INFINITY and INFINITY when not given). */
int replay_range(const struct cli_opts *o, const struct rec_info *info, double *from, double *to);
/* Why no sample of [from, to] could be shown (each is shown with the one k
 * before it): a translated message. */
const char *replay_none_why(const struct rec_reader *r, double from, double to, unsigned k);

/* Where two samples came from, as their output names it. */
struct pair_origin {
	const char *recorded_on;      /* a recording: the host it names (raw bytes), or NULL */
	const struct json_host *host; /* --host: the remote they came from, or NULL */
	const struct filter *filter;  /* the tasks to show; NULL: all (the sender chose them) */
};

/* Appends the sample of v (shown_build over prev and its sample) as metrics
 * (m): the live processes the filter selects, and the ended ones it selects
 * as the ones that ended. The first sample starts the counters (as a live
 * exporter's first refresh does). Returns -1 when out of memory, -2 after
 * another error (told). */
int replay_metrics(struct buf *out, struct metrics *m, const struct shown *v, const struct snapshot *prev, bool first);

/* Appends cur as batch JSON or text (o->format), its rates over the sample
 * before it (v: shown_build over the two, interval seconds apart), the tasks
 * that ended between them marked on v's rows; a blank line before text
 * unless first. Returns -1 when out of memory. The replay of a recording and
 * the samples of --host print through this one renderer. */
int replay_render_shown(struct buf *out, const struct app *a, const struct cli_opts *o, const struct pair_origin *from,
			struct shown *v, const struct rec_sample *cur, double interval, bool first);

#endif
