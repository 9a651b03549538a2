/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clock readings in seconds. */
#ifndef TV_UTIL_CLOCK_H
#define TV_UTIL_CLOCK_H

#include <sys/types.h>
#include <time.h>

/* Seconds on clock id (CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME). */
double clock_now(clockid_t id);

/*
 * A read of counters a rate is taken from, timed: *when is the middle of the
 * read (CLOCK_MONOTONIC), as the kernel prints the counters at some point
 * inside it and a rate divides by the time between two reads. A read that
 * took longer than CLOCK_READ_SLACK_S (held up: preempted on a busy machine)
 * is taken again, up to CLOCK_READ_TRIES reads; *again counts those. Returns
 * what read returned (negative: an error, not taken again).
 */
#define CLOCK_READ_SLACK_S 1e-3 /* the time then known within half of it: 0.5 % of a 0.1 s interval */
#define CLOCK_READ_TRIES 4
ssize_t clock_timed_read(ssize_t (*read)(void *ctx), void *ctx, double *when, unsigned *again);

#endif
