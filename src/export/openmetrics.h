/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One refresh as a metrics exposition: the system's pressure and exit
 * listener, each group's counters and gauges, and those of the commands
 * picked (export/pick.h). Names, units and labels are listed in
 * docs/metrics.md. Pure.
 */
#ifndef TV_EXPORT_OPENMETRICS_H
#define TV_EXPORT_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "export/accum.h"
#include "export/om_format.h"
#include "model/snapshot.h"
#include "util/buf.h"

struct openmetrics_opts {
	enum om_dialect dialect;
	const char *host; /* every series labelled host="..." (--host); NULL: none */
};

/* groups: sums per group; commands: sums per command whose picked entries
 * are written, or NULL; both last updated with cur (after delta_apply). */
void openmetrics_render(struct buf *out, const struct accum *groups, const struct accum *commands,
			const struct snapshot *cur, const struct openmetrics_opts *o);

/* What the system's series of a sample show. */
struct om_system {
	double wall;          /* when it was taken (Unix time; NAN: unknown) */
	bool exits_watched;
	struct tv_pressure pressure[TV_RES_N];
};

void om_system_of(const struct snapshot *cur, struct om_system *out);

/* One host's part of an exposition: its sums (commands NULL: none), its
 * latest sample's system figures, its name (NULL: no host label). */
struct om_part {
	const struct accum *groups;
	const struct accum *commands;
	struct om_system sys;
	const char *host;
};

/* An exposition of several hosts' parts: each family once, every host's
 * series in it, labelled host="..." first. Returns -1 when out of memory. */
int openmetrics_render_parts(struct buf *out, const struct om_part *parts, size_t n, enum om_dialect d);

/* The most series one exposition can hold, for top commands and ngroups groups. */
size_t openmetrics_max_series(size_t top, size_t ngroups);

#endif
