/* SPDX-License-Identifier: GPL-2.0-or-later */
/* i: everything known about the selected task (delays, memory, context
 * switches, command line), in a panel over the main screen that follows
 * each new sample; w: the command line alone, wrapped; e: the environment;
 * l: the open files. */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hosts/fleet.h"
#include "model/column.h"
#include "render/detail.h"
#include "sample/memory/anatomy.h"
#include "sample/background.h"
#include "sample/sampler.h"
#include "tui/dialogs/dialogs.h"
#include "tui/dialogs/inspect.h"
#include "tui/screen/draw.h"
#include "tui/keys/keymap.h"
#include "tui/sampling.h"
#include "tui/screen/screen.h"
#include "tui/screen/status.h"
#include "tui/timeline.h"
#include "tui/view.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"

/* Read while the panel is open, whatever the columns: it shows all of it. */
#define PANEL_NEEDS (NEED_STATUS | NEED_CTXT | NEED_DELAY | NEED_CMDLINE | NEED_CGROUP_MEM | NEED_CGROUP_PSI)

/* One screen line: a detail line, or one piece of a wrapped note. */
struct pline {
	enum detail_kind kind;
	const char *label;
	size_t label_len;
	const char *value; /* DETAIL_ROW only */
};

enum panel_kind {
	PANEL_DETAIL,             /* i */
	PANEL_COMMAND,            /* w: the command line alone */
	PANEL_ENVIRON,            /* e */
	PANEL_FILES,              /* l */
};

struct panel {
	enum panel_kind kind;
	/* the task shown: it keeps the panel when the selection would move */
	int32_t tid, tgid;
	bool thread;
	char *group;              /* a control group's row: its path */
	bool gone;                /* not in the last sample: the lines are its last */
	char comm[TV_COMM_MAX];   /* raw; sanitized when drawn */
	struct detail_lines dl;
	struct pline *pl;         /* dl laid out for the current width */
	size_t npl, cappl;
	bool pl_oom;
	size_t top;               /* first line shown */
	bool at_end;              /* scrolled to the last line: kept there as lines are added */
	size_t body_h;            /* lines shown at once, as last painted */
	/* the process's address space, read off the screen's thread (background_ask_anatomy),
	 * or by its host on the hosts' screen (why: raw, the host's reason it was not) */
	struct background_anatomy an;
	bool have_an;
	char an_why[256];
	double an_at;             /* CLOCK_MONOTONIC of the host's last answer */
};

/* A host's process is read there over ssh, a connection each time: again at
 * most this often (s) while the panel is open, not at each refresh. */
#define PANEL_REMOTE_EVERY 5.0

/* e and l read /proc themselves: 0, or an errno (the lines are kept). */
static int panel_inspect(struct panel *p)
{
	struct detail_lines dl;
	detail_lines_init(&dl);
	int e = p->kind == PANEL_ENVIRON ? inspect_environ(p->tgid, &dl) : inspect_files(p->tgid, p->tid, &dl);
	if (e) {
		detail_lines_free(&dl);
		return e;
	}
	detail_lines_free(&p->dl);
	p->dl = dl;
	return 0;
}

/* Whether the panel shows a live process's mappings by kind: read for the panel
 * alone, at each sample while it is open (a process of 1,000 threads: about
 * 3 ms of CPU; one of 100,000 mappings whose lock a fork loop holds: seconds). */
static const struct tv_task *panel_anatomy_of(const struct tui *t, const struct panel *p)
{
	/* a recording holds no address space: a live host's is read there */
	if (p->kind != PANEL_DETAIL || p->group || p->thread || (t->replay && !tui_fleet_live(t)))
		return NULL;
	const struct tv_task *task = snapshot_find(&t->cur, p->tgid);
	return task && !task->kthread ? task : NULL;
}

/* Asks for a new reading of the mappings, on the sampling side's thread for
 * them: the screen goes on, and shows the last reading until it comes. */
