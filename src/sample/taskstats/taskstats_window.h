/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bookkeeping of one pipelined taskstats batch, apart from the socket so it can be tested. */
#ifndef TV_SAMPLE_TASKSTATS_WINDOW_H
#define TV_SAMPLE_TASKSTATS_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TSWIN_NONE SIZE_MAX

/*
 * Query i of a batch always travels with sequence number seq_base + i
 * (mod 2^32), so a reply finds its query without a lookup table, and a
 * resent query keeps its number: whichever copy answers first wins.
 */
struct ts_window {
	uint32_t seq_base;
	size_t n;
	size_t limit;     /* most queries in flight at once; halves only on a receive-buffer overflow */
	size_t inflight;
	size_t left;      /* queries neither answered nor given up */
	size_t cursor;    /* no pending query below this index */
	unsigned max_tries;
	unsigned char *slot;  /* per query: pending, in flight, done */
	unsigned char *tries; /* per query: times sent */
};

/* Returns 0, or -1 when out of memory. limit and max_tries are at least 1. */
int tswin_init(struct ts_window *w, size_t n, uint32_t seq_base, size_t limit, unsigned max_tries);
void tswin_free(struct ts_window *w);

/* Takes the next query to send and marks it in flight; TSWIN_NONE when the window is full or none is pending. */
size_t tswin_next(struct ts_window *w);

uint32_t tswin_seq(const struct ts_window *w, size_t i);

/* A final answer (stats or error) arrived: returns the query it settles, or TSWIN_NONE if stale, duplicate or foreign. */
size_t tswin_answer(struct ts_window *w, uint32_t seq);

/* The kernel could not deliver this one answer: send it again unless it has used its tries. Returns the query or TSWIN_NONE. */
size_t tswin_retry(struct ts_window *w, uint32_t seq);

/*
 * Every reply that will ever come has been read and some in-flight queries
 * got none (the receive buffer overflowed, or a wait timed out): they go back
 * to pending, or are given up after max_tries sends. shrink (an overflow)
 * halves the limit so the next round does not overflow again, and the sends
 * lost to it do not count while the limit is above 1. Returns the number
 * given up.
 */
size_t tswin_lost(struct ts_window *w, bool shrink);

/* Gives up every query not yet answered (deadline passed). */
void tswin_abandon(struct ts_window *w);

bool tswin_done(const struct ts_window *w);

#endif
