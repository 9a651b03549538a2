/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which processes are shown: PID list, user, text. */
#ifndef TV_VIEW_FILTER_H
#define TV_VIEW_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/task.h"

struct filter {
	int32_t *pids;   /* sorted, unique; a TID in the list selects its process */
	size_t npids;
	int64_t uid;     /* TV_UNKNOWN: any user */
	char *text;      /* NULL: no text filter */
	char *cgroup;    /* NULL: any control group; else a part of its path or name */
	/* taskview's own process (0: none, as in a replay): its command line
	 * holds the pattern itself, so the text looks at its names only */
	int32_t self;
};

void filter_init(struct filter *f);
void filter_free(struct filter *f);
/* Adds "1,2,3" to the PID list. On error returns -1 and sets *bad (malloc'd). */
int filter_add_pids(struct filter *f, const char *list, char **bad);
/* Sets the user from a name or a numeric uid; -1 when no such user. */
int filter_set_user(struct filter *f, const char *name_or_uid);
int filter_set_text(struct filter *f, const char *text); /* NULL or "" clears */

/* A part of a control group's path or readable name (-c); NULL or "" clears. */
int filter_set_cgroup(struct filter *f, const char *text);
/* Case-insensitive substring of the group's path or name; true without a cgroup filter. */
bool filter_matches_cgroup(const struct filter *f, const char *path, const char *unit);
bool filter_wants_pid(const struct filter *f, int32_t id);
bool filter_wants_uid(const struct filter *f, int64_t uid);
/* Case-insensitive substring of the command line or the name. */
bool filter_matches_text(const struct filter *f, const char *comm, const char *cmdline);
/* Whether the text names the process, its command line or one of its
 * threads (thread rows read, or the names of a folded process's threads). */
bool filter_matches_task(const struct filter *f, const struct tv_task *proc);

#endif