static void panel_ask_anatomy(struct tui *t, struct panel *p)
{
	const struct tv_task *task = panel_anatomy_of(t, p);
	if (task && tui_fleet_live(t)) {
		/* one at a time: not while one is on its way or its answer waits to be taken */
		const struct fleet_anatomy *fa = &t->replay->an;
		const char *why = NULL;
		if (!fa->asked && !fa->ready && (p->an_at == 0 || clock_now(CLOCK_MONOTONIC) - p->an_at >= PANEL_REMOTE_EVERY) &&
		    tui_fleet_ask_anatomy(t, p->tgid, task->start_ticks, &why) < 0 && !p->have_an)
			snprintf(p->an_why, sizeof(p->an_why), "%s", why);
		return;
	}
	if (t->bg && task)
		(void)background_ask_anatomy(t->bg, p->tgid);
}

/* The answer of the process's host, when it came. */
static bool panel_take_remote(struct tui *t, struct panel *p, struct background_anatomy *an)
{
	struct fleet_anatomy *fa = &t->replay->an;
	if (!fa->ready)
		return false;
	fa->ready = false;
	if (fa->an.tgid != p->tgid) {
		/* asked by a panel closed since: this one asks again */
		anatomy_free(&fa->an.a);
		return false;
	}
	p->an_at = clock_now(CLOCK_MONOTONIC);
	snprintf(p->an_why, sizeof(p->an_why), "%s", fa->why);
	if (fa->why[0]) {
		anatomy_free(&fa->an.a);
		if (p->have_an)
			anatomy_free(&p->an.a);
		p->have_an = false;
		return true;
	}
	*an = fa->an;
	return true;
}

/* Takes a reading that came; false when none did (or it is another process's). */
static bool panel_take_anatomy(struct tui *t, struct panel *p)
{
	struct background_anatomy an;
	if (tui_fleet_live(t)) {
		if (!panel_take_remote(t, p, &an))
			return false;
		if (p->an_why[0])
			return true;
	} else if (!t->bg || !background_take_anatomy(t->bg, &an)) {
		return false;
	}
	if (an.tgid != p->tgid) {
		anatomy_free(&an.a);
		return false;
	}
	if (p->have_an)
		anatomy_free(&p->an.a);
	p->an = an;
	p->have_an = true;
	return true;
}

static void panel_anatomy(struct panel *p, const struct tv_task *task, bool async)
{
	if (p->an_why[0]) {
		detail_anatomy_why(p->an_why, &p->dl);
		return;
	}
	if (async) {
		detail_anatomy(p->have_an ? &p->an.a : NULL, p->have_an ? &p->an.pg : NULL, p->have_an ? p->an.err : 0,
			       task, &p->dl);
		return;
	}
	struct anatomy a;
	struct anatomy_pages pg;
	anatomy_init(&a);
	int err = anatomy_read(task->tgid, &a, &pg);
	detail_anatomy(&a, &pg, err, task, &p->dl);
	anatomy_free(&a);
}

/* Rebuilds the lines from the last sample; keeps the old ones if the task is gone. */
/* Why a value marked + lacks a part in the refresh shown: the exit records
 * (a thread's final counters) were lost, or are not read, and why. */
static const char *panel_partial_why(const struct tui *t, char *buf, size_t n)
{
	const struct snapshot *s = &t->cur;
	if (s->exits_watched && s->exits_lost) {
		/* TRANSLATORS: %llu exit records the kernel or taskview's budget dropped */
		snprintf(buf, n, _("In this refresh %llu exit records were lost to a storm of exits."),
			 (unsigned long long)s->exits_lost);
		return buf;
	}
	if (!s->exits_watched && s->exits_why) {
		/* TRANSLATORS: %s says why exit records are not read */
		snprintf(buf, n, _("Exit records are not read: %s."), s->exits_why);
		return buf;
	}
	return NULL;
}

