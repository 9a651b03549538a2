/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The taskstats exit listener: the final counters of every thread that exits,
 * from the kernel, on a socket and a thread of its own. It is what keeps a
 * process's sums exact across thread exits, and what shows tasks that lived
 * less than one refresh.
 */
#ifndef TV_SAMPLE_TASKSTATS_LISTEN_H
#define TV_SAMPLE_TASKSTATS_LISTEN_H

#include <stddef.h>
#include <stdint.h>

#include "sample/taskstats/taskstats_parse.h"

struct ts_exit_rec {
	double mono;          /* CLOCK_MONOTONIC seconds when it was received */
	struct ts_exit_msg m; /* m.r.tgid is 0 on kernels before 5.19 */
};

struct ts_listener;

/*
 * Registers for exit records from every possible CPU. Returns NULL with *why
 * pointing at a translated reason when that is not possible (no
 * CAP_NET_ADMIN, a pid or user namespace, a kernel without taskstats).
 */
struct ts_listener *ts_listen_start(const char **why);
/* Deregisters and stops. l may be NULL. */
void ts_listen_stop(struct ts_listener *l);

/*
 * Moves the records received since the last call into *out (malloc'd, the
 * caller frees it) and returns how many: every record the kernel sent before
 * the call (a thread's is sent before it leaves task/ and before a query of
 * it fails), unless a storm of exits left more than a bounded read waiting. *lost is set to the number of times
 * the kernel dropped records since the last call (each time one or more).
 */
size_t ts_listen_take(struct ts_listener *l, struct ts_exit_rec **out, uint64_t *lost);

#endif
