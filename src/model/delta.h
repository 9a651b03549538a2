/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rates over the interval between two snapshots. */
#ifndef TV_MODEL_DELTA_H
#define TV_MODEL_DELTA_H

#include <stdint.h>

#include "model/column.h"
#include "model/snapshot.h"

/* Per-second rate of a counter; NaN when unknown, when the counter went
 * backwards (a new task under an old ID), or for a non-positive interval. */
double delta_rate(int64_t prev, int64_t cur, double interval);
/* Delay time in the interval as % of it (ns counters). */
double delta_delay_pct(int64_t prev_ns, int64_t cur_ns, double interval);
/* Average delay per event in the interval, ms; NaN when no event. */
double delta_delay_avg_ms(int64_t prev_count, int64_t cur_count, int64_t prev_ns, int64_t cur_ns);

/* The largest step a delay total of ntasks tasks can take when the oldest
 * is age seconds old (a wait is added whole when it ends: it can have begun
 * at the task's start); INFINITY when the age is unknown. */
double delta_delay_bound(double age, double ntasks, double hz);

/* Fills the derived fields of cur (cpu_pct, rates, delay %, plugin counter
 * rates) from prev. prev may be NULL: everything derived stays unknown. */
void delta_apply(const struct snapshot *prev, struct snapshot *cur, const struct colset *cs);

#endif
