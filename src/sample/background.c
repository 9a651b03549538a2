/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/background.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "view/filter.h"

/* A request with everything it points to owned. */
struct request {
	struct sample_opts o;
	struct filter filter;
	int32_t *expanded;
	int32_t *rows_tids, *rows_tgids;
	bool *plugin_shown;
	unsigned ticket;
};

struct background {
	struct sampler *s;
	pthread_t thread;
	pthread_mutex_t lock;   /* guards everything below */
	pthread_cond_t wake;
	struct request *waiting; /* the next to take, or NULL */
	struct ts_client *ts;    /* to hand to the sampler before the next sample */
	bool ts_changed;
	bool taking;
	bool quit;
	unsigned next_ticket;
	/* the finished sample, not collected yet */
	bool done;
	unsigned done_ticket;
	struct snapshot result;
	char *err;
	int notify[2];
	/* the address space asked for, read by a thread of its own (started at the first ask) */
	pthread_t an_thread;
	bool an_started;
	pthread_cond_t an_wake;
	int32_t an_want;          /* asked for, not taken up yet; 0: none */
	bool an_done;             /* an_result not collected yet */
	struct background_anatomy an_result;
};

static void request_free(struct request *r)
{
	if (!r)
		return;
	filter_free(&r->filter);
	free(r->expanded);
	free(r->rows_tids);
	free(r->rows_tgids);
	free(r->plugin_shown);
	free(r);
}

static struct request *request_copy(const struct sample_opts *o, size_t nslots)
{
	struct request *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->o = *o;
	filter_init(&r->filter);
	r->o.expanded = NULL;
	r->o.expanded_ctx = NULL;
	if (o->filter) {
		r->filter.uid = o->filter->uid;
		if (o->filter->npids) {
			r->filter.pids = malloc(o->filter->npids * sizeof(*r->filter.pids));
			if (!r->filter.pids)
				goto fail;
			memcpy(r->filter.pids, o->filter->pids, o->filter->npids * sizeof(*r->filter.pids));
			r->filter.npids = o->filter->npids;
		}
		if (filter_set_text(&r->filter, o->filter->text) < 0)
			goto fail;
		r->o.filter = &r->filter;
	}
	if (o->nexpanded) {
		r->expanded = malloc(o->nexpanded * sizeof(*r->expanded));
		if (!r->expanded)
			goto fail;
		memcpy(r->expanded, o->expanded_list, o->nexpanded * sizeof(*r->expanded));
		r->o.expanded_list = r->expanded;
	}
	if (o->nrows_tids) {
		r->rows_tids = malloc(o->nrows_tids * sizeof(*r->rows_tids));
		if (!r->rows_tids)
			goto fail;
		memcpy(r->rows_tids, o->rows_tids, o->nrows_tids * sizeof(*r->rows_tids));
		r->o.rows_tids = r->rows_tids;
	}
	if (o->nrows_tgids) {
		r->rows_tgids = malloc(o->nrows_tgids * sizeof(*r->rows_tgids));
		if (!r->rows_tgids)
			goto fail;
		memcpy(r->rows_tgids, o->rows_tgids, o->nrows_tgids * sizeof(*r->rows_tgids));
		r->o.rows_tgids = r->rows_tgids;
	}
	if (o->plugin_shown && nslots) {
		r->plugin_shown = malloc(nslots * sizeof(*r->plugin_shown));
		if (!r->plugin_shown)
			goto fail;
		memcpy(r->plugin_shown, o->plugin_shown, nslots * sizeof(*r->plugin_shown));
		r->o.plugin_shown = r->plugin_shown;
	}
	return r;
fail:
	request_free(r);
	return NULL;
}

static void notify(struct background *b)
{
	ssize_t w;
	do
		w = write(b->notify[1], "x", 1);
	while (w < 0 && errno == EINTR);
}

