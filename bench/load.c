/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The benchmark workload: PROCS processes of THREADS threads each (the main
 * one included), on 64 KiB stacks so that tens of thousands fit. The threads
 * sleep for good, or with WAKES > 0 each wakes WAKES times a second (a timed
 * wait, as server threads on timers and queues do): a monitor's cost grows
 * with the threads that ran since its last look. Prints "ready" once every
 * thread runs; ends its processes on SIGTERM.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static atomic_int up;
static long period_ns; /* 0: sleep for good */

static void *sleeper(void *arg)
{
	(void)arg;
	atomic_fetch_add(&up, 1);
	if (period_ns == 0)
		for (;;)
			pause();
	/* absolute deadlines keep the rate; a wake-up missed on a busy
	 * machine is skipped, never made up (thousands of threads catching
	 * up at once would spin and starve everything else) */
	struct timespec t, now;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (;;) {
		t.tv_nsec += period_ns;
		while (t.tv_nsec >= 1000000000L) {
			t.tv_nsec -= 1000000000L;
			t.tv_sec++;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > t.tv_sec || (now.tv_sec == t.tv_sec && now.tv_nsec > t.tv_nsec))
			t = now;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	return NULL;
}

/* One process: threads - 1 sleepers besides the main thread; reports on fd when all run. */
static void child(int threads, int fd)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "tv-bench-load");
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (int i = 1; i < threads; i++) {
		pthread_t t;
		if (pthread_create(&t, &a, sleeper, NULL) != 0) {
			perror("pthread_create");
			_exit(1);
		}
	}
	while (atomic_load(&up) < threads - 1)
		usleep(1000);
	if (write(fd, "r", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: load PROCS THREADS [WAKES_PER_SECOND]\n");
		return 2;
	}
	int procs = atoi(argv[1]), threads = atoi(argv[2]);
	double wakes = argc == 4 ? atof(argv[3]) : 0;
	if (wakes < 0 || wakes > 1000)
		return 2;
	period_ns = wakes > 0 ? (long)(1e9 / wakes) : 0;
	int p[2];
	if (procs < 1 || threads < 1 || pipe(p) < 0)
		return 2;
	for (int i = 0; i < procs; i++) {
		pid_t c = fork();
		if (c < 0) {
			perror("fork");
			kill(0, SIGTERM);
			return 1;
		}
		if (c == 0) {
			close(p[0]);
			child(threads, p[1]);
		}
	}
	close(p[1]);
	char b;
	for (int i = 0; i < procs; i++)
		if (read(p[0], &b, 1) != 1)
			return 1;
	printf("ready\n");
	fflush(stdout);
	/* SIGTERM ends this process; its children die with it (PDEATHSIG) */
	for (;;)
		pause();
}
