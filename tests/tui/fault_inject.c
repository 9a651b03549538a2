/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Preloaded into taskview by the TUI tests: a fault of the kind named by
 * TV_FAULT (segv, fpe, abort, assert, exit) happens inside the main loop,
 * at its TV_FAULT_AT-th wait for a key (default 3: the screen is drawn).
 * double-free frees a block twice: the sanitizer's malloc reports it (this
 * library is not instrumented, its malloc is) and ends the process; glibc's
 * aborts.
 * child-exit and child-segv do it in a forked child instead, as a helper
 * process started from the loop would; taskview itself goes on.
 * sigterm-open and sigint-open send taskview that signal while the screen
 * opens, right after curses has set the terminal up.
 * slow-maps makes each open of a /proc/PID/maps file take TV_FAULT_SLOW
 * seconds (default 20): a process whose memory map lock a fork loop holds.
 * slow-sample makes each open of /proc/loadavg, which the sampling thread
 * reads once a sample, take TV_FAULT_SLOW_MS milliseconds (default 800): a
 * refresh that takes that long, as on a busy machine.
 * slow-maps-read makes each read() of a /proc/PID/maps file take
 * TV_FAULT_SLOW_MS milliseconds (default 100), as each waits for the memory-map
 * lock of a process that forks; with TV_FAULT_COUNT, a byte is appended to
 * that file for each.
 */
#undef NDEBUG
#include <assert.h>
#include <curses.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void fault_now(const char *what)
{
	if (strncmp(what, "child-", 6) == 0) {
		pid_t pid = fork();
		if (pid == 0)
			fault_now(what + 6);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return;
	}
	if (strcmp(what, "segv") == 0) {
		volatile int *volatile p = NULL;
		*p = 1;
	} else if (strcmp(what, "fpe") == 0) {
		/* both volatile, or the compiler knows 1 / x without dividing */
		volatile int one = 1, zero = 0;
		volatile int x = one / zero;
		(void)x;
	} else if (strcmp(what, "abort") == 0) {
		abort();
	} else if (strcmp(what, "assert") == 0) {
		volatile int ok = 0;
		assert(ok);
	} else if (strcmp(what, "exit") == 0) {
		exit(3);
	} else if (strcmp(what, "double-free") == 0) {
		char *volatile p = malloc(8);
		free(p);
		free(p);
	}
}

int wgetch(WINDOW *w)
{
	static int calls;
	static int (*real)(WINDOW *);
	if (!real)
		real = (int (*)(WINDOW *))dlsym(RTLD_NEXT, "wgetch");
	const char *what = getenv("TV_FAULT");
	const char *at = getenv("TV_FAULT_AT");
	if (what && ++calls == (at ? atoi(at) : 3))
		fault_now(what);
	return real(w);
}

SCREEN *newterm(const char *type, FILE *out, FILE *in)
{
	static SCREEN *(*real)(const char *, FILE *, FILE *);
	if (!real)
		real = (SCREEN * (*)(const char *, FILE *, FILE *)) dlsym(RTLD_NEXT, "newterm");
	SCREEN *s = real(type, out, in);
	const char *what = getenv("TV_FAULT");
	if (what && strcmp(what, "sigterm-open") == 0)
		raise(SIGTERM);
	else if (what && strcmp(what, "sigint-open") == 0)
		raise(SIGINT);
	return s;
}

/* The descriptors of maps files open while TV_FAULT is slow-maps-read. */
static int maps_fds[64];
static int nmaps_fds;

static bool slow_maps_reads(void)
{
	const char *what = getenv("TV_FAULT");
	return what && strcmp(what, "slow-maps-read") == 0;
}

static void maps_fd_note(const char *path, int fd)
{
	size_t n = strlen(path);
	if (fd >= 0 && n > 5 && strcmp(path + n - 5, "/maps") == 0 && slow_maps_reads() && nmaps_fds < 64)
		maps_fds[nmaps_fds++] = fd;
}

/* open() of a maps file, slowed when TV_FAULT is slow-maps */
static int open_slowed(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	const char *what = getenv("TV_FAULT");
	size_t n = strlen(path);
	if (what && strcmp(what, "slow-maps") == 0 && strncmp(path, "/proc/", 6) == 0 && n > 5 &&
	    strcmp(path + n - 5, "/maps") == 0) {
		const char *slow = getenv("TV_FAULT_SLOW");
		sleep(slow ? (unsigned)atoi(slow) : 20);
	}
	int fd = real(path, flags, mode);
	maps_fd_note(path, fd);
	return fd;
}

static void sleep_ms(long n)
{
	struct timespec ts = {n / 1000, (n % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* The slowed reads, counted in TV_FAULT_COUNT: a byte each. */
static void count_read(void)
{
	static int fd = -2;
	const char *path = getenv("TV_FAULT_COUNT");
	if (fd == -2)
		fd = path ? ((int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open"))(
				    path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)
			  : -1;
	if (fd >= 0)
		(void)!((ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write"))(fd, "r", 1);
}

ssize_t read(int fd, void *buf, size_t len)
{
	for (int i = 0; i < nmaps_fds; i++) {
		if (maps_fds[i] != fd)
			continue;
		const char *ms = getenv("TV_FAULT_SLOW_MS");
		sleep_ms(ms ? atol(ms) : 100);
		count_read();
		break;
	}
	return ((ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read"))(fd, buf, len);
}

int close(int fd)
{
	for (int i = 0; i < nmaps_fds; i++)
		if (maps_fds[i] == fd)
			maps_fds[i] = maps_fds[--nmaps_fds];
	return ((int (*)(int))dlsym(RTLD_NEXT, "close"))(fd);
}

/* with _FILE_OFFSET_BITS=64 (meson's default) the symbol is open64, as taskview calls it */
int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return open_slowed("open", path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	int (*real)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	const char *what = getenv("TV_FAULT");
	if (what && strcmp(what, "slow-sample") == 0 && strcmp(path, "/proc/loadavg") == 0) {
		const char *ms = getenv("TV_FAULT_SLOW_MS");
		sleep_ms(ms ? atol(ms) : 800);
	}
	int fd = real(dirfd, path, flags, mode);
	maps_fd_note(path, fd);
	return fd;
}
