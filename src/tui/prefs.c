/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/prefs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/state.h"
#include "util/i18n.h"

static void prefs_warn(void *ctx, unsigned line, const char *msg)
{
	char text[512];
	snprintf(text, sizeof(text), _("taskviewrc line %u: %s"), line, msg);
	tui_msgs_add(ctx, text);
}

char *prefs_columns_string(const struct app *a)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < a->sel.n; i++)
		buf_addf(&b, "%s%s", i ? "," : "", a->cs.cols[a->sel.idx[i]].id);
	char *s = strdup(buf_str(&b));
	buf_free(&b);
	return s;
}

/* Known ids of list, in order, once each; unknown ones are reported. */
static void prefs_apply_columns(struct tui *t, const char *list)
{
	struct colsel sel = {0};
	char *copy = strdup(list);
	if (!copy)
		return;
	for (char *save = NULL, *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		while (*id == ' ')
			id++;
		size_t n = strlen(id);
		while (n && id[n - 1] == ' ')
			id[--n] = '\0';
		int idx = colset_index(&t->app->cs, id);
		if (idx < 0) {
			char text[256];
			/* a newer version's column, or a plugin not loaded this time */
			snprintf(text, sizeof(text), _("taskviewrc: unknown column '%s' skipped"), id);
			tui_msgs_add(t->msgs, text);
			continue;
		}
		bool dup = false;
		for (size_t i = 0; i < sel.n && !dup; i++)
			dup = sel.idx[i] == idx;
		int *p = dup ? sel.idx : realloc(sel.idx, (sel.n + 1) * sizeof(*p));
		if (!p)
			break;
		sel.idx = p;
		if (!dup)
			sel.idx[sel.n++] = idx;
	}
	free(copy);
	if (sel.n) {
		colsel_free(&t->app->sel);
		t->app->sel = sel;
	} else {
		colsel_free(&sel);
	}
}

void prefs_load(struct tui *t, struct prefs *p)
{
	memset(p, 0, sizeof(*p));
	settings_init(&p->loaded);
	const struct cli_opts *o = t->opts;
	t->config_path = settings_path();
	if (t->config_path) {
		char *err = NULL;
		if (settings_load(t->config_path, &p->loaded, prefs_warn, t->msgs, &err) < 0) {
			p->unread = true;
			if (err)
				tui_msgs_add(t->msgs, err);
		}
		free(err);
	}
	struct settings *s = &p->loaded;
	if (!o->columns && s->columns)
		prefs_apply_columns(t, s->columns);
	/* nothing chosen: the columns follow the screen width */
	t->cols_auto = !o->columns && !s->columns;
	if (!o->sort && s->sort) {
		int idx = colset_index(&t->app->cs, s->sort);
		if (idx >= 0) {
			t->app->sort_col = idx;
		} else {
			char text[256];
			snprintf(text, sizeof(text), _("taskviewrc: unknown sort column '%s' skipped"), s->sort);
			tui_msgs_add(t->msgs, text);
		}
	}
	if (!o->sort && !o->reverse && s->reverse >= 0)
		t->app->reverse = s->reverse;
	if (!o->delay_set && s->delay > 0)
		t->delay = s->delay;
	if (!o->threads && s->threads >= 0)
		t->all_threads = s->threads;
	if (s->tree >= 0)
		t->tree = s->tree;
	if (t->opts->group != CLI_GROUP_UNSET)
		t->groups = t->opts->group == CLI_GROUP_CGROUP;
	else if (s->groups >= 0)
		t->groups = s->groups;
	/* the group view and the tree exclude each other: the group view asked for wins */
	if (t->groups)
		t->tree = false;
	if (s->kernel_threads >= 0)
		t->show_kthreads = s->kernel_threads;
	if (s->mouse == 0)
		t->mouse = false;
	p->start_columns = prefs_columns_string(t->app);
	p->start_sort = t->app->sort_col;
	p->start_reverse = t->app->reverse;
	p->start_delay = t->delay;
	p->start_threads = t->all_threads;
	p->start_tree = t->tree;
	p->start_groups = t->groups;
	p->start_kthreads = t->show_kthreads;
	p->start_cols_auto = t->cols_auto;
}

/* Splits "id,id,…" into trimmed ids (malloc'd copies, in place of list). */
static size_t prefs_split_ids(char *list, char **ids, size_t max)
{
	size_t n = 0;
	for (char *save = NULL, *id = strtok_r(list, ",", &save); id && n < max; id = strtok_r(NULL, ",", &save)) {
		while (*id == ' ')
			id++;
		size_t l = strlen(id);
		while (l && id[l - 1] == ' ')
			id[--l] = '\0';
		if (l)
			ids[n++] = id;
	}
	return n;
}

