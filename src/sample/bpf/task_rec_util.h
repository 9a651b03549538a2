/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pure helpers over task_rec arrays: /proc's view of a raw record, order and lookup. */
#ifndef TV_SAMPLE_BPF_TASK_REC_UTIL_H
#define TV_SAMPLE_BPF_TASK_REC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "model/task.h"
#include "sample/bpf/task_rec.h"

/* The state letter /proc shows for the raw state and exit_state ("RSDTtXZPI"). */
char task_rec_state(const struct task_rec *r);
/* Nanoseconds after boot in clock ticks, as /proc's stat field 22 gives a start (hz: its clock tick). */
uint64_t boot_ns_ticks(uint64_t ns, long hz);
/* A record's start in clock ticks after boot. */
uint64_t task_rec_start_ticks(const struct task_rec *r, long hz);
/* Where a record is, by group and thread: sorting these moves 12 bytes a task, not the record. */
struct task_rec_key {
	int tgid, tid;
	unsigned int idx;  /* in the records as read */
};

/* keys[i] for v[i], sorted by (tgid, tid). */
void task_rec_index(const struct task_rec *v, size_t n, struct task_rec_key *keys);
/* The run of group tgid in sorted keys; *cnt of them (NULL, 0: none). */
const struct task_rec_key *task_rec_group(const struct task_rec_key *keys, size_t n, int tgid, size_t *cnt);
/* The key of thread tid in a group's run, or NULL. */
const struct task_rec_key *task_rec_thread(const struct task_rec_key *run, size_t n, int tid);
/*
 * A thread's counters from its record, read at its own time (mono when the
 * record has none): CPU time, CPU wait,
 * switches, state, nice, priority, start and name; the other delays when
 * the kernel keeps them for the task (else unknown).
 */
void task_rec_fill(const struct task_rec *r, struct tv_task *t, long hz, double mono);

#endif