static void panel_update(const struct tui *t, struct panel *p)
{
	char why[256];
	const struct tv_task *task = NULL;
	if (p->group) {
		const struct row_group *g = NULL;
		for (size_t i = 0; i < t->rows.n && !g; i++)
			if (t->rows.v[i].group && strcmp(t->rows.v[i].task->cgroup->path, p->group) == 0)
				g = t->rows.v[i].group;
		p->gone = g == NULL;
		if (g)
			detail_build_group(g, t->have_prev ? t->cur.mono - t->prev.mono : 0,
					   panel_partial_why(t, why, sizeof(why)), &p->dl);
		return;
	}
	for (size_t i = 0; i < t->rows.n && !task; i++) {
		const struct row *r = &t->rows.v[i];
		if (!r->group && r->task->tid == p->tid && r->is_thread == p->thread)
			task = r->task;
	}
	p->gone = task == NULL;
	if (!task)
		return;
	snprintf(p->comm, sizeof(p->comm), "%s", task_comm(task));
	if (p->kind == PANEL_ENVIRON || p->kind == PANEL_FILES) {
		/* the recording has no environment or files: only live tasks */
		if (panel_inspect(p) == ESRCH)
			p->gone = true;
		return;
	}
	if (p->kind == PANEL_COMMAND) {
		/* threads share their process's command line */
		const struct tv_task *proc = snapshot_find(&t->cur, p->tgid);
		detail_lines_free(&p->dl);
		detail_lines_init(&p->dl);
		struct tv_task copy = proc ? *proc : *task;
		copy.is_thread = false;
		copy.threads = NULL;
		copy.nthreads_read = 0;
		detail_command(&copy, &p->dl);
		return;
	}
	/* the rates on screen were measured from prev to cur */
	const struct tv_task *prev = NULL;
	double interval = 0;
	if (t->have_prev) {
		prev = snapshot_find(&t->prev, p->tgid);
		if (prev && p->thread)
			prev = task_find_thread(prev, p->tid);
		interval = t->cur.mono - t->prev.mono;
	}
	detail_build(task, prev, interval, p->thread, panel_partial_why(t, why, sizeof(why)), &p->dl);
	if (panel_anatomy_of(t, p))
		panel_anatomy(p, task, t->bg != NULL || tui_fleet_live(t));
}

static void pl_add(struct panel *p, enum detail_kind kind, const char *label, size_t len, const char *value)
{
	if (p->npl == p->cappl) {
		size_t cap = p->cappl ? 2 * p->cappl : 64;
		struct pline *v = realloc(p->pl, cap * sizeof(*v));
		if (!v) {
			p->pl_oom = true;
			return;
		}
		p->pl = v;
		p->cappl = cap;
	}
	p->pl[p->npl++] = (struct pline){kind, label, len, value};
}

/* Bytes of s (a word without blanks, len bytes) that fit in width columns; at least one character. */
static size_t fit_bytes(const char *s, size_t len, size_t width, bool utf8)
{
	size_t n = 0;
	while (n < len) {
		uint32_t cp;
		size_t adv = utf8_decode((const unsigned char *)s + n, len - n, &cp);
		if (adv == 0)
			adv = 1;
		if (n && text_width(s, n + adv, utf8) > width)
			break;
		n += adv;
	}
	return n;
}

/* Splits a note into lines of at most width columns, at blanks where it can. */
static void pl_wrap(struct panel *p, const char *s, size_t width, bool utf8)
{
	if (width == 0)
		width = 1;
	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			return;
		size_t take = 0;
		for (size_t i = 0;;) {
			size_t j = i;
			while (s[j] && s[j] != ' ')
				j++;
			if (text_width(s, j, utf8) > width)
				break;
			take = j;
			if (!s[j])
				break;
			i = j + 1;
		}
		if (take == 0) /* one word wider than the panel: cut it */
			take = fit_bytes(s, strcspn(s, " "), width, utf8);
		pl_add(p, DETAIL_NOTE, s, take, NULL);
		s += take;
	}
}

static const char *panel_hint(const struct tui *t, const struct panel *p)
{
	if (p->kind == PANEL_ENVIRON)
		return _("Up/Down/PgUp/PgDn: scroll   Esc, q, e: close");
	if (p->kind == PANEL_FILES)
		return _("Up/Down/PgUp/PgDn: scroll   Esc, q, l: close");
	bool command = p->kind == PANEL_COMMAND;
	if (tui_recording(t))
		return command ? _("Up/Down/PgUp/PgDn: scroll   b, f: step   Esc, q, w: close")
				  : _("Up/Down/PgUp/PgDn: scroll   b, f: step   Esc, q, i: close");
	return command ? _("Up/Down/PgUp/PgDn: scroll   Esc, q, w: close")
			  : _("Up/Down/PgUp/PgDn: scroll   Esc, q, i: close");
}

