/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The control groups collapsed by the user in the group view: a sorted set
 * of cgroup paths, asked by the view (which rows to show). */
#ifndef TV_TUI_PATHSET_H
#define TV_TUI_PATHSET_H

#include <stdbool.h>
#include <stddef.h>

struct pathset {
	char **v;
	size_t n, cap;
};

void pathset_init(struct pathset *s);
void pathset_free(struct pathset *s);
void pathset_clear(struct pathset *s);
bool pathset_has(const struct pathset *s, const char *path);
/* Returns 0, or -1 when out of memory. */
int pathset_add(struct pathset *s, const char *path);
void pathset_remove(struct pathset *s, const char *path);
/* Signature of view_opts.group_collapsed; ctx is the set. */
bool pathset_query(void *ctx, const char *path);

#endif
