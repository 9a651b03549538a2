/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin helper process seen from taskview: started from taskview's own
 * binary (/proc/self/exe) by posix_spawn, never a bare fork (taskview may have
 * threads, and a forked copy of a threaded process must not go on to dlopen);
 * talked to over a socket, waited for with a deadline, killed and reaped. Its
 * standard output and error are one pipe, never taskview's terminal.
 */
#include "plugin/plugin_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sample/proc/proc_parse.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"

extern char **environ;

/* The socket and pipe are moved this high first, so that no dup2 of the
 * spawn to 0..4 overwrites one that a later dup2 still reads. */
#define CHILD_FD_MIN 10
/* Output read for a message; the rest is read and dropped. */
#define OUTPUT_KEEP 4096
#define OUTPUT_PIPE_SIZE (1 << 20)
/* How long a line of captured output may be in a message. */
#define OUTPUT_LINE_MAX 200
#define WAIT_GRACE_S 0.2
#define WAIT_POLL_MS 50
#define READ_CHUNK 65536

static int move_high(int fd)
{
	if (fd < 0 || fd >= CHILD_FD_MIN)
		return fd;
	int nfd = fcntl(fd, F_DUPFD_CLOEXEC, CHILD_FD_MIN);
	close(fd);
	return nfd;
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

struct plugin_child *plugin_child_start(const int *fds, size_t n, int *child_fds, char *why, size_t whylen)
{
	int sv[2] = {-1, -1}, out[2] = {-1, -1};
	struct plugin_child *c = calloc(1, sizeof(*c));
	int self = -1;
	if (!c || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		goto fail;
	}
	self = move_high(open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
	for (int i = 0; i < 2; i++) {
		sv[i] = move_high(sv[i]);
		out[i] = move_high(out[i]);
	}
	if (self < 0 || sv[0] < 0 || sv[1] < 0 || out[0] < 0 || out[1] < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		goto fail;
	}
	/* both ends read the output: the helper after each plugin, to hand it over
	 * with that plugin's answer; taskview only what is left when the helper
	 * died or hangs. Non-blocking for both (one open file), and room for a
	 * chatty plugin. */
	set_nonblock(out[0]);
	fcntl(out[1], F_SETPIPE_SZ, OUTPUT_PIPE_SIZE);
	/* the plugin files land above every descriptor the spawn reads */
	int top = sv[1] > out[1] ? sv[1] : out[1];
	if (out[0] > top)
		top = out[0];
	if (self > top)
		top = self;
	for (size_t i = 0; i < n; i++)
		if (fds[i] > top)
			top = fds[i];

	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	/* plugin files first, to numbers nothing else uses: they may be low
	 * numbers, which the dups below overwrite */
	for (size_t i = 0; i < n; i++) {
		child_fds[i] = fds[i] < 0 ? -1 : top + 1 + (int)i;
		if (fds[i] >= 0)
			posix_spawn_file_actions_adddup2(&fa, fds[i], child_fds[i]);
	}
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, out[1], 2);
	posix_spawn_file_actions_adddup2(&fa, sv[1], PLUGIN_HELPER_FD);
	posix_spawn_file_actions_adddup2(&fa, out[0], PLUGIN_HELPER_OUT_FD);
	/* its own session: no controlling terminal, so not even /dev/tty reaches
	 * ours, and the terminal's signals go to taskview alone; signals as new */
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	/* our own binary, the very file even if it was replaced on disk since; by
	 * descriptor, which also holds under valgrind (its /proc/self/exe is the
	 * tool's, but it opens the program's for us) */
	char exe[32];
	snprintf(exe, sizeof(exe), "/proc/self/fd/%d", PLUGIN_HELPER_EXE_FD);
	posix_spawn_file_actions_adddup2(&fa, self, PLUGIN_HELPER_EXE_FD);
	/* before any plugin code runs beside us */
	plugin_confine_host();
	char *argv[] = {(char *)"taskview", (char *)PLUGIN_HELPER_ARG, NULL};
	int rc = posix_spawn(&c->pid, exe, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(self);
	self = -1;
	if (rc != 0) {
		snprintf(why, whylen, "%s", strerror(rc));
		goto fail;
	}
	close(sv[1]);
	close(out[1]);
	c->sock = sv[0];
	c->out = out[0];
	set_nonblock(c->sock);
	buf_init(&c->rx);
	return c;
fail:
	if (self >= 0)
		close(self);
	for (int i = 0; i < 2; i++) {
		if (sv[i] >= 0)
			close(sv[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	free(c);
	return NULL;
}

char *plugin_output_line(const char *s, size_t len, bool cut)
{
	/* the first non-empty line: what a message has room for */
	while (len && (*s == '\n' || *s == '\r')) {
		s++;
		len--;
	}
	if (len == 0)
		return NULL;
	const char *nl = memchr(s, '\n', len);
	size_t l = nl ? (size_t)(nl - s) : len;
	bool more = cut || (nl && (size_t)(nl - s) + 1 < len);
	struct buf b;
	buf_init(&b);
	/* plugin bytes go to a terminal: escaped, ASCII only, cut */
	size_t w = text_sanitize(&b, s, l, OUTPUT_LINE_MAX, false);
	if (more || w >= OUTPUT_LINE_MAX)
		buf_adds(&b, " ...");
	char *line = b.oom ? NULL : strdup(buf_str(&b));
	buf_free(&b);
	return line;
}

int plugin_answer_output(struct wire_reader *r, char **line)
{
	size_t len;
	*line = NULL;
	char *bytes = wire_get_bytes(r, PLUGIN_OUTPUT_KEEP, &len);
	bool cut = wire_get_u8(r) != 0;
	if (r->bad) {
		free(bytes);
		return -1;
	}
	if (len)
		*line = plugin_output_line(bytes, len, cut);
	free(bytes);
	return 0;
}

char *plugin_child_leftover(struct plugin_child *c)
{
	struct buf b;
	buf_init(&b);
	bool cut = false;
	char tmp[4096];
	for (;;) {
		ssize_t r = read(c->out, tmp, sizeof(tmp));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t room = b.len < OUTPUT_KEEP ? OUTPUT_KEEP - b.len : 0;
		buf_add(&b, tmp, (size_t)r < room ? (size_t)r : room);
		cut |= (size_t)r > room;
	}
	char *line = b.len ? plugin_output_line(b.data, b.len, cut) : NULL;
	buf_free(&b);
	return line;
}

/* Reads what the socket has; notes its end. */
static void rx_read(struct plugin_child *c)
{
	char tmp[READ_CHUNK];
	for (;;) {
		ssize_t r = recv(c->sock, tmp, sizeof(tmp), 0);
		if (r > 0) {
			buf_add(&c->rx, tmp, (size_t)r);
			if (!c->rx.oom)
				continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		c->eof = true;
		return;
	}
}

void plugin_child_reap(struct plugin_child *c, double grace)
{
	if (c->reaped)
		return;
	double end = clock_now(CLOCK_MONOTONIC) + grace;
	for (;;) {
		pid_t r = waitpid(c->pid, &c->status, WNOHANG);
		if (r == c->pid || (r < 0 && errno != EINTR)) {
			c->reaped = true;
			return;
		}
		if (clock_now(CLOCK_MONOTONIC) >= end)
			break;
		struct timespec ts = {0, 10 * 1000000L};
		nanosleep(&ts, NULL);
	}
	kill(c->pid, SIGKILL);
	while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
	c->reaped = true;
}

void plugin_child_kill(struct plugin_child *c)
{
	if (c->reaped)
		return;
	kill(c->pid, SIGKILL);
	plugin_child_reap(c, 0);
}

bool plugin_child_alive(struct plugin_child *c)
{
	if (c->reaped)
		return false;
	pid_t r = waitpid(c->pid, &c->status, WNOHANG);
	if (r == c->pid)
		c->reaped = true;
	return !c->reaped;
}

void plugin_child_status(const struct plugin_child *c, char *buf, size_t len)
{
	if (!c->reaped)
		snprintf(buf, len, "%s", _("still running"));
	else if (WIFSIGNALED(c->status))
		snprintf(buf, len, _("killed by signal %d, %s"), WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
	else if (WIFEXITED(c->status))
		snprintf(buf, len, _("exit status %d"), WEXITSTATUS(c->status));
	else
		snprintf(buf, len, "%s", _("ended"));
}

/* The socket closed: the helper ended, or is about to; give it a moment to,
 * so that its status says why (a crash, an exit), then make sure. */
static enum child_wait child_died(struct plugin_child *c)
{
	plugin_child_reap(c, 0.5);
	return CHILD_DIED;
}

int plugin_child_send(struct plugin_child *c, const struct buf *b, double deadline)
{
	if (b->oom)
		return -1;
	size_t done = 0;
	while (done < b->len) {
		ssize_t w = send(c->sock, b->data + done, b->len - done, MSG_NOSIGNAL);
		if (w > 0) {
			done += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return -1;
		/* the helper is busy and its side is full */
		double left = deadline - clock_now(CLOCK_MONOTONIC);
		if (left <= 0)
			return -1;
		struct pollfd p = {.fd = c->sock, .events = POLLOUT};
		poll(&p, 1, (int)(left * 1000) + 1);
	}
	return 0;
}

enum child_wait plugin_child_wait(struct plugin_child *c, double deadline, bool (*interrupted)(void *ctx),
                                  void *ictx, uint32_t *type, struct wire_reader *r)
{
	double start = clock_now(CLOCK_MONOTONIC);
	for (;;) {
		int f = wire_frame(c->rx.data, c->rx.len, type, r, &c->frame);
		if (f < 0)
			return CHILD_BAD;
		if (f > 0)
			return CHILD_FRAME;
		if (c->eof)
			return child_died(c);
		double now = clock_now(CLOCK_MONOTONIC);
		if (now >= deadline)
			return CHILD_TIMEOUT;
		bool patient = interrupted && now - start >= WAIT_GRACE_S;
		if (patient && interrupted(ictx))
			return CHILD_INTERRUPTED;
		int ms = (int)((deadline - now) * 1000) + 1;
		if (interrupted && ms > WAIT_POLL_MS)
			ms = WAIT_POLL_MS;
		struct pollfd p = {.fd = c->sock, .events = POLLIN};
		int n = poll(&p, 1, ms);
		if (n < 0 && errno == EINTR) {
			/* a quit signal must not wait for a plugin */
			if (interrupted && interrupted(ictx))
				return CHILD_INTERRUPTED;
			continue;
		}
		if (n <= 0)
			continue;
		if (p.revents)
			rx_read(c);
	}
}

void plugin_child_consume(struct plugin_child *c)
{
	if (c->frame > c->rx.len)
		c->frame = c->rx.len;
	memmove(c->rx.data, c->rx.data + c->frame, c->rx.len - c->frame);
	c->rx.len -= c->frame;
	c->frame = 0;
}

void plugin_child_free(struct plugin_child *c)
{
	if (!c)
		return;
	plugin_child_kill(c);
	close(c->sock);
	close(c->out);
	buf_free(&c->rx);
	free(c);
}

/* One file of /proc/PID/task/TID into buf (NUL-terminated); its length, or -1. */
static ssize_t task_file(int dir, const char *name, char *buf, size_t size)
{
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

void plugin_child_look(const struct plugin_child *c, double now, struct child_look *out)
{
	memset(out, 0, sizeof(*out));
	out->at = now;
	out->cpu_ns = -1;
	clockid_t id;
	struct timespec ts;
	if (clock_getcpuclockid(c->pid, &id) == 0 && clock_gettime(id, &ts) == 0)
		out->cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	char path[40];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)c->pid);
	DIR *d = opendir(path);
	if (!d) {
		out->cpu_ns = -1;
		return;
	}
	/* every thread: a plugin's own, and the helper's watchdog */
	for (struct dirent *e; (e = readdir(d)) && out->nthreads < CHILD_LOOK_THREADS;) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0 || tid > INT32_MAX)
			continue;
		int td = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (td < 0)
			continue; /* ended meanwhile */
		char buf[512];
		ssize_t n;
		if (tid == c->pid && (n = task_file(td, "stat", buf, sizeof(buf))) > 0) {
			/* the state follows the name, which may hold anything but ends at the last ')' */
			const char *close_paren = strrchr(buf, ')');
			out->runnable = close_paren && close_paren[1] == ' ' && close_paren[2] == 'R';
		}
		struct proc_schedstat ss;
		n = task_file(td, "schedstat", buf, sizeof(buf));
		if (n > 0 && proc_parse_schedstat(buf, (size_t)n, &ss) == 0)
			out->t[out->nthreads++] = (struct child_thread){(int32_t)tid, ss.run_delay_ns};
		close(td);
	}
	closedir(d);
}

int64_t plugin_child_waited(const struct child_look *last, const struct child_look *now)
{
	int64_t most = 0;
	for (size_t i = 0; i < now->nthreads; i++) {
		/* a thread new since last waited all its wait since then */
		int64_t before = 0;
		for (size_t k = 0; k < last->nthreads; k++)
			if (last->t[k].tid == now->t[i].tid)
				before = last->t[k].wait_ns;
		if (now->t[i].wait_ns - before > most)
			most = now->t[i].wait_ns - before;
	}
	return most;
}
