/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A real workload for taskview's tests: named threads, a big sparse mapping,
 * ping-pong over pipes, sleepers, optional CPU spinners, fdatasync writers,
 * open descriptors and an oom_score_adj; a ticker waking HZ times a second,
 * unpinned CPU burners, thread churn, a leader that exits before its threads,
 * short CPU-burning threads or child processes started N times a second.
 * Prints one JSON line with its PID and thread IDs once everything runs, then
 * lives until killed or timed out. With --report-ms it then prints its own
 * count of context switches and CPU time (getrusage) with the monotonic time, one JSON
 * line every N ms: the independent reading taskview is checked against. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <alloca.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

struct worker {
	char name[16];
	pid_t tid;
	int in, out;      /* ping-pong pipe ends */
	int cpu;          /* spinner: CPU to pin to, -1 none */
	const char *dir;  /* fsync writer: directory */
	void *(*fn)(void *);
	pthread_t th;
};

static atomic_int ready_count;

static void worker_start(struct worker *w)
{
	w->tid = (pid_t)syscall(SYS_gettid);
	pthread_setname_np(pthread_self(), w->name);
	atomic_fetch_add(&ready_count, 1);
}

static void *ping_main(void *arg)
{
	struct worker *w = arg;
	worker_start(w);
	char c = 'x';
	/* pingA serves first; both then block on read: every hop is a voluntary switch */
	if (strcmp(w->name, "pingA") == 0 && write(w->out, &c, 1) != 1)
		return NULL;
	for (;;) {
		if (read(w->in, &c, 1) != 1 || write(w->out, &c, 1) != 1)
			return NULL;
	}
}

static void *sleeper_main(void *arg)
{
	worker_start(arg);
	for (;;)
		sleep(3600);
	return NULL;
}

static void *spin_main(void *arg)
{
	struct worker *w = arg;
	if (w->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	worker_start(w);
	volatile unsigned long x = 0;
	for (;;)
		x++;
	return NULL;
}

static void *fsync_main(void *arg)
{
	struct worker *w = arg;
	worker_start(w);
	char path[4096];
	snprintf(path, sizeof(path), "%s/tv-workload-%d.dat", w->dir, (int)getpid());
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	unlink(path);
	if (fd < 0)
		return NULL;
	static char block[64 * 1024];
	memset(block, 'z', sizeof(block));
	for (unsigned long i = 0;; i++) {
		if (pwrite(fd, block, sizeof(block), (off_t)((i % 256) * sizeof(block))) < 0)
			return NULL;
		fdatasync(fd);
	}
}

static long pace_kib_s;
static const char *pace_dir;

/* Dirties pace_kib_s KiB a second of new pages of an unlinked file, 4 KiB at
 * a time on an absolute schedule: write_bytes grows at that pace (on a file
 * system that accounts it), whatever the disk does later. */
static void *pacer_main(void *arg)
{
	worker_start(arg);
	char path[4096];
	snprintf(path, sizeof(path), "%s/tv-workload-pace-%d.dat", pace_dir, (int)getpid());
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	unlink(path);
	if (fd < 0)
		return NULL;
	static char page[4096];
	memset(page, 'p', sizeof(page));
	long step = 1000000000L / (pace_kib_s / 4 > 0 ? pace_kib_s / 4 : 1);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (off_t off = 0;; off += (off_t)sizeof(page)) {
		if (off >= (off_t)16 << 20) { /* 16 MiB at most on disk */
			(void)!ftruncate(fd, 0);
			off = 0;
		}
		if (pwrite(fd, page, sizeof(page), off) < 0)
			return NULL;
		next.tv_nsec += step;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
}

static long ticker_hz;
static atomic_long ticker_switches; /* the ticker's own voluntary switches (getrusage RUSAGE_THREAD) */
static long churn_ms, churn_switches, churn_life_ms;

/* Wakes ticker_hz times a second on an absolute schedule: one voluntary switch per tick. */
static void *ticker_main(void *arg)
{
	worker_start(arg);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	long step = 1000000000L / ticker_hz;
	for (;;) {
		next.tv_nsec += step;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		struct rusage ru;
		getrusage(RUSAGE_THREAD, &ru);
		atomic_store(&ticker_switches, ru.ru_nvcsw);
	}
	return NULL;
}

/*
 * A short-lived thread: churn_switches sleeps (a voluntary switch each), then
 * it ends. The sleeps are 1 us, or spread the switches over churn_life_ms.
 */
static void *churn_child(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "churn-child");
	long ns = churn_life_ms > 0 && churn_switches > 0 ? churn_life_ms * 1000000L / churn_switches : 1000;
	struct timespec d = {ns / 1000000000L, ns % 1000000000L};
	for (long i = 0; i < churn_switches; i++)
		nanosleep(&d, NULL);
	return NULL;
}

/* Starts a short-lived thread every churn_ms milliseconds. */
static void *churn_main(void *arg)
{
	worker_start(arg);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		pthread_t t;
		pthread_create(&t, &a, churn_child, NULL);
		next.tv_nsec += churn_ms * 1000000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	return NULL;
}

static long fsync_churn_ms;
static const char *fsync_churn_dir;

/* A short-lived writer: a few synced writes, then it ends. */
static void *fsync_child(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "fsync-child");
	char path[4096];
	snprintf(path, sizeof(path), "%s/tv-workload-%d-%ld.dat", fsync_churn_dir, (int)getpid(),
		 (long)syscall(SYS_gettid));
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	unlink(path);
	if (fd < 0)
		return NULL;
	static char block[64 * 1024];
	for (int i = 0; i < 5; i++) {
		if (pwrite(fd, block, sizeof(block), 0) < 0)
			break;
		fdatasync(fd);
	}
	close(fd);
	return NULL;
}

