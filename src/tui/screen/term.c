/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/screen/term.h"

#include <curses.h>
#include <poll.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <term.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/i18n.h"

/* A sanitizer's report is written to stderr, which is a pipe while the
 * screen is open, and the sanitizer then ends the process with _exit: no
 * atexit handler and no signal. Its death callback puts the terminal back
 * and passes the pipe on, report included. */
#if defined(__SANITIZE_ADDRESS__)
#define TV_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define TV_SANITIZED 1
#endif
#endif
#ifdef TV_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

/* Set by the signal handler, read by the main loop: the only mutable state
 * outside the main loop, because a handler cannot reach anything else. */
static volatile sig_atomic_t quit_signal;
/* The screen curses gave us; owned by this layer alone. */
static SCREEN *screen;
static int role_attr[ROLE_NROLES];
static bool utf8_ok;

/*
 * Whatever ends taskview while the screen is open puts the terminal back:
 * a fatal signal (a crash, an assertion), or exit() from anywhere. A signal
 * handler may call only async-signal-safe functions, so everything it needs
 * is made at open: the bytes that undo curses' modes, and the terminal
 * settings from before.
 */
static const int fatal_signals[] = {
	/* faults and abort(): a handler already there (a sanitizer's) is kept,
	 * and called after the terminal is back */
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS,
	/* signals that end a process by default: caught only while nothing
	 * else handles them */
	SIGQUIT, SIGXCPU, SIGXFSZ, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF,
};
#define NFAULT 7 /* the first seven */
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction fatal_old[NFATAL];
static bool fatal_caught[NFATAL];
static char restore_seq[512];
static size_t restore_len;
static struct termios restore_tios;
static bool restore_have_tios;
static int restore_fd = -1;
static volatile sig_atomic_t restore_armed;
/* a child forked while the screen is open (a helper) inherits the handlers
 * and atexit: the terminal is this process's to put back, not the child's */
static pid_t restore_pid;
/* stderr while the screen is open: a pipe, shown after it closes */
static int err_saved = -1;
static int err_pipe = -1;
/* the handler runs here when the stack itself overflowed */
static char alt_stack[64 * 1024];
static bool atexit_done;

static void write_all(int fd, const char *p, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, p + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
}

/* What reaches stderr while curses owns the screen (a library's warning, an
 * assertion's message) would be drawn over the table and then lost with the
 * alternate screen: it goes to a pipe, non-blocking so a flood is cut
 * rather than hanging taskview, and is written out once the screen is gone. */
static void term_capture_stderr(void)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return;
	fflush(stderr);
	err_saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (err_saved < 0 || dup2(p[1], STDERR_FILENO) < 0) {
		if (err_saved >= 0)
			close(err_saved);
		err_saved = -1;
		close(p[0]);
	} else {
		err_pipe = p[0];
	}
	close(p[1]);
}

/* Async-signal-safe. */
static void term_release_stderr(void)
{
	if (err_saved < 0)
		return;
	dup2(err_saved, STDERR_FILENO);
	close(err_saved);
	err_saved = -1;
	char buf[4096];
	ssize_t n;
	while ((n = read(err_pipe, buf, sizeof(buf))) > 0)
		write_all(STDERR_FILENO, buf, (size_t)n);
	close(err_pipe);
	err_pipe = -1;
}

/* Async-signal-safe: write(2), tcsetattr(3), dup2(2), read(2) only, and at
 * most once. */
static void term_restore_now(void)
{
	if (!restore_armed || getpid() != restore_pid)
		return;
	restore_armed = 0;
	int saved = errno;
	write_all(restore_fd, restore_seq, restore_len);
	if (restore_have_tios)
		tcsetattr(restore_fd, TCSANOW, &restore_tios);
	term_release_stderr();
	errno = saved;
}

static void term_on_fatal(int sig, siginfo_t *info, void *uctx)
{
	term_restore_now();
	for (size_t i = 0; i < NFATAL; i++) {
		if (fatal_signals[i] != sig)
			continue;
		const struct sigaction *old = &fatal_old[i];
		/* a handler that was there first (a sanitizer's) still gets its say */
		if (old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN)
			break;
		if (old->sa_flags & SA_SIGINFO)
			old->sa_sigaction(sig, info, uctx);
		else
			old->sa_handler(sig);
		return;
	}
	/* then die of the signal as if it had not been caught, for the exit
	 * status and the core dump: it stays pending until this returns (or
	 * the faulting instruction runs again) */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

static void term_on_exit(void)
{
	term_restore_now();
}

static void restore_add(const char *s)
{
	size_t n = strlen(s);
	if (restore_len + n < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, s, n);
		restore_len += n;
	}
}

