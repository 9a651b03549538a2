/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dialogs that read a line on the status row: search, filter, PIDs, delay.
 * Search and filter work on the current sample as you type. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosts/tape.h"
#include "tui/dialogs/dialogs.h"
#include "tui/screen/draw.h"
#include "tui/keys/input.h"
#include "tui/timeline.h"
#include "tui/sampling.h"
#include "tui/screen/screen.h"
#include "tui/keys/search.h"
#include "tui/view.h"
#include "util/i18n.h"
#include "util/num.h"
#include "util/text.h"

struct prompt {
	const char *label;      /* translated */
	struct input in;
	/* after each edit, e.g. to search or filter as the user types */
	void (*changed)(struct tui *t, const char *text);
	/* a note after the text (nothing when it adds none); returns true when
	 * the note reports a failure */
	bool (*note)(struct tui *t, struct buf *out);
};

/* The row the prompt uses: the status line, or the last line on tiny screens. */
static int prompt_row(const struct tui *t)
{
	if (t->lay.status_row >= 0)
		return t->lay.status_row;
	return LINES > 0 ? LINES - 1 : 0;
}

static void prompt_paint(struct tui *t, struct prompt *p)
{
	tui_paint(t);
	int y = prompt_row(t);
	struct buf line;
	buf_init(&line);
	buf_adds(&line, p->label);
	buf_adds(&line, p->in.text);
	/* the whole line: nothing of the status line stays behind the prompt */
	tui_put_line(y, buf_str(&line), term_attr(ROLE_HEADER_LABEL));
	int x = (int)text_width(buf_str(&line), line.len, term_utf8());
	buf_free(&line);
	if (x < COLS)
		tui_put(y, x, 1, "_", A_BLINK);
	struct buf note;
	buf_init(&note);
	bool bad = p->note && p->note(t, &note);
	if (note.len && x + 3 < COLS)
		tui_put(y, x + 3, COLS - x - 3, buf_str(&note), term_attr(bad ? ROLE_ERROR : ROLE_STATUS));
	buf_free(&note);
}

/* Whether the sample shown has what the text is matched on. Replayed (or
 * the hosts' merge), it is all there is; frozen, so is the sample taken.
 * Before the first sample there is nothing to match: Enter waits for the
 * one on its way (a prompt opened at once, on a busy machine). */
static bool prompt_can_match(const struct tui *t)
{
	return t->replay || (t->have_cur && (t->frozen || tui_sample_sufficient(t)));
}

/* Keys typed after Enter while the prompt waits for its sample: the
 * screen's, in order, once it closes (ungetch gives back the last one first). */
#define PROMPT_AHEAD 64

static bool prompt_close(const int *ahead, size_t n)
{
	while (n > 0)
		ungetch(ahead[--n]);
	return true;
}

/* Returns true on Enter, false on Esc (or a quit signal). */
static bool prompt_run(struct tui *t, struct prompt *p)
{
	bool done = false; /* Enter came while the sample lacked what the text is matched on */
	int ahead[PROMPT_AHEAD];
	size_t nahead = 0;
	for (;;) {
		prompt_paint(t, p);
		bool sampled;
		int key = tui_dialog_key_live(t, &sampled);
		if (key == TUI_KEY_QUIT)
			return false;
		/* A sample arrived: the text is matched again on it. A refresh asked
		 * for before the prompt opened carries no names: matched on, it would
		 * read as "not found", so one with them is asked for, unless a
		 * sample is on its way (asked for while the prompt was open). */
		if (sampled && p->changed) {
			if (prompt_can_match(t)) {
				p->changed(t, p->in.text);
				if (done)
					return prompt_close(ahead, nahead);
			} else if (!t->sampling && tui_sample(t, true) < 0) {
				return false;
			}
		}
		if (key == ERR)
			continue;
		if (done) {
			/* the text is given: what follows is for the screen (a click
			 * is dropped: its position is gone with the event) */
			if (nahead < PROMPT_AHEAD && key != KEY_MOUSE)
				ahead[nahead++] = key;
			continue;
		}
		switch (input_key(&p->in, key)) {
		case INPUT_DONE:
			if (!p->changed || prompt_can_match(t))
				return true;
			done = true;
			break;
		case INPUT_CANCEL:
			return false;
		case INPUT_CHANGED:
			/* matched when the sample with names comes, as above */
			if (p->changed && prompt_can_match(t))
				p->changed(t, p->in.text);
			break;
		case INPUT_NONE:
			break;
		}
	}
}

