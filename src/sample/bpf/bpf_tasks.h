/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF task-iterator reader: every task of the machine in one pass, in
 * kernel space, instead of a few /proc files and a taskstats query per
 * thread. Optional: without libbpf at build time, or a kernel without BTF,
 * or without CAP_BPF and CAP_PERFMON, opening fails and /proc is read.
 */
#ifndef TV_SAMPLE_BPF_BPF_TASKS_H
#define TV_SAMPLE_BPF_BPF_TASKS_H

#include <stdbool.h>
#include <stddef.h>

#include "sample/bpf/task_rec.h"
#include "sample/bpf/task_rec_util.h"

struct bpf_tasks;

/*
 * Loads and attaches the iterator. NULL when it cannot run here; *why then
 * says why (static, translated text).
 */
struct bpf_tasks *bpf_tasks_open(const char **why);
/* Whether taskview runs in the initial PID namespace, whose IDs BPF programs see. */
bool bpf_initial_pid_ns(void);
void bpf_tasks_free(struct bpf_tasks *b);

/*
 * One pass over every task, kept until the next pass. Returns the number of
 * tasks, or -errno (the previous pass is gone then). *mono: CLOCK_MONOTONIC
 * seconds at the middle of the pass.
 */
long bpf_tasks_read(struct bpf_tasks *b, double *mono);

/* The keys of thread group tgid's tasks in the last pass, by TID; *n of them (0: none). Owned by b. */
const struct task_rec_key *bpf_tasks_group(const struct bpf_tasks *b, int tgid, size_t *n);
/* The record a key of the last pass names. */
const struct task_rec *bpf_tasks_rec(const struct bpf_tasks *b, const struct task_rec_key *k);

#endif
