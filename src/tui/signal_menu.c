/* F9: send a signal to the selected task, after a confirmation. */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tui/dialogs.h"
#include "tui/menu.h"
#include "util/i18n.h"

static const struct {
	int sig;
	const char *name;
} signals[] = {
	{SIGHUP, "HUP"},   {SIGINT, "INT"},     {SIGQUIT, "QUIT"},  {SIGILL, "ILL"},
	{SIGTRAP, "TRAP"}, {SIGABRT, "ABRT"},   {SIGBUS, "BUS"},    {SIGFPE, "FPE"},
	{SIGKILL, "KILL"}, {SIGUSR1, "USR1"},   {SIGSEGV, "SEGV"},  {SIGUSR2, "USR2"},
	{SIGPIPE, "PIPE"}, {SIGALRM, "ALRM"},   {SIGTERM, "TERM"},  {SIGCHLD, "CHLD"},
	{SIGCONT, "CONT"}, {SIGSTOP, "STOP"},   {SIGTSTP, "TSTP"},  {SIGTTIN, "TTIN"},
	{SIGTTOU, "TTOU"}, {SIGURG, "URG"},     {SIGXCPU, "XCPU"},  {SIGXFSZ, "XFSZ"},
	{SIGVTALRM, "VTALRM"}, {SIGPROF, "PROF"}, {SIGWINCH, "WINCH"}, {SIGIO, "IO"},
	{SIGPWR, "PWR"},   {SIGSYS, "SYS"},
};
#define NSIGNALS (sizeof(signals) / sizeof(signals[0]))

/* y/n on the status row; anything but y is no. */
static bool kill_confirm(struct tui *t, const char *question)
{
	for (;;) {
		tui_paint(t);
		int y = t->lay.status_row >= 0 ? t->lay.status_row : LINES - 1;
		tui_put(y, 0, COLS, question, term_attr(ROLE_ERROR));
		int key = tui_dialog_key();
		if (key == TUI_KEY_QUIT)
			return false;
		if (key == ERR)
			continue;
		return key == 'y' || key == 'Y';
	}
}

void dialog_kill(struct tui *t)
{
	if (!t->have_sel || t->sel >= t->rows.n)
		return;
	/* remember the target now: the rows change with the next sample */
	const struct row *r = &t->rows.v[t->sel];
	int32_t tid = r->task->tid, tgid = r->task->tgid;
	bool thread = r->is_thread;
	char name[TV_COMM_MAX];
	snprintf(name, sizeof(name), "%s", r->task->comm);

	struct menu m = {0};
	char *items[NSIGNALS];
	m.title = _("Send signal:");
	m.hint = _("Enter: send (asks first)   Esc: cancel");
	m.items = items;
	for (size_t i = 0; i < NSIGNALS; i++) {
		char line[32];
		snprintf(line, sizeof(line), "%2d %s", signals[i].sig, signals[i].name);
		items[m.n] = strdup(line);
		if (items[m.n]) {
			if (signals[i].sig == SIGTERM)
				m.sel = m.n; /* the polite default */
			m.n++;
		}
	}
	int choice = menu_run(t, &m);
	int sig = 0;
	const char *signame = "";
	if (choice >= 0) {
		/* items may have been skipped on allocation failure: map by text */
		for (size_t i = 0; i < NSIGNALS; i++)
			if (atoi(items[choice]) == signals[i].sig) {
				sig = signals[i].sig;
				signame = signals[i].name;
			}
	}
	for (size_t i = 0; i < m.n; i++)
		free(items[i]);
	if (choice < 0 || sig == 0)
		return;

	struct buf q;
	buf_init(&q);
	/* name is raw: the status line sanitizes whatever it shows */
	if (thread)
		buf_addf(&q, _("Send SIG%s to thread %d (%s) of process %d? [y/N]"), signame, tid, name, tgid);
	else
		buf_addf(&q, _("Send SIG%s to process %d (%s)? [y/N]"), signame, tid, name);
	bool yes = kill_confirm(t, buf_str(&q));
	buf_free(&q);
	if (!yes)
		return;
	/* a thread row gets the signal through tgkill so it reaches that thread */
	int rc = thread ? (int)syscall(SYS_tgkill, tgid, tid, sig) : kill(tid, sig);
	if (rc < 0)
		tui_status(t, ROLE_ERROR, _("cannot send SIG%s to %d (%s): %s"), signame, tid, name, strerror(errno));
	else
		tui_status(t, ROLE_STATUS, _("sent SIG%s to %d (%s)"), signame, tid, name);
	if (rc == 0 && !t->frozen)
		tui_sample(t, true);
}