/* Starts a short-lived writer every fsync_churn_ms milliseconds. */
static void *fsync_churn_main(void *arg)
{
	worker_start(arg);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (;;) {
		pthread_t t;
		pthread_create(&t, &a, fsync_child, NULL);
		struct timespec d = {fsync_churn_ms / 1000, (fsync_churn_ms % 1000) * 1000000L};
		nanosleep(&d, NULL);
	}
	return NULL;
}

static long burst_per_s, burst_us;   /* --burn-churn: short CPU-burning threads */
static long forks_per_s, fork_us;    /* --fork-churn: short CPU-burning processes */
static long fork_sleeps;             /* ... each then sleeping this many times (voluntary switches) */

static long long cpu_ns_of(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Burns us microseconds of the calling thread's own CPU time. */
static void burn_for(long us)
{
	long long until = cpu_ns_of(CLOCK_THREAD_CPUTIME_ID) + us * 1000LL;
	volatile unsigned long x = 0;
	while (cpu_ns_of(CLOCK_THREAD_CPUTIME_ID) < until)
		for (int i = 0; i < 1000; i++)
			x++;
}

static void *burst_child(void *arg)
{
	(void)arg;
	burn_for(burst_us);
	return NULL;
}

/* Waits for the next of n steps a second on an absolute schedule. */
static void step_wait(struct timespec *next, long per_s)
{
	next->tv_nsec += 1000000000L / per_s;
	while (next->tv_nsec >= 1000000000L) {
		next->tv_nsec -= 1000000000L;
		next->tv_sec++;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

/* Starts burst_per_s threads a second, each burning burst_us of CPU, then ending. */
static void *burst_main(void *arg)
{
	worker_start(arg);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		pthread_t t;
		pthread_create(&t, &a, burst_child, NULL);
		step_wait(&next, burst_per_s);
	}
	return NULL;
}

/* The children of --fork-churn not reaped yet (alive, or ended and not
 * waited for): the report counts their switches too, read under the lock
 * that forking and reaping take, so that each child is in exactly one of
 * "not reaped" and RUSAGE_CHILDREN at a report. */
static pthread_mutex_t kids_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t *kids;
static size_t nkids, capkids;

static void kids_add(pid_t c)
{
	if (nkids == capkids) {
		size_t cap = capkids ? 2 * capkids : 64;
		pid_t *v = realloc(kids, cap * sizeof(*v));
		if (!v)
			abort();
		kids = v;
		capkids = cap;
	}
	kids[nkids++] = c;
}

static void kids_drop(pid_t c)
{
	for (size_t i = 0; i < nkids; i++)
		if (kids[i] == c) {
			kids[i] = kids[--nkids];
			return;
		}
}

/* The switches of the children not reaped yet, from their /proc/PID/status. */
static void kids_switches(long *vol, long *invol)
{
	*vol = *invol = 0;
	for (size_t i = 0; i < nkids; i++) {
		char path[64], line[256];
		snprintf(path, sizeof(path), "/proc/%d/status", (int)kids[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		long v;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
				*vol += v;
			else if (sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
				*invol += v;
		}
		fclose(f);
	}
}

/* Forks forks_per_s children a second, each burning fork_us of CPU, then ending; reaps them. */
static void *fork_main(void *arg)
{
	worker_start(arg);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		pthread_mutex_lock(&kids_lock);
		pid_t c = fork();
		if (c == 0) {
			burn_for(fork_us);
			for (long i = 0; i < fork_sleeps; i++) {
				struct timespec d = {0, 50000};
				nanosleep(&d, NULL);
			}
			_exit(0);
		}
		if (c > 0)
			kids_add(c);
		pid_t r;
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
			kids_drop(r);
		pthread_mutex_unlock(&kids_lock);
		step_wait(&next, forks_per_s);
	}
	return NULL;
}

/* --storm N: N threads that each start an empty thread and join it, over and over, and a
 * process of its own (storm-fork: a fork of a process of many threads waits on its
 * address space) that forks empty children and reaps them: tasks that end at once, by the
 * ten thousand a second, as on a build server */
static long storm_threads, storm_per_s; /* --storm N[:PER_S]: PER_S starts a second in all, or as many as can be */

static void *storm_child(void *arg)
{
	return arg;
}

static void *storm_thread_main(void *arg)
{
	worker_start(arg);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		pthread_t t;
		if (pthread_create(&t, &a, storm_child, NULL) == 0)
			pthread_join(t, NULL);
		if (storm_per_s > 0)
			step_wait(&next, storm_per_s / (storm_threads + 1) + 1);
	}
	return NULL;
}

/* The forking process, started before any thread; it ends with the workload. */
static void storm_fork_start(void)
{
	pid_t ppid = getpid();
	if (fork() != 0)
		return;
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != ppid)
		_exit(0);
	prctl(PR_SET_NAME, "storm-fork", 0, 0, 0);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		pid_t c = fork();
		if (c == 0)
			_exit(0);
		if (c > 0)
			while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
				;
		if (storm_per_s > 0)
			step_wait(&next, storm_per_s / (storm_threads + 1) + 1);
	}
}

