/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A process's CPU clock: its whole CPU time, exited threads included, in ns. */
#ifndef TV_SAMPLE_CPUCLOCK_H
#define TV_SAMPLE_CPUCLOCK_H

#include <stdint.h>
#include <sys/types.h>

/*
 * Reads the CPU clock of process pid (any process, any user) and when it was
 * read (CLOCK_MONOTONIC seconds, within a few µs). Returns 0, or -1 when the
 * process is gone (or the kernel has no such clock).
 */
int cpuclock_read(pid_t pid, int64_t *ns, double *when);

/* The CPUs online now, at least 1. */
int cpuclock_online_cpus(void);

#endif
