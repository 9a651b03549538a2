/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel gives every process a CPU clock (clock id (~pid << 3) | 2, what
 * clock_getcpuclockid() returns): its threads' runtime, the ended ones'
 * included, exact at the read. One syscall, no file, no privilege.
 */
#include "sample/proc/cpuclock.h"

#include <time.h>
#include <unistd.h>

/* A read whose bracketing monotonic reads lie further apart was preempted
 * in between: its time is uncertain by that much, so it is read again. */
#define CPUCLOCK_SLACK_S 50e-6
#define CPUCLOCK_TRIES 4

static double mono_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int cpuclock_read(pid_t pid, int64_t *ns, double *when)
{
	clockid_t id = (clockid_t)((~(unsigned)pid << 3) | 2);
	double best = -1;
	for (int i = 0; i < CPUCLOCK_TRIES; i++) {
		struct timespec t;
		double t0 = mono_now();
		if (clock_gettime(id, &t) != 0)
			return -1;
		double t1 = mono_now();
		/* the narrowest bracket wins: a preempted read would stretch
		 * the interval it is divided by, or shrink it */
		if (best < 0 || t1 - t0 < best) {
			best = t1 - t0;
			*ns = (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
			*when = (t0 + t1) / 2;
		}
		if (best <= CPUCLOCK_SLACK_S)
			break;
	}
	return 0;
}

int cpuclock_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}
