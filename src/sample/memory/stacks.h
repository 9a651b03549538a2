/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each thread's stack: the mapping that holds it, and its resident pages (NEED_STACK). */
#ifndef TV_SAMPLE_STACKS_H
#define TV_SAMPLE_STACKS_H

#include <stdbool.h>

struct sampler;
struct tracked_proc;
struct tv_task;

/*
 * Fills stack_size and stack_rss of p's threads (p->threads, read this
 * refresh) and their sums on p: partial when some thread's is unknown,
 * unknown when none is known, and p->stack_why says why.
 */
void stacks_read(struct sampler *s, struct tracked_proc *tp, struct tv_task *p);

/* Whether no thread of tp ran since its stacks were last read (its CPU
 * time is the same): none started or ended either. */
bool stacks_quiet(const struct tracked_proc *tp);

#endif