static void *burn_main(void *arg)
{
	worker_start(arg);
	volatile unsigned long x = 0;
	for (;;)
		x++;
	return NULL;
}

static long report_ms;

/* --stacks: threads whose stack use is known. Each touches its stack down
 * to its depth, then sleeps; an idle one touches nothing more than a call. */
struct stack_worker {
	struct worker w;
	long touch_kib;
	int move; /* --move-stack: moves to a stack of its own at the grow (stk-move) */
};

static long grow_ms; /* --grow-ms: after this, each stk-N thread touches N KiB more */
static long wake_ms; /* --wake-ms: stack threads wake this often (else they sleep for good) */
static int grow_even; /* --grow-even: growing, a thread first frees as much anonymous memory as it adds */
static int grow_signal; /* --grow-signal: grow at SIGUSR1 (a test sends it once it has seen the stacks) */
static volatile sig_atomic_t grow_now;

static void on_grow(int sig)
{
	(void)sig;
	grow_now = 1;
}

/* Sleeps for good, or wakes every --wake-ms: a thread that runs, touching no more stack. */
static void stack_rest(void)
{
	struct timespec d = {wake_ms / 1000, (wake_ms % 1000) * 1000000L};
	for (;;)
		if (wake_ms > 0)
			nanosleep(&d, NULL);
		else
			pause();
}

/* --move-stack: the stack stk-move moves to, and what it touches there (a signal
 * handler on it that never returns: the thread stays on it, as on a coroutine's) */
#define MOVE_STACK_MIB 64
#define MOVE_TOUCH_KIB 4096

