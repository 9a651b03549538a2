/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/dialogs/menu.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/screen/draw.h"
#include "tui/screen/screen.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"

/* The panel's geometry: the table area, as wide as the widest item. */
static void menu_box(const struct tui *t, const struct menu *m, int *y0, int *h, int *w)
{
	int top = t->lay.table_head_row >= 0 ? t->lay.table_head_row : 0;
	int bottom = t->lay.keybar_row >= 0 ? t->lay.keybar_row : LINES;
	size_t widest = text_width(m->title, strlen(m->title), term_utf8()) + (m->typing ? m->typed.len + 2 : 0);
	for (size_t i = 0; i < m->n; i++) {
		size_t iw = text_width(m->items[i], strlen(m->items[i]), term_utf8());
		if (iw > widest)
			widest = iw;
	}
	*y0 = top;
	*h = bottom - top;
	*w = (int)widest + 2 < COLS && !m->full_width ? (int)widest + 2 : COLS;
}

bool menu_navigate(struct menu *m, int key, size_t page)
{
	if (m->n == 0)
		return false;
	switch (key) {
	case KEY_UP:
		if (m->sel > 0)
			m->sel--;
		return true;
	case KEY_DOWN:
		if (m->sel + 1 < m->n)
			m->sel++;
		return true;
	case KEY_PPAGE:
		m->sel = m->sel > page ? m->sel - page : 0;
		return true;
	case KEY_NPAGE:
		m->sel = m->sel + page < m->n ? m->sel + page : m->n - 1;
		return true;
	case KEY_HOME:
		m->sel = 0;
		return true;
	case KEY_END:
		m->sel = m->n - 1;
		return true;
	default:
		return false;
	}
}

void menu_paint(struct tui *t, struct menu *m)
{
	int y0, h, w;
	menu_box(t, m, &y0, &h, &w);
	if (h <= 0 || w <= 0)
		return;
	struct buf line;
	buf_init(&line);
	/* the title line, with what was typed */
	buf_adds(&line, m->title);
	if (m->typing) {
		buf_adds(&line, " ");
		buf_adds(&line, m->typed.text);
		buf_adds(&line, "_");
	}
	struct buf fit;
	buf_init(&fit);
	text_fit(&fit, buf_str(&line), (size_t)w, true, term_utf8());
	tui_put_raw(y0, 0, &fit, term_attr(ROLE_TABLE_HEAD));
	size_t rows = h > 1 ? (size_t)(h - 1) : 0;
	if (m->sel < m->top)
		m->top = m->sel;
	if (rows && m->sel >= m->top + rows)
		m->top = m->sel - rows + 1;
	for (size_t k = 0; k < rows; k++) {
		size_t i = m->top + k;
		buf_reset(&fit);
		text_fit(&fit, i < m->n ? m->items[i] : "", (size_t)w, true, term_utf8());
		int attr = i == m->sel && i < m->n ? term_attr(ROLE_SELECTED) : term_attr(ROLE_DIALOG);
		tui_put_raw(y0 + 1 + (int)k, 0, &fit, attr);
	}
	if (t->lay.keybar_row >= 0 && m->hint) {
		buf_reset(&fit);
		text_fit(&fit, m->hint, (size_t)COLS, true, term_utf8());
		tui_put_raw(t->lay.keybar_row, 0, &fit, term_attr(ROLE_KEY_LABEL));
	}
	buf_free(&fit);
	buf_free(&line);
}

/* Typing in a menu jumps to the first item starting with the text. */
static void menu_jump(struct menu *m)
{
	size_t n = m->typed.len;
	for (size_t i = 0; i < m->n && n; i++)
		if (strncasecmp(m->items[i], m->typed.text, n) == 0) {
			m->sel = i;
			return;
		}
}

/* A digit in a numeric menu: the item whose number is the digits typed
 * within a second and a half of each other (1, then 5: 15). */
static void menu_number(struct menu *m, int key)
{
	long want = atol(digits_add(&m->number, key));
	for (size_t i = 0; i < m->n; i++)
		if (atol(m->items[i]) == want) {
			m->sel = i;
			return;
		}
}

int menu_run(struct tui *t, struct menu *m)
{
	for (;;) {
		tui_paint(t);
		menu_paint(t, m);
		int key = tui_dialog_key();
		if (key == TUI_KEY_QUIT)
			return MENU_CANCEL;
		if (key == ERR)
			continue;
		int y0, h, w;
		menu_box(t, m, &y0, &h, &w);
		if (menu_navigate(m, key, h > 2 ? (size_t)(h - 2) : 1))
			continue;
		if (key == 27 || key == KEY_F(10) || (!m->typing && key == 'q'))
			return MENU_CANCEL;
		if (key == '\r' || key == '\n' || key == KEY_ENTER) {
			/* typed text that names no item is the user's own entry */
			if (m->typing && m->typed.len &&
			    !(m->sel < m->n && strncasecmp(m->items[m->sel], m->typed.text, m->typed.len) == 0))
				return MENU_TYPED;
			return m->n ? (int)m->sel : MENU_CANCEL;
		}
		if (m->numeric && key >= '0' && key <= '9')
			menu_number(m, key);
		else if (m->typing && input_key(&m->typed, key) == INPUT_CHANGED)
			menu_jump(m);
	}
}
