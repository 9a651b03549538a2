/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plugins that break every rule of include/taskview/plugin.h, one way each:
 * built once per HOSTILE_* mode, named by HOSTILE_NAME. taskview must name
 * each in a message, disable it and go on; sleepy breaks none and must stay;
 * terminal says nothing and must find taskview's terminal out of its reach.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <taskview/plugin.h>

#ifndef HOSTILE_NAME
#error "build with -DHOSTILE_NAME=\"name\" and one -DHOSTILE_<MODE>"
#endif

static volatile int forever __attribute__((unused)) = 1;

static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static __attribute__((unused)) void spin_cpu_ms(double ms)
{
	double end = thread_cpu_ms() + ms;
	while (thread_cpu_ms() < end)
		;
}

/* What a plugin must never do, at the point it does it. */
static void misbehave(void)
{
#if defined(HOSTILE_LOOP_COLLECT) || defined(HOSTILE_LOOP_INIT)
	while (forever) /* burns CPU, never returns */
		;
#elif defined(HOSTILE_BLOCK_COLLECT)
	while (forever) /* waits, using no CPU at all */
		pause();
#elif defined(HOSTILE_SEGV) || defined(HOSTILE_SEGV_INIT)
	*(volatile int *)0 = 1;
#elif defined(HOSTILE_ABORTS)
	abort();
#elif defined(HOSTILE_EXITS)
	exit(3);
#elif defined(HOSTILE_NOISY)
	/* would rename the terminal window, then clear the screen */
	printf("\033]2;pwned by a plugin\007noisy on stdout\n");
	fprintf(stderr, "\033[2Jnoisy on stderr\n");
#elif defined(HOSTILE_JUNK)
	/* garbage into every socket it can find: the helper's channel to taskview */
	static const unsigned char junk[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	for (int fd = 0; fd < 64; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && write(fd, junk, sizeof(junk)) < 0)
			continue;
	}
#elif defined(HOSTILE_DROWSY)
	/* every refresh takes 1.5 s of the clock and no CPU: keys must not wait for it */
	struct timespec ts = {1, 500 * 1000000L};
	nanosleep(&ts, NULL);
#elif defined(HOSTILE_SLEEPY)
	/* slow on the clock, well within its CPU budget: a plugin on a busy machine */
	struct timespec ts = {0, 150 * 1000000L};
	nanosleep(&ts, NULL);
	spin_cpu_ms(TASKVIEW_PLUGIN_BUDGET_MS / 2.5);
#elif defined(HOSTILE_TERMINAL)
	/* around the pipe it was given: straight to taskview's own terminal,
	 * through its parent's descriptors, each refresh, saying nothing else */
	static const char paint[] = "\033]2;pwned by a plugin\007\033[2J\033[HPLUGIN WROTE HERE";
	for (int fd = 0; fd < 3; fd++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)getppid(), fd);
		int t = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (t >= 0) {
			if (write(t, paint, sizeof(paint) - 1) < 0)
				fd = 3;
			close(t);
		}
	}
#elif !defined(HOSTILE_LIAR)
#error "no HOSTILE_<MODE> given"
#endif
}

static void hostile_collect(void *state, const struct taskview_host *host,
                            const struct taskview_task *task, struct taskview_values *values)
{
	(void)state;
#if !defined(HOSTILE_LOOP_INIT) && !defined(HOSTILE_SEGV_INIT) && !defined(HOSTILE_SLEEPY) && \
	!defined(HOSTILE_DROWSY)
	misbehave();
#endif
	host->set_int(values, 0, host->task_tid(task));
}

static void hostile_begin(void *state, const struct taskview_host *host)
{
	(void)state, (void)host;
#if defined(HOSTILE_SLEEPY) || defined(HOSTILE_DROWSY)
	misbehave();
#endif
}

static int32_t hostile_init(const struct taskview_host *host, void **state)
{
	(void)host, (void)state;
#if defined(HOSTILE_LOOP_INIT) || defined(HOSTILE_SEGV_INIT)
	misbehave();
#endif
	return 0;
}

static struct taskview_column hostile_columns[] = {
	{.id = HOSTILE_NAME ".value", .header = "HOSTILE", .type = TASKVIEW_TYPE_INTEGER},
};

static struct taskview_plugin hostile_plugin = {
	.struct_size = sizeof(struct taskview_plugin),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.name = HOSTILE_NAME,
	.columns = hostile_columns,
	.ncolumns = 1,
	.column_size = sizeof(struct taskview_column),
	.collect = hostile_collect,
	.init = hostile_init,
	.begin = hostile_begin,
};

const struct taskview_plugin *taskview_plugin_v1(void)
{
#if defined(HOSTILE_LIAR)
	/* claims four columns and has one, right before a page it may not read */
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m + page, (size_t)page, PROT_NONE) < 0)
		return NULL;
	struct taskview_column *c = (struct taskview_column *)(void *)(m + page - sizeof(*c));
	*c = hostile_columns[0];
	hostile_plugin.columns = c;
	hostile_plugin.ncolumns = 4;
#endif
	return &hostile_plugin;
}
