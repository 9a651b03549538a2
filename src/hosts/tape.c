/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/tape.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosts/describe.h"
#include "hosts/hostlist.h"
#include "replay.h"
#include "util/buf.h"
#include "util/i18n.h"

/* The first sample taken after at (strict), or at or after it: n when none. */
static size_t first_after(const struct host_rec *h, double at, bool strict)
{
	size_t lo = 0, hi = h->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strict ? h->taken[mid] <= at : h->taken[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The last sample before end that pairs with the one k before it: SIZE_MAX when none. */
static size_t pair_before(const struct tape_host *th, size_t end)
{
	for (size_t i = end; i > th->k;) {
		i--;
		if (rec_reader_pairable(th->rec.r, i, th->k))
			return i;
	}
	return SIZE_MAX;
}

double tape_next(const struct tape *tp, double at)
{
	double next = INFINITY;
	for (size_t j = 0; j < tp->n; j++) {
		const struct tape_host *th = &tp->h[j];
		if (!th->rec.r)
			continue;
		size_t lo = first_after(&th->rec, at, true);
		for (size_t i = lo < th->k ? th->k : lo; i < th->rec.n && th->rec.taken[i] < next; i++)
			if (rec_reader_pairable(th->rec.r, i, th->k)) {
				next = th->rec.taken[i];
				break;
			}
	}
	return next;
}

double tape_prev(const struct tape *tp, double at)
{
	double prev = -INFINITY;
	for (size_t j = 0; j < tp->n; j++) {
		const struct tape_host *th = &tp->h[j];
		size_t i = th->rec.r ? pair_before(th, first_after(&th->rec, at, false)) : SIZE_MAX;
		if (i != SIZE_MAX)
			prev = fmax(prev, th->rec.taken[i]);
	}
	return prev;
}

int tape_set_step(struct tape *tp, double seconds)
{
	unsigned *was = malloc((tp->n ? tp->n : 1) * sizeof(*was));
	if (!was)
		return -1;
	for (size_t j = 0; j < tp->n; j++) {
		struct tape_host *th = &tp->h[j];
		was[j] = th->k;
		double k = th->interval > 0 ? round(seconds / th->interval) : 1;
		th->k = k < 1 ? 1 : k > 1e6 ? 1000000 : (unsigned)k;
	}
	/* the first moment at which a host has a pair, from --begin on */
	double start = tape_next(tp, isfinite(tp->from) ? tp->from - 1e-9 : -INFINITY);
	bool ok = start <= tp->end;
	for (size_t j = 0; j < tp->n; j++) {
		if (!ok)
			tp->h[j].k = was[j];
		else
			tp->h[j].again = true; /* shown again over the new step */
	}
	free(was);
	if (!ok)
		return -1;
	tp->step = seconds;
	tp->start = start;
	return 0;
}

/* The hosts the file names that the host list takes (the others told), into names. */
static int tape_hosts(struct tape *tp, struct hostlist *names, const struct rec_reader *top)
{
	const char *const *v;
	size_t n = rec_reader_hosts(top, &v);
	for (size_t j = 0; j < n; j++) {
		struct buf err;
		buf_init(&err);
		if (hostlist_add(names, v[j], &err) < 0) {
			/* a name that could not be a host: shown as far as it is plain (the list's message) */
			struct buf b;
			buf_init(&b);
			buf_addf(&b, _("a host of the recording is skipped: %s"), buf_str(&err));
			tp->warn(tp->warn_ctx, b.oom ? _("out of memory") : buf_str(&b));
			buf_free(&b);
		}
		bool oom = err.oom;
		buf_free(&err);
		if (oom)
			return -1;
	}
	return 0;
}

int tape_open(struct tape *tp, struct fleet *f, const struct cli_opts *o, const struct rec_reader *top,
	      const struct colset *cs, rec_warn_fn warn, void *ctx)
{
	memset(tp, 0, sizeof(*tp));
	memset(f, 0, sizeof(*f));
	tp->warn = warn;
	tp->warn_ctx = ctx;
	struct hostlist names;
	hostlist_init(&names);
	if (tape_hosts(tp, &names, top) < 0) {
		hostlist_free(&names);
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	int rc = fleet_open_recorded(f, o, &names, cs); /* it tells why not */
	hostlist_free(&names);
	if (rc)
		return rc;
	if (!(tp->h = calloc(f->n ? f->n : 1, sizeof(*tp->h)))) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	tp->n = f->n;
	struct host_rec **recs = calloc(tp->n ? tp->n : 1, sizeof(*recs));
	if (!recs) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	for (size_t j = 0; j < tp->n; j++)
		recs[j] = &tp->h[j].rec;
	rc = host_rec_open(recs, (const char *const *)f->names.v, tp->n, o->replay, warn, ctx);
	free(recs);
	if (rc < 0)
		return 1;
	double first = INFINITY, last = -INFINITY, interval = 0;
	for (size_t j = 0; j < tp->n; j++) {
		struct tape_host *th = &tp->h[j];
		th->i = SIZE_MAX;
		if (!th->rec.r)
			continue;
		struct rec_info info;
		rec_reader_info(th->rec.r, &info);
		th->interval = info.interval;
		interval = fmax(interval, info.interval);
		if (th->rec.n) {
			first = fmin(first, th->rec.taken[0]);
			last = fmax(last, th->rec.taken[th->rec.n - 1]);
		}
	}
	if (!isfinite(first)) {
		fprintf(stderr, "taskview: %s: %s\n", o->replay, _("no host of the recording can be read"));
		return 1;
	}
	/* --begin and --end on the recorder's clock, as the moments are */
	struct rec_info ref = {.first = first};
	double to;
	if ((rc = replay_range(o, &ref, &tp->from, &to)) != 0)
		return rc;
	tp->end = fmin(last, to);
	/* -d: the step; else the longest recorded interval, so that each step moves every host */
	if (tape_set_step(tp, o->delay_set ? o->delay : interval > 0 ? interval : 1) < 0) {
		fprintf(stderr, "taskview: %s: %s\n", o->replay,
			_("no sample of a host can be shown in the range asked for, with the one before it"));
		return 1;
	}
	return 0;
}

void tape_free(struct tape *tp)
{
	for (size_t j = 0; tp->h && j < tp->n; j++)
		host_rec_close(&tp->h[j].rec);
	free(tp->h);
	memset(tp, 0, sizeof(*tp));
}

int tape_show(struct tape *tp, struct fleet *f, double at)
{
	int changed = f->at != at;
	f->at = at;
	for (size_t j = 0; j < tp->n; j++) {
		struct tape_host *th = &tp->h[j];
		struct fleet_host *h = &f->h[j];
		enum fleet_state was = h->state;
		size_t i = th->rec.r ? pair_before(th, first_after(&th->rec, at, true)) : SIZE_MAX;
		if (i != th->i || th->again) {
			th->i = SIZE_MAX; /* none shown, until one is */
			th->again = false;
			struct rec_sample prev, cur;
			/* one that cannot be read (damage found only now): the one before it */
			while (i != SIZE_MAX && rec_reader_pair(th->rec.r, i, th->k, &prev, &cur) < 0)
				i = pair_before(th, i);
			if (fleet_host_set(f, h, i != SIZE_MAX ? &prev : NULL, i != SIZE_MAX ? &cur : NULL) < 0)
				return -1;
			th->i = i;
			changed = 1;
		}
		if (th->i == SIZE_MAX) {
			h->state = FLEET_CONNECTING; /* no sample yet: the header says so */
			h->last_sample = tp->start;
			continue;
		}
		h->last_sample = h->last_seen = th->rec.taken[th->i];
		h->clock = th->rec.clock[th->i];
		h->cpus = host_cpus(rec_reader_schema(th->rec.r, th->i));
		h->state = fleet_stale(at - h->last_sample, th->interval) ? FLEET_STALE : FLEET_LIVE;
		changed |= h->state != was;
	}
	return changed;
}
