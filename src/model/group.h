/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sums over a group of processes (a collapsed subtree of the process tree):
 * CPU, context switches and delays, with the model's rule for lower bounds. */
#ifndef TV_MODEL_GROUP_H
#define TV_MODEL_GROUP_H

#include <stddef.h>

#include "model/snapshot.h"
#include "model/task.h"

/* One summed quantity: the sum of the members that are known, how many are
 * known, and whether one is unknown or itself a lower bound. */
struct group_acc {
	double sum;
	size_t known;
	bool short_of; /* a member is unknown or a lower bound: the sum is a lower bound */
};

struct group_sum {
	struct group_acc cpu;
	struct group_acc ctxt_vol, ctxt_invol;
	struct group_acc ctxt_vol_rate, ctxt_invol_rate;
	struct group_acc io_read_rate, io_write_rate;
	struct group_acc delay_pct[TV_DELAY_NCLASS];
	/* averages are not sums: the group's is total delay over total events,
	 * events_i = pct_i / avg_i; exact, or unknown when one member's is not */
	double events[TV_DELAY_NCLASS];
	bool avg_unknown[TV_DELAY_NCLASS];
	size_t n;
};

void group_sum_init(struct group_sum *g);
/* Adds one process (its own row values: process rows already sum their threads). */
void group_sum_add(struct group_sum *g, const struct tv_task *t);
/* Adds what a process that ended in the interval did over it (its rates;
 * not a member: the totals are the live members'). */
void group_sum_add_ended(struct group_sum *g, const struct tv_ended *e);
/* Adds the members of src to g, as if each had been added to g itself. */
void group_sum_merge(struct group_sum *g, const struct group_sum *src);
/* Processes of the group that ended in the interval are not among its
 * members: its CPU, switch and delay rates are lower bounds (the totals are
 * those of the live members, and stay as they are). */
void group_sum_short_of_ended(struct group_sum *g);
/* Writes the sums into out (a copy of the group's head process): cpu_pct,
 * ctxt_vol/ctxt_invol, their rates, delay_pct and delay_avg_ms, and the
 * partial bits of those quantities. Every other field is left as it is. */
void group_sum_apply(const struct group_sum *g, struct tv_task *out);
/* Whether a member's I/O rates are known: the row's memory block then carries the sums. */
bool group_sum_has_io(const struct group_sum *g);
/* Writes the I/O rates' sums into m (the row's own block: a copy of a task
 * borrows its process's) and their partial bit into *partial. */
void group_sum_io(const struct group_sum *g, struct tv_mem *m, uint32_t *partial);

#endif
