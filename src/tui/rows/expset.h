/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The processes unfolded by the user: a sorted set of TGIDs, asked by the
 * sampler (which threads to read) and by the view (which rows to show). */
#ifndef TV_TUI_EXPSET_H
#define TV_TUI_EXPSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct expset {
	int32_t *v;
	size_t n, cap;
};

void expset_init(struct expset *s);
void expset_free(struct expset *s);
void expset_clear(struct expset *s);
bool expset_has(const struct expset *s, int32_t tgid);
/* Returns 0, or -1 when out of memory. */
int expset_add(struct expset *s, int32_t tgid);
void expset_remove(struct expset *s, int32_t tgid);
/* Signature of sample_opts.expanded / view_opts.expanded; ctx is the set. */
bool expset_query(void *ctx, int32_t tgid);

#endif
