/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The primitives every drawing goes through. */
#include "tui/screen/draw.h"

#include <curses.h>
#include <string.h>

#include "tui/screen/term.h"
#include "util/text.h"

void tui_put_raw(int y, int x, const struct buf *b, int attr)
{
	if (y < 0 || y >= LINES || x >= COLS || !b->len)
		return;
	attrset(attr);
	/* the text is already sanitized and cut to fit: curses gets whole UTF-8
	 * sequences only, and never more columns than the line has */
	mvaddnstr(y, x, b->data, (int)b->len);
	attrset(A_NORMAL);
}

static void put_text(int y, int x, int w, const char *s, int attr, bool own)
{
	if (w <= 0 || x < 0 || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	struct buf b;
	buf_init(&b);
	if (own)
		text_sanitize_own(&b, s, strlen(s), (size_t)w, term_utf8());
	else
		text_sanitize(&b, s, strlen(s), (size_t)w, term_utf8());
	tui_put_raw(y, x, &b, attr);
	buf_free(&b);
}

void tui_put(int y, int x, int w, const char *s, int attr)
{
	put_text(y, x, w, s, attr, false);
}

void tui_put_own(int y, int x, int w, const char *s, int attr)
{
	put_text(y, x, w, s, attr, true);
}

void tui_put_line(int y, const char *s, int attr)
{
	if (COLS <= 0)
		return;
	struct buf b;
	buf_init(&b);
	text_fit(&b, s, (size_t)COLS, true, term_utf8());
	tui_put_raw(y, 0, &b, attr);
	buf_free(&b);
}
