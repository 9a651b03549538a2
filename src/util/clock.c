/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/clock.h"

double clock_now(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

ssize_t clock_timed_read(ssize_t (*read)(void *ctx), void *ctx, double *when, unsigned *again)
{
	*again = 0;
	for (;;) {
		double t0 = clock_now(CLOCK_MONOTONIC);
		ssize_t n = read(ctx);
		double t1 = clock_now(CLOCK_MONOTONIC);
		*when = (t0 + t1) / 2;
		if (n < 0 || t1 - t0 <= CLOCK_READ_SLACK_S || *again + 1 == CLOCK_READ_TRIES)
			return n;
		++*again;
	}
}
