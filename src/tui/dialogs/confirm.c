/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A question right above the status line, answered with one key: the
 * confirmations of signals and of a group's renice. */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "tui/dialogs/dialogs.h"
#include "tui/screen/draw.h"
#include "tui/screen/screen.h"
#include "tui/screen/wrap.h"
#include "util/text.h"

#define BOX_MAX 16

/* The lines, wrapped, drawn right above the status line (the last in the
 * error colour); returns the key pressed (ERR after a quit signal). */
int tui_confirm(struct tui *t, const char *const *lines, size_t n)
{
	for (;;) {
		tui_paint(t);
		const char *start[BOX_MAX];
		size_t len[BOX_MAX], last_from = 0, k = 0;
		size_t width = COLS > 0 ? (size_t)COLS : 1;
		for (size_t i = 0; i < n && k < BOX_MAX; i++) {
			if (i + 1 == n)
				last_from = k;
			size_t m = tui_wrap(lines[i], width, term_utf8(), start + k, len + k, BOX_MAX - k);
			k += m < BOX_MAX - k ? m : BOX_MAX - k;
		}
		int bottom = t->lay.status_row >= 0 ? t->lay.status_row : LINES - 1;
		int top = bottom - (int)k + 1;
		for (size_t i = 0; i < k; i++) {
			if (top + (int)i < 0)
				continue;
			char *piece = strndup(start[i], len[i]);
			if (piece)
				tui_put_line(top + (int)i, piece, term_attr(i >= last_from ? ROLE_ERROR : ROLE_DIALOG));
			free(piece);
		}
		int key = tui_dialog_key();
		if (key == TUI_KEY_QUIT)
			return ERR;
		if (key != ERR)
			return key;
	}
}