/* Opens a prompt that matches names: the sample must carry the command
 * lines and thread names (one sample, taken once, not one per key). */
static void prompt_names_begin(struct tui *t)
{
	t->typing = true;
	if (!tui_sample_sufficient(t) && !t->frozen)
		tui_sample(t, true);
}

static void search_changed(struct tui *t, const char *text)
{
	free(t->search);
	t->search = *text ? strdup(text) : NULL;
	t->search_missed = t->search && !tui_search_next(t, true, false);
}

static bool search_note(struct tui *t, struct buf *out)
{
	if (!t->search)
		return false;
	if (t->search_missed) {
		/* TRANSLATORS: shown after the search text when nothing matches */
		buf_adds(out, _("not found"));
		return true;
	}
	const char *tn = tui_search_thread_hit(t);
	if (tn)
		/* TRANSLATORS: search found a thread of a folded process; %s is its name */
		buf_addf(out, _("in thread %s: Enter unfolds"), tn);
	return false;
}

void dialog_search(struct tui *t)
{
	/* TRANSLATORS: prompt of the incremental search */
	struct prompt p = {.label = _("Search: "), .changed = search_changed, .note = search_note};
	input_set(&p.in, "");
	free(t->search);
	t->search = NULL;
	prompt_names_begin(t);
	bool ok = prompt_run(t, &p);
	t->typing = false;
	if (ok && t->search_missed)
		tui_status(t, ROLE_ERROR, _("no match for '%s'"), t->search);
	if (!ok || t->search_missed) {
		free(t->search);
		t->search = NULL;
		return;
	}
	/* Enter on a thread found in a folded process unfolds it */
	if (t->search && tui_search_thread_hit(t))
		tui_search_next(t, true, true);
}

static void filter_changed(struct tui *t, const char *text)
{
	filter_set_text(&t->filter, text);
	/* the view filters the sample already taken: nothing is read again */
	tui_rebuild_at(t, false);
}

static bool filter_note(struct tui *t, struct buf *out)
{
	if (t->filter.text && t->rows.n == 0) {
		buf_adds(out, _("not found"));
		return true;
	}
	return false;
}

void dialog_filter(struct tui *t)
{
	/* TRANSLATORS: prompt of the filter; Esc clears it */
	struct prompt p = {.label = _("Filter: "), .changed = filter_changed, .note = filter_note};
	input_set(&p.in, t->filter.text);
	prompt_names_begin(t);
	bool ok = prompt_run(t, &p);
	t->typing = false;
	if (!ok && t->filter.text) {
		filter_set_text(&t->filter, NULL);
		tui_rebuild_at(t, false);
	}
}

static void cgroup_changed(struct tui *t, const char *text)
{
	filter_set_cgroup(&t->filter, text);
	/* as the text filter: on the sample already taken */
	tui_rebuild_at(t, false);
}

static bool cgroup_note(struct tui *t, struct buf *out)
{
	if (t->cur.ncgroups == 0 && t->cur.cgroups_why) {
		buf_adds(out, t->cur.cgroups_why);
		return true;
	}
	if (t->filter.cgroup && t->rows.n == 0) {
		buf_adds(out, _("not found"));
		return true;
	}
	return false;
}

