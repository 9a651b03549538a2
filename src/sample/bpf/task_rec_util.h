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
/* Start in clock ticks after boot, as /proc's stat field 22 (hz: its clock tick). */
uint64_t task_rec_start_ticks(const struct task_rec *r, long hz);
/* Sorts by (tgid, tid); an already sorted array (the kernel's order) is only checked. */
void task_rec_sort(struct task_rec *v, size_t n);
/* The run of group tgid in a sorted array; *cnt of them. */
const struct task_rec *task_rec_group(const struct task_rec *v, size_t n, int tgid, size_t *cnt);
/*
 * A thread's counters from its record, read at mono: CPU time, CPU wait,
 * switches, state, nice, priority, start and name; the other delays when
 * the kernel keeps them for the task (else unknown).
 */
void task_rec_fill(const struct task_rec *r, struct tv_task *t, long hz, double mono);

#endif
