/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Folding and unfolding threads, and in the tree whole subtrees. */
#ifndef TV_TUI_FOLD_H
#define TV_TUI_FOLD_H

#include <stdint.h>

#include "tui/state.h"

/* Unfolds a process: its threads are read by a sample taken now (or, while
 * frozen, when updates resume); the selection stays on the process. */
void fold_process(struct tui *t, int32_t tgid);
/* Enter, Right, +: in the tree a collapsed subtree opens first, then the
 * threads unfold; a collapsed group opens. */
void fold_unfold(struct tui *t);
/* Left, -: the threads fold first; in the tree, then the subtree; a group
 * collapses. */
void fold_fold(struct tui *t);
/* *: everything unfolded, or all folded again (the group view: groups). */
void fold_all(struct tui *t);
/* H: every process's threads shown, or none. */
void fold_toggle_threads(struct tui *t);

#endif
