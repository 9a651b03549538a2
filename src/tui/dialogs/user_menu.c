/* SPDX-License-Identifier: GPL-2.0-or-later */
/* u: show only one user's processes; pick a user or type a name or UID.
 * The list has every user with a process in the current sample, whatever
 * is shown; choosing filters that sample, nothing is read again. */
#include <stdlib.h>
#include <string.h>

#include "tui/dialogs/dialogs.h"
#include "tui/dialogs/menu.h"
#include "tui/screen/status.h"
#include "tui/view.h"
#include "util/i18n.h"

struct user_item {
	char *name;
	int64_t uid;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct user_item *)a)->name, ((const struct user_item *)b)->name);
}

void dialog_user(struct tui *t)
{
	struct menu m = {0};
	m.title = _("Show processes of:");
	m.hint = _("Enter: choose   type a name or UID   Esc: cancel");
	m.typing = true;
	input_set(&m.typed, "");
	struct user_item *u = calloc(t->cur.nprocs + 1, sizeof(*u));
	m.items = calloc(t->cur.nprocs + 1, sizeof(*m.items));
	if (!m.items || !u) {
		free(u);
		free(m.items);
		return;
	}
	/* every user seen in the sample, each once */
	size_t nu = 0;
	for (size_t i = 0; t->have_cur && i < t->cur.nprocs; i++) {
		const struct tv_task *p = &t->cur.procs[i];
		bool dup = !p->user;
		for (size_t k = 0; k < nu && !dup; k++)
			dup = u[k].uid == p->uid;
		if (!dup && (u[nu].name = strdup(p->user)))
			u[nu++].uid = p->uid;
	}
	qsort(u, nu, sizeof(*u), cmp_name);
	/* TRANSLATORS: first entry of the user menu: no user filter */
	m.items[m.n++] = _("All users");
	for (size_t k = 0; k < nu; k++) {
		m.items[m.n++] = u[k].name;
		if (u[k].uid == t->filter.uid)
			m.sel = k + 1;
	}
	int r = menu_run(t, &m);
	int64_t before = t->filter.uid;
	if (r == 0) {
		t->filter.uid = TV_UNKNOWN;
	} else if (r > 0) {
		t->filter.uid = u[r - 1].uid;
	} else if (r == MENU_TYPED && filter_set_user(&t->filter, m.typed.text) < 0) {
		tui_status(t, ROLE_ERROR, _("no such user: '%s'"), m.typed.text);
	}
	for (size_t k = 0; k < nu; k++)
		free(u[k].name);
	free(u);
	free(m.items);
	if (t->filter.uid != before)
		tui_rebuild_at(t, false);
}