struct geom {
	int y0, x0, h, w;  /* inside the border */
	bool border;       /* a frame around it, where the screen has room */
	size_t inner;  /* text columns inside the one-column margins */
	size_t pad;    /* the left margin: 1, or 0 on the narrowest screens */
	size_t lw;     /* label column */
};

/* Sizes the panel for the screen and lays the lines out to its width. */
static bool panel_layout(const struct tui *t, struct panel *p, struct geom *g)
{
	bool utf8 = term_utf8();
	if (LINES <= 0 || COLS <= 0)
		return false;
	size_t lw = 0, natural = 40;
	for (size_t i = 0; i < p->dl.n; i++) {
		const struct detail_line *d = &p->dl.v[i];
		size_t w = text_width(d->label, strlen(d->label), utf8);
		if (d->kind == DETAIL_ROW && w > lw)
			lw = w;
	}
	for (size_t i = 0; i < p->dl.n; i++) {
		const struct detail_line *d = &p->dl.v[i];
		size_t w = text_width(d->label, strlen(d->label), utf8);
		if (d->kind == DETAIL_ROW)
			w = lw + 2 + text_width(d->value, strlen(d->value), utf8);
		/* notes wrap to the width the rows need; they never widen the panel */
		if (d->kind != DETAIL_NOTE && w > natural)
			natural = w;
	}
	/* wide enough for the key hint with its line counter, which tells the
	 * user there is more to scroll to */
	struct buf hint;
	buf_init(&hint);
	buf_adds(&hint, panel_hint(t, p));
	buf_addf(&hint, _("   lines %zu-%zu of %zu"), p->dl.n * 2, p->dl.n * 2, p->dl.n * 2);
	size_t hw = text_width(buf_str(&hint), hint.len, utf8);
	buf_free(&hint);
	if (hw > natural)
		natural = hw;
	/* a frame sets the panel apart from the table beneath it */
	g->border = COLS >= 12 && LINES >= 6;
	int frame = g->border ? 2 : 0;
	size_t cols = (size_t)(COLS - frame);
	g->w = (int)(natural + 2 < cols ? natural + 2 : cols);
	g->inner = g->w >= 3 ? (size_t)g->w - 2 : (size_t)g->w;
	g->pad = g->w >= 3 ? 1 : 0;
	/* on a narrow screen the values keep at least half of it */
	g->lw = lw + 2 + 12 > g->inner ? g->inner / 2 : lw;

	p->npl = 0;
	p->pl_oom = false;
	for (size_t i = 0; i < p->dl.n; i++) {
		const struct detail_line *d = &p->dl.v[i];
		if (d->kind == DETAIL_NOTE)
			pl_wrap(p, d->label, g->inner, utf8);
		else
			pl_add(p, d->kind, d->label, strlen(d->label), d->value);
	}
	/* the title, the lines, the key hint; all of the screen when it is small */
	size_t want = p->npl + 2;
	size_t lines = (size_t)(LINES - frame);
	g->h = want < lines ? (int)want : (int)lines;
	g->y0 = (LINES - g->h) / 2;
	g->x0 = (COLS - g->w) / 2;
	return true;
}

/* Appends s (len bytes) sanitized and padded to exactly cols columns. */
static void put_fit(struct buf *b, const char *s, size_t len, size_t cols)
{
	size_t used = text_sanitize(b, s, len, cols, term_utf8());
	buf_pad(b, ' ', cols - used);
}

