/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tagged tasks (Space, c, U): F9 and renice act on all of them. A tag holds
 * the task's start time too, so a reused PID is never taken for it. */
#ifndef TV_TUI_TAGS_H
#define TV_TUI_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

struct tag {
	int32_t tid, tgid;
	bool thread;
	uint64_t start_ticks; /* TV_START_UNKNOWN: thread row read only for its switches */
};

struct tags {
	struct tag *v;
	size_t n;
};

void tags_init(struct tags *g);
void tags_free(struct tags *g);
bool tags_has(const struct tags *g, const struct tv_task *t);
/* Tags or untags t; returns true when it is tagged now. */
bool tags_toggle(struct tags *g, const struct tv_task *t);
int tags_add(struct tags *g, const struct tv_task *t);
/* Drops the tags of tasks no longer in s (or whose PID now names another task). */
void tags_prune(struct tags *g, const struct snapshot *s);

#endif
