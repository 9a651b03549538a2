/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A list to choose from, drawn as a panel over the left of the table
 * (sort column, signal, user, setup). */
#ifndef TV_TUI_MENU_H
#define TV_TUI_MENU_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/keys/digits.h"
#include "tui/keys/input.h"
#include "tui/state.h"

struct menu {
	const char *title;          /* translated */
	const char *hint;           /* translated; shown on the key bar line */
	char **items;               /* may be untrusted: drawn sanitized */
	size_t n;
	size_t sel, top;
	bool full_width;            /* the whole width: no table beside long items (setup) */
	bool typing;                /* printable keys go to typed (user menu) */
	struct input typed;
	/* digits select the item that starts with their number (signal menu) */
	bool numeric;
	struct digits number;       /* a numeric menu: the digits typed */
};

enum menu_result { MENU_CANCEL = -1, MENU_TYPED = -2 };

/* Runs the menu's key loop. Returns the chosen index, MENU_CANCEL (Esc, or
 * a quit signal), or MENU_TYPED when Enter was pressed with typed text that
 * no item matches. */
int menu_run(struct tui *t, struct menu *m);

/* Draws m over the screen painted for t (no refresh). */
void menu_paint(struct tui *t, struct menu *m);
/* Moves the selection for a navigation key; false when key is not one. */
bool menu_navigate(struct menu *m, int key, size_t page);

#endif
