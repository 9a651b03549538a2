/* Dialogs that read a line on the status row: search, filter, PIDs, delay. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/dialogs.h"
#include "tui/input.h"
#include "util/i18n.h"
#include "util/num.h"
#include "util/text.h"

/* Called after each edit, e.g. to search or filter as the user types. */
typedef void (*prompt_change_fn)(struct tui *t, const char *text);

/* The row the prompt uses: the status line, or the last line on tiny screens. */
static int prompt_row(const struct tui *t)
{
	if (t->lay.status_row >= 0)
		return t->lay.status_row;
	return LINES > 0 ? LINES - 1 : 0;
}

/* Returns true on Enter, false on Esc (or a quit signal). */
static bool prompt_run(struct tui *t, const char *label, struct input *in, prompt_change_fn on_change)
{
	for (;;) {
		tui_paint(t);
		struct buf line;
		buf_init(&line);
		buf_adds(&line, label);
		buf_adds(&line, in->text);
		int y = prompt_row(t);
		/* the line as typed, sanitized: what you typed is what is searched */
		tui_put(y, 0, COLS, buf_str(&line), term_attr(ROLE_HEADER_LABEL));
		size_t w = text_width(buf_str(&line), line.len, term_utf8());
		buf_free(&line);
		if ((int)w < COLS)
			tui_put(y, (int)w, 1, "_", A_BLINK);
		int key = tui_dialog_key();
		if (key == TUI_KEY_QUIT)
			return false;
		if (key == ERR)
			continue;
		switch (input_key(in, key)) {
		case INPUT_DONE:
			return true;
		case INPUT_CANCEL:
			return false;
		case INPUT_CHANGED:
			if (on_change)
				on_change(t, in->text);
			break;
		case INPUT_NONE:
			break;
		}
	}
}

static bool row_matches(const struct row *r, const char *text)
{
	const struct tv_task *k = r->task;
	return text_contains_icase(k->comm, text) || (!r->is_thread && k->cmdline && text_contains_icase(k->cmdline, text));
}

bool tui_search_next(struct tui *t, bool from_current)
{
	if (!t->search || !*t->search || t->rows.n == 0)
		return false;
	size_t n = t->rows.n;
	for (size_t k = from_current ? 0 : 1; k <= n; k++) {
		size_t i = (t->sel + k) % n;
		if (row_matches(&t->rows.v[i], t->search)) {
			tui_select(t, i);
			return true;
		}
	}
	return false;
}

static void search_changed(struct tui *t, const char *text)
{
	free(t->search);
	t->search = *text ? strdup(text) : NULL;
	if (t->search && !tui_search_next(t, true))
		tui_status(t, ROLE_ERROR, "%s", _("no match"));
}

void dialog_search(struct tui *t)
{
	struct input in;
	input_set(&in, "");
	/* TRANSLATORS: prompt of the incremental search */
	if (!prompt_run(t, _("Search: "), &in, search_changed)) {
		free(t->search);
		t->search = NULL;
	}
}

static void filter_changed(struct tui *t, const char *text)
{
	filter_set_text(&t->filter, text);
	/* the sampler filters: read again so the list follows the typing */
	tui_sample(t, true);
}

void dialog_filter(struct tui *t)
{
	struct input in;
	input_set(&in, t->filter.text);
	/* TRANSLATORS: prompt of the filter; Esc clears it */
	if (!prompt_run(t, _("Filter: "), &in, filter_changed) && t->filter.text) {
		filter_set_text(&t->filter, NULL);
		tui_sample(t, true);
	}
}

void dialog_pids(struct tui *t)
{
	struct input in;
	struct buf cur;
	buf_init(&cur);
	for (size_t i = 0; i < t->filter.npids; i++)
		buf_addf(&cur, "%s%d", i ? "," : "", t->filter.pids[i]);
	input_set(&in, buf_str(&cur));
	buf_free(&cur);
	/* TRANSLATORS: prompt for the PID list; empty shows every process */
	if (!prompt_run(t, _("PIDs (comma-separated, empty for all): "), &in, NULL))
		return;
	struct filter tmp;
	filter_init(&tmp);
	char *bad = NULL;
	/* blanks around the commas are forgiven */
	char clean[INPUT_MAX];
	size_t k = 0;
	for (size_t i = 0; i < in.len; i++)
		if (in.text[i] != ' ')
			clean[k++] = in.text[i];
	clean[k] = '\0';
	if (k && filter_add_pids(&tmp, clean, &bad) < 0) {
		tui_status(t, ROLE_ERROR, _("not a PID: '%s'"), bad ? bad : clean);
		free(bad);
		filter_free(&tmp);
		return;
	}
	free(t->filter.pids);
	t->filter.pids = tmp.pids;
	t->filter.npids = tmp.npids;
	tmp.pids = NULL;
	filter_free(&tmp);
	tui_sample(t, true);
}

void dialog_delay(struct tui *t)
{
	struct input in;
	char cur[32];
	snprintf(cur, sizeof(cur), "%.1f", t->delay);
	input_set(&in, cur);
	/* TRANSLATORS: prompt for the refresh interval */
	if (!prompt_run(t, _("Refresh interval in seconds: "), &in, NULL))
		return;
	double d;
	if (!num_parse_double(in.text, &d) || d < 0.1 || d > 86400) {
		tui_status(t, ROLE_ERROR, _("bad interval '%s' (seconds, at least 0.1)"), in.text);
		return;
	}
	t->delay = d;
	t->next_due = t->cur.mono + d;
	tui_status(t, ROLE_STATUS, _("refreshing every %.1f s"), d);
}
