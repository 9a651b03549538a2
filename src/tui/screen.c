/* The screen as a whole: layout, status line, key bar, and the primitives
 * every drawing goes through so untrusted text is always sanitized and cut. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tui/keymap.h"
#include "tui/state.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"

void tui_put_raw(int y, int x, const struct buf *b, int attr)
{
	if (y < 0 || y >= LINES || x >= COLS || !b->len)
		return;
	attrset(attr);
	/* the text is already sanitized and cut to fit: curses gets whole UTF-8
	 * sequences only, and never more columns than the line has */
	mvaddnstr(y, x, b->data, (int)b->len);
	attrset(A_NORMAL);
}

static void put_text(int y, int x, int w, const char *s, int attr, bool own)
{
	if (w <= 0 || x < 0 || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	struct buf b;
	buf_init(&b);
	if (own)
		text_sanitize_own(&b, s, strlen(s), (size_t)w, term_utf8());
	else
		text_sanitize(&b, s, strlen(s), (size_t)w, term_utf8());
	tui_put_raw(y, x, &b, attr);
	buf_free(&b);
}

void tui_put(int y, int x, int w, const char *s, int attr)
{
	put_text(y, x, w, s, attr, false);
}

void tui_put_own(int y, int x, int w, const char *s, int attr)
{
	put_text(y, x, w, s, attr, true);
}

int tui_dialog_key(void)
{
	wnoutrefresh(stdscr);
	doupdate();
	int key = term_key(1000);
	if (term_quit_signal())
		return TUI_KEY_QUIT;
	return key == KEY_RESIZE ? ERR : key;
}

void tui_status(struct tui *t, enum term_role role, const char *fmt, ...)
{
	va_list ap;
	char line[512];
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	buf_reset(&t->status);
	buf_adds(&t->status, line);
	t->status_role = role;
	/* hints fade after a few seconds; errors stay until the next key */
	t->status_until = role == ROLE_ERROR ? 0 : clock_now(CLOCK_MONOTONIC) + 5.0;
}

/* What the status line says when no message is pending: the filters in force. */
static void tui_default_status(struct tui *t, struct buf *b)
{
	if (t->frozen)
		buf_adds(b, _("[frozen: z resumes] "));
	if (t->filter.text)
		buf_addf(b, _("Filter: %s (Esc clears) "), t->filter.text);
	if (t->filter.uid != TV_UNKNOWN) {
		/* the name as the sampler resolved it, else the number */
		const char *name = NULL;
		for (size_t i = 0; t->have_cur && i < t->cur.nprocs && !name; i++)
			if (t->cur.procs[i].uid == t->filter.uid)
				name = t->cur.procs[i].user;
		if (name)
			buf_addf(b, _("User: %s "), name);
		else
			buf_addf(b, _("User: %lld "), (long long)t->filter.uid);
	}
	if (t->filter.npids) {
		buf_adds(b, _("PIDs: "));
		for (size_t i = 0; i < t->filter.npids; i++)
			buf_addf(b, "%s%d", i ? "," : "", t->filter.pids[i]);
		buf_addc(b, ' ');
	}
	if (t->search)
		buf_addf(b, _("Search: %s (F3 next) "), t->search);
}

static void tui_draw_status(struct tui *t)
{
	int y = t->lay.status_row;
	if (y < 0)
		return;
	if (t->msgs && t->msgs->shown < t->msgs->n) {
		/* plugin messages: show the newest, say how many came with it */
		size_t extra = t->msgs->n - t->msgs->shown - 1;
		if (extra)
			tui_status(t, ROLE_ERROR,
				   /* TRANSLATORS: a plugin message, then how many more came with it */
				   P_("%s (and %zu more, printed on exit)", "%s (and %zu more, printed on exit)", extra),
				   t->msgs->v[t->msgs->n - 1], extra);
		else
			tui_status(t, ROLE_ERROR, "%s", t->msgs->v[t->msgs->n - 1]);
		t->msgs->shown = t->msgs->n;
	}
	if (t->status.len && (t->status_until == 0 || clock_now(CLOCK_MONOTONIC) < t->status_until)) {
		tui_put(y, 0, COLS, buf_str(&t->status), term_attr(t->status_role));
		return;
	}
	buf_reset(&t->status);
	struct buf b;
	buf_init(&b);
	tui_default_status(t, &b);
	tui_put(y, 0, COLS, buf_str(&b), term_attr(ROLE_STATUS));
	buf_free(&b);
}

static void tui_draw_keybar(struct tui *t)
{
	int y = t->lay.keybar_row;
	if (y < 0)
		return;
	size_t n;
	const struct key_bar_entry *e = keymap_bar(&n);
	int x = 0;
	for (size_t i = 0; i < n && x < COLS; i++) {
		int kw = (int)strlen(e[i].key);
		tui_put(y, x, kw, e[i].key, term_attr(ROLE_KEY));
		x += kw;
		/* labels are padded to 6 so the bar keeps its shape in any language */
		struct buf pad;
		buf_init(&pad);
		text_fit(&pad, _(e[i].label), 6, true, term_utf8());
		tui_put_raw(y, x, &pad, term_attr(ROLE_KEY_LABEL));
		buf_free(&pad);
		x += 6;
	}
	/* the rest of the line in the label colour, as a bar */
	if (x < COLS) {
		struct buf fill;
		buf_init(&fill);
		buf_pad(&fill, ' ', (size_t)(COLS - x));
		tui_put_raw(y, x, &fill, term_attr(ROLE_KEY_LABEL));
		buf_free(&fill);
	}
}

void tui_paint(struct tui *t)
{
	size_t ncpu = t->sys_cur.ncpu;
	layout_compute(LINES, COLS, ncpu, &t->lay);
	/* erase, not clear: curses sends only the cells that differ */
	erase();
	tui_draw_header(t);
	tui_draw_table(t);
	tui_draw_status(t);
	tui_draw_keybar(t);
}

void tui_draw(struct tui *t)
{
	tui_paint(t);
	wnoutrefresh(stdscr);
	doupdate();
}