static void panel_line(struct buf *b, const struct geom *g, const struct pline *l)
{
	size_t inner = g->inner;
	buf_pad(b, ' ', g->pad);
	if (l->kind == DETAIL_ROW) {
		size_t lw = g->lw < inner ? g->lw : inner;
		size_t gap = inner - lw < 2 ? inner - lw : 2;
		put_fit(b, l->label, l->label_len, lw);
		buf_pad(b, ' ', gap);
		put_fit(b, l->value, strlen(l->value), inner - lw - gap);
	} else {
		put_fit(b, l->label, l->label_len, inner);
	}
	buf_pad(b, ' ', (size_t)g->w - inner - g->pad);
}

static void panel_paint(const struct tui *t, struct panel *p)
{
	struct geom g;
	if (!panel_layout(t, p, &g))
		return;
	if (g.border) {
		int a = term_attr(ROLE_DIALOG);
		attron(a);
		mvaddch(g.y0 - 1, g.x0 - 1, ACS_ULCORNER);
		mvhline(g.y0 - 1, g.x0, ACS_HLINE, g.w);
		mvaddch(g.y0 - 1, g.x0 + g.w, ACS_URCORNER);
		mvvline(g.y0, g.x0 - 1, ACS_VLINE, g.h);
		mvvline(g.y0, g.x0 + g.w, ACS_VLINE, g.h);
		mvaddch(g.y0 + g.h, g.x0 - 1, ACS_LLCORNER);
		mvhline(g.y0 + g.h, g.x0, ACS_HLINE, g.w);
		mvaddch(g.y0 + g.h, g.x0 + g.w, ACS_LRCORNER);
		attroff(a);
	}
	bool hint = g.h >= 3;
	size_t body = (size_t)g.h - 1 - (hint ? 1 : 0);
	p->body_h = body;
	size_t last = p->npl > body ? p->npl - body : 0;
	if (p->top > last || p->at_end)
		p->top = last;

	struct buf title, line;
	buf_init(&title);
	buf_init(&line);
	/* the name is raw kernel bytes: put_fit sanitizes the whole title */
	if (p->group)
		/* TRANSLATORS: title of the detail panel of a control group: its name and path */
		buf_addf(&title, _("Control group %s (%s)"), p->comm, p->group);
	else if (p->kind == PANEL_COMMAND)
		/* TRANSLATORS: title of the w panel */
		buf_addf(&title, _("Command line of process %d: %s"), (int)task_id_pid(p->tgid), p->comm);
	else if (p->kind == PANEL_ENVIRON)
		/* TRANSLATORS: title of the e panel */
		buf_addf(&title, _("Environment of process %d: %s"), (int)task_id_pid(p->tgid), p->comm);
	else if (p->kind == PANEL_FILES && p->thread)
		/* TRANSLATORS: title of the l panel on a thread's row */
		buf_addf(&title, _("Open files of thread %d of process %d: %s"), (int)task_id_pid(p->tid), (int)task_id_pid(p->tgid), p->comm);
	else if (p->kind == PANEL_FILES)
		/* TRANSLATORS: title of the l panel */
		buf_addf(&title, _("Open files of process %d: %s"), (int)task_id_pid(p->tid), p->comm);
	else if (p->thread)
		buf_addf(&title, _("Thread %d of process %d: %s"), (int)task_id_pid(p->tid), (int)task_id_pid(p->tgid), p->comm);
	else
		buf_addf(&title, _("Process %d: %s"), (int)task_id_pid(p->tid), p->comm);
	const struct fleet *f = tui_fleet(t);
	if (f && !p->group && task_id_host(p->tgid) < f->n)
		/* TRANSLATORS: after the detail panel's title on the hosts' screen; %s is the task's host */
		buf_addf(&title, _(" on %s"), f->names.v[task_id_host(p->tgid)]);
	if (p->gone)
		/* in a replay, a sample before the task started or after it ended */
		buf_addf(&title, " %s", t->replay ? _("(not in this sample)") : _("(exited)"));
	if (tui_recording(t)) {
		/* the panel steps with the replay: the sample's own time */
		char when[64];
		tui_replay_time(when, sizeof(when), t->have_cur ? t->cur.wall : NAN);
		/* TRANSLATORS: after the detail panel's title in a replay; %s is the sample's date and time */
		buf_addf(&title, _(" at %s"), when);
	}
	if (t->frozen)
		buf_addf(&title, " %s", _("[frozen]"));
	if (p->dl.oom || p->pl_oom)
		buf_addf(&title, " %s", _("(out of memory: incomplete)"));
	buf_pad(&line, ' ', g.pad);
	put_fit(&line, buf_str(&title), title.len, g.inner);
	buf_pad(&line, ' ', (size_t)g.w - g.inner - g.pad);
	tui_put_raw(g.y0, g.x0, &line, term_attr(ROLE_TABLE_HEAD));

	for (size_t k = 0; k < body; k++) {
		size_t i = p->top + k;
		static const struct pline blank = {DETAIL_NOTE, "", 0, NULL};
		const struct pline *l = i < p->npl ? &p->pl[i] : &blank;
		buf_reset(&line);
		panel_line(&line, &g, l);
		int attr = term_attr(ROLE_DIALOG);
		if (l->kind == DETAIL_HEADING)
			attr |= A_BOLD;
		tui_put_raw(g.y0 + 1 + (int)k, g.x0, &line, attr);
	}

	if (hint) {
		buf_reset(&title);
		buf_adds(&title, panel_hint(t, p));
		if (last)
			/* TRANSLATORS: which lines of the detail panel are shown: first-last of all */
			buf_addf(&title, _("   lines %zu-%zu of %zu"), p->top + 1, p->top + body, p->npl);
		buf_reset(&line);
		buf_pad(&line, ' ', g.pad);
		put_fit(&line, buf_str(&title), title.len, g.inner);
		buf_pad(&line, ' ', (size_t)g.w - g.inner - g.pad);
		tui_put_raw(g.y0 + g.h - 1, g.x0, &line, term_attr(ROLE_KEY_LABEL));
	}
	buf_free(&line);
	buf_free(&title);
}

