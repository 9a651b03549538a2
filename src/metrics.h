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
#include "model/snapshot.h"
#include "util/buf.h"

/* What the sampler must read for the metrics (enum col_need bits). */
unsigned metrics_needs(void);

struct metrics;

/* NULL when out of memory. */
struct metrics *metrics_new(const struct cli_opts *o);
void metrics_free(struct metrics *m);
/* Every series of m labelled host="HOST" from now on; host is borrowed for m's life. */
void metrics_label_host(struct metrics *m, const char *host);

/*
 * One sample: cur after delta_apply(prev, cur). Writes the text file (when
 * asked for) and appends the OpenMetrics exposition to om_out (when not
 * NULL). Returns 0, or -1 with a message (translated, malloc'd) in *err.
 */
int metrics_sample(struct metrics *m, const struct snapshot *prev, const struct snapshot *cur, struct buf *om_out,
		   char **err);

#endif
