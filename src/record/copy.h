/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copies of recorded samples, and what the samples between two of them add. */
#ifndef TV_RECORD_COPY_H
#define TV_RECORD_COPY_H

#include "record/sample.h"

/* A deep copy (shared: user names and the strings rec_sample points to).
 * Derived values and rejected steps are not copied. Returns 0 or -1. */
int rec_sample_copy(struct rec_sample *dst, const struct rec_sample *src);

/*
 * Adds to cur what mid, a sample between the two of a longer interval,
 * recorded of tasks that ended: its exited threads (under cur's process when
 * it still lives), its ended processes, the rate bounds of its processes and
 * its exit-record counts. A task is its TID and start: what cur already
 * lists wins, and of what mid lists twice, the later. Linear in the tasks.
 * Returns 0 or -1.
 */
int rec_merge_ended(struct rec_sample *cur, const struct rec_sample *mid);

/*
 * Collects into acc what mid recorded of tasks that ended, for a later
 * rec_merge_ended(cur, acc): acc's processes are stand-ins (id, start, rate
 * bounds, exited threads), in any order; acc keeps every record, in order,
 * and rec_merge_ended the last of each task. Start acc zeroed, exits_watched
 * true and npvals as the samples'. Returns 0 or -1.
 */
int rec_ended_collect(struct rec_sample *acc, const struct rec_sample *mid);

#endif
