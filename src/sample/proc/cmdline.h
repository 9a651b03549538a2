/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command lines, cached by (pid, start time) and read off the sampling path:
 * reading /proc/PID/cmdline takes the target's memory-map lock, so a stuck
 * process could stall whoever reads it. Workers read; callers never wait
 * longer than they choose to.
 */
#ifndef TV_SAMPLE_CMDLINE_H
#define TV_SAMPLE_CMDLINE_H

#include <stdbool.h>
#include <stdint.h>

struct cmdline_cache;

/* procfd: an open /proc; the cache keeps a copy of its own (a worker stuck
 * in a read may outlive cmdline_free). NULL when out of memory or descriptors. */
struct cmdline_cache *cmdline_new(int procfd);
void cmdline_free(struct cmdline_cache *c);

enum cmdline_state {
	CMDLINE_PENDING, /* not read yet: asked for */
	CMDLINE_READY,   /* *out is the command line (NULL when it is empty: kernel threads, zombies) */
	CMDLINE_GONE,    /* the task is gone or unreadable (no permission): no command line to show */
};

/*
 * The command line of the task (pid, start). Never blocks: a missing entry is
 * asked for and PENDING returned; an entry older than max_age seconds, or read
 * while the task had another name (comm, so an exec shows at once), is
 * returned as it is and read again in the background. *out is a malloc'd
 * copy (the caller frees it) or NULL. *cut is set when it was longer than
 * taskview reads (64 KiB).
 */
enum cmdline_state cmdline_get(struct cmdline_cache *c, int32_t pid, uint64_t start, const char *comm,
			       double max_age, char **out, bool *cut);

/* Reads the command line of (pid, start) from its thread tid from now on: the
 * leader exited before its other threads and has none. */
void cmdline_read_from(struct cmdline_cache *c, int32_t pid, uint64_t start, int32_t tid);

/* Waits until nothing asked for is pending, or timeout seconds passed. Returns true when nothing is pending. */
bool cmdline_wait(struct cmdline_cache *c, double timeout);

/* Forgets entries not asked for since the previous sweep. */
void cmdline_sweep(struct cmdline_cache *c);

/* How many reads the workers did (for cost accounting). */
uint64_t cmdline_reads(struct cmdline_cache *c);

#endif
