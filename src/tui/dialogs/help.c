/* SPDX-License-Identifier: GPL-2.0-or-later */
/* F1: every key and every column, with where the settings live. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/dialogs/dialogs.h"
#include "tui/timeline.h"
#include "tui/screen/draw.h"
#include "tui/keys/keymap.h"
#include "tui/screen/screen.h"
#include "util/i18n.h"
#include "tui/screen/wrap.h"
#include "util/text.h"

struct help_line {
	const char *left;   /* keys or column id; NULL for a heading or text */
	const char *right;
	int attr_role;
};

static void help_add(struct help_line **v, size_t *n, const char *left, const char *right, int role)
{
	struct help_line *p = realloc(*v, (*n + 1) * sizeof(*p));
	if (!p)
		return;
	*v = p;
	p[(*n)++] = (struct help_line){left, right, role};
}

/* Keys on the left, in this many columns; what they do after a blank. */
#define KEYS_W 22

/* One screen line: a piece of a help line, wrapped at blanks. */
struct help_row {
	const char *left;  /* the keys, on the first piece only */
	const char *text;
	size_t len;
	int x;
	int role;
};

/* Wraps the help lines to the screen's width into *rows (reallocated);
 * returns how many there are. */
static size_t help_layout(const struct help_line *v, size_t n, struct help_row **rows)
{
	size_t nrows = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		const struct help_line *l = &v[i];
		/* a screen too narrow for both columns: the text under the keys */
		bool beside = l->left && COLS > KEYS_W + 20;
		int x = beside ? KEYS_W + 1 : 0;
		size_t width = COLS > x ? (size_t)(COLS - x) : 1;
		const char *start[64];
		size_t len[64];
		size_t k = tui_wrap(l->right, width, term_utf8(), start, len, 64);
		if (k > 64)
			k = 64;
		size_t need = k + (l->left && !beside) + (k == 0);
		if (nrows + need > cap) {
			size_t nc = cap ? 2 * cap : 256;
			while (nc < nrows + need)
				nc *= 2;
			struct help_row *r = realloc(*rows, nc * sizeof(*r));
			if (!r)
				break;
			*rows = r;
			cap = nc;
		}
		struct help_row *r = *rows;
		if (l->left && !beside)
			r[nrows++] = (struct help_row){l->left, "", 0, 0, l->attr_role};
		if (k == 0)
			r[nrows++] = (struct help_row){beside ? l->left : NULL, "", 0, x, l->attr_role};
		for (size_t j = 0; j < k; j++)
			r[nrows++] = (struct help_row){j == 0 && beside ? l->left : NULL, start[j], len[j],
						       beside || !l->left ? x : 2, l->attr_role};
	}
	return nrows;
}

