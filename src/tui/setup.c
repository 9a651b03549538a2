/* F2: choose the shown columns and their order; the table follows live. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/dialogs.h"
#include "tui/menu.h"
#include "util/i18n.h"
#include "util/text.h"

/* The list: shown columns in their order, then the hidden ones by table order. */
static size_t setup_order(const struct app *a, int *order)
{
	size_t n = 0;
	for (size_t i = 0; i < a->sel.n; i++)
		order[n++] = a->sel.idx[i];
	for (size_t c = 0; c < a->cs.n; c++) {
		bool shown = false;
		for (size_t i = 0; i < a->sel.n && !shown; i++)
			shown = a->sel.idx[i] == (int)c;
		if (!shown)
			order[n++] = (int)c;
	}
	return n;
}

static void setup_items(const struct app *a, const int *order, size_t n, char **items)
{
	for (size_t i = 0; i < n; i++) {
		const struct column *c = &a->cs.cols[order[i]];
		struct buf b;
		buf_init(&b);
		buf_adds(&b, i < a->sel.n ? "[x] " : "[ ] ");
		text_fit(&b, _(c->header), 9, true, term_utf8());
		buf_addf(&b, " %-16s ", c->id);
		buf_adds(&b, _(c->desc));
		free(items[i]);
		items[i] = strdup(buf_str(&b));
		buf_free(&b);
		if (!items[i])
			items[i] = strdup("");
	}
}

/* Shows or hides order[i]; returns the new index of the same column. */
static size_t setup_toggle(struct tui *t, const int *order, size_t i)
{
	struct colsel *sel = &t->app->sel;
	if (i < sel->n) {
		if (sel->n == 1) {
			tui_status(t, ROLE_ERROR, "%s", _("at least one column must stay"));
			return i;
		}
		memmove(&sel->idx[i], &sel->idx[i + 1], (sel->n - i - 1) * sizeof(*sel->idx));
		sel->n--;
		/* stay on the same line: the next column, ready to be hidden too */
		return i;
	}
	int *p = realloc(sel->idx, (sel->n + 1) * sizeof(*p));
	if (!p)
		return i;
	sel->idx = p;
	sel->idx[sel->n++] = order[i];
	return sel->n - 1;
}

static size_t setup_move(struct tui *t, size_t i, int dir)
{
	struct colsel *sel = &t->app->sel;
	if (i >= sel->n)
		return i;
	size_t j = dir < 0 ? i - 1 : i + 1;
	if ((dir < 0 && i == 0) || j >= sel->n)
		return i;
	int tmp = sel->idx[i];
	sel->idx[i] = sel->idx[j];
	sel->idx[j] = tmp;
	return j;
}

void dialog_setup(struct tui *t)
{
	struct app *a = t->app;
	int *order = calloc(a->cs.n + 1, sizeof(*order));
	char **items = calloc(a->cs.n + 1, sizeof(*items));
	if (!order || !items) {
		free(order);
		free(items);
		return;
	}
	struct menu m = {0};
	m.title = _("Columns (shown first, in order)");
	m.hint = _("Space/Enter: show or hide   F7/[ F8/]: move   Esc/F2/F10: done");
	m.items = items;
	unsigned before = t->needs;
	for (;;) {
		m.n = setup_order(a, order);
		setup_items(a, order, m.n, items);
		tui_rebuild(t);
		tui_paint(t);
		menu_paint(t, &m);
		int key = tui_dialog_key();
		if (key == TUI_KEY_QUIT)
			break;
		if (key == ERR)
			continue;
		if (menu_navigate(&m, key, 10))
			continue;
		if (key == 27 || key == 'q' || key == KEY_F(10) || key == KEY_F(2))
			break;
		if (key == ' ' || key == '\r' || key == '\n' || key == KEY_ENTER || key == KEY_DC)
			m.sel = setup_toggle(t, order, m.sel);
		else if (key == KEY_F(7) || key == '[' || key == '-')
			m.sel = setup_move(t, m.sel, -1);
		else if (key == KEY_F(8) || key == ']' || key == '+')
			m.sel = setup_move(t, m.sel, 1);
		tui_columns_changed(t);
	}
	for (size_t i = 0; i < a->cs.n; i++)
		free(items[i]);
	free(items);
	free(order);
	tui_columns_changed(t);
	/* new columns may need files the last sample did not read */
	if ((t->needs & ~before) && !t->frozen)
		tui_sample(t, true);
	else
		tui_rebuild(t);
}
