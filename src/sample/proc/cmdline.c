/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/proc/cmdline.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"
#include "util/clock.h"

#define CMD_CAP 65536
#define CMD_WORKERS_MAX 4
#define CMD_STUCK_S 0.2 /* a read this old is stuck behind a lock: start another worker */

enum entry_state { E_QUEUED, E_READING, E_DONE };

struct entry {
	int32_t pid;
	uint64_t start;
	int32_t tid;         /* read from task/TID/cmdline when the leader has none; 0: the leader */
	enum entry_state st;
	bool gone;
	bool stale;          /* done, but asked to be read again */
	bool used;           /* asked for since the last sweep */
	bool cut;
	char *text;          /* NULL: empty */
	char comm[68];       /* the name when it was read */
	double read_at;      /* CLOCK_MONOTONIC */
	double busy_since;   /* E_READING */
};

struct cmdline_cache {
	int procfd;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct entry *v;     /* unsorted; lookups are linear over the few hundred shown */
	size_t n, cap;
	int nworkers, idle;  /* workers started and not yet ended; of them, waiting for work */
	bool quit;           /* the owner let go: the last of them to end frees the cache */
	uint64_t reads;
};

static struct entry *find(struct cmdline_cache *c, int32_t pid, uint64_t start)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].pid == pid && c->v[i].start == start)
			return &c->v[i];
	return NULL;
}

/* The next entry to read, or NULL. */
static struct entry *next_job(struct cmdline_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->v[i];
		if (e->st == E_QUEUED || (e->st == E_DONE && e->stale))
			return e;
	}
	return NULL;
}

/* Reads one command line, checking the pid still names the same task afterwards. */
static void read_one(struct cmdline_cache *c, int32_t pid, int32_t tid, uint64_t start, char *buf,
		     struct entry *res)
{
	char path[64];
	if (tid)
		snprintf(path, sizeof(path), "%d/task/%d/cmdline", pid, tid);
	else
		snprintf(path, sizeof(path), "%d/cmdline", pid);
	ssize_t n = proc_read_at(c->procfd, path, buf, CMD_CAP);
	res->gone = n < 0;
	res->text = NULL;
	res->cut = false;
	if (n > 0) {
		/* a read that filled the buffer may have left more behind: marked as cut */
		bool whole = (size_t)n < CMD_CAP - 1;
		size_t cap = (size_t)n + 1; /* the mark takes the place of the last bytes */
		char *t = malloc(cap);
		if (t && proc_parse_cmdline(buf, (size_t)n, whole, t, cap, &res->cut) > 0)
			res->text = t;
		else
			free(t);
	}
	/* the pid may have been reused while we read */
	snprintf(path, sizeof(path), "%d/stat", pid);
	struct proc_stat st;
	ssize_t m = proc_read_at(c->procfd, path, buf, CMD_CAP);
	if (m < 0 || proc_parse_stat(buf, (size_t)m, &st) < 0 || st.start_ticks != start) {
		free(res->text);
		res->text = NULL;
		res->gone = true;
	} else {
		memcpy(res->comm, st.comm, sizeof(res->comm));
	}
}

static void cache_destroy(struct cmdline_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].text);
	free(c->v);
	close(c->procfd);
	pthread_cond_destroy(&c->work);
	pthread_cond_destroy(&c->done);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void *worker(void *arg)
{
	struct cmdline_cache *c = arg;
	char *buf = malloc(CMD_CAP);
	pthread_mutex_lock(&c->lock);
	while (buf && !c->quit) {
		struct entry *e = next_job(c);
		if (!e) {
			c->idle++;
			pthread_cond_wait(&c->work, &c->lock);
			c->idle--;
			continue;
		}
		int32_t pid = e->pid, tid = e->tid;
		uint64_t start = e->start;
		e->st = E_READING;
		e->stale = false;
		e->busy_since = clock_now(CLOCK_MONOTONIC);
		pthread_mutex_unlock(&c->lock);

		struct entry res;
		memset(&res, 0, sizeof(res));
		read_one(c, pid, tid, start, buf, &res);

		pthread_mutex_lock(&c->lock);
		c->reads++;
		e = find(c, pid, start); /* v may have moved while unlocked */
		if (e) {
			free(e->text);
			e->text = res.text;
			e->cut = res.cut;
			e->gone = res.gone;
			memcpy(e->comm, res.comm, sizeof(e->comm));
			e->read_at = clock_now(CLOCK_MONOTONIC);
			e->st = E_DONE;
		} else {
			free(res.text);
		}
		pthread_cond_broadcast(&c->done);
	}
	/* decided under the lock, so that the owner and the workers agree on
	 * who is last */
	bool last = --c->nworkers == 0 && c->quit;
	pthread_mutex_unlock(&c->lock);
	free(buf);
	if (last)
		cache_destroy(c);
	return NULL;
}

