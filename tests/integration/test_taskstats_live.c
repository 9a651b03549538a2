/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The taskstats client against the running kernel. Needs CAP_NET_ADMIN and
 * delay accounting on; exits 77 (skipped) otherwise. With -b it also prints
 * the cost of a pipelined batch over many threads.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sample/taskstats/taskstats.h"
#include "check.h"

#define NTHREADS 2000

static void *idle_thread(void *arg)
{
	int fd = *(int *)arg;
	char c;

	/* a short nap, so each thread has a voluntary switch and cpu delay of its own */
	usleep(1000);
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* A child with n sleeping threads; it reports readiness on ready[1] and ends when stop closes. */
static pid_t spawn_threads(int n)
{
	int ready[2], stop[2];
	pid_t pid;

	if (pipe(ready) < 0 || pipe(stop) < 0)
		exit(2);
	pid = fork();
	if (pid == 0) {
		pthread_attr_t a;
		close(ready[0]);
		close(stop[1]);
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 64 * 1024);
		for (int i = 0; i < n; i++) {
			pthread_t t;
			if (pthread_create(&t, &a, idle_thread, &stop[0]) != 0)
				_exit(3);
		}
		usleep(200000);
		(void)!write(ready[1], "x", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	close(stop[0]);
	char c;
	if (read(ready[0], &c, 1) != 1)
		exit(2);
	close(ready[0]);
	return pid;
}

static size_t list_tids(pid_t pid, int32_t *tids, size_t cap)
{
	char path[64];
	size_t n = 0;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < cap)
		if (e->d_name[0] != '.')
			tids[n++] = (int32_t)atoi(e->d_name);
	closedir(d);
	return n;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void check_plausible(const struct ts_result *r, const char *what)
{
	CHECK(r->version >= 7, "%s: version %u", what, r->version);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		const struct ts_delay *d = &r->delay[c];
		if (d->count == TV_UNKNOWN || d->count == 0 || d->max_ns == TV_UNKNOWN)
			continue;
		double avg = (double)d->total_ns / (double)d->count;
		CHECK(d->max_ns + 1 >= avg, "%s class %d: max %lld < avg %.0f", what, c, (long long)d->max_ns, avg);
		/* min skips zero-length waits while count includes them, so the
		 * average may fall below min; min can never exceed max */
		CHECK(d->min_ns <= d->max_ns, "%s class %d: min %lld > max %lld", what, c, (long long)d->min_ns,
		      (long long)d->max_ns);
	}
}

static void test_group_sums(struct ts_client *c, pid_t pid, int32_t *tids, size_t n)
{
	struct ts_query *q = calloc(n + 1, sizeof(*q));
	int64_t vol = 0, cpu_count = 0;

	for (size_t i = 0; i < n; i++)
		q[i].id = tids[i];
	q[n].id = (int32_t)pid;
	q[n].tgid = true;
	CHECK(ts_query_batch(c, q, n + 1) == 0, "batch failed");
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		if (!q[i].ok)
			continue;
		ok++;
		vol += q[i].r.nvcsw;
		cpu_count += q[i].r.delay[TV_DELAY_CPU].count;
	}
	CHECK(ok == n, "only %zu of %zu threads answered", ok, n);
	CHECK(q[n].ok, "group query failed");
	check_plausible(&q[n].r, "group");
	check_plausible(&q[0].r, "leader");
	/* the group total includes threads as they are now: equal, give or take a late wakeup */
	CHECK(q[n].r.nvcsw >= vol && q[n].r.nvcsw <= vol + 10,
	      "group nvcsw %lld vs sum of threads %lld", (long long)q[n].r.nvcsw, (long long)vol);
	CHECK(q[n].r.delay[TV_DELAY_CPU].count >= cpu_count,
	      "group cpu count %lld < sum %lld", (long long)q[n].r.delay[TV_DELAY_CPU].count, (long long)cpu_count);
	printf("group of %zu threads: nvcsw %lld (sum of threads %lld), cpu delay count %lld (sum %lld)\n",
	       n, (long long)q[n].r.nvcsw, (long long)vol,
	       (long long)q[n].r.delay[TV_DELAY_CPU].count, (long long)cpu_count);
	free(q);
}

static void test_gone(struct ts_client *c)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	struct ts_query q[2] = {{.id = (int32_t)pid}, {.id = (int32_t)getpid(), .tgid = true}};
	CHECK(ts_query_batch(c, q, 2) == 0, "batch with a dead pid failed");
	CHECK(!q[0].ok, "dead pid %d answered", (int)pid);
	CHECK(q[0].r.delay[TV_DELAY_CPU].count == TV_UNKNOWN, "dead pid result not unknown");
	CHECK(q[1].ok, "live pid after a dead one failed");
}

/* A receive buffer far too small for the window: replies are dropped and must be asked again. */
static void test_overflow(struct ts_client *c, int32_t *tids, size_t n)
{
	struct ts_query *q = calloc(n, sizeof(*q));

	for (size_t i = 0; i < n; i++)
		q[i].id = tids[i];
	int got = ts_tune(c, 16384, 1024);
	double t0 = now_s();
	CHECK(ts_query_batch(c, q, n) == 0, "batch failed");
	double t = now_s() - t0;
	size_t ok = 0;
	for (size_t i = 0; i < n; i++)
		ok += q[i].ok;
	CHECK(ok == n, "overflow: %zu of %zu answered", ok, n);
	printf("rcvbuf %d, window 1024: %zu/%zu answered in %.1f ms\n", got, ok, n, t * 1e3);
	ts_tune(c, 1 << 20, 0);
	free(q);
}

static void bench(struct ts_client *c, int32_t *tids, size_t n, int rounds)
{
	struct ts_query *q = calloc(n, sizeof(*q));
	double best = 1e9;

	for (int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < n; i++)
			q[i].id = tids[i];
		double t0 = now_s();
		ts_query_batch(c, q, n);
		double t = now_s() - t0;
		if (t < best)
			best = t;
	}
	size_t ok = 0;
	for (size_t i = 0; i < n; i++)
		ok += q[i].ok;
	printf("pipelined batch of %zu threads: best %.2f ms, %.2f us per query (%zu ok)\n",
	       n, best * 1e3, best * 1e6 / (double)n, ok);
	/* one at a time, for comparison */
	double t0 = now_s();
	for (size_t i = 0; i < n; i++)
		ts_query_batch(c, &q[i], 1);
	printf("one query per batch: %.2f us per query\n", (now_s() - t0) * 1e6 / (double)n);
	free(q);
}

int main(int argc, char **argv)
{
	bool do_bench = argc > 1 && strcmp(argv[1], "-b") == 0;
	struct ts_client *c = ts_open();

	if (!c)
		return 1;
	printf("state %s: %s\n", ts_state_name(ts_state(c)), ts_message(c));
	if (ts_state(c) != TS_ON) {
		ts_close(c);
		return 77;
	}
	struct ts_query self = {.id = (int32_t)getpid()};
	CHECK(ts_query_batch(c, &self, 1) == 0 && self.ok, "query of self failed");
	printf("kernel struct version %u\n", self.r.version);
	check_plausible(&self.r, "self");

	pid_t pid = spawn_threads(NTHREADS);
	int32_t *tids = calloc(NTHREADS + 16, sizeof(*tids));
	size_t n = list_tids(pid, tids, NTHREADS + 16);
	CHECK(n == NTHREADS + 1, "child has %zu tasks", n);

	test_group_sums(c, pid, tids, n);
	test_gone(c);
	test_overflow(c, tids, n);
	if (do_bench)
		bench(c, tids, n, 5);

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	free(tids);
	ts_close(c);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
