/* u: show only one user's processes; pick a user or type a name or UID. */
#include <stdlib.h>
#include <string.h>

#include "tui/dialogs.h"
#include "tui/menu.h"
#include "util/i18n.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void dialog_user(struct tui *t)
{
	struct menu m = {0};
	m.title = _("Show processes of:");
	m.hint = _("Enter: choose   type a name or UID   Esc: cancel");
	m.typing = true;
	input_set(&m.typed, "");
	m.items = calloc(t->cur.nprocs + 1, sizeof(*m.items));
	if (!m.items)
		return;
	/* TRANSLATORS: first entry of the user menu: no user filter */
	m.items[m.n++] = strdup(_("All users"));
	if (!m.items[0])
		m.n = 0;
	/* the users seen in the last sample, each once */
	size_t first = m.n;
	for (size_t i = 0; t->have_cur && i < t->cur.nprocs; i++) {
		const char *u = t->cur.procs[i].user;
		bool dup = !u;
		for (size_t k = first; k < m.n && !dup; k++)
			dup = strcmp(m.items[k], u) == 0;
		if (!dup && (m.items[m.n] = strdup(u)))
			m.n++;
	}
	qsort(m.items + first, m.n - first, sizeof(*m.items), cmp_str);
	int r = menu_run(t, &m);
	const char *pick = r == MENU_TYPED ? m.typed.text : r > 0 ? m.items[r] : NULL;
	bool changed = false;
	if (r == 0 && first == 1) {
		changed = t->filter.uid != TV_UNKNOWN;
		t->filter.uid = TV_UNKNOWN;
	} else if (pick) {
		int64_t before = t->filter.uid;
		if (filter_set_user(&t->filter, pick) < 0)
			tui_status(t, ROLE_ERROR, _("no such user: '%s'"), pick);
		changed = t->filter.uid != before;
	}
	for (size_t i = 0; i < m.n; i++)
		free(m.items[i]);
	free(m.items);
	if (changed)
		tui_sample(t, true);
}