static void panel_scroll(struct panel *p, int key)
{
	size_t body = p->body_h ? p->body_h : 1;
	size_t page = body > 1 ? body - 1 : 1;
	size_t last = p->npl > body ? p->npl - body : 0;
	switch (key) {
	case KEY_UP:
		p->top = p->top ? p->top - 1 : 0;
		break;
	case KEY_DOWN:
	case 'j':
		p->top = p->top < last ? p->top + 1 : last;
		break;
	case KEY_PPAGE:
		p->top = p->top > page ? p->top - page : 0;
		break;
	case KEY_NPAGE:
	case ' ':
		p->top = p->top + page < last ? p->top + page : last;
		break;
	case KEY_HOME:
		p->top = 0;
		break;
	case KEY_END:
		/* kept at the end: a section read later (the address space) comes into view */
		p->top = last;
		p->at_end = true;
		return;
	default:
		return;
	}
	p->at_end = p->top == last && last > 0;
}

/* As the main loop: wake for the next sample, and at least once a second. */
static int panel_wait_ms(const struct tui *t)
{
	if (t->frozen || t->sampling)
		return 1000;
	double ms = (t->next_due - clock_now(CLOCK_MONOTONIC)) * 1000.0;
	if (ms < 0)
		return 0;
	return ms > 1000 ? 1000 : (int)ceil(ms);
}

/* Why e or l shows nothing: the status line says so. */
static void inspect_refused(struct tui *t, const struct panel *p, int e)
{
	const char *what = p->kind == PANEL_ENVIRON ? _("the environment") : _("the open files");
	if (e == EACCES || e == EPERM)
		/* TRANSLATORS: %1$s: "the environment" or "the open files" */
		tui_status(t, ROLE_ERROR, _("cannot read %s of %d (%s): it belongs to another user (needs root)"), what,
			   (int)p->tid, p->comm);
	else if (e == ESRCH)
		tui_status(t, ROLE_ERROR, _("cannot read %s of %d (%s): it has exited"), what, (int)p->tid, p->comm);
	else
		tui_status(t, ROLE_ERROR, _("cannot read %s of %d (%s): %s"), what, (int)p->tid, p->comm, strerror(e));
}

