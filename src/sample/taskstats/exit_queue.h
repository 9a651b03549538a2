/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exit records between the thread that gathers them (the netlink listener's,
 * the BPF ring's) and the refresh that takes them. Each call is made under
 * the owner's lock. Ownership: the array is the queue's, lent to the refresh
 * from take to give_back, and kept from refresh to refresh (a fresh one would
 * fault in megabytes each refresh of an exit storm) unless a storm that
 * ended leaves it mostly empty.
 */
#ifndef TV_SAMPLE_EXIT_QUEUE_H
#define TV_SAMPLE_EXIT_QUEUE_H

#include <stddef.h>

#include "sample/taskstats/taskstats_listen.h"

struct exit_queue {
	struct ts_exit_rec *q;   /* filling */
	size_t n, cap;
	size_t lent_n, lent_cap; /* the records a take lent out, and their room */
};

/* Room for need more entries at the end, counted in: NULL when the queue
 * holds TS_LISTEN_KEEP already, or out of memory (the record is lost). */
struct ts_exit_rec *exit_queue_push(struct exit_queue *x, size_t need);

/* Lends the entries to the caller (*out; NULL when none), and returns how many. */
size_t exit_queue_take(struct exit_queue *x, struct ts_exit_rec **out);

/* Takes back what a take lent. Returns what the caller frees after its
 * lock: the array kept is not. */
struct ts_exit_rec *exit_queue_give_back(struct exit_queue *x, struct ts_exit_rec *recs);

void exit_queue_free(struct exit_queue *x);

#endif
