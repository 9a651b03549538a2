/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ordering of processes, and of threads within their process. */
#ifndef TV_VIEW_SORT_H
#define TV_VIEW_SORT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/column.h"

/* Sorts by col; descending when `descending`. Unknown values always last,
 * ties by ID ascending so the order is stable across refreshes. */
void sort_tasks(const struct tv_task **v, size_t n, const struct column *col, bool descending);

#endif
