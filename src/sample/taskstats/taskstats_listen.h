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

#include "model/task.h"
#include "sample/taskstats/taskstats_parse.h"

/* The counters an exit record carries of a task or of its group: what keeps sums exact. */
struct ts_final {
	int64_t nvcsw, nivcsw, utime_us, stime_us, cpu_ns; /* TV_UNKNOWN when absent */
	int64_t delay_count[TV_DELAY_NCLASS], delay_ns[TV_DELAY_NCLASS];
};

/*
 * One exit record as kept until a refresh takes it: what the sampler uses of
 * the kernel's message and no more (an exit storm queues tens of thousands).
 * A record whose process ended with it takes two entries of an array: the
 * second, with pid 0, holds the group's totals (ts_exit_group). Most records
 * have none, and an entry is half what it would be with room for them.
 */
struct ts_exit_rec {
	double mono;          /* CLOCK_MONOTONIC seconds when it was received */
	int32_t pid;          /* the thread that exited; 0: the entry of the group's totals */
	int32_t tgid;         /* its process; 0 on kernels before 5.19 */
	int32_t end_tgid;     /* > 0 when the process ended with it: the next entry holds the group's totals */
	int32_t ppid;         /* 0 when absent */
	int64_t uid;          /* TV_UNKNOWN when absent */
	int64_t etime_us;     /* the thread's age at its exit; TV_UNKNOWN when absent */
	/* the thread's start and its process's, CLOCK_BOOTTIME ns (stat's start
	 * time, exact), and its cgroup v2 group's id (the directory's inode):
	 * the BPF exit program's; 0 when not known (taskstats has none) */
	uint64_t start_boot_ns, leader_boot_ns, cgroup_id;
	char comm[33];        /* raw, NUL-terminated */
	struct ts_final r;    /* the thread's own final counters */
};

/* Entries the record at rec takes: 2 with the group's totals. */
static inline size_t ts_exit_entries(const struct ts_exit_rec *rec)
{
	return rec->end_tgid > 0 ? 2 : 1;
}

/* The group's totals of a record with end_tgid > 0. */
static inline const struct ts_final *ts_exit_group(const struct ts_exit_rec *rec)
{
	return &rec[1].r;
}

/* The entries of one decoded exit message, received at mono: ts_exit_entries(out) of them. */
void ts_exit_rec_from(struct ts_exit_rec *out, const struct ts_exit_msg *m, double mono);

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
 * Points *out at the records received since the last call and returns how
 * many entries hold them (ts_exit_entries). They are lent: the caller gives
 * them back with ts_listen_give_back before it takes again. They are every
 * record the kernel sent before the call (a thread's is sent before it
 * leaves task/ and before a query of it fails), unless a storm of exits left
 * more than a bounded read waiting.
 * At most TS_LISTEN_KEEP entries wait between two calls: the listener drops
 * what comes beyond. *lost is set to the records dropped since the last call,
 * by the listener, plus the times the kernel dropped some (each time one or
 * more, of a number it does not say).
 */
#define TS_LISTEN_KEEP 32768
size_t ts_listen_take(struct ts_listener *l, struct ts_exit_rec **out, uint64_t *lost);
/* Ends the loan of the last take's records (NULL: none), whose room the listener reuses. */
void ts_listen_give_back(struct ts_listener *l, struct ts_exit_rec *recs);

#endif