static void *run(void *arg)
{
	struct background *b = arg;
	pthread_mutex_lock(&b->lock);
	for (;;) {
		while (!b->waiting && !b->quit)
			pthread_cond_wait(&b->wake, &b->lock);
		if (b->quit)
			break;
		struct request *r = b->waiting;
		b->waiting = NULL;
		b->taking = true;
		bool ts_changed = b->ts_changed;
		struct ts_client *ts = b->ts;
		b->ts_changed = false;
		pthread_mutex_unlock(&b->lock);

		if (ts_changed)
			sampler_set_taskstats(b->s, ts);
		struct snapshot snap;
		char *err = NULL;
		int rc = sampler_take(b->s, &r->o, &snap, &err);

		pthread_mutex_lock(&b->lock);
		b->taking = false;
		/* a result nobody collected is replaced: the newer is what counts */
		if (b->done) {
			snapshot_free(&b->result);
			free(b->err);
		}
		b->done = true;
		b->done_ticket = r->ticket;
		b->err = rc < 0 ? err : NULL;
		if (rc < 0)
			memset(&b->result, 0, sizeof(b->result));
		else
			b->result = snap;
		request_free(r);
		notify(b);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

static void *anatomy_run(void *arg)
{
	struct background *b = arg;
	pthread_mutex_lock(&b->lock);
	for (;;) {
		while (!b->an_want && !b->quit)
			pthread_cond_wait(&b->an_wake, &b->lock);
		if (b->quit)
			break;
		struct background_anatomy r = {.tgid = b->an_want};
		b->an_want = 0;
		pthread_mutex_unlock(&b->lock);

		anatomy_init(&r.a);
		r.err = anatomy_read(r.tgid, &r.a, &r.pg);

		pthread_mutex_lock(&b->lock);
		/* a result nobody collected is replaced: the newer is what counts */
		if (b->an_done)
			anatomy_free(&b->an_result.a);
		b->an_result = r;
		b->an_done = true;
		notify(b);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

bool background_ask_anatomy(struct background *b, int32_t tgid)
{
	pthread_mutex_lock(&b->lock);
	bool ok = b->an_started || pthread_create(&b->an_thread, NULL, anatomy_run, b) == 0;
	b->an_started = ok;
	if (ok) {
		b->an_want = tgid;
		pthread_cond_signal(&b->an_wake);
	}
	pthread_mutex_unlock(&b->lock);
	return ok;
}

bool background_take_anatomy(struct background *b, struct background_anatomy *out)
{
	pthread_mutex_lock(&b->lock);
	bool got = b->an_done;
	if (got) {
		*out = b->an_result;
		b->an_done = false;
	}
	pthread_mutex_unlock(&b->lock);
	return got;
}

/* Joins a thread by the deadline; false (and detached) when it did not end. */
static bool join_by(pthread_t th, const struct timespec *until)
{
	if (pthread_timedjoin_np(th, NULL, until) == 0)
		return true;
	pthread_detach(th);
	return false;
}

struct background *background_start(struct sampler *s)
{
	struct background *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->s = s;
	b->next_ticket = 1;
	if (pipe2(b->notify, O_CLOEXEC | O_NONBLOCK) < 0) {
		free(b);
		return NULL;
	}
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->wake, NULL);
	pthread_cond_init(&b->an_wake, NULL);
	if (pthread_create(&b->thread, NULL, run, b) != 0) {
		close(b->notify[0]);
		close(b->notify[1]);
		free(b);
		return NULL;
	}
	return b;
}

bool background_stop(struct background *b, double wait_s)
{
	if (!b)
		return true;
	pthread_mutex_lock(&b->lock);
	b->quit = true;
	pthread_cond_signal(&b->wake);
	pthread_cond_signal(&b->an_wake);
	bool an = b->an_started;
	pthread_mutex_unlock(&b->lock);
	sampler_cancel(b->s);
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	long ns = until.tv_nsec + (long)(wait_s * 1e9);
	until.tv_sec += ns / 1000000000L;
	until.tv_nsec = ns % 1000000000L;
	/* both by the same deadline: either one stuck leaves b to it */
	bool joined = join_by(b->thread, &until);
	if (an && !join_by(b->an_thread, &until))
		joined = false;
	if (!joined)
		return false;
	if (b->an_done)
		anatomy_free(&b->an_result.a);
	request_free(b->waiting);
	if (b->done) {
		snapshot_free(&b->result);
		free(b->err);
	}
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->wake);
	pthread_cond_destroy(&b->an_wake);
	close(b->notify[0]);
	close(b->notify[1]);
	free(b);
	return true;
}

unsigned background_request(struct background *b, const struct sample_opts *o, size_t nplugin_slots)
{
	if (o->expanded && !o->nexpanded)
		return 0; /* a callback into the caller's state cannot run on the sampling thread */
	struct request *r = request_copy(o, nplugin_slots);
	if (!r)
		return 0;
	pthread_mutex_lock(&b->lock);
	r->ticket = b->next_ticket++;
	if (!b->next_ticket)
		b->next_ticket = 1;
	request_free(b->waiting);
	b->waiting = r;
	pthread_cond_signal(&b->wake);
	unsigned t = r->ticket;
	pthread_mutex_unlock(&b->lock);
	return t;
}

void background_set_taskstats(struct background *b, struct ts_client *ts)
{
	pthread_mutex_lock(&b->lock);
	b->ts = ts;
	b->ts_changed = true;
	pthread_mutex_unlock(&b->lock);
}

int background_fd(const struct background *b)
{
	return b->notify[0];
}

unsigned background_take(struct background *b, struct snapshot *out, char **err)
{
	char drain[64];
	while (read(b->notify[0], drain, sizeof(drain)) > 0)
		;
	*err = NULL;
	pthread_mutex_lock(&b->lock);
	unsigned t = 0;
	if (b->done) {
		t = b->done_ticket;
		*out = b->result;
		*err = b->err;
		b->err = NULL;
		b->done = false;
		memset(&b->result, 0, sizeof(b->result));
	}
	pthread_mutex_unlock(&b->lock);
	return t;
}

bool background_busy(struct background *b)
{
	pthread_mutex_lock(&b->lock);
	bool busy = b->taking || b->waiting;
	pthread_mutex_unlock(&b->lock);
	return busy;
}
