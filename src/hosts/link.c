/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/link.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/i18n.h"

/* Read per call and descriptor: a flooding host waits for the next turn. */
#define LINK_READ_MAX (1u << 20)

static void set_why(struct link *l, const char *fmt, const char *arg)
{
	if (l->why)
		return;
	size_t n = strlen(fmt) + (arg ? strlen(arg) : 0) + 1;
	l->why = malloc(n);
	if (l->why)
		snprintf(l->why, n, fmt, arg ? arg : "");
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int link_start(struct link *l, const char *host, char *const argv[], double now, enum link_mode mode)
{
	memset(l, 0, sizeof(*l));
	l->host = host;
	l->to = l->from = l->err = -1;
	l->started = l->last_data = now;
	int in[2] = {-1, -1}, out[2] = {-1, -1}, er[2] = {-1, -1};
	if (mode == LINK_STREAM && !(l->st = rec_stream_new())) {
		set_why(l, "%s", _("out of memory"));
		goto fail;
	}
	/* an action's output, what a remote's start-up files print too, goes nowhere */
	bool piped = mode != LINK_ACT;
	if (!piped)
		out[1] = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if ((!piped && out[1] < 0) || pipe2(in, O_CLOEXEC) < 0 || (piped && pipe2(out, O_CLOEXEC) < 0) ||
	    pipe2(er, O_CLOEXEC) < 0) {
		set_why(l, _("cannot start ssh: %s"), strerror(errno));
		goto fail;
	}
	pid_t pid = fork();
	if (pid < 0) {
		set_why(l, _("cannot start ssh: %s"), strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		/* its own session: no terminal to prompt on or take signals from */
		setsid();
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(er[1], 2);
		signal(SIGPIPE, SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(argv[0], argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	l->pid = pid;
	close(in[0]);
	close(out[1]);
	close(er[1]);
	l->to = in[1];
	l->from = out[0];
	l->err = er[0];
	if (l->from >= 0)
		fcntl(l->from, F_SETFL, O_NONBLOCK);
	fcntl(l->err, F_SETFL, O_NONBLOCK);
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		close_fd(&in[i]);
		close_fd(&out[i]);
		close_fd(&er[i]);
	}
	if (!l->why)
		set_why(l, "%s", _("out of memory"));
	return -1;
}

static void keep_err(struct link *l, const char *p, size_t n)
{
	if (n >= LINK_ERR_KEEP) {
		p += n - LINK_ERR_KEEP;
		n = LINK_ERR_KEEP;
	}
	if (l->nerr + n > LINK_ERR_KEEP) {
		size_t drop = l->nerr + n - LINK_ERR_KEEP;
		memmove(l->errtail, l->errtail + drop, l->nerr - drop);
		l->nerr -= drop;
	}
	memcpy(l->errtail + l->nerr, p, n);
	l->nerr += n;
}

/* An answer's first LINK_OUT_KEEP bytes; more is noted, not kept. */
static void keep_out(struct link *l, const char *p, size_t n)
{
	size_t room = LINK_OUT_KEEP - l->nout;
	l->out_over |= n > room;
	memcpy(l->out + l->nout, p, n < room ? n : room);
	l->nout += n < room ? n : room;
}

/* Reads fd until it would block (at most LINK_READ_MAX): stream, the
 * stream's bytes (or an answer's, without one); else stderr's. Returns 1
 * while open, 0 at its end. */
static int drain(struct link *l, int *fd, bool stream, double now)
{
	char chunk[65536];
	size_t total = 0;
	while (*fd >= 0 && total < LINK_READ_MAX) {
		ssize_t n = read(*fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		if (n <= 0) {
			close_fd(fd);
			return 0;
		}
		total += (size_t)n;
		if (!stream) {
			keep_err(l, chunk, (size_t)n);
			continue;
		}
		if (!l->st) {
			keep_out(l, chunk, (size_t)n);
			continue;
		}
		l->last_data = now;
		char *err = NULL;
		if (rec_stream_feed(l->st, chunk, (size_t)n, &err) < 0) {
			set_why(l, "%s", err ? err : _("out of memory"));
			free(err);
			close_fd(fd);
			return 0;
		}
	}
	return *fd >= 0;
}

int link_next(struct link *l, struct rec_sample *s, uint64_t *seq, double *clock, char **why)
{
	char *err = NULL;
	/* one time for the clock and for a recording of the frames taken (record/hosts) */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	l->taken_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	int rc = rec_stream_next(l->st, s, seq, &err);
	if (rc < 0) {
		/* the link's reason first: the stream only knows it was broken off */
		*why = l->why ? strdup(l->why) : err;
		if (l->why)
			free(err);
		return -1;
	}
	if (rc > 0)
		/* in whole ns, as a replay of the recording computes it (rec_reader_clock) */
		*clock = fmax(*clock, (double)(rec_stream_wall_ns(l->st) - l->taken_ns) / 1e9);
	return rc > 0;
}

const char *link_last_words(struct link *l)
{
	size_t end = l->nerr;
	while (end > 0 && (l->errtail[end - 1] == '\n' || l->errtail[end - 1] == '\r'))
		end--;
	if (end == 0)
		return NULL;
	size_t start = end;
	while (start > 0 && l->errtail[start - 1] != '\n')
		start--;
	/* in place: the tail is not read again once the link ended */
	l->errtail[end < LINK_ERR_KEEP ? end : LINK_ERR_KEEP - 1] = '\0';
	return l->errtail + start;
}

/* Whether the child ended (it is then reaped; its status kept). */
static bool reap(struct link *l, bool wait)
{
	if (l->pid <= 0)
		return true;
	pid_t r;
	while ((r = waitpid(l->pid, &l->status, wait ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (r != l->pid)
		return false;
	l->pid = 0;
	l->reaped = true;
	return true;
}

/* Why the link ended: what the stream said, else ssh's or the remote's last
 * words (all of them read: the child is gone), else how ssh ended. */
static void say_why(struct link *l, double now)
{
	if (l->err >= 0)
		drain(l, &l->err, false, now);
	close_fd(&l->err);
	if (l->why)
		return;
	const char *words = link_last_words(l);
	char tmp[64];
	if (words) {
		set_why(l, "%s", words);
	} else if (l->reaped && WIFEXITED(l->status)) {
		snprintf(tmp, sizeof(tmp), "%d", WEXITSTATUS(l->status));
		set_why(l, _("ssh ended with status %s"), tmp);
	} else if (l->reaped && WIFSIGNALED(l->status)) {
		snprintf(tmp, sizeof(tmp), "%d", WTERMSIG(l->status));
		set_why(l, _("ssh was killed by signal %s"), tmp);
	}
	set_why(l, "%s", _("the connection closed"));
}

/* The child's process group: a wrapper in TASKVIEW_SSH and its ssh alike (setsid made it one). */
static void signal_child(const struct link *l, int sig)
{
	if (l->pid > 0 && kill(-l->pid, sig) < 0)
		kill(l->pid, sig);
}

/* How long a child that closed its output may take to end and say why. */
#define LINK_END_GRACE 2.0

int link_pump(struct link *l, double now)
{
	if (l->err >= 0)
		drain(l, &l->err, false, now);
	if (l->from >= 0 && drain(l, &l->from, true, now))
		return 1;
	/* an action: open while ssh or the remote may still say something */
	if (!l->st && l->err >= 0)
		return 1;
	/* the stream ended: ssh says why on stderr, then ends */
	if (l->ended_at == 0) {
		l->ended_at = now;
		close_fd(&l->to);
	}
	if (l->err >= 0)
		drain(l, &l->err, false, now);
	if (!reap(l, false) && now - l->ended_at < LINK_END_GRACE)
		return 1;
	if (l->pid > 0) {
		/* it closed its output but runs on: it is ended here */
		signal_child(l, SIGKILL);
		reap(l, true);
	}
	say_why(l, now);
	return 0;
}

void link_reap(struct link *l)
{
	(void)reap(l, false);
}

void link_stop(struct link *l)
{
	close_fd(&l->to);
	close_fd(&l->from);
	close_fd(&l->err);
	if (l->pid > 0) {
		signal_child(l, SIGTERM);
		reap(l, false);
	}
}

void link_free(struct link *l)
{
	link_stop(l);
	if (l->pid > 0) {
		signal_child(l, SIGKILL);
		reap(l, true);
	}
	rec_stream_free(l->st);
	l->st = NULL;
	free(l->why);
	l->why = NULL;
}
