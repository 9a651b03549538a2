/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen as a whole: header, table, status line and key bar. */
#ifndef TV_TUI_SCREEN_H
#define TV_TUI_SCREEN_H

#include "tui/state.h"
#include "tui/screen/status.h"

/* paint draws into stdscr, draw also sends it to the terminal */
void tui_paint(struct tui *t);
void tui_draw(struct tui *t);
/* Dialogs: sends what was painted to the terminal and waits up to a second
 * for a key. Returns TUI_KEY_QUIT after a quit signal, ERR when there is
 * only something to repaint (no key, or a resize), else the key. */
#define TUI_KEY_QUIT (-2)
int tui_dialog_key(void);
/* The same for a dialog over a live screen: the scheduled refresh goes on
 * and a sample that arrives is applied (*sampled set, ERR returned). */
int tui_dialog_key_live(struct tui *t, bool *sampled);
/* Columns picked by width (none chosen) follow the screen's. */
void tui_fit_columns(struct tui *t);
/* The key of the key bar entry at screen column x, or 0. */
int tui_keybar_key(int x);

#endif