static void on_moved(int sig)
{
	(void)sig;
	size_t len = (size_t)MOVE_TOUCH_KIB << 10;
	char *p = alloca(len);
	for (size_t off = 0; off < len; off += 4096)
		((volatile char *)p)[off] = 1;
	__asm__ volatile("" : : "r"(p) : "memory");
	stack_rest();
}

static void stack_move(void)
{
	size_t len = (size_t)MOVE_STACK_MIB << 20;
	char *st = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (st == MAP_FAILED) {
		perror("mmap");
		return;
	}
	stack_t ss = {.ss_sp = st, .ss_size = len};
	struct sigaction sa = {.sa_handler = on_moved, .sa_flags = SA_ONSTACK};
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) < 0 || sigaction(SIGUSR2, &sa, NULL) < 0) {
		perror("sigaltstack");
		return;
	}
	pthread_kill(pthread_self(), SIGUSR2);
}

static void *stack_main(void *arg)
{
	struct stack_worker *sw = arg;
	if (sw->move) {
		worker_start(&sw->w);
		struct timespec tick = {0, 5 * 1000000L};
		while (!grow_now)
			nanosleep(&tick, NULL);
		stack_move();
		stack_rest();
	}
	if (sw->touch_kib > 0) {
		size_t len = (size_t)sw->touch_kib << 10;
		char *p = alloca(len);
		for (size_t off = 0; off < len; off += 4096)
			((volatile char *)p)[off] = 1;
		__asm__ volatile("" : : "r"(p) : "memory");
		/* memory to give back when growing: RssAnon then stays the same */
		char *spare = grow_even ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
					: MAP_FAILED;
		if (spare != MAP_FAILED)
			memset(spare, 1, len);
		worker_start(&sw->w);
		if (grow_ms > 0 || grow_signal) {
			struct timespec d = {grow_ms / 1000, (grow_ms % 1000) * 1000000L};
			struct timespec tick = {0, 5 * 1000000L};
			if (grow_signal)
				while (!grow_now)
					nanosleep(&tick, NULL);
			else
				nanosleep(&d, NULL);
			if (spare != MAP_FAILED)
				madvise(spare, len, MADV_DONTNEED);
			char *q = alloca(len);
			for (size_t off = 0; off < len; off += 4096)
				((volatile char *)q)[off] = 1;
			__asm__ volatile("" : : "r"(q) : "memory");
		}
		stack_rest();
	}
	worker_start(&sw->w);
	stack_rest();
	return NULL;
}

/* The process's own switch counts (all threads, exited ones included), with the time. */
static void *report_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "report");
	for (;;) {
		struct rusage ru, ch;
		struct timespec now, real;
		long kv, ki;
		getrusage(RUSAGE_SELF, &ru);
		pthread_mutex_lock(&kids_lock);
		getrusage(RUSAGE_CHILDREN, &ch); /* the children reaped */
		kids_switches(&kv, &ki);         /* and those not yet */
		pthread_mutex_unlock(&kids_lock);
		clock_gettime(CLOCK_MONOTONIC, &now);
		clock_gettime(CLOCK_REALTIME, &real);
		/* user + system time of every thread, ended ones included */
		double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
			     (double)ru.ru_stime.tv_usec / 1e6;
		printf("{\"mono\": %.6f, \"real\": %.6f, \"nvcsw\": %ld, \"nivcsw\": %ld, \"ticker\": %ld, "
		       "\"cpu_s\": %.6f, \"child_nvcsw\": %ld, \"child_nivcsw\": %ld, \"unreaped_nvcsw\": %ld, "
		       "\"unreaped_nivcsw\": %ld}\n",
		       (double)now.tv_sec + (double)now.tv_nsec / 1e9, (double)real.tv_sec + (double)real.tv_nsec / 1e9,
		       ru.ru_nvcsw, ru.ru_nivcsw, atomic_load(&ticker_switches), cpu, ch.ru_nvcsw, ch.ru_nivcsw, kv, ki);
		fflush(stdout);
		struct timespec d = {report_ms / 1000, (report_ms % 1000) * 1000000L};
		nanosleep(&d, NULL);
	}
	return NULL;
}

