/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/keys/search.h"

#include <stdlib.h>

#include "tui/rows/fold.h"
#include "tui/view.h"
#include "util/text.h"

/* Whether row r matches text: its name or command line, or (a folded
 * process) one of its threads' names, given back in *tn. */
static bool row_matches(const struct row *r, const char *text, const char **tn)
{
	const struct tv_task *k = r->task;
	*tn = NULL;
	if (r->group)
		return text_contains_icase(k->cgroup->unit, text) || text_contains_icase(k->cgroup->path, text);
	if (text_contains_icase(task_comm(k), text) || (!r->is_thread && k->cmdline && text_contains_icase(k->cmdline, text)))
		return true;
	if (r->is_thread || r->unfolded || r->collapsed)
		return false; /* an unfolded process's threads are rows of their own */
	for (const struct tv_tname *n = k->tnames; n && n->tid; n++)
		if (text_contains_icase(n->name, text)) {
			*tn = n->name;
			return true;
		}
	for (size_t i = 0; k->threads_are_rows && i < k->nthreads_read; i++)
		if (text_contains_icase(task_comm(&k->threads[i]), text)) {
			*tn = task_comm(&k->threads[i]);
			return true;
		}
	return false;
}

/* The TID of the folded thread named tn in row r's process. */
static int32_t thread_tid(const struct row *r, const char *tn)
{
	const struct tv_task *k = r->task;
	for (const struct tv_tname *n = k->tnames; n && n->tid; n++)
		if (n->name == tn)
			return n->tid;
	for (size_t i = 0; k->threads_are_rows && i < k->nthreads_read; i++)
		if (task_comm(&k->threads[i]) == tn)
			return k->threads[i].tid;
	return 0;
}

bool tui_search_next(struct tui *t, bool from_current, bool unfold)
{
	if (!t->search || !*t->search || t->rows.n == 0)
		return false;
	size_t n = t->rows.n;
	for (size_t k = from_current ? 0 : 1; k <= n; k++) {
		size_t i = (t->sel + k) % n;
		const char *tn;
		if (!row_matches(&t->rows.v[i], t->search, &tn))
			continue;
		tui_select(t, i);
		if (tn && unfold) {
			const struct row *r = &t->rows.v[i];
			int32_t tid = thread_tid(r, tn);
			if (tid) {
				t->want_tid = tid;
				t->want_thread = true;
				t->have_want = true;
			}
			fold_process(t, r->task->tgid);
		}
		return true;
	}
	return false;
}

const char *tui_search_thread_hit(const struct tui *t)
{
	const struct row *r = tui_current(t);
	const char *tn;
	if (!t->search || !r || !row_matches(r, t->search, &tn))
		return NULL;
	return tn;
}
