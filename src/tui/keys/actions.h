/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the keys of the main screen do. */
#ifndef TV_TUI_ACTIONS_H
#define TV_TUI_ACTIONS_H

#include "tui/state.h"

/* action: enum tui_action; key: the key that asked for it. */
void tui_act(struct tui *t, int action, int key);
/* A mouse event (after KEY_MOUSE). */
void tui_mouse(struct tui *t);
/* Sorts by a column: its natural direction, inverted when it already sorts. */
void tui_sort_by(struct tui *t, int col);

#endif
