/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One refresh as a metrics exposition: the system's pressure and exit
 * listener, each group's counters and gauges, and the processes using the
 * most CPU. Names, units and labels are listed in docs/metrics.md. Pure.
 */
#ifndef TV_EXPORT_OPENMETRICS_H
#define TV_EXPORT_OPENMETRICS_H

#include <stddef.h>

#include "export/accum.h"
#include "export/om_format.h"
#include "model/snapshot.h"
#include "util/buf.h"

struct openmetrics_opts {
	enum om_dialect dialect;
	size_t top; /* per-process series for this many processes (by CPU% in the interval) */
};

/* cur: the refresh a was last updated with (after delta_apply). */
void openmetrics_render(struct buf *out, const struct accum *a, const struct snapshot *cur,
			const struct openmetrics_opts *o);

/* The most series one exposition can hold, for top processes and ngroups groups. */
size_t openmetrics_max_series(size_t top, size_t ngroups);

#endif
