#include "render/tui/term.h"

#include <curses.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/i18n.h"

/* Set by the signal handler, read by the main loop: the only mutable state
 * outside the main loop, because a handler cannot reach anything else. */
static volatile sig_atomic_t quit_signal;
/* The screen curses gave us; owned by this layer alone. */
static SCREEN *screen;
static int role_attr[ROLE_NROLES];
static bool utf8_ok;

static void term_on_signal(int sig)
{
	quit_signal = sig;
}

static void term_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = term_on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the poll in wgetch must return so the loop sees the flag */
	sa.sa_flags = 0;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void term_setup_colors(bool color)
{
	/* monochrome: attributes only, still readable on a vt100 */
	int mono[ROLE_NROLES] = {
		[ROLE_HEADER_LABEL] = A_BOLD,
		[ROLE_TABLE_HEAD] = A_REVERSE,
		[ROLE_TABLE_SORT] = A_REVERSE | A_BOLD,
		[ROLE_SELECTED] = A_REVERSE,
		[ROLE_BAR_SYSTEM] = A_BOLD,
		[ROLE_KEY] = A_NORMAL,
		[ROLE_KEY_LABEL] = A_REVERSE,
		[ROLE_ERROR] = A_BOLD,
		[ROLE_DIALOG] = A_REVERSE,
	};
	memcpy(role_attr, mono, sizeof(role_attr));
	if (!color || !has_colors() || start_color() == ERR)
		return;
	use_default_colors();
	static const struct {
		enum term_role role;
		short fg, bg;
		int extra;
	} pal[] = {
		{ROLE_HEADER_LABEL, COLOR_CYAN, -1, A_BOLD},
		{ROLE_HEADER_VALUE, -1, -1, A_BOLD},
		{ROLE_TABLE_HEAD, COLOR_BLACK, COLOR_GREEN, 0},
		{ROLE_TABLE_SORT, COLOR_BLACK, COLOR_CYAN, 0},
		{ROLE_SELECTED, COLOR_BLACK, COLOR_CYAN, 0},
		{ROLE_THREAD, COLOR_GREEN, -1, 0},
		{ROLE_BAR_USER, COLOR_GREEN, -1, 0},
		{ROLE_BAR_NICE, COLOR_BLUE, -1, A_BOLD},
		{ROLE_BAR_SYSTEM, COLOR_RED, -1, 0},
		{ROLE_BAR_OTHER, COLOR_MAGENTA, -1, 0},
		{ROLE_BAR_CACHE, COLOR_YELLOW, -1, 0},
		{ROLE_BAR_SWAP, COLOR_RED, -1, 0},
		{ROLE_KEY, -1, -1, 0},
		{ROLE_KEY_LABEL, COLOR_BLACK, COLOR_CYAN, 0},
		{ROLE_STATUS, COLOR_CYAN, -1, 0},
		{ROLE_ERROR, COLOR_RED, -1, A_BOLD},
		{ROLE_DIALOG, COLOR_BLACK, COLOR_WHITE, 0},
	};
	for (size_t i = 0; i < sizeof(pal) / sizeof(pal[0]); i++) {
		short pair = (short)(i + 1);
		if (pair >= COLOR_PAIRS)
			break;
		if (init_pair(pair, pal[i].fg, pal[i].bg) == ERR)
			continue;
		role_attr[pal[i].role] = (int)COLOR_PAIR(pair) | pal[i].extra;
	}
}

int term_open(const struct term_opts *o, struct buf *err)
{
	if (screen)
		return 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		buf_adds(err, _("not a terminal; use -b for batch output"));
		return -1;
	}
	const char *name = getenv("TERM");
	if (!name || !*name) {
		buf_adds(err, _("TERM is not set; set it (e.g. TERM=xterm-256color) or use -b"));
		return -1;
	}
	/* newterm reports an unknown terminal by returning NULL, where initscr
	 * would print its own message and exit */
	screen = newterm(name, stdout, stdin);
	if (!screen) {
		buf_addf(err, _("unknown terminal type '%s' (TERM); set TERM to a known type or use -b"), name);
		return -1;
	}
	set_term(screen);
	utf8_ok = o->utf8;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	leaveok(stdscr, TRUE);
	curs_set(0);
	/* Esc closes dialogs: do not wait the default second for a sequence */
	set_escdelay(25);
	term_setup_colors(o->color);
	term_catch_signals();
	return 0;
}

void term_close(void)
{
	if (!screen)
		return;
	curs_set(1);
	endwin();
	delscreen(screen);
	screen = NULL;
}

bool term_is_open(void)
{
	return screen != NULL;
}

bool term_utf8(void)
{
	return utf8_ok;
}

int term_attr(enum term_role r)
{
	return r < ROLE_NROLES ? role_attr[r] : (int)A_NORMAL;
}

int term_key(int timeout_ms)
{
	if (quit_signal)
		return ERR;
	timeout(timeout_ms);
	return getch();
}

int term_quit_signal(void)
{
	return quit_signal;
}

bool term_input_pending(void)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
	return poll(&p, 1, 0) > 0;
}

void term_reraise(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

void term_force_repaint(void)
{
	clearok(curscr, TRUE);
}