void dialog_help(struct tui *t)
{
	struct help_line *v = NULL;
	size_t n = 0;
	size_t nk;
	const struct key_help *kh = keymap_help(&nk);
	help_add(&v, &n, NULL, _("taskview: processes and their threads. Keys:"), ROLE_HEADER_LABEL);
	for (size_t i = 0; i < nk; i++)
		help_add(&v, &n, _(kh[i].keys), _(kh[i].what), ROLE_NORMAL);
	help_add(&v, &n, NULL, "", ROLE_NORMAL);
	if (tui_fleet(t)) {
		help_add(&v, &n, NULL, _("Hosts (--host): each row's host is in HOST; the header names each host that is not"), ROLE_NORMAL);
		help_add(&v, &n, NULL, _("live (stale; offline or connecting again, with why its last connection ended),"), ROLE_NORMAL);
		help_add(&v, &n, NULL, _("whose rows are dim. k, F7 and F8 act through the process's host, which checks"), ROLE_NORMAL);
		help_add(&v, &n, NULL, _("first that it is the same process, as it does before i reads its address space."), ROLE_NORMAL);
		help_add(&v, &n, NULL, _("g puts each host's row above its processes: their sum, the host's CPU, memory,"), ROLE_NORMAL);
		help_add(&v, &n, NULL, _("CPUs, load and pressure; with --group cgroup, its control groups under it."), ROLE_NORMAL);
		if (t->replay->tape) {
			help_add(&v, &n, NULL, _("A recording of hosts: each host as the recorder had it at the time in the"), ROLE_NORMAL);
			help_add(&v, &n, NULL, _("header. b and f step, J jumps to a time, d sets the step; nothing is sent."), ROLE_NORMAL);
		}
	} else if (t->replay) {
		help_add(&v, &n, NULL, _("Replay: the header shows the recorded host and time; kill and renice are off,"), ROLE_NORMAL);
		help_add(&v, &n, NULL, _("nothing refreshes, and the settings are not saved."), ROLE_NORMAL);
	}
	help_add(&v, &n, NULL, _("In menus: Up/Down, Enter to choose, Esc to cancel."), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("Threads: a process row shows + (folded) or - (unfolded); threads of an"), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("unfolded process are read from the next sample on; until then their rates show -."), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("Tree (t): a collapsed process shows the sums of its subtree for CPU, switches"), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("and delays; a value marked + is a lower bound (a member is unknown or partial)."), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("Mouse: click a row to select it, a header to sort (again: invert), a + or - to"), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("fold; the wheel moves. --no-mouse or mouse=0 in the settings turn it off."), ROLE_NORMAL);
	help_add(&v, &n, NULL, "", ROLE_NORMAL);
	help_add(&v, &n, NULL, _("Columns (F2 to choose, F6 to sort):"), ROLE_HEADER_LABEL);
	const struct colset *cs = &t->app->cs;
	for (size_t i = 0; i < cs->n; i++)
		help_add(&v, &n, cs->cols[i].id, _(cs->cols[i].desc), ROLE_NORMAL);
	help_add(&v, &n, NULL, "", ROLE_NORMAL);
	help_add(&v, &n, NULL, _("Settings (columns, sort, interval, threads, tree, kernel threads) are read from"), ROLE_HEADER_LABEL);
	help_add(&v, &n, NULL, t->config_path ? t->config_path : _("(no settings file: HOME is not set)"), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("and saved there on quit. Command-line options override them."), ROLE_NORMAL);
	help_add(&v, &n, NULL, _("Batch mode (-b) does not read them."), ROLE_NORMAL);

	size_t top = 0;
	struct help_row *rows = NULL;
	for (;;) {
		erase();
		int h = LINES - 1;
		if (h < 1)
			h = LINES;
		/* laid out again for each paint: the width may have changed */
		size_t nrows = help_layout(v, n, &rows);
		size_t last = nrows > (size_t)h ? nrows - (size_t)h : 0;
		if (top > last)
			top = last;
		for (int y = 0; y < h && top + (size_t)y < nrows; y++) {
			const struct help_row *r = &rows[top + (size_t)y];
			if (r->left)
				tui_put_own(y, 0, KEYS_W, r->left, term_attr(ROLE_HEADER_LABEL));
			struct buf piece;
			buf_init(&piece);
			buf_add(&piece, r->text, r->len);
			tui_put(y, r->x, COLS - r->x, buf_str(&piece), term_attr((enum term_role)r->role));
			buf_free(&piece);
		}
		if (LINES > 1)
			tui_put(LINES - 1, 0, COLS, _("Up/Down/PgUp/PgDn: scroll   any other key: back"), term_attr(ROLE_KEY_LABEL));
		int key = tui_dialog_key();
		if (key == TUI_KEY_QUIT)
			break;
		if (key == ERR)
			continue;
		size_t page = h > 1 ? (size_t)h - 1 : 1;
		if (key == KEY_DOWN || key == 'j')
			top = top < last ? top + 1 : last;
		else if (key == KEY_UP)
			top = top ? top - 1 : 0;
		else if (key == KEY_NPAGE || key == ' ')
			top = top + page < last ? top + page : last;
		else if (key == KEY_PPAGE)
			top = top > page ? top - page : 0;
		else
			break;
	}
	free(rows);
	free(v);
}
