/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF exit program against the kernel's own taskstats exit records, for
 * the same exits: a process whose threads wake, sleep and spin, then end one
 * by one, and the process last. Every thread's record and the group's totals
 * must match the netlink listener's, counter by counter (the program runs a
 * moment after taskstats fills its record: what can move in between may only
 * grow, by little). Needs root and a kernel the program loads on; exits 77
 * (skipped) otherwise.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sample/bpf/bpf_exits.h"
#include "sample/taskstats/taskstats_listen.h"
#include "check.h"

#define NTHREADS 8

static void *worker(void *arg)
{
	long i = (long)arg;
	char name[16];
	snprintf(name, sizeof(name), "tv-exit-%ld", i);
	prctl(PR_SET_NAME, name);
	for (long k = 0; k < 5 + i; k++) {
		usleep(1000);
		for (volatile long x = 0; x < 200000; x++)
			;
	}
	return NULL;
}

/* The child's part: NTHREADS threads that end, joined, before it does. */
static int child_main(void)
{
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 3;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/* A process of NTHREADS threads. It runs this program afresh: a fork of this
 * one (which has the program's reader thread) may hold a lock that thread
 * held, such as the sanitizer's allocator's, and hang in pthread_create. */
static pid_t run_child(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", "tv-exit-child", "--child", (char *)NULL);
		_exit(127);
	}
	return pid;
}

struct got {
	struct ts_exit_rec *v;
	size_t n, cap;
};

static void keep(struct got *g, const struct ts_exit_rec *recs, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i += ts_exit_entries(&recs[i])) {
		if (recs[i].tgid != pid)
			continue;
		size_t k = ts_exit_entries(&recs[i]);
		if (g->n + k > g->cap) {
			g->cap = (g->cap + k) * 2;
			g->v = realloc(g->v, g->cap * sizeof(*g->v));
			if (!g->v)
				exit(2);
		}
		memcpy(&g->v[g->n], &recs[i], k * sizeof(*recs));
		g->n += k;
	}
}

static const struct ts_exit_rec *find(const struct got *g, int32_t tid)
{
	for (size_t i = 0; i < g->n; i += ts_exit_entries(&g->v[i]))
		if (g->v[i].pid == tid)
			return &g->v[i];
	return NULL;
}

/* The group's totals, once its last thread's record came; NULL before. */
static const struct ts_final *group_of(const struct got *g)
{
	for (size_t i = 0; i < g->n; i += ts_exit_entries(&g->v[i]))
		if (g->v[i].end_tgid > 0)
			return ts_exit_group(&g->v[i]);
	return NULL;
}

static bool ended(const struct got *g)
{
	return group_of(g) != NULL;
}

/* b (the program's) equals a (taskstats'), or exceeds it by at most slack. */
static void same(int64_t a, int64_t b, int64_t slack, const char *what, int32_t tid)
{
	CHECK(a != TV_UNKNOWN && b != TV_UNKNOWN && b >= a && b - a <= slack, "%d %s: taskstats %lld, bpf %lld", tid,
	      what, (long long)a, (long long)b);
}