/* The shown columns, with the ids of the loaded list this run does not know
 * (a newer version's column, a plugin not loaded this time) kept, each after
 * the id it followed: a later run that knows them shows them again. */
static char *prefs_columns_keep_unknown(const struct app *a, const char *loaded, const char *now)
{
	/* room for every id of both lists: none may be dropped */
	size_t max = 1;
	for (const char *c = loaded; *c; c++)
		max += *c == ',';
	for (const char *c = now; *c; c++)
		max += *c == ',';
	max++;
	char *lcopy = strdup(loaded), *ncopy = strdup(now);
	const char **out = malloc(max * sizeof(*out));
	char **lids = malloc(max * sizeof(*lids)), **nids = malloc(max * sizeof(*nids));
	char *res = NULL;
	if (!lcopy || !ncopy || !out || !lids || !nids)
		goto done;
	size_t nl = prefs_split_ids(lcopy, lids, max);
	size_t nn = prefs_split_ids(ncopy, nids, max);
	size_t no = 0;
	for (size_t i = 0; i < nn; i++)
		out[no++] = nids[i];
	for (size_t i = 0; i < nl; i++) {
		if (colset_index(&a->cs, lids[i]) >= 0)
			continue;
		/* after the nearest id before it that is still in the list */
		size_t at = 0;
		for (size_t j = i; j-- > 0 && at == 0;)
			for (size_t k = 0; k < no; k++)
				if (strcmp(out[k], lids[j]) == 0) {
					at = k + 1;
					break;
				}
		memmove(out + at + 1, out + at, (no - at) * sizeof(*out));
		out[at] = lids[i];
		no++;
	}
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < no; i++)
		buf_addf(&b, "%s%s", i ? "," : "", out[i]);
	res = b.oom ? NULL : strdup(buf_str(&b));
	buf_free(&b);
done:
	free(lcopy);
	free(ncopy);
	free(out);
	free(lids);
	free(nids);
	return res;
}

void prefs_save(struct tui *t, struct prefs *p)
{
	if (!t->config_path)
		return;
	struct settings *s = &p->loaded;
	bool changed = false;
	if (t->cols_auto) {
		/* back to the columns by width (d in the setup screen) */
		if (!p->start_cols_auto && s->columns) {
			free(s->columns);
			s->columns = NULL;
			changed = true;
		}
	} else {
		char *cols = prefs_columns_string(t->app);
		if (cols && p->start_columns && (p->start_cols_auto || strcmp(cols, p->start_columns) != 0)) {
			char *kept = s->columns ? prefs_columns_keep_unknown(t->app, s->columns, cols) : NULL;
			free(s->columns);
			s->columns = kept ? kept : cols;
			if (kept)
				free(cols);
			cols = NULL;
			changed = true;
		}
		free(cols);
	}
	/* each on its own: a reversed order keeps a sort column this run did not know */
	if (t->app->sort_col != p->start_sort) {
		char *id = strdup(t->app->cs.cols[t->app->sort_col].id);
		if (id) {
			free(s->sort);
			s->sort = id;
		}
		changed = true;
	}
	if (t->app->reverse != p->start_reverse) {
		s->reverse = t->app->reverse;
		changed = true;
	}
	if (t->delay != p->start_delay) {
		s->delay = t->delay;
		changed = true;
	}
	if (t->all_threads != p->start_threads) {
		s->threads = t->all_threads;
		changed = true;
	}
	if (t->tree != p->start_tree) {
		s->tree = t->tree;
		changed = true;
	}
	if (t->groups != p->start_groups) {
		s->groups = t->groups;
		changed = true;
	}
	if (t->show_kthreads != p->start_kthreads) {
		s->kernel_threads = t->show_kthreads;
		changed = true;
	}
	/* nothing changed: leave the file (and its comments) alone */
	if (!changed)
		return;
	if (p->unread) {
		char text[512];
		/* TRANSLATORS: on quit; %s is the settings file, which could not be read at the start */
		snprintf(text, sizeof(text), _("settings not saved: %s was not read, and writing it would lose what it holds"),
			 t->config_path);
		tui_msgs_add(t->msgs, text);
		return;
	}
	char *err = NULL;
	if (settings_save(t->config_path, s, &err) < 0)
		tui_msgs_add(t->msgs, err ? err : _("cannot save the settings"));
	free(err);
}

void prefs_free(struct prefs *p)
{
	settings_free(&p->loaded);
	free(p->start_columns);
	p->start_columns = NULL;
}
