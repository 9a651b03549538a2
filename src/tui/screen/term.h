/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The terminal layer: the only code that talks to curses setup, signals and
 * colours. Everything else draws into stdscr with the attributes given here.
 */
#ifndef TV_TUI_TERM_H
#define TV_TUI_TERM_H

#include <stdbool.h>

#include "util/buf.h"

/* What a piece of the screen is; each maps to a colour pair or a mono attribute. */
enum term_role {
	ROLE_NORMAL,
	ROLE_HEADER_LABEL,   /* "Tasks:", "Load:" */
	ROLE_HEADER_VALUE,
	ROLE_TABLE_HEAD,     /* column headers */
	ROLE_TABLE_SORT,     /* the sort column's header */
	ROLE_SELECTED,       /* the selected row */
	ROLE_THREAD,         /* thread rows */
	ROLE_TAGGED,         /* tagged rows (Space) */
	ROLE_BAR_USER,
	ROLE_BAR_NICE,
	ROLE_BAR_SYSTEM,
	ROLE_BAR_OTHER,
	ROLE_BAR_CACHE,
	ROLE_BAR_SWAP,
	ROLE_KEY,            /* "F1" in the key bar */
	ROLE_KEY_LABEL,      /* "Help" in the key bar */
	ROLE_STATUS,         /* hints */
	ROLE_ERROR,          /* errors on the status line */
	ROLE_DIALOG,         /* menu and dialog frames */
	ROLE_NROLES
};

struct term_opts {
	bool color;          /* false: --no-color or NO_COLOR */
	bool utf8;           /* the locale is UTF-8: wide characters and tree glyphs */
	bool mouse;          /* report clicks and the wheel (--no-mouse, mouse=0 turn it off) */
};

/* Opens the screen on the controlling terminal. Returns 0, or -1 with a
 * message in err (unknown TERM, not a terminal). Until term_close(), a fatal
 * signal (which then still ends taskview with its default action) or exit()
 * puts the terminal back first, and what is written to stderr is held back
 * and written out once the screen is closed. */
int term_open(const struct term_opts *o, struct buf *err);
/* Restores the terminal; safe to call twice. */
void term_close(void);
bool term_is_open(void);

/* Whether text may be drawn as UTF-8 (else ASCII only). */
bool term_utf8(void);

/* Curses attribute for a role. */
int term_attr(enum term_role r);

/* Waits up to timeout_ms (negative: forever) for a key; returns the curses
 * key code, or ERR on timeout or a signal. KEY_RESIZE after SIGWINCH. A
 * terminal that is gone (end of file, an error, a hang-up) counts as SIGHUP:
 * term_quit_signal() says so from then on. */
int term_key(int timeout_ms);

/* The signal that asked us to quit (SIGTERM, SIGINT, SIGHUP; SIGHUP also
 * when the terminal is gone), or 0. */
int term_quit_signal(void);
/* Returned by term_key_or() when fd became readable before a key came. */
#define TERM_KEY_WAKE (-3)
/* Like term_key(), but also returns TERM_KEY_WAKE when fd (>= 0) becomes readable. */
int term_key_or(int timeout_ms, int fd);
/* The same for any of the n descriptors of fds (at most TERM_WAIT_FDS_MAX). */
#define TERM_WAIT_FDS_MAX 1024
int term_key_or_any(int timeout_ms, const int *fds, size_t n);
/* A key is waiting to be read (without reading it). */
bool term_input_pending(void);
/* After term_close(): dies of that signal as if we had not caught it. */
void term_reraise(int sig) __attribute__((noreturn));

/* Puts the screen away and runs the program at path (argv[0] its name) on
 * the terminal, writing before first; Ctrl-C and Ctrl-\ are the program's
 * meanwhile, and Esc, q or F10 stops it (SIGINT) and brings the screen
 * straight back: the program must not read the terminal. When it has
 * ended by itself or by Ctrl-C, writes after and waits for Enter (or Esc
 * or q), then brings the screen back. Returns its wait status, or -errno
 * when it could not be started. */
int term_run(const char *path, char *const argv[], const char *before, const char *after);

/* Ctrl-L: repaint everything on the next refresh. */
void term_force_repaint(void);

/* A mouse event after term_key returned KEY_MOUSE. */
enum term_button { TERM_CLICK, TERM_WHEEL_UP, TERM_WHEEL_DOWN, TERM_OTHER };
struct term_mouse {
	int y, x;
	enum term_button button;
};
/* Returns false when there was no usable event. */
bool term_mouse_event(struct term_mouse *ev);
/* Turns mouse reporting on or off while the screen is open. */
void term_set_mouse(bool on);

#endif