static void same_final(const struct ts_final *a, const struct ts_final *b, int32_t tid, const char *who)
{
	char what[64];
	snprintf(what, sizeof(what), "%s nvcsw", who);
	same(a->nvcsw, b->nvcsw, 1, what, tid);
	snprintf(what, sizeof(what), "%s nivcsw", who);
	same(a->nivcsw, b->nivcsw, 1, what, tid);
	/* a few µs of the exit itself may be added in between */
	snprintf(what, sizeof(what), "%s cpu_ns", who);
	same(a->cpu_ns, b->cpu_ns, 1000000, what, tid);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		if (a->delay_ns[c] == TV_UNKNOWN)
			continue; /* not kept by this kernel: the program's may be */
		snprintf(what, sizeof(what), "%s delay %d count", who, c);
		same(a->delay_count[c], b->delay_count[c], c == TV_DELAY_CPU ? 1 : 0, what, tid);
		snprintf(what, sizeof(what), "%s delay %d ns", who, c);
		same(a->delay_ns[c], b->delay_ns[c], c == TV_DELAY_CPU ? 1000000 : 0, what, tid);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--child") == 0)
		return child_main();
	if (geteuid() != 0) {
		printf("SKIP: needs root\n");
		return 77;
	}
	const char *why;
	struct bpf_exits *b = bpf_exits_open(&why);
	if (!b) {
		printf("SKIP: BPF exit program: %s\n", why);
		return 77;
	}
	/* alone first: no netlink listener registered, the group's totals must
	 * still come (the kernel keeps signal->stats for any thread group), and
	 * be its threads' sum */
	pid_t pid0 = run_child();
	waitpid(pid0, NULL, 0);
	struct got g0 = {0};
	for (int tries = 0; tries < 3000 && !ended(&g0); tries++) {
		struct ts_exit_rec *recs;
		uint64_t lost;
		size_t n = bpf_exits_take(b, &recs, &lost);
		keep(&g0, recs, n, pid0);
		bpf_exits_give_back(b, recs);
		usleep(10000);
	}
	CHECK(ended(&g0), "without a listener: no group totals of %d", (int)pid0);
	if (ended(&g0)) {
		int64_t sum = 0;
		size_t k = 0;
		for (size_t i = 0; i < g0.n; i += ts_exit_entries(&g0.v[i]), k++)
			sum += g0.v[i].r.cpu_ns;
		CHECK(k == NTHREADS + 1, "without a listener: %zu records, want %d", k, NTHREADS + 1);
		/* each thread's record is read a moment after the kernel adds it to the group's */
		same(group_of(&g0)->cpu_ns, sum, 1000000 * (int64_t)k, "group cpu_ns against the threads' sum", pid0);
	}
	free(g0.v);
	struct ts_listener *l = ts_listen_start(&why);
	if (!l) {
		bpf_exits_free(b);
		printf("SKIP: exit listener: %s\n", why);
		return 77;
	}
	pid_t pid = run_child();
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
	struct got gb = {0}, gl = {0};
	/* the records come at once, but a busy machine may hold the listener's thread back */
	for (int tries = 0; tries < 3000 && !(ended(&gb) && ended(&gl)); tries++) {
		struct ts_exit_rec *recs;
		uint64_t lost;
		size_t n = bpf_exits_take(b, &recs, &lost);
		CHECK(lost == 0, "bpf lost %llu", (unsigned long long)lost);
		keep(&gb, recs, n, pid);
		bpf_exits_give_back(b, recs);
		n = ts_listen_take(l, &recs, &lost);
		keep(&gl, recs, n, pid);
		ts_listen_give_back(l, recs);
		usleep(10000);
	}
	CHECK(ended(&gb) && ended(&gl), "the process's end from both: bpf %d, taskstats %d", ended(&gb), ended(&gl));
	size_t compared = 0;
	for (size_t i = 0; i < gl.n; i += ts_exit_entries(&gl.v[i])) {
		const struct ts_exit_rec *a = &gl.v[i], *r = find(&gb, a->pid);
		CHECK(r != NULL, "no bpf record of %d", a->pid);
		if (!r)
			continue;
		compared++;
		CHECK(r->tgid == a->tgid && r->ppid == a->ppid && r->uid == a->uid, "%d ids: tgid %d/%d ppid %d/%d uid %lld/%lld",
		      a->pid, a->tgid, r->tgid, a->ppid, r->ppid, (long long)a->uid, (long long)r->uid);
		CHECK(strcmp(a->comm, r->comm) == 0, "%d comm '%s' / '%s'", a->pid, a->comm, r->comm);
		CHECK(r->end_tgid == a->end_tgid, "%d end_tgid %d / %d", a->pid, a->end_tgid, r->end_tgid);
		same(a->etime_us, r->etime_us, 100000, "etime_us", a->pid);
		same_final(&a->r, &r->r, a->pid, "own");
		if (a->end_tgid > 0 && r->end_tgid > 0)
			same_final(ts_exit_group(a), ts_exit_group(r), a->pid, "group");
	}
	CHECK(compared == NTHREADS + 1, "%zu threads compared, want %d", compared, NTHREADS + 1);
	if (ended(&gb) && ended(&gl))
		printf("%zu exits compared, the process's totals too: CPU %lld ns (taskstats), %lld ns (bpf)\n", compared,
		       (long long)group_of(&gl)->cpu_ns, (long long)group_of(&gb)->cpu_ns);
	free(gb.v);
	free(gl.v);
	ts_listen_stop(l);
	bpf_exits_free(b);
	return failures ? 1 : 0;
}
