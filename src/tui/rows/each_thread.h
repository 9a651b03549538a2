/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TV_TUI_EACH_THREAD_H
#define TV_TUI_EACH_THREAD_H

#include <stdbool.h>
#include <stdint.h>

/* One thread's change: 0, or an errno. */
typedef int (*tui_thread_fn)(int32_t tid, const void *arg);

/*
 * Applies fn to every thread of process pid (a nice value or an affinity
 * belongs to a thread), or to pid alone where its thread list cannot be
 * read. Returns 0, the first error other than ESRCH (a thread that just
 * ended is no failure), or ESRCH when no thread was reached.
 */
int tui_each_thread(int32_t pid, tui_thread_fn fn, const void *arg);

/* Whether thread tid of process tgid is still the task that was sampled with
 * start time start (its stat, read now: a TID reused by a new task has
 * another). true when start is TV_START_UNKNOWN (nothing to compare). */
bool tui_task_same(int32_t tgid, int32_t tid, uint64_t start);

#endif
