/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pure decoding of taskstats netlink replies; rates over an interval are model/delta.h's. */
#ifndef TV_SAMPLE_TASKSTATS_PARSE_H
#define TV_SAMPLE_TASKSTATS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/task.h"
#include "sample/proc/kconfig.h"

/* One delay class as the kernel reports it. */
struct ts_delay {
	int64_t count, total_ns, max_ns, min_ns;
};

/* The fields taskview uses from one struct taskstats; TV_UNKNOWN when absent. */
struct ts_result {
	uint16_t version;
	int64_t nvcsw, nivcsw;          /* TV_UNKNOWN when absent */
	int64_t utime_us, stime_us;
	int64_t cpu_ns;                 /* CPU time, ns: cpu_run_virtual_total, the scheduler's
	                                 * exact sum_exec_runtime (cpu_run_real_total is
	                                 * utime + stime, sampled at clock ticks) */
	int64_t etime_us;               /* the task's age at the reply, µs */
	int32_t pid, tgid;              /* 0 when absent (tgid: before v12; both: group replies) */
	int32_t ppid;                   /* 0 when absent */
	int64_t uid;                    /* real uid; TV_UNKNOWN when absent */
	char comm[33];                  /* raw, NUL-terminated; "" in group replies */
	struct ts_delay delay[TV_DELAY_NCLASS]; /* TV_UNKNOWN if the version lacks it or payload too short */
};

/* Sets every field to unknown. */
void ts_result_init(struct ts_result *out);

/*
 * Decodes one TASKSTATS_TYPE_STATS payload of len bytes (any alignment).
 * Offsets follow the payload's own version, never the installed header; a
 * field is trusted only if it exists in that version and ends inside len.
 * Counters above INT64_MAX cannot be represented and become TV_UNKNOWN.
 * min_ns is 0 while the class has seen no non-zero delay (kernel convention).
 * Returns 0, or -1 (every field TV_UNKNOWN) when len cannot hold the version
 * or the version predates the layout fixed in 2.6.27 (v7).
 */
int ts_parse_stats(const void *payload, size_t len, struct ts_result *out);

enum ts_msg_kind {
	TS_MSG_STATS,   /* id, is_tgid and r are set */
	TS_MSG_ERROR,   /* NLMSG_ERROR: error is a positive errno, 0 for an ACK */
	TS_MSG_INVALID, /* our family, but without usable stats */
	TS_MSG_OTHER,   /* another type (NOOP, DONE, other family): ignore */
};

struct ts_reply {
	enum ts_msg_kind kind;
	uint32_t seq;
	int error;
	int32_t id;
	bool is_tgid;
	struct ts_result r;
};

/*
 * Decodes the netlink message at the start of buf (nlmsghdr, genlmsghdr,
 * then AGGR_PID / AGGR_TGID nests holding PID / TGID and STATS; NULL padding
 * and unknown attributes are skipped). family is the resolved TASKSTATS id.
 * Group (TGID) replies get max_ns/min_ns TV_UNKNOWN: the kernel sums counts
 * and totals over the threads but not the extremes.
 * Returns the bytes the message occupies (to step to the next one), or -1
 * when buf does not start with a well-formed message.
 */
ssize_t ts_parse_msg(const void *buf, size_t len, uint16_t family, struct ts_reply *out);

/* One exit record as the kernel sends it to registered listeners. */
struct ts_exit_msg {
	int32_t pid;          /* the thread that exited */
	struct ts_result r;   /* its final counters */
	int32_t tgid;         /* > 0 when the record also carries the group's totals: */
	struct ts_result g;   /* the last thread of tgid exited (max/min unknown) */
};

/*
 * Decodes the exit record at the start of buf (a TASKSTATS_CMD_NEW message
 * of family holding an AGGR_PID nest and, for a group's last thread, an
 * AGGR_TGID nest). Returns the bytes the message occupies, or -1 when buf does
 * not start with a well-formed message; *is_exit tells whether it was an exit
 * record with a thread's stats.
 */
ssize_t ts_parse_exit(const void *buf, size_t len, uint16_t family, struct ts_exit_msg *out, bool *is_exit);

/*
 * Writes a request registering (reg true) or deregistering the sending socket
 * for exit records from the CPUs in cpulist ("0-3"), asking for an ACK.
 * Returns its length, or 0 if size is too small.
 */
size_t ts_build_listen(void *buf, size_t size, uint16_t family, uint32_t seq, const char *cpulist, bool reg);

/*
 * Writes one TASKSTATS_CMD_GET request for a TID (tgid false) or a thread
 * group into buf, without asking for an ACK. Returns its length, which is
 * already aligned so requests can be packed back to back, or 0 if size is
 * too small.
 */
size_t ts_build_request(void *buf, size_t size, uint16_t family, uint32_t seq,
			int32_t id, bool tgid);

/* Delay accounting as the kernel has it: switched on, off, or not at all. */
enum ts_acct { TS_ACCT_ON, TS_ACCT_OFF, TS_ACCT_ABSENT };

/* Whether word is one of the parameters of a kernel command line. */
bool ts_cmdline_has(const char *cmdline, const char *word);

/*
 * Delay accounting on a kernel without the kernel.task_delayacct switch.
 * Before 5.14 there was none: where built in, delay accounting was on from
 * boot unless the command line said nodelayacct. From 5.14 on, a missing
 * switch means a kernel built without it. release: uname's ("5.10.0-28-amd64");
 * built: CONFIG_TASK_DELAY_ACCT as far as the kernel's config tells.
 */
enum ts_acct ts_acct_without_switch(const char *release, const char *cmdline, enum kconfig_answer built);

#endif