/* Whether the terminal has a string capability; appends it when add. */
static bool restore_cap(const char *cap, bool add)
{
	char *v = tigetstr(cap);
	if (!v || v == (char *)-1)
		return false;
	if (add)
		restore_add(v);
	return true;
}

/* Called with the screen open, so terminfo is the terminal's. */
static void term_arm_restore(void)
{
	restore_len = 0;
	/* CAN: ends an escape sequence curses may have been cut in the middle of */
	restore_add("\030");
	restore_cap("sgr0", true);
	restore_cap("rmcup", true);
	restore_cap("cnorm", true);
	restore_cap("rmkx", true);
	/* mouse reporting off (xterm's modes), on terminals that report a mouse */
	if (restore_cap("kmous", false))
		restore_add("\033[?1000l\033[?1002l\033[?1003l\033[?1006l");
	restore_fd = STDOUT_FILENO;
	restore_pid = getpid();
	restore_armed = 1;
	term_capture_stderr();

	stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof(alt_stack), .ss_flags = 0};
	sigaltstack(&ss, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = term_on_fatal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	/* nothing else runs in between */
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++) {
		fatal_caught[i] = false;
		if (sigaction(fatal_signals[i], NULL, &fatal_old[i]) < 0)
			continue;
		/* an ignored signal ends nothing, and a handled one is someone else's */
		if (fatal_old[i].sa_handler == SIG_IGN || (i >= NFAULT && fatal_old[i].sa_handler != SIG_DFL))
			continue;
		fatal_caught[i] = sigaction(fatal_signals[i], &sa, NULL) == 0;
	}
	if (!atexit_done)
		atexit_done = atexit(term_on_exit) == 0;
#ifdef TV_SANITIZED
	__sanitizer_set_death_callback(term_on_exit);
#endif
}

static void term_disarm_restore(void)
{
	restore_armed = 0;
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_caught[i]) {
			sigaction(fatal_signals[i], &fatal_old[i], NULL);
			fatal_caught[i] = false;
		}
}

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
		[ROLE_TAGGED] = A_BOLD | A_UNDERLINE,
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
		{ROLE_TAGGED, COLOR_YELLOW, -1, A_BOLD},
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
	restore_have_tios = tcgetattr(STDOUT_FILENO, &restore_tios) == 0;
	/* before curses: ncurses catches SIGINT and SIGTERM where they are
	 * still the default, with a handler that ends the process with status
	 * 1 and no word; one that came while the screen opened was such an end */
	term_catch_signals();
	/* newterm reports an unknown terminal by returning NULL, where initscr
	 * would print its own message and exit */
	screen = newterm(name, stdout, stdin);
	if (!screen) {
		buf_addf(err, _("unknown terminal type '%s' (TERM); set TERM to a known type or use -b"), name);
		return -1;
	}
	set_term(screen);
	/* a terminal that cannot place the cursor (TERM=dumb) would get a blank
	 * screen: say so instead */
	if (!cursor_address || cursor_address == (char *)-1) {
		endwin();
		delscreen(screen);
		screen = NULL;
		buf_addf(err, _("terminal type '%s' (TERM) cannot position the cursor; set TERM to a full-screen terminal type or use -b"), name);
		return -1;
	}
	/* Until a screen has once been suspended and resumed, ncurses (6.4)
	 * flushes at every cursor movement: some hundred write()s per refresh.
	 * One endwin/refresh now, before anything is drawn, makes it send a
	 * whole update at once. Typeahead checks would add a poll() per chunk. */
	endwin();
	refresh();
	typeahead(-1);
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
	term_set_mouse(o->mouse);
	term_arm_restore();
	return 0;
}

