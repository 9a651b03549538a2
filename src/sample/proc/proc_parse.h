/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pure parsers for /proc files: functions over a buffer, no I/O. */
#ifndef TV_SAMPLE_PROC_PARSE_H
#define TV_SAMPLE_PROC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/task.h"

struct proc_stat {
	int32_t pid;
	char comm[TV_COMM_MAX]; /* raw bytes between the first '(' and the last ')' */
	char state;
	int32_t ppid;
	uint64_t flags;         /* PF_*: PROC_PF_KTHREAD marks a kernel thread */
	uint64_t minflt, majflt; /* page faults of the whole process, ended threads included */
	uint64_t utime, stime;  /* clock ticks */
	int32_t prio, nice;
	int64_t nthreads;
	uint64_t start_ticks;   /* since boot */
};

/* include/linux/sched.h: the task is a kernel thread */
#define PROC_PF_KTHREAD 0x00200000ULL

/* Parses /proc/PID/stat or /proc/PID/task/TID/stat. Returns 0, or -1 when malformed. */
int proc_parse_stat(const char *buf, size_t len, struct proc_stat *out);

struct proc_status {
	char name[TV_COMM_MAX]; /* unescaped Name: ("\n" and "\\" decoded) */
	char state;
	int64_t tgid, ppid, euid, threads;
	int64_t vm_size, vm_rss, vm_pte, vm_swap, vm_stk, vm_hwm; /* KiB */
	int64_t rss_anon, rss_file, rss_shmem; /* KiB: VmRSS split */
	int64_t ctxt_vol, ctxt_invol;
};

/* Parses /proc/PID/status. Fields absent from the buffer are TV_UNKNOWN
 * (kernel threads and zombies have no Vm* lines). Returns 0, or -1 when the
 * buffer has no Name: line. */
int proc_parse_status(const char *buf, size_t len, struct proc_status *out);

/* /proc/PID/schedstat (or task/TID/schedstat): one task's CPU time, its
 * run-queue wait (what taskstats calls cpu_delay_total) and how often it ran. */
struct proc_schedstat {
	int64_t runtime_ns, run_delay_ns, pcount;
};

/* Returns 0, or -1 when malformed (every field TV_UNKNOWN). */
int proc_parse_schedstat(const char *buf, size_t len, struct proc_schedstat *out);

/* /proc/PID/io: the bytes the process (every thread, dead ones included)
 * fetched from storage and sent towards it (counted when pages are dirtied). */
struct proc_io {
	int64_t read_bytes, write_bytes;
};

/* Returns 0, or -1 when either line is missing or malformed (both TV_UNKNOWN). */
int proc_parse_io(const char *buf, size_t len, struct proc_io *out);

/* Ends a command line that was cut. */
#define PROC_CMDLINE_CUT_MARK "..."

/* Joins the NUL-separated arguments of /proc/PID/cmdline with spaces into out
 * (cap bytes, always NUL-terminated). whole: buf holds the whole file (false
 * when the read filled its buffer, so more may follow). When the arguments do
 * not fit or buf is not whole, out ends with PROC_CMDLINE_CUT_MARK (room
 * permitting, never splitting a UTF-8 character) and *cut is set (cut may be
 * NULL). Returns the length written; 0 for an empty command line (kernel
 * threads, zombies). */
size_t proc_parse_cmdline(const char *buf, size_t len, bool whole, char *out, size_t cap, bool *cut);

#endif
