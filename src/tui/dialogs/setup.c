/* SPDX-License-Identifier: GPL-2.0-or-later */
/* F2: choose the shown columns and their order; the table follows live.
 * The list keeps its order while the dialog is open, so a column toggled
 * by mistake is toggled back where it is. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/screen/autocols.h"
#include "tui/dialogs/dialogs.h"
#include "tui/dialogs/menu.h"
#include "tui/sampling.h"
#include "tui/screen/screen.h"
#include "tui/view.h"
#include "util/i18n.h"
#include "util/text.h"

struct setup {
	int *order;     /* every column: the shown ones first, in their order */
	bool *shown;    /* by list position */
	size_t n;
};

static void setup_fill(struct setup *s, const struct app *a)
{
	s->n = 0;
	for (size_t i = 0; i < a->sel.n; i++) {
		s->order[s->n] = a->sel.idx[i];
		s->shown[s->n++] = true;
	}
	for (size_t c = 0; c < a->cs.n; c++)
		if (!colsel_has(&a->sel, (int)c)) {
			s->order[s->n] = (int)c;
			s->shown[s->n++] = false;
		}
}

static void setup_items(const struct app *a, const struct setup *s, char **items)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct column *c = &a->cs.cols[s->order[i]];
		struct buf b;
		buf_init(&b);
		buf_adds(&b, s->shown[i] ? "[x] " : "[ ] ");
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

/* The checked columns in list order become the shown ones. */
static void setup_apply(struct tui *t, const struct setup *s)
{
	struct colsel *sel = &t->app->sel;
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += s->shown[i];
	int *idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!idx)
		return;
	n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->shown[i])
			idx[n++] = s->order[i];
	free(sel->idx);
	sel->idx = idx;
	sel->n = n;
	/* the user's choice from now on, whatever the screen width */
	t->cols_auto = false;
}

static void setup_toggle(struct tui *t, struct setup *s, size_t i)
{
	size_t n = 0;
	for (size_t k = 0; k < s->n; k++)
		n += s->shown[k];
	if (s->shown[i] && n == 1) {
		tui_status(t, ROLE_ERROR, "%s", _("at least one column must stay"));
		return;
	}
	s->shown[i] = !s->shown[i];
	setup_apply(t, s);
}

static size_t setup_move(struct tui *t, struct setup *s, size_t i, int dir)
{
	if ((dir < 0 && i == 0) || (dir > 0 && i + 1 >= s->n))
		return i;
	size_t j = dir < 0 ? i - 1 : i + 1;
	int o = s->order[i];
	bool sh = s->shown[i];
	s->order[i] = s->order[j];
	s->shown[i] = s->shown[j];
	s->order[j] = o;
	s->shown[j] = sh;
	setup_apply(t, s);
	return j;
}

/* d: back to the columns picked by the screen width. */
static void setup_defaults(struct tui *t, struct setup *s)
{
	struct colsel sel;
	if (autocols_pick(&t->app->cs, COLS, term_utf8(), t->groups, &sel) < 0)
		return;
	colsel_free(&t->app->sel);
	t->app->sel = sel;
	t->cols_auto = true;
	t->cols_auto_width = COLS;
	t->cols_auto_groups = t->groups;
	setup_fill(s, t->app);
}

void dialog_setup(struct tui *t)
{
	struct app *a = t->app;
	struct setup s = {0};
	s.order = calloc(a->cs.n + 1, sizeof(*s.order));
	s.shown = calloc(a->cs.n + 1, sizeof(*s.shown));
	char **items = calloc(a->cs.n + 1, sizeof(*items));
	if (!s.order || !s.shown || !items)
		goto out;
	setup_fill(&s, a);
	struct menu m = {0};
	/* its lines are long: rows of the table beside them read as part of them */
	m.full_width = true;
	m.title = _("Columns (shown first, in order)");
	m.hint = _("Space/Enter: show or hide   F7/[ F8/]: move   d: defaults   Esc/F2/F10: done");
	m.items = items;
	m.n = s.n;
	unsigned before = t->needs;
	for (;;) {
		setup_items(a, &s, items);
		tui_rebuild_at(t, true);
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
			setup_toggle(t, &s, m.sel);
		else if (key == KEY_F(7) || key == '[' || key == '-')
			m.sel = setup_move(t, &s, m.sel, -1);
		else if (key == KEY_F(8) || key == ']' || key == '+')
			m.sel = setup_move(t, &s, m.sel, 1);
		else if (key == 'd')
			setup_defaults(t, &s);
		tui_columns_changed(t);
	}
	tui_columns_changed(t);
	/* new columns may need files the last sample did not read */
	if ((t->needs & ~before) && !t->frozen)
		tui_sample(t, true);
	else
		tui_rebuild_at(t, true);
out:
	for (size_t i = 0; items && i < a->cs.n; i++)
		free(items[i]);
	free(items);
	free(s.order);
	free(s.shown);
}