struct cmdline_cache *cmdline_new(int procfd)
{
	struct cmdline_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	/* its own descriptor: a worker may outlive the caller's */
	c->procfd = fcntl(procfd, F_DUPFD_CLOEXEC, 0);
	if (c->procfd < 0) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->work, NULL);
	pthread_cond_init(&c->done, NULL);
	return c;
}

/* A worker stuck in a read of a hung process cannot be waited for: the
 * cache goes with the last worker to end, or now when none runs. */
void cmdline_free(struct cmdline_cache *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->quit = true;
	pthread_cond_broadcast(&c->work);
	bool none = c->nworkers == 0;
	pthread_mutex_unlock(&c->lock);
	if (none)
		cache_destroy(c);
}

/* Starts a worker when none is idle and the busy ones look stuck. Called locked. */
static void maybe_spawn(struct cmdline_cache *c, double now)
{
	if (c->idle > 0 || c->nworkers >= CMD_WORKERS_MAX)
		return;
	if (c->nworkers > 0) {
		size_t busy = 0, stuck = 0;
		for (size_t i = 0; i < c->n; i++) {
			if (c->v[i].st != E_READING)
				continue;
			busy++;
			stuck += now - c->v[i].busy_since > CMD_STUCK_S;
		}
		if (busy == 0 || stuck < busy)
			return;
	}
	pthread_t th;
	if (pthread_create(&th, NULL, worker, c) == 0) {
		pthread_detach(th);
		c->nworkers++;
	}
}

/* The entry of (pid, start), added when missing; NULL when out of memory. Called locked. */
static struct entry *get_entry(struct cmdline_cache *c, int32_t pid, uint64_t start)
{
	struct entry *e = find(c, pid, start);
	if (e)
		return e;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct entry *v = realloc(c->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		c->v = v;
		c->cap = cap;
	}
	e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->start = start;
	e->st = E_QUEUED;
	return e;
}

void cmdline_read_from(struct cmdline_cache *c, int32_t pid, uint64_t start, int32_t tid)
{
	pthread_mutex_lock(&c->lock);
	struct entry *e = get_entry(c, pid, start);
	if (e && e->tid != tid) {
		e->tid = tid;
		if (e->st == E_DONE)
			e->stale = true;
	}
	pthread_mutex_unlock(&c->lock);
}

enum cmdline_state cmdline_get(struct cmdline_cache *c, int32_t pid, uint64_t start, const char *comm,
			       double max_age, char **out, bool *cut)
{
	*out = NULL;
	*cut = false;
	double now = clock_now(CLOCK_MONOTONIC);
	pthread_mutex_lock(&c->lock);
	struct entry *e = get_entry(c, pid, start);
	if (!e) {
		pthread_mutex_unlock(&c->lock);
		return CMDLINE_PENDING;
	}
	e->used = true;
	enum cmdline_state r = CMDLINE_PENDING;
	if (e->st == E_DONE) {
		r = e->gone ? CMDLINE_GONE : CMDLINE_READY;
		if (e->text)
			*out = strdup(e->text);
		*cut = e->cut;
		if (!e->gone && (now - e->read_at > max_age || (comm && strcmp(comm, e->comm) != 0)))
			e->stale = true;
	}
	if (e->st == E_QUEUED || e->stale) {
		maybe_spawn(c, now);
		pthread_cond_signal(&c->work);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

bool cmdline_wait(struct cmdline_cache *c, double timeout)
{
	double deadline = clock_now(CLOCK_REALTIME) + timeout;
	struct timespec ts = {(time_t)deadline, (long)((deadline - (double)(time_t)deadline) * 1e9)};
	pthread_mutex_lock(&c->lock);
	for (;;) {
		bool pending = false;
		for (size_t i = 0; i < c->n && !pending; i++)
			pending = c->v[i].used && (c->v[i].st != E_DONE);
		if (!pending) {
			pthread_mutex_unlock(&c->lock);
			return true;
		}
		maybe_spawn(c, clock_now(CLOCK_MONOTONIC));
		if (pthread_cond_timedwait(&c->done, &c->lock, &ts) == ETIMEDOUT) {
			pthread_mutex_unlock(&c->lock);
			return false;
		}
	}
}

void cmdline_sweep(struct cmdline_cache *c)
{
	pthread_mutex_lock(&c->lock);
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->v[i];
		/* an entry being read stays: its worker will look it up */
		if (!e->used && e->st != E_READING) {
			free(e->text);
			continue;
		}
		e->used = false;
		c->v[k++] = *e;
	}
	c->n = k;
	pthread_mutex_unlock(&c->lock);
}

uint64_t cmdline_reads(struct cmdline_cache *c)
{
	pthread_mutex_lock(&c->lock);
	uint64_t n = c->reads;
	pthread_mutex_unlock(&c->lock);
	return n;
}
