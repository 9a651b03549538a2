/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF task iterator's raw counters against the references, at the same
 * moment: a child whose threads burned CPU, slept, wrote and synced a file
 * is stopped (SIGSTOP); then every one of its threads is read by the
 * iterator, from its schedstat, status and stat, and by a taskstats query.
 * Every counter must be equal: CPU time, CPU wait and its count, switches,
 * each delay class's count and total, state, nice, priority, start tick and
 * name. Needs root (CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN): skipped (77)
 * elsewhere, and where the build has no BPF reader.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/task.h"
#include "sample/bpf/bpf_tasks.h"
#include "sample/bpf/task_rec_util.h"
#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"
#include "sample/taskstats/taskstats.h"

static int failures;

#define EXPECT_EQ(what, tid, a, b)                                                                      \
	do {                                                                                            \
		long long a_ = (long long)(a), b_ = (long long)(b);                                    \
		if (a_ != b_) {                                                                         \
			printf("FAIL thread %d %s: bpf %lld, reference %lld\n", (int)(tid), what, a_, b_); \
			failures++;                                                                     \
		}                                                                                       \
	} while (0)

static void burn_ms(long ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void *burner(void *arg)
{
	(void)arg;
	for (;;)
		burn_ms(50);
	return NULL;
}

static void *napper(void *arg)
{
	(void)arg;
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 5);
	for (;;) {
		struct timespec ts = {0, 2000000};
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void *writer(void *arg)
{
	const char *path = arg;
	char block[4096];
	memset(block, 'x', sizeof(block));
	for (;;) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			return NULL;
		for (int i = 0; i < 16; i++)
			if (write(fd, block, sizeof(block)) < 0)
				break;
		fdatasync(fd);
		close(fd);
	}
	return NULL;
}

static void child(const char *path, int ready)
{
	pthread_t t[3];
	pthread_create(&t[0], NULL, burner, NULL);
	pthread_create(&t[1], NULL, napper, NULL);
	pthread_create(&t[2], NULL, writer, (void *)path);
	if (write(ready, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* Every thread of pid stopped (T), within 30 s. */
static int wait_stopped(pid_t pid)
{
	char path[300], buf[1024];
	for (int tries = 0; tries < 600; tries++) {
		int stopped = 0, all = 0;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		DIR *d = opendir(path);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, de->d_name);
			ssize_t n = proc_read_at(AT_FDCWD, path, buf, sizeof(buf));
			struct proc_stat st;
			if (n > 0 && proc_parse_stat(buf, (size_t)n, &st) == 0) {
				all++;
				stopped += st.state == 'T';
			}
		}
		if (d)
			closedir(d);
		if (all == 4 && stopped == all)
			return 0;
		usleep(50000);
	}
	return -1;
}

static void compare(pid_t pid, const struct task_rec *r, struct ts_client *ts)
{
	char path[96], buf[4096];
	int tid = r->tid;
	struct tv_task t;
	task_init(&t);
	task_rec_fill(r, &t, sysconf(_SC_CLK_TCK), 0);

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, tid);
	ssize_t n = proc_read_at(AT_FDCWD, path, buf, sizeof(buf));
	struct proc_schedstat ss;
	if (n < 0 || proc_parse_schedstat(buf, (size_t)n, &ss) < 0) {
		printf("FAIL thread %d: schedstat unreadable\n", tid);
		failures++;
	} else {
		EXPECT_EQ("CPU time, ns (schedstat)", tid, r->runtime_ns, ss.runtime_ns);
		EXPECT_EQ("CPU wait, ns (schedstat)", tid, r->run_delay_ns, ss.run_delay_ns);
		EXPECT_EQ("times run (schedstat)", tid, r->pcount, ss.pcount);
	}

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, tid);
	n = proc_read_at(AT_FDCWD, path, buf, sizeof(buf));
	struct proc_status ps;
	if (n < 0 || proc_parse_status(buf, (size_t)n, &ps) < 0) {
		printf("FAIL thread %d: status unreadable\n", tid);
		failures++;
	} else {
		EXPECT_EQ("voluntary switches (status)", tid, r->nvcsw, ps.ctxt_vol);
		EXPECT_EQ("involuntary switches (status)", tid, r->nivcsw, ps.ctxt_invol);
		EXPECT_EQ("state (status)", tid, t.state, ps.state);
	}

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, tid);
	n = proc_read_at(AT_FDCWD, path, buf, sizeof(buf));
	struct proc_stat st;
	if (n < 0 || proc_parse_stat(buf, (size_t)n, &st) < 0) {
		printf("FAIL thread %d: stat unreadable\n", tid);
		failures++;
	} else {
		EXPECT_EQ("state (stat)", tid, t.state, st.state);
		EXPECT_EQ("nice (stat)", tid, t.nice, st.nice);
		EXPECT_EQ("priority (stat)", tid, t.prio, st.prio);
		EXPECT_EQ("start tick (stat)", tid, t.start_ticks, st.start_ticks);
		if (strcmp(task_comm(&t), st.comm) != 0) {
			printf("FAIL thread %d name: bpf %s, stat %s\n", tid, task_comm(&t), st.comm);
			failures++;
		}
	}

	struct ts_query q = {.id = tid};
	if (ts && ts_state(ts) == TS_ON && ts_query_batch(ts, &q, 1) >= 0 && q.ok) {
		EXPECT_EQ("CPU time, ns (taskstats)", tid, t.cpu_ns, q.r.cpu_ns);
		EXPECT_EQ("voluntary switches (taskstats)", tid, t.ctxt_vol, q.r.nvcsw);
		EXPECT_EQ("involuntary switches (taskstats)", tid, t.ctxt_invol, q.r.nivcsw);
		for (int c = 0; c < TV_DELAY_NCLASS; c++) {
			char what[64];
			if (q.r.delay[c].count == TV_UNKNOWN)
				continue; /* the kernel's taskstats lacks the class */
			snprintf(what, sizeof(what), "delay class %d count (taskstats)", c);
			EXPECT_EQ(what, tid, t.delay[c].count, q.r.delay[c].count);
			snprintf(what, sizeof(what), "delay class %d total (taskstats)", c);
			EXPECT_EQ(what, tid, t.delay[c].total_ns, q.r.delay[c].total_ns);
		}
	} else {
		printf("# thread %d: no taskstats reply with delay accounting on; /proc only\n", tid);
	}
	task_clear(&t, 0);
}

