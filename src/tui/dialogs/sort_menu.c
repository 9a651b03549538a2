/* SPDX-License-Identifier: GPL-2.0-or-later */
/* F6: choose the sort column from every column, shown or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/dialogs/dialogs.h"
#include "tui/dialogs/menu.h"
#include "tui/sampling.h"
#include "tui/view.h"
#include "util/i18n.h"
#include "util/text.h"

void dialog_sort(struct tui *t)
{
	struct app *a = t->app;
	struct menu m = {0};
	m.title = _("Sort by");
	m.hint = _("Enter: sort   Esc: cancel   I (on the main screen): invert");
	m.items = calloc(a->cs.n ? a->cs.n : 1, sizeof(*m.items));
	if (!m.items)
		return;
	for (size_t i = 0; i < a->cs.n; i++) {
		struct buf b;
		buf_init(&b);
		/* the header as on screen, then the id used by -s and the settings */
		text_fit(&b, _(a->cs.cols[i].header), 9, true, term_utf8());
		buf_addf(&b, " %s", a->cs.cols[i].id);
		m.items[m.n++] = strdup(buf_str(&b));
		buf_free(&b);
		if (!m.items[m.n - 1])
			m.n--;
	}
	m.sel = (size_t)a->sort_col < m.n ? (size_t)a->sort_col : 0;
	int r = menu_run(t, &m);
	for (size_t i = 0; i < m.n; i++)
		free(m.items[i]);
	free(m.items);
	if (r < 0 || (size_t)r >= a->cs.n)
		return;
	unsigned before = t->needs;
	a->sort_col = r;
	a->reverse = false; /* each column starts in its natural direction */
	tui_columns_changed(t);
	/* a sort key that is not shown may need a file not read yet */
	if ((t->needs & ~before) && !t->frozen)
		tui_sample(t, true);
	else
		tui_rebuild_at(t, true); /* re-sorted: the selection stays on its task */
}
