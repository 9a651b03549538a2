/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The benchmark workload: PROCS processes of THREADS threads each (the main
 * one included), all sleeping, on 64 KiB stacks so that tens of thousands fit.
 * Prints "ready" once every thread runs; ends its processes on SIGTERM.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	atomic_int *up = arg;
	atomic_fetch_add(up, 1);
	for (;;)
		pause();
	return NULL;
}

/* One process: threads - 1 sleepers besides the main thread; reports on fd when all run. */
static void child(int threads, int fd)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "tv-bench-load");
	static atomic_int up;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (int i = 1; i < threads; i++) {
		pthread_t t;
		if (pthread_create(&t, &a, sleeper, &up) != 0) {
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
	if (argc != 3) {
		fprintf(stderr, "usage: load PROCS THREADS\n");
		return 2;
	}
	int procs = atoi(argv[1]), threads = atoi(argv[2]);
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