int main(void)
{
	const char *why = NULL;
	struct bpf_tasks *b = bpf_tasks_open(&why);
	if (!b) {
		printf("SKIP: no BPF reader here: %s\n", why);
		return 77;
	}
	char path[] = "/tmp/tv-bpf-XXXXXX";
	int tmp = mkstemp(path);
	int pipefd[2];
	if (tmp < 0 || pipe(pipefd) < 0)
		return 1;
	close(tmp);
	pid_t pid = fork();
	if (pid == 0)
		child(path, pipefd[1]);
	char c;
	if (pid < 0 || read(pipefd[0], &c, 1) != 1)
		return 1;
	usleep(400000); /* the threads burn, nap and write */
	kill(pid, SIGSTOP);
	int rc = 1;
	if (wait_stopped(pid) < 0) {
		printf("FAIL: the child did not stop\n");
		goto out;
	}
	double mono;
	long k = bpf_tasks_read(b, &mono);
	size_t n = 0;
	const struct task_rec_key *keys = k > 0 ? bpf_tasks_group(b, pid, &n) : NULL;
	if (n != 4) {
		printf("FAIL: the pass (%ld tasks) found %zu threads of %d, not 4\n", k, n, (int)pid);
		goto out;
	}
	struct ts_client *ts = ts_open();
	for (size_t i = 0; i < n; i++)
		compare(pid, bpf_tasks_rec(b, &keys[i]), ts);
	/* the workload did what the comparison needs to mean something */
	unsigned long long invol = 0, io = 0;
	for (size_t i = 0; i < n; i++) {
		invol += bpf_tasks_rec(b, &keys[i])->nivcsw;
		io += bpf_tasks_rec(b, &keys[i])->delay_count[TASK_REC_IO];
	}
	printf("# %zu threads compared; involuntary switches %llu, I/O waits %llu\n", n, invol, io);
	ts_close(ts);
	rc = failures ? 1 : 0;
out:
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	unlink(path);
	bpf_tasks_free(b);
	printf("%s\n", rc ? "FAIL" : "ok");
	return rc;
}