static void usage(void)
{
	puts("usage: tv-workload [--ping] [--sleepers N] [--map-mib N] [--touch-mib N]\n"
	     "                   [--spin N] [--fsync DIR] [--fds N] [--oom-adj N]\n"
	     "                   [--ticker HZ] [--burn N] [--churn MS:SWITCHES[:LIFE_MS]] [--leader-exit]\n"
	     "                   [--fsync-churn MS:DIR] [--report-ms N] [--name NAME] [--seconds S]\n"
	     "                   [--burn-churn N:US (N threads a second, each burning US us of CPU)]\n"
	     "                   [--fork-churn N:US[:SLEEPS] (N processes a second, each burning US us of CPU,\n"
	     "                    then sleeping SLEEPS times)]\n"
	     "                   [--sleeper-name NAME (threads NAME-1 ..., default sleeper)]\n"
	     "                   [--stacks KIB,... (threads stk-KIB touch KIB of their default stack)]\n"
	     "                   [--heap-stack (thread stk-heap runs on 64 KiB of the heap)]\n"
	     "                   [--move-stack (thread stk-move moves to a 64 MiB stack at SIGUSR1, touches 4 MiB)]\n"
	     "                   [--shared-stacks N (threads stk-sh-1... on 256 KiB each of one mapping)]\n"
	     "                   [--exec-ms MS (runs itself again, without it, after MS)]\n"
	     "                   [--mappings N (N mappings of a page each: a long maps file)]\n"
	     "                   [--small-stack KIB (thread stk-small with a stack of KIB)] [--idle N]\n"
	     "                   [--grow-ms MS (then each stk-KIB thread touches KIB more)]\n"
	     "                   [--wake-ms MS (stack and idle threads wake every MS)]\n"
	     "                   [--write-pace KIB_S:DIR (thread pacer dirties KIB_S KiB a second of a file in DIR)]\n"
	     "                   [--grow-even (growing, first free as much anonymous memory)]\n"
	     "                   [--grow-signal (grow at SIGUSR1 instead of after --grow-ms)]\n"
	     "                   [--storm N[:PER_S] (N threads starting and joining empty threads, a\n"
	     "                    process forking empty children: an exit storm of PER_S starts a\n"
	     "                    second, or as many as the machine gives)]");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"ping", no_argument, NULL, 'P'},   {"sleepers", required_argument, NULL, 's'},
		{"map-mib", required_argument, NULL, 'm'}, {"touch-mib", required_argument, NULL, 't'},
		{"spin", required_argument, NULL, 'c'}, {"fsync", required_argument, NULL, 'f'},
		{"fds", required_argument, NULL, 'd'}, {"oom-adj", required_argument, NULL, 'o'},
		{"name", required_argument, NULL, 'n'}, {"seconds", required_argument, NULL, 'S'},
		{"ticker", required_argument, NULL, 'T'}, {"burn", required_argument, NULL, 'b'},
		{"churn", required_argument, NULL, 'C'}, {"leader-exit", no_argument, NULL, 'L'},
		{"report-ms", required_argument, NULL, 'R'}, {"fsync-churn", required_argument, NULL, 'F'},
		{"sleeper-name", required_argument, NULL, 'N'},
		{"burn-churn", required_argument, NULL, 'B'}, {"fork-churn", required_argument, NULL, 'K'},
		{"stacks", required_argument, NULL, 'x'},
		{"small-stack", required_argument, NULL, 'k'}, {"idle", required_argument, NULL, 'I'},
		{"grow-ms", required_argument, NULL, 'G'}, {"wake-ms", required_argument, NULL, 'W'},
		{"grow-even", no_argument, NULL, 'E'}, {"storm", required_argument, NULL, 'Z'},
		{"grow-signal", no_argument, NULL, 'g'}, {"heap-stack", no_argument, NULL, 'H'},
		{"move-stack", no_argument, NULL, 'M'}, {"write-pace", required_argument, NULL, 'w'},
		{"shared-stacks", required_argument, NULL, 'D'}, {"exec-ms", required_argument, NULL, 'X'},
		{"mappings", required_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
	};
	int ping = 0, sleepers = 0, spin = 0, burn = 0, leader_exit = 0, nfds = 0, oom_adj = -10000, seconds = 120;
	long map_mib = 0, touch_mib = 0, nmappings = 0;
	const char *fsync_dir = NULL, *name = NULL, *sleeper_name = "sleeper", *stacks = NULL;
	long small_kib = 0, idle = 0;
	int heap_stack = 0, shared = 0, move_stack = 0;
	long exec_ms = 0;
	/* the arguments as given (getopt reorders argv), for --exec-ms */
	char *given[256];
	int ngiven = 0;
	for (int i = 0; i < argc && ngiven < 255; i++)
		given[ngiven++] = argv[i];
	given[ngiven] = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'P': ping = 1; break;
		case 's': sleepers = atoi(optarg); break;
		case 'm': map_mib = atol(optarg); break;
		case 'V': nmappings = atol(optarg); break;
		case 't': touch_mib = atol(optarg); break;
		case 'c': spin = atoi(optarg); break;
		case 'f': fsync_dir = optarg; break;
		case 'd': nfds = atoi(optarg); break;
		case 'o': oom_adj = atoi(optarg); break;
		case 'n': name = optarg; break;
		case 'N': sleeper_name = optarg; break;
		case 'x': stacks = optarg; break;
		case 'k': small_kib = atol(optarg); break;
		case 'I': idle = atol(optarg); break;
		case 'G': grow_ms = atol(optarg); break;
		case 'W': wake_ms = atol(optarg); break;
		case 'E': grow_even = 1; break;
		case 'g': grow_signal = 1; break;
		case 'H': heap_stack = 1; break;
		case 'M': move_stack = grow_signal = 1; break;
		case 'D': shared = atoi(optarg); break;
		case 'X': exec_ms = atol(optarg); break;
		case 'w': {
			char *colon = strchr(optarg, ':');
			pace_kib_s = atol(optarg);
			pace_dir = colon ? colon + 1 : NULL;
			if (pace_kib_s < 4 || !pace_dir) {
				usage();
				return 2;
			}
			break;
		}
		case 'Z':
			if (sscanf(optarg, "%ld:%ld", &storm_threads, &storm_per_s) < 1 || storm_threads <= 0 ||
			    storm_per_s < 0) {
				usage();
				return 2;
			}
			break;
		case 'S': seconds = atoi(optarg); break;
		case 'T': ticker_hz = atol(optarg); break;
		case 'b': burn = atoi(optarg); break;
		case 'C':
			churn_life_ms = 0;
			int k = sscanf(optarg, "%ld:%ld:%ld", &churn_ms, &churn_switches, &churn_life_ms);
			if (k < 2 || churn_ms <= 0 || churn_switches < 0 || churn_life_ms < 0) {
				usage();
				return 2;
			}
			break;
		case 'L': leader_exit = 1; break;
		case 'R': report_ms = atol(optarg); break;
		case 'F': {
			char *colon = strchr(optarg, ':');
			fsync_churn_ms = atol(optarg);
			fsync_churn_dir = colon ? colon + 1 : NULL;
			if (fsync_churn_ms <= 0 || !fsync_churn_dir) {
				usage();
				return 2;
			}
			break;
		}
		case 'B':
			if (sscanf(optarg, "%ld:%ld", &burst_per_s, &burst_us) != 2 || burst_per_s <= 0 || burst_us < 0) {
				usage();
				return 2;
			}
			break;
		case 'K':
			if (sscanf(optarg, "%ld:%ld:%ld", &forks_per_s, &fork_us, &fork_sleeps) < 2 || forks_per_s <= 0 ||
			    fork_us < 0 || fork_sleeps < 0) {
				usage();
				return 2;
			}
			break;
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
	}
	if (grow_signal) {
		struct sigaction sa = {.sa_handler = on_grow};
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
	}
	if (name)
		prctl(PR_SET_NAME, name, 0, 0, 0);
	/* never outlive the test that started us */
	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	alarm((unsigned)seconds);

	if (map_mib > 0) {
		size_t len = (size_t)map_mib << 20;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		size_t touch = (size_t)touch_mib << 20;
		for (size_t off = 0; off < touch && off < len; off += 4096)
			p[off] = 1;
	}
	if (nmappings > 0) {
		/* every other page read-only: neighbours the kernel cannot merge */
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, 2 * (size_t)nmappings * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (long i = 0; i < nmappings; i++)
			mprotect(p + (2 * (size_t)i + 1) * page, page, PROT_READ);
	}
	for (int i = 0; i < nfds; i++)
		if (open("/dev/null", O_RDONLY) < 0) {
			perror("open");
			return 1;
		}
	if (oom_adj != -10000) {
		FILE *f = fopen("/proc/self/oom_score_adj", "w");
		if (!f || fprintf(f, "%d", oom_adj) < 0 || fclose(f) != 0) {
			perror("oom_score_adj");
			return 1;
		}
	}

	static struct worker w[MAX_THREADS];
	int n = 0;
	if (ping) {
		int ab[2], ba[2];
		if (pipe(ab) < 0 || pipe(ba) < 0)
			return 1;
		w[n++] = (struct worker){.name = "pingA", .in = ba[0], .out = ab[1], .cpu = -1, .fn = ping_main};
		w[n++] = (struct worker){.name = "pingB", .in = ab[0], .out = ba[1], .cpu = -1, .fn = ping_main};
	}
	for (int i = 0; i < sleepers && n < MAX_THREADS; i++) {
		w[n] = (struct worker){.cpu = -1, .fn = sleeper_main};
		snprintf(w[n].name, sizeof(w[n].name), "%s-%hu", sleeper_name, (unsigned short)(i + 1));
		n++;
	}
	for (int i = 0; i < spin && n < MAX_THREADS; i++) {
		w[n] = (struct worker){.cpu = 0, .fn = spin_main};
		snprintf(w[n].name, sizeof(w[n].name), "spin-%hu", (unsigned short)(i + 1));
		n++;
	}
	if (fsync_dir && n < MAX_THREADS)
		w[n++] = (struct worker){.name = "fsync", .dir = fsync_dir, .cpu = -1, .fn = fsync_main};
	if (ticker_hz > 0 && n < MAX_THREADS)
		w[n++] = (struct worker){.name = "ticker", .cpu = -1, .fn = ticker_main};
	if (pace_kib_s > 0 && n < MAX_THREADS)
		w[n++] = (struct worker){.name = "pacer", .cpu = -1, .fn = pacer_main};
	for (int i = 0; i < burn && n < MAX_THREADS; i++) {
		w[n] = (struct worker){.cpu = -1, .fn = burn_main};
		snprintf(w[n].name, sizeof(w[n].name), "burn-%hu", (unsigned short)(i + 1));
		n++;
	}
	if (churn_ms > 0 && n < MAX_THREADS)
		w[n++] = (struct worker){.name = "churn", .cpu = -1, .fn = churn_main};
	if (burst_per_s > 0 && n < MAX_THREADS)
		w[n++] = (struct worker){.name = "burn-churn", .cpu = -1, .fn = burst_main};
	if (forks_per_s > 0 && n < MAX_THREADS)
		w[n++] = (struct worker){.name = "fork-churn", .cpu = -1, .fn = fork_main};
	if (fsync_churn_ms > 0 && n < MAX_THREADS)
		w[n++] = (struct worker){.name = "fsync-churn", .cpu = -1, .fn = fsync_churn_main};
	for (long i = 0; i < storm_threads && n < MAX_THREADS; i++) {
		w[n] = (struct worker){.cpu = -1, .fn = storm_thread_main};
		snprintf(w[n].name, sizeof(w[n].name), "storm-%hu", (unsigned short)(i + 1));
		n++;
	}
	if (storm_threads > 0)
		storm_fork_start();
	for (int i = 0; i < n; i++)
		if (pthread_create(&w[i].th, NULL, w[i].fn, &w[i]) != 0) {
			perror("pthread_create");
			return 1;
		}
	/* stack threads: named ones first (listed with the others), then the idle */
	static struct stack_worker sw[MAX_THREADS];
	int nsw = 0;
	for (const char *p = stacks; p && *p && nsw < MAX_THREADS / 2;) {
		sw[nsw] = (struct stack_worker){.w = {.cpu = -1}, .touch_kib = atol(p)};
		snprintf(sw[nsw].w.name, sizeof(sw[nsw].w.name), "stk-%ld", sw[nsw].touch_kib);
		nsw++;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	int small_at = -1;
	if (small_kib > 0 && nsw < MAX_THREADS / 2) {
		sw[nsw] = (struct stack_worker){.w = {.name = "stk-small", .cpu = -1}};
		small_at = nsw++;
	}
	/* stacks carved from one mapping, 256 KiB each, as a runtime's are */
	int shared_at = nsw;
	char *carved = NULL;
	if (shared > 0 && shared <= MAX_THREADS / 4) {
		carved = mmap(NULL, (size_t)shared << 18, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (carved == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (int i = 0; i < shared; i++) {
			sw[nsw] = (struct stack_worker){.w = {.cpu = -1}, .touch_kib = 16};
			snprintf(sw[nsw].w.name, sizeof(sw[nsw].w.name), "stk-sh-%d", i + 1);
			nsw++;
		}
	}
	if (move_stack && nsw < MAX_THREADS / 2) {
		sw[nsw] = (struct stack_worker){.w = {.name = "stk-move", .cpu = -1}, .move = 1};
		nsw++;
	}
	int heap_at = -1; /* a stack the program allocated in its heap, as a coroutine's is */
	if (heap_stack && nsw < MAX_THREADS / 2) {
		sw[nsw] = (struct stack_worker){.w = {.name = "stk-heap", .cpu = -1}, .touch_kib = 16};
		heap_at = nsw++;
	}
	for (int i = 0; i < nsw; i++) {
		pthread_attr_t a;
		pthread_attr_init(&a);
		if (i == small_at)
			pthread_attr_setstacksize(&a, (size_t)small_kib << 10);
		if (carved && i >= shared_at && i < shared_at + shared)
			pthread_attr_setstack(&a, carved + ((size_t)(i - shared_at) << 18), 1 << 18);
		if (i == heap_at) {
			/* 64 KiB of [heap], by sbrk: a sanitizer's malloc takes its memory elsewhere */
			char *st = sbrk((64 << 10) + 4096);
			if (st == (void *)-1) {
				perror("sbrk");
				return 1;
			}
			st = (char *)(((uintptr_t)st + 4095) & ~(uintptr_t)4095);
			pthread_attr_setstack(&a, st, 64 << 10);
		}
		if (pthread_create(&sw[i].w.th, &a, stack_main, &sw[i]) != 0) {
			perror("pthread_create");
			return 1;
		}
		pthread_attr_destroy(&a);
	}
	static struct stack_worker idle_w; /* shared: idle threads need no name of their own */
	strcpy(idle_w.w.name, "stk-idle");
	for (long i = 0; i < idle; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, stack_main, &idle_w) != 0) {
			perror("pthread_create");
			return 1;
		}
	}
	while (atomic_load(&ready_count) < n + nsw + idle)
		usleep(1000);

	printf("{\"pid\": %d, \"threads\": {", (int)getpid());
	for (int i = 0; i < n; i++)
		printf("%s\"%s\": %d", i ? ", " : "", w[i].name, (int)w[i].tid);
	for (int i = 0; i < nsw; i++)
		printf("%s\"%s\": %d", n + i ? ", " : "", sw[i].w.name, (int)sw[i].w.tid);
	printf("}, \"idle\": %ld}\n", idle);
	fflush(stdout);
	if (report_ms > 0) {
		pthread_t r;
		pthread_create(&r, NULL, report_main, NULL);
	}
	/* the process lives on in its other threads; the leader is a zombie */
	if (leader_exit)
		pthread_exit(NULL);
	if (exec_ms > 0) {
		/* the same program again in this process, without --exec-ms: a new address space */
		usleep((useconds_t)exec_ms * 1000);
		char *again[256];
		int k = 0;
		for (int i = 0; i < ngiven; i++) {
			if (strcmp(given[i], "--exec-ms") == 0 && i + 1 < ngiven) {
				i++;
				continue;
			}
			if (strncmp(given[i], "--exec-ms=", 10) != 0)
				again[k++] = given[i];
		}
		again[k] = NULL;
		execv("/proc/self/exe", again);
		perror("execv");
		return 1;
	}
	for (;;)
		pause();
}