static void panel_run(struct tui *t, enum panel_kind kind)
{
	const struct row *r = tui_current(t);
	if (!r)
		return;
	bool command = kind == PANEL_COMMAND;
	bool inspect = kind == PANEL_ENVIRON || kind == PANEL_FILES;
	if (r->group && command) {
		tui_status(t, ROLE_ERROR, "%s", _("a control group has no command line: i shows its details"));
		return;
	}
	if (r->group && inspect) {
		tui_status(t, ROLE_ERROR, "%s", _("a control group has no environment or open files: select one of its processes"));
		return;
	}
	/* TRANSLATORS: e or l in a replay (-r) */
	if (inspect && tui_replay_refuse(t, _("a replay has no environment or open files: they are read from running tasks")))
		return;
	struct panel p;
	memset(&p, 0, sizeof(p));
	detail_lines_init(&p.dl);
	p.kind = kind;
	p.tid = r->task->tid;
	p.tgid = r->task->tgid;
	p.thread = r->is_thread;
	if (r->group && !(p.group = strdup(r->task->cgroup->path)))
		return;
	snprintf(p.comm, sizeof(p.comm), "%s", task_comm(r->task));
	if (inspect) {
		int e = panel_inspect(&p);
		if (e) {
			inspect_refused(t, &p, e);
			detail_lines_free(&p.dl);
			return;
		}
	}

	/* the shown columns may not need status, taskstats, switches or the
	 * command line: read them now, so the figures since start appear at
	 * once (the interval's follow with the next sample) */
	/* the thread whose panel is open keeps its delay extremes */
	t->peaks_tid = p.thread ? p.tid : 0;
	unsigned want = command ? NEED_CMDLINE : inspect ? 0 : PANEL_NEEDS;
	unsigned before = t->needs;
	if ((t->needs & want) != want) {
		t->needs |= want;
		tui_open_taskstats(t);
		if (!t->frozen && tui_sample(t, true) < 0)
			goto out;
	}
	panel_ask_anatomy(t, &p);
	panel_update(t, &p);
	static const int close_keys[] = {[PANEL_DETAIL] = 'i', [PANEL_COMMAND] = 'w', [PANEL_ENVIRON] = 'e', [PANEL_FILES] = 'l'};
	int close_key = close_keys[kind];
	for (;;) {
		tui_paint(t);
		panel_paint(t, &p);
		wnoutrefresh(stdscr);
		doupdate();
		/* a failure is the main loop's to report: it samples next */
		if (tui_tick(t) < 0)
			break;
		int key = tui_key_wait(t, panel_wait_ms(t));
		if (term_quit_signal())
			break;
		if (key == TERM_KEY_WAKE) {
			int c = tui_collect(t);
			if (c < 0)
				break;
			if (c > 0)
				panel_ask_anatomy(t, &p);
			/* one wake may bring a sample and a reading of the map */
			bool mapped = panel_take_anatomy(t, &p);
			if (c > 0 || mapped)
				panel_update(t, &p);
			continue;
		}
		if (key == ERR)
			continue;
		if (key == 27 || key == 'q' || key == close_key)
			break;
		enum tui_action a = keymap_action(key, tui_recording(t));
		if (t->replay && (a == ACT_REPLAY_BACK || a == ACT_REPLAY_FORWARD)) {
			tui_replay_step(t, a == ACT_REPLAY_FORWARD ? 1 : -1);
			panel_update(t, &p);
			continue;
		}
		panel_scroll(&p, key);
	}
out:
	t->peaks_tid = 0;
	if (t->needs != before)
		tui_columns_changed(t);
	detail_lines_free(&p.dl);
	if (p.have_an)
		anatomy_free(&p.an.a);
	free(p.pl);
	free(p.group);
}

void dialog_detail(struct tui *t)
{
	panel_run(t, PANEL_DETAIL);
}

void dialog_command(struct tui *t)
{
	panel_run(t, PANEL_COMMAND);
}

void dialog_environ(struct tui *t)
{
	panel_run(t, PANEL_ENVIRON);
}

void dialog_files(struct tui *t)
{
	panel_run(t, PANEL_FILES);
}
