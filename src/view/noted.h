/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which of a snapshot's rejected steps (kernel counter jumps) concern what
 * is shown: a filtered view is not told about tasks it does not list.
 */
#ifndef TV_VIEW_NOTED_H
#define TV_VIEW_NOTED_H

#include <stddef.h>

#include "model/snapshot.h"
#include "view/rows.h"

/*
 * Fills idx with the indexes into s->rejects (in their order) of the steps
 * of a task whose process has a row, is summed by a group row, or of a group
 * that has a row. idx holds s->nrejects entries. Returns how many; when out
 * of memory, every reject (saying too much rather than too little).
 */
size_t noted_pick(const struct snapshot *s, const struct rows *rows, size_t *idx);

#endif
