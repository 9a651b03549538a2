/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Search (/, F3, n) over the current sample: names, command lines, and the
 * thread names of folded processes, whose match is unfolded. */
#ifndef TV_TUI_SEARCH_H
#define TV_TUI_SEARCH_H

#include <stdbool.h>

#include "tui/state.h"

/* Selects the next row matching t->search after the selection (or at it
 * when from_current), wrapping around. A match inside a folded process
 * selects the process and, when unfold, unfolds it and asks for its thread
 * row. Returns false when nothing matches. */
bool tui_search_next(struct tui *t, bool from_current, bool unfold);
/* The thread name that made the selected row match, or NULL. */
const char *tui_search_thread_hit(const struct tui *t);

#endif
