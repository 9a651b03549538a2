/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rates of the tasks that ended in an interval, for showing them as rows. */
#ifndef TV_MODEL_EXITED_H
#define TV_MODEL_EXITED_H

#include "model/column.h"
#include "model/snapshot.h"

/*
 * Fills the derived values of cur's ended processes (gone) and of its
 * processes' exited threads, from prev: each over its own part of the
 * interval, from its reading in prev (or from zero when it started since)
 * to its final counters. What is unknown stays unknown. Steps rejected as
 * counter jumps are added to cur's rejects.
 */
void exited_rates(const struct snapshot *prev, struct snapshot *cur, const struct colset *cs);

#endif
