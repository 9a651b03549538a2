/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-system figures for the interactive header: CPU time, memory, load,
 * uptime. Parsers are pure functions over a buffer; system_read() reads /proc. */
#ifndef TV_SAMPLE_SYSTEM_H
#define TV_SAMPLE_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Cumulative CPU time of one line of /proc/stat, in clock ticks. */
struct sys_cpu {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* Share of the interval spent in each state, 0..1; total is everything but idle and iowait. */
struct sys_cpu_use {
	double user, nice, system, other, total;
};

/* KiB, as in /proc/meminfo; -1 when the line is missing. */
struct sys_mem {
	int64_t total, free, available, buffers, cached, swap_total, swap_free;
};

struct sys_info {
	struct sys_cpu all;
	struct sys_cpu *cpu; /* one per "cpuN" line, in order */
	size_t ncpu;
	struct sys_mem mem;
	double load[3];      /* negative when unknown */
	double uptime;       /* seconds; negative when unknown */
};

/* Parses /proc/stat's cpu lines. Returns 0, or -1 when there is no "cpu " line
 * or out of memory. out->cpu is malloc'd (free with system_free). */
int system_parse_stat(const char *buf, struct sys_info *out);
/* Parses the "cpu " line that begins /proc/stat (the sum of every CPU), and
 * nothing after it: returns 0, or -1 when buf does not begin with one. */
int system_parse_cpu_all(const char *buf, struct sys_cpu *out);
/* Ticks in which tasks of the machine ran: user, nice, system, irq and
 * softirq (not idle, iowait or steal). */
uint64_t system_cpu_busy(const struct sys_cpu *c);
/* Parses /proc/meminfo; always succeeds, missing lines stay -1. */
void system_parse_meminfo(const char *buf, struct sys_mem *out);
/* Bounds of what the parsers accept. The kernel's load average is a count
 * of tasks (pid_max is at most 4,194,304); an uptime beyond 10^12 s (31,000
 * years) is not a clock. Both keep a value inside a long and the header's
 * arithmetic defined. */
#define SYSTEM_LOAD_MAX 1e7
#define SYSTEM_UPTIME_MAX 1e12

/* "0.10 0.20 0.30 1/123 4567": returns 0, or -1 for anything but three
 * decimals from 0 to SYSTEM_LOAD_MAX (no "inf", "nan", hex or exponent). */
int system_parse_loadavg(const char *buf, double load[3]);
/* "12345.67 890.12": returns 0, or -1 unless the first field is a decimal
 * from 0 to SYSTEM_UPTIME_MAX. */
int system_parse_uptime(const char *buf, double *seconds);

/* Usage between two readings; all zero when no time passed. */
void system_cpu_use(const struct sys_cpu *prev, const struct sys_cpu *cur, struct sys_cpu_use *out);

/* Reads every file; what cannot be read stays unknown. */
void system_read(struct sys_info *out);
void system_free(struct sys_info *s);

#endif
