/* The interactive session's state, shared by the TUI's modules (private). */
#ifndef TV_RENDER_TUI_STATE_H
#define TV_RENDER_TUI_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "app.h"
#include "cli.h"
#include "model/snapshot.h"
#include "tui/expset.h"
#include "tui/layout.h"
#include "tui/msgs.h"
#include "tui/term.h"
#include "sample/system.h"
#include "util/buf.h"
#include "view/filter.h"
#include "view/rows.h"

struct sampler;

struct tui {
	struct app *app;
	const struct cli_opts *opts;
	struct tui_msgs *msgs;
	struct sampler *sampler;

	/* what to sample and show; the TUI's own copies, changed by keys */
	struct filter filter;
	struct expset expanded;
	bool all_threads;
	double delay;
	bool frozen;
	unsigned needs;
	bool *plugin_shown;

	/* cur is on screen, prev the sample before it; base is the last
	 * scheduled sample before cur, for rates after an immediate resample */
	struct snapshot prev, cur;
	bool have_prev, have_cur;
	double next_due;          /* CLOCK_MONOTONIC seconds */
	struct rows rows;
	struct sys_info sys_prev, sys_cur;

	/* the selection follows a task, not a screen row */
	size_t sel, top;
	int32_t sel_tid, sel_tgid;
	bool sel_thread, have_sel;

	char *search;             /* last search text, for F3/n */
	struct buf status;        /* one line under the table */
	enum term_role status_role;
	double status_until;      /* hints fade; errors stay until the next key */

	struct layout lay;
	char *config_path;        /* NULL: settings are not saved */
	bool quit;
};

/* sampling.c: take a sample now. immediate: out of schedule (unfold, filter),
 * rates measured from the last scheduled sample. Returns 0 or -1 (fatal). */
int tui_sample(struct tui *t, bool immediate);
/* Rebuilds rows from cur (after a sort or fold change) and keeps the selection. */
void tui_rebuild(struct tui *t);
/* Selects row i (clamped) and remembers its task. */
void tui_select(struct tui *t, size_t i);
/* Recomputes what the sampler reads after the columns or sort changed. */
void tui_columns_changed(struct tui *t);

/* screen.c: paint draws into stdscr, draw also sends it to the terminal */
void tui_paint(struct tui *t);
void tui_draw(struct tui *t);
void tui_status(struct tui *t, enum term_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Draws untrusted or translated text at (y, x), cut to w columns. */
void tui_put(int y, int x, int w, const char *s, int attr);
/* The same for taskview's own text: a backslash shows as itself. */
void tui_put_own(int y, int x, int w, const char *s, int attr);
/* Dialogs: sends what was painted to the terminal and waits up to a second
 * for a key. Returns TUI_KEY_QUIT after a quit signal, ERR when there is
 * only something to repaint (no key, or a resize), else the key. */
#define TUI_KEY_QUIT (-2)
int tui_dialog_key(void);
/* A pre-sanitized line of exactly-known width. */
void tui_put_raw(int y, int x, const struct buf *b, int attr);

/* table.c */
void tui_draw_table(struct tui *t);

/* header.c */
void tui_draw_header(struct tui *t);

/* actions.c */
void tui_act(struct tui *t, int action);

#endif
