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
#include "util/text.h"

/* What a host's reader says, with its name before it. */
static void host_warn(void *ctx, const char *msg)
{
	const struct tape_host *th = ctx;
	struct buf b;
	buf_init(&b);
	buf_adds(&b, th->prefix);
	buf_adds(&b, msg);
	th->tp->warn(th->tp->warn_ctx, b.oom ? msg : buf_str(&b));
	buf_free(&b);
}

/* Each sample's moment taken and the clock up to it, as the live viewer had them. */
static int host_index(struct tape_host *th)
{
	th->n = rec_reader_count(th->r);
	th->taken = malloc((th->n ? th->n : 1) * sizeof(*th->taken));
	th->clock = malloc((th->n ? th->n : 1) * sizeof(*th->clock));
	if (!th->taken || !th->clock)
		return -1;
	double at = -INFINITY, clock = -INFINITY;
	for (size_t i = 0; i < th->n; i++) {
		double t = rec_reader_taken(th->r, i), c = rec_reader_clock(th->r, i);
		at = isfinite(t) ? fmax(at, t) : at;
		clock = isfinite(c) ? fmax(clock, c) : clock;
		th->taken[i] = at;
		th->clock[i] = clock;
	}
	return 0;
}

/* The first sample taken after at (n: none). */
static size_t first_after(const struct tape_host *th, double at)
{
	size_t lo = 0, hi = th->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (th->taken[mid] <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The last sample taken by at that pairs with the one k before it: SIZE_MAX when none. */
static size_t host_pair_at(const struct tape_host *th, double at)
{
	for (size_t i = first_after(th, at); i > th->k;) {
		i--;
		if (rec_reader_pairable(th->r, i, th->k))
			return i;
	}
	return SIZE_MAX;
}

void tape_set_step(struct tape *tp, double seconds)
{
	tp->step = seconds;
	for (size_t j = 0; j < tp->n; j++) {
		struct tape_host *th = &tp->h[j];
		double k = th->interval > 0 ? round(seconds / th->interval) : 1;
		th->k = k < 1 ? 1 : k > 1e6 ? 1000000 : (unsigned)k;
		th->i = SIZE_MAX; /* shown again over the new step */
	}
}

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
	int rc = tape_hosts(tp, &names, top);
	if (rc == 0)
		rc = fleet_open_recorded(f, o, &names, cs);
	hostlist_free(&names);
	if (rc == 0 && !(tp->h = calloc(f->n ? f->n : 1, sizeof(*tp->h))))
		rc = -1;
	if (rc) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	tp->n = f->n;
	struct rec_info all = {.first = INFINITY};
	double last = -INFINITY, interval = 0;
	size_t readable = 0;
	for (size_t j = 0; j < tp->n; j++) {
		struct tape_host *th = &tp->h[j];
		th->tp = tp;
		th->i = SIZE_MAX;
		struct buf b;
		buf_init(&b);
		buf_addf(&b, "%s: ", f->names.v[j]);
		th->prefix = b.oom ? NULL : strdup(buf_str(&b));
		buf_free(&b);
		char *err = NULL;
		th->r = th->prefix ? rec_reader_open_host(o->replay, f->names.v[j], host_warn, th, &err) : NULL;
		if (!th->prefix || (th->r && host_index(th) < 0)) {
			free(err);
			fprintf(stderr, "taskview: %s\n", _("out of memory"));
			return 1;
		}
		if (!th->r) {
			/* one host that cannot be read does not hide the others */
			struct buf m;
			buf_init(&m);
			buf_addf(&m, "%s%s", th->prefix, err ? err : _("out of memory"));
			warn(ctx, m.oom ? th->prefix : buf_str(&m));
			buf_free(&m);
			free(err);
			continue;
		}
		struct rec_info info;
		rec_reader_info(th->r, &info);
		th->interval = info.interval;
		if (info.nsamples && info.first < all.first)
			all = info;
		interval = fmax(interval, info.interval);
		if (th->n)
			last = fmax(last, th->taken[th->n - 1]);
		readable++;
	}
	if (!readable) {
		fprintf(stderr, "taskview: %s: %s\n", o->replay, _("no host of the recording can be read"));
		return 1;
	}
	double from = -INFINITY, to = INFINITY;
	if (isfinite(all.first) && (rc = replay_range(o, &all, &from, &to)) != 0)
		return rc;
	/* -d: the step; else the longest recorded interval, so that each step moves every host */
	tape_set_step(tp, o->delay_set ? o->delay : interval > 0 ? interval : 1);
	/* the first moment at which a host has a pair, from --begin on */
	tp->start = tape_next(tp, isfinite(from) ? from - 1e-9 : -INFINITY);
	tp->end = fmin(last, to);
	if (!(tp->start <= tp->end)) {
		fprintf(stderr, "taskview: %s: %s\n", o->replay,
			_("no sample of a host can be shown in the range asked for, with the one before it"));
		return 1;
	}
	return 0;
}

void tape_free(struct tape *tp)
{
	for (size_t j = 0; tp->h && j < tp->n; j++) {
		rec_reader_close(tp->h[j].r);
		free(tp->h[j].prefix);
		free(tp->h[j].taken);
		free(tp->h[j].clock);
	}
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
		size_t i = th->r ? host_pair_at(th, at) : SIZE_MAX;
		if (i != th->i) {
			struct rec_sample prev, cur;
			bool pair = i != SIZE_MAX && rec_reader_pair(th->r, i, th->k, &prev, &cur) == 0;
			if (fleet_host_set(f, h, pair ? &prev : NULL, pair ? &cur : NULL) < 0)
				return -1;
			th->i = pair ? i : SIZE_MAX;
			changed = 1;
		}
		if (th->i == SIZE_MAX) {
			h->state = FLEET_CONNECTING; /* no sample yet: the header says so */
			h->last_sample = tp->start;
			continue;
		}
		h->last_sample = h->last_seen = th->taken[th->i];
		h->clock = th->clock[th->i];
		h->cpus = host_cpus(rec_reader_schema(th->r, th->i));
		/* as live: two of its intervals without a sample, and a little for the way */
		h->state = at - h->last_sample > 2 * th->interval + 0.5 ? FLEET_STALE : FLEET_LIVE;
		changed |= h->state != was;
	}
	return changed;
}

double tape_next(const struct tape *tp, double at)
{
	double next = INFINITY;
	for (size_t j = 0; j < tp->n; j++) {
		const struct tape_host *th = &tp->h[j];
		if (!th->r)
			continue;
		size_t lo = first_after(th, at);
		for (size_t i = lo < th->k ? th->k : lo; i < th->n && th->taken[i] < next; i++)
			if (rec_reader_pairable(th->r, i, th->k)) {
				next = th->taken[i];
				break;
			}
	}
	return next;
}
