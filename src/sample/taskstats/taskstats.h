/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-task delay accounting through the kernel's taskstats netlink family. */
#ifndef TV_SAMPLE_TASKSTATS_H
#define TV_SAMPLE_TASKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample/taskstats/taskstats_parse.h"

enum ts_state { TS_ON, TS_OFF, TS_NO_PERMISSION, TS_UNSUPPORTED };

/* One socket and its state; not safe to share between threads. */
struct ts_client;

/*
 * Never NULL unless out of memory. Resolves the TASKSTATS family once and
 * probes permission with one query of our own pid; whatever goes wrong is
 * reported by ts_state() and ts_message(), not here.
 */
struct ts_client *ts_open(void);
void ts_close(struct ts_client *c);

/* ON/OFF follow /proc/sys/kernel/task_delayacct as read at open or by ts_refresh_state(). */
enum ts_state ts_state(const struct ts_client *c);
void ts_refresh_state(struct ts_client *c);

/* "on", "off", "no-permission", "unsupported": stable names for scripts, not translated */
const char *ts_state_name(enum ts_state s);

/* One translated line for the user; "" when on. */
const char *ts_message(const struct ts_client *c);

struct ts_query {
	int32_t id;   /* TID, or TGID when tgid */
	bool tgid;    /* sum of the whole thread group (see ts_group_counts_exited) */
	bool ok;      /* out: r is valid */
	double mono;  /* out: CLOCK_MONOTONIC seconds when the kernel filled r */
	struct ts_result r;
};

/*
 * Whether a group (TGID) reply's switch counts include threads that have
 * exited. Kernels differ (see the kernel notes in docs/columns.md): it is
 * measured once at open, with a short-lived thread of taskview's own. false
 * when unknown.
 */
bool ts_group_counts_exited(const struct ts_client *c);

/*
 * Whether a group reply's CPU time (ts_result.cpu_ns) counts every thread
 * the process had, exited ones included: measured the same way at open.
 * false when unknown.
 */
bool ts_group_cpu(const struct ts_client *c);

/*
 * Boot-time clock ticks at which taskview saw kernel.task_delayacct switch
 * on while it ran; tasks that started before that report zeros for every
 * class but cpu. 0 when it never saw the switch off.
 */
uint64_t ts_acct_on_since(const struct ts_client *c);

struct ts_request {
	int32_t id;   /* TID, or TGID when tgid */
	bool tgid;
};

/* Receives the reply to req[i] (masked as ts_query_batch says), read by the kernel at mono. */
typedef void (*ts_reply_fn)(void *ctx, size_t i, struct ts_result *r, double mono);

/*
 * Queries n tasks, pipelined, and hands each reply to fn as it arrives (in
 * any order; a task that vanished gets no call). Keeps no result itself, so
 * tens of thousands of queries cost no memory beyond the requests. Returns
 * 0, or -1 when the client cannot query or the socket fails (calls made
 * before stand).
 */
int ts_query_each(struct ts_client *c, const struct ts_request *req, size_t n, ts_reply_fn fn, void *ctx);

/*
 * Queries n tasks, pipelined, and fills q[i].ok and q[i].r. A task that
 * vanished gets ok=false quietly. Classes other than cpu are TV_UNKNOWN while
 * the switch is off (their counters are not moving), and every class is
 * when the kernel lacks delay accounting. Never blocks for long: stragglers
 * are given up as not ok. Returns 0, or -1 (all not ok) when the client
 * cannot query or the socket fails.
 */
int ts_query_batch(struct ts_client *c, struct ts_query *q, size_t n);

/*
 * For tests and measurements: asks for a receive buffer of rcvbuf bytes
 * (0 keeps it) and allows window requests in flight (0 derives it from the
 * buffer). Returns the receive buffer the kernel granted, or -1.
 */
int ts_tune(struct ts_client *c, int rcvbuf, size_t window);

#endif
