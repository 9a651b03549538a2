/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The metrics front of batch mode: keeps the group accumulators across
 * samples, prints OpenMetrics (--format openmetrics) and replaces a text
 * file for node_exporter's textfile collector (--textfile) with each sample.
 */
#ifndef TV_METRICS_H
#define TV_METRICS_H

#include <stdbool.h>

#include "cli.h"
#include "export/openmetrics.h"
#include "model/snapshot.h"
#include "util/buf.h"

/* What the sampler must read for the metrics (enum col_need bits). */
unsigned metrics_needs(void);

struct metrics;

/* NULL when out of memory. */
struct metrics *metrics_new(const struct cli_opts *o);
/* One host's sums (--host): no text file of its own, every series labelled
 * host="HOST" (borrowed for m's life). NULL when out of memory. */
struct metrics *metrics_new_part(const struct cli_opts *o, const char *host);
void metrics_free(struct metrics *m);
/* m's part of an exposition: its sums (borrowed, as m is) and its latest sample's system figures. */
void metrics_part(const struct metrics *m, struct om_part *out);

/* --textfile of several hosts' parts: path borrowed; NULL when out of memory. */
struct metrics_file;
struct metrics_file *metrics_file_new(const char *path);
void metrics_file_free(struct metrics_file *f);
/* Replaces the file with one exposition of the parts (the text format).
 * Returns 0, or -1 with a message (translated, malloc'd) in *err. */
int metrics_file_write(struct metrics_file *f, const struct om_part *parts, size_t n, char **err);

/*
 * One sample: cur after delta_apply(prev, cur). Writes the text file (when
 * asked for) and appends the OpenMetrics exposition to om_out (when not
 * NULL). Returns 0, or -1 with a message (translated, malloc'd) in *err.
 */
int metrics_sample(struct metrics *m, const struct snapshot *prev, const struct snapshot *cur, struct buf *om_out,
		   char **err);

#endif
