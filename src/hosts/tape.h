/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording of hosts (taskview --host ... -w FILE) played as the hosts'
 * screen: at a moment of the recording viewer's clock, each host shows the
 * last pair of its samples the viewer had taken by then, as it showed them
 * live: Live, stale with its age once two steps passed without one, or with
 * no sample yet. Its rates are over its own samples' times; the moment moves
 * by a step (d) back and forth, or to a time (J).
 *
 * Ownership: the tape owns each host's reader, which the samples it sets in
 * the fleet borrow strings from: the fleet is freed first.
 */
#ifndef TV_HOSTS_TAPE_H
#define TV_HOSTS_TAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "hosts/fleet.h"
#include "hosts/host_rec.h"
#include "record/reader.h"

struct tape_host {
	struct host_rec rec;
	double interval;         /* its recorded interval */
	unsigned k;              /* the step in its samples */
	size_t i;                /* the sample shown, or SIZE_MAX: none */
	bool again;              /* the step changed: what is shown is set again */
};

struct tape {
	struct tape_host *h;     /* the fleet's hosts, in its order */
	size_t n;
	double step;             /* seconds a step moves (d) */
	double from;             /* --begin, on the recorder's clock (-INFINITY: none) */
	double start, end;       /* the moments that can be shown: the first with a pair at this step, the last taken (--end) */
	rec_warn_fn warn;
	void *warn_ctx;
};

/*
 * The hosts top (a reader of the whole file) names, in f (fleet_open_recorded
 * with cs) and in tp, with each host's reader; a name the host list refuses
 * is told and skipped. Returns 0, 2 after telling that --end is before
 * --begin, or 1 (told): out of memory, or no host can be shown.
 */
int tape_open(struct tape *tp, struct fleet *f, const struct cli_opts *o, const struct rec_reader *top,
	      const struct colset *cs, rec_warn_fn warn, void *ctx);
void tape_free(struct tape *tp);

/* Sets each host's pair, state and age at the moment at (f->at). Returns 1
 * when what is shown changed, 0 when not, -1 out of memory. */
int tape_show(struct tape *tp, struct fleet *f, double at);
/* The first moment after at at which a host's pair changes; INFINITY: none. */
double tape_next(const struct tape *tp, double at);
/* The last moment before at at which a host's pair changed; -INFINITY: none. */
double tape_prev(const struct tape *tp, double at);
/* The step: seconds, which each host's recorded interval divides into a
 * whole number of its samples (rounded, at least one); start moves with it.
 * 0, or -1 when no host has a pair at that step (the step is not changed). */
int tape_set_step(struct tape *tp, double seconds);

#endif