void dialog_cgroup(struct tui *t)
{
	/* TRANSLATORS: prompt of the control-group filter; Esc clears it */
	struct prompt p = {.label = _("Control group: "), .changed = cgroup_changed, .note = cgroup_note};
	input_set(&p.in, t->filter.cgroup);
	/* the groups of every process: one sample, when the one on screen lacks them */
	t->typing_cgroup = true;
	if (!tui_sample_sufficient(t) && !t->frozen)
		tui_sample(t, true);
	bool ok = prompt_run(t, &p);
	t->typing_cgroup = false;
	if (!ok && t->filter.cgroup) {
		filter_set_cgroup(&t->filter, NULL);
		tui_rebuild_at(t, false);
	}
}

void dialog_pids(struct tui *t)
{
	struct buf cur;
	buf_init(&cur);
	for (size_t i = 0; i < t->filter.npids; i++)
		buf_addf(&cur, "%s%d", i ? "," : "", t->filter.pids[i]);
	/* TRANSLATORS: prompt for the PID list; empty shows every process */
	struct prompt p = {.label = _("PIDs (comma-separated, empty for all): ")};
	input_set(&p.in, buf_str(&cur));
	buf_free(&cur);
	if (!prompt_run(t, &p))
		return;
	struct filter tmp;
	filter_init(&tmp);
	char *bad = NULL;
	/* blanks around the commas are forgiven */
	char clean[INPUT_MAX];
	size_t k = 0;
	for (size_t i = 0; i < p.in.len; i++)
		if (p.in.text[i] != ' ')
			clean[k++] = p.in.text[i];
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
	/* the PIDs decide what is read: a new sample */
	if (!t->frozen)
		tui_sample(t, true);
	else
		tui_rebuild_at(t, false);
}

/* d in a replay: samples a whole number of recorded intervals apart. */
/* Seconds typed at label (fmt of cur first), from 0.1 to 86400: true with *d;
 * false when cancelled or bad (said). */
static bool prompt_seconds(struct tui *t, const char *label, const char *fmt, double cur, double *d)
{
	char now[32];
	snprintf(now, sizeof(now), fmt, cur);
	struct prompt p = {.label = label};
	input_set(&p.in, now);
	if (!prompt_run(t, &p))
		return false;
	if (!num_parse_double(p.in.text, d) || !(*d >= 0.1 && *d <= 86400)) {
		tui_status(t, ROLE_ERROR, _("bad interval '%s' (seconds, from 0.1 to 86400)"), p.in.text);
		return false;
	}
	return true;
}

static void dialog_step(struct tui *t)
{
	const struct tui_replay *rp = t->replay;
	if (tui_fleet_live(t)) {
		tui_replay_set_step(t, 0); /* it says why not */
		return;
	}
	double d;
	if (rp->tape) {
		/* TRANSLATORS: prompt of d over a recording of hosts */
		if (prompt_seconds(t, _("Step in seconds: "), "%g", rp->tape->step, &d))
			tui_replay_set_step(t, d);
		return;
	}
	char label[128];
	/* TRANSLATORS: prompt for the step of a replay; %g is the recording's interval in seconds */
	snprintf(label, sizeof(label), _("Step in seconds (a multiple of %g): "), rp->info.interval);
	if (prompt_seconds(t, label, "%g", rp->k * rp->info.interval, &d))
		tui_replay_set_step(t, d);
}

void dialog_when(struct tui *t)
{
	if (!t->replay || tui_fleet_live(t)) {
		tui_replay_step(t, 0);
		return;
	}
	/* TRANSLATORS: prompt of J in a replay */
	struct prompt p = {.label = _("Jump to (HH:MM, HH:MM:SS or YYYY-MM-DD HH:MM): ")};
	input_set(&p.in, "");
	if (prompt_run(t, &p))
		tui_replay_jump(t, p.in.text);
}

void dialog_delay(struct tui *t)
{
	if (t->replay) {
		dialog_step(t);
		return;
	}
	double d;
	/* TRANSLATORS: prompt for the refresh interval */
	if (!prompt_seconds(t, _("Refresh interval in seconds: "), "%.1f", t->delay, &d))
		return;
	t->delay = d;
	t->next_due = t->cur.mono + d;
	tui_status(t, ROLE_STATUS, _("refreshing every %.1f s"), d);
}