void term_close(void)
{
	if (!screen)
		return;
	term_disarm_restore();
	curs_set(1);
	endwin();
	delscreen(screen);
	screen = NULL;
	term_release_stderr();
	/* a flood may have met a full pipe */
	clearerr(stderr);
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

/*
 * A terminal that is gone (hung up, its pty closed by a terminal emulator or
 * tmux server that died) makes every read end at once with end of file or
 * EIO, and poll() report it ready forever: waiting for a key again would
 * spin. A hang-up signal need not come with it (a process in a session of
 * its own, or under runuser, gets none), so taskview ends as on SIGHUP.
 */
static void term_lost(void)
{
	if (!quit_signal)
		quit_signal = SIGHUP;
}

#define POLL_GONE (POLLHUP | POLLERR | POLLNVAL)

/* After poll() said stdin was readable and curses read no key: whether the
 * terminal is at end of file. Bytes curses took for a longer sequence leave
 * it unreadable, new bytes leave a count; end of file leaves neither. */
static bool term_at_eof(void)
{
	if (errno == EIO)
		return true;
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
	if (poll(&p, 1, 0) <= 0)
		return false;
	if (p.revents & POLL_GONE)
		return true;
	int avail = 0;
	return ioctl(STDIN_FILENO, FIONREAD, &avail) < 0 || avail == 0;
}

/* A key curses holds or can read now, without waiting. */
static int term_key_now(void)
{
	timeout(0);
	errno = 0;
	return getch();
}

int term_key(int timeout_ms)
{
	return term_key_or(timeout_ms, -1);
}

int term_key_or(int timeout_ms, int fd)
{
	return term_key_or_any(timeout_ms, &fd, fd >= 0 ? 1 : 0);
}

int term_key_or_any(int timeout_ms, const int *fds, size_t n)
{
	if (quit_signal)
		return ERR;
	/* a key curses already holds (the rest of an escape sequence) comes first */
	int key = term_key_now();
	if (key != ERR)
		return key;
	if (errno == EIO) {
		term_lost();
		return ERR;
	}
	if (n > TERM_WAIT_FDS_MAX)
		n = TERM_WAIT_FDS_MAX;
	/* stdout too: a terminal can be gone for writing while stdin is not a
	 * terminal that says so (events 0: only its errors are reported) */
	struct pollfd p[2 + TERM_WAIT_FDS_MAX];
	p[0] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
	p[1] = (struct pollfd){.fd = STDOUT_FILENO, .events = 0};
	for (size_t i = 0; i < n; i++)
		p[2 + i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	int r = poll(p, 2 + n, timeout_ms);
	if (r > 0 && ((p[0].revents | p[1].revents) & POLL_GONE)) {
		term_lost();
		return ERR;
	}
	if (r > 0 && (p[0].revents & POLLIN)) {
		key = term_key_now();
		if (key == ERR && term_at_eof())
			term_lost();
		return key;
	}
	for (size_t i = 0; r > 0 && i < n; i++)
		if (p[2 + i].revents)
			return TERM_KEY_WAKE;
	/* a signal (a resize: curses reports it as a key) or the time is up */
	return term_key_now();
}

/* Ctrl-C is the program's while it runs (it is in the terminal's
 * foreground group; taskview ignores it meanwhile). */
static const int run_ignored[] = {SIGINT, SIGQUIT, SIGTSTP};
#define NRUN_IGNORED (sizeof(run_ignored) / sizeof(run_ignored[0]))

enum run_key { RUN_KEY_NONE, RUN_KEY_LEAVE, RUN_KEY_ENTER };

/* What keys read from the terminal ask: Esc alone, q or F10 leaves, as on
 * the screen; Enter returns. Escape sequences (arrows, function keys and the
 * mouse reports the terminal may still send) are skipped whole, so a q
 * inside one is no q. */
static enum run_key run_keys(const unsigned char *b, size_t n)
{
	enum run_key k = RUN_KEY_NONE;
	for (size_t i = 0; i < n; i++) {
		if (b[i] == 27) {
			if (i + 1 == n || (b[i + 1] != '[' && b[i + 1] != 'O'))
				return RUN_KEY_LEAVE;
			if (b[i + 1] == 'O') {
				i += 2; /* ESC O and one letter */
			} else if (i + 2 < n && b[i + 2] == 'M') {
				i += 5; /* ESC [ M and three bytes: a mouse report */
			} else {
				/* F10 (ESC [ 2 1 ~) leaves too */
				if (n - i >= 5 && memcmp(b + i + 1, "[21~", 4) == 0)
					return RUN_KEY_LEAVE;
				for (i += 2; i < n && (b[i] < 0x40 || b[i] > 0x7e); i++)
					;
			}
		} else if (b[i] == 'q' || b[i] == 'Q') {
			return RUN_KEY_LEAVE;
		} else if (b[i] == '\r' || b[i] == '\n') {
			k = RUN_KEY_ENTER;
		}
	}
	return k;
}

static double run_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The keys waiting on the terminal, read; RUN_KEY_NONE at their end or
 * when the terminal is gone (after term_lost()). */
static enum run_key run_read(void)
{
	unsigned char b[256];
	ssize_t n = read(STDIN_FILENO, b, sizeof(b));
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		term_lost();
		return RUN_KEY_NONE;
	}
	return n > 0 ? run_keys(b, (size_t)n) : RUN_KEY_NONE;
}

/* Waits for Enter, Esc or q (the screen is put away); false when the
 * terminal is gone or a quit signal came. */
static bool term_wait_enter(void)
{
	for (;;) {
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
		int r = poll(&p, 1, 200);
		if (quit_signal)
			return false;
		if (r > 0 && (p.revents & POLL_GONE) && !(p.revents & POLLIN)) {
			term_lost();
			return false;
		}
		if (r > 0 && run_read() != RUN_KEY_NONE)
			return true;
	}
}

int term_run(const char *path, char *const argv[], const char *before, const char *after)
{
	if (!screen)
		return -EINVAL;
	fflush(stdout);
	endwin();
	/* keys one at a time and not echoed: Esc and q are read here, while
	 * Ctrl-C still makes the terminal signal the program */
	struct termios line, keys;
	bool have_tty = tcgetattr(STDIN_FILENO, &line) == 0;
	if (have_tty) {
		keys = line;
		keys.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		keys.c_cc[VMIN] = 1;
		keys.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &keys);
	}
	/* the program writes to the terminal, not to the pipe that holds
	 * taskview's own stderr while the screen is open */
	int err_fd = err_saved >= 0 ? err_saved : STDERR_FILENO;
	if (before)
		write_all(STDOUT_FILENO, before, strlen(before));
	struct sigaction ign, old[NRUN_IGNORED];
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	for (size_t i = 0; i < NRUN_IGNORED; i++)
		sigaction(run_ignored[i], &ign, &old[i]);
	int status = -1;
	pid_t pid = fork();
	if (pid == 0) {
		/* async-signal-safe calls only: taskview has threads */
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		for (size_t i = 0; i < NRUN_IGNORED; i++)
			sigaction(run_ignored[i], &dfl, NULL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (err_fd != STDERR_FILENO)
			dup2(err_fd, STDERR_FILENO);
		execv(path, argv);
		_exit(127);
	}
	int rc = pid < 0 ? -errno : 0;
	bool left = false;
	double left_at = 0;
	while (pid > 0) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		/* a terminal that is gone ends the program too: it may not notice
		 * (strace goes on tracing when its writes fail) */
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
		int r = poll(&p, 1, 200);
		if (r > 0 && (p.revents & POLL_GONE) && !(p.revents & POLLIN))
			term_lost();
		/* Esc or q leaves, as everywhere on the screen: the program is
		 * stopped as Ctrl-C would */
		else if (r > 0 && (p.revents & POLLIN) && run_read() == RUN_KEY_LEAVE && !left) {
			kill(pid, SIGINT);
			left = true;
			left_at = run_now();
		}
		/* a program that does not end of SIGINT (strace detaching from a
		 * process that forks all the time can take long) is made to: the
		 * user is not kept waiting, and the traced tasks go on */
		if (left && run_now() - left_at > 4.0)
			kill(pid, SIGKILL);
		else if (left && run_now() - left_at > 2.0)
			kill(pid, SIGTERM);
		/* taskview is asked to quit: the program goes first */
		if (quit_signal)
			kill(pid, SIGTERM);
	}
	if (rc == 0)
		rc = status;
	/* after Esc or q, straight back: the user asked to leave */
	if (after && !quit_signal && !left) {
		write_all(STDOUT_FILENO, after, strlen(after));
		term_wait_enter();
	}
	if (have_tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &line);
	for (size_t i = 0; i < NRUN_IGNORED; i++)
		sigaction(run_ignored[i], &old[i], NULL);
	/* the next refresh puts the screen back, all of it */
	clearok(curscr, TRUE);
	refresh();
	return rc;
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

void term_set_mouse(bool on)
{
	if (!screen)
		return;
	mmask_t want = 0;
	if (on) {
		want = BUTTON1_PRESSED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
		want |= BUTTON5_PRESSED;
#endif
	}
	mousemask(want, NULL);
	/* presses as they come: no wait to tell a click from a double click */
	mouseinterval(0);
}

bool term_mouse_event(struct term_mouse *ev)
{
	MEVENT me;
	if (getmouse(&me) != OK)
		return false;
	ev->y = me.y;
	ev->x = me.x;
	if (me.bstate & BUTTON1_PRESSED)
		ev->button = TERM_CLICK;
	else if (me.bstate & BUTTON4_PRESSED)
		ev->button = TERM_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	else if (me.bstate & BUTTON5_PRESSED)
		ev->button = TERM_WHEEL_DOWN;
#endif
	else
		ev->button = TERM_OTHER;
	return true;
}
