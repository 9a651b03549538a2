/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Drawing primitives: every piece of text goes through these, so untrusted
 * text is always sanitized and cut to the screen. */
#ifndef TV_TUI_DRAW_H
#define TV_TUI_DRAW_H

#include "util/buf.h"

/* Draws untrusted or translated text at (y, x), cut to w columns. */
void tui_put(int y, int x, int w, const char *s, int attr);
/* The same for taskview's own text: a backslash shows as itself. */
void tui_put_own(int y, int x, int w, const char *s, int attr);
/* A pre-sanitized line of exactly-known width. */
void tui_put_raw(int y, int x, const struct buf *b, int attr);
/* A whole screen line: s sanitized, then blanks to the right edge, so
 * nothing drawn before stays visible behind it. */
void tui_put_line(int y, const char *s, int attr);

#endif
