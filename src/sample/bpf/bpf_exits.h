/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exit records from a BPF program on the sched_process_exit tracepoint: the
 * final counters of every task that exits, as the taskstats exit listener
 * gives them, read from a ring buffer (drained every 20 ms by a thread of
 * its own and at each refresh) instead of one netlink message per exit.
 * Optional: without libbpf
 * at build time, a kernel without BTF or the tracepoint's group_dead
 * argument, or without CAP_BPF and CAP_PERFMON, opening fails and the
 * listener runs instead.
 */
#ifndef TV_SAMPLE_BPF_BPF_EXITS_H
#define TV_SAMPLE_BPF_BPF_EXITS_H

#include <stddef.h>
#include <stdint.h>

#include "sample/taskstats/taskstats_listen.h"

struct bpf_exits;

/* Loads and attaches the program. NULL when it cannot run here; *why then says why (static, translated). */
struct bpf_exits *bpf_exits_open(const char **why);
void bpf_exits_free(struct bpf_exits *b);

/*
 * As ts_listen_take: points *out at the records of every exit since the
 * last call, as ts_exit_rec entries (ts_exit_entries), lent until
 * bpf_exits_give_back. At most TS_LISTEN_KEEP entries: what is beyond is
 * dropped and counted in *lost, with what the ring had no room for.
 */
size_t bpf_exits_take(struct bpf_exits *b, struct ts_exit_rec **out, uint64_t *lost);
void bpf_exits_give_back(struct bpf_exits *b, struct ts_exit_rec *recs);

#endif
