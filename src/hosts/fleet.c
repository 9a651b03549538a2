/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hosts/describe.h"
#include "hosts/hosts.h"
#include "hosts/remote.h"
#include "record/stream.h"
#include "util/clock.h"
#include "util/i18n.h"

/* The pair shown and the first sample of a connection, and the stream they need. */
static void host_drop_pair(struct fleet_host *h)
{
	if (h->have_pair) {
		shown_free(&h->shown);
		rec_sample_free(&h->prev);
		rec_sample_free(&h->cur);
		h->have_pair = false;
	}
	rec_stream_free(h->kept);
	h->kept = NULL;
}

static void host_drop_first(struct fleet_host *h)
{
	if (h->have_first)
		rec_sample_free(&h->first);
	h->have_first = false;
}

/* Offline for why until its next try, each wait twice the one before. */
static void host_offline(struct fleet *f, struct fleet_host *h, const char *why, double now)
{
	free(h->why);
	h->why = strdup(why ? why : _("the connection closed"));
	h->state = FLEET_OFFLINE;
	h->next_try = now + h->retry;
	h->retry = fmin(h->retry * 2, FLEET_RETRY_MAX);
	if (f->watch.offline && f->watch.offline(f->watch.ctx, h, now))
		h->done = true;
}

/* Each frame of a host's stream, into the recording as it came. */
static void host_record(void *ctx, const uint8_t *frame, size_t len, const struct rec_frame *fr)
{
	struct fleet_host *h = ctx;
	struct fleet *f = h->fleet;
	if (f->rec_err)
		return;
	if (rec_hosts_writer_add(f->rec, h->name, frame, len, fr, h->l.taken_ns, clock_now(CLOCK_MONOTONIC), &f->rec_err) < 0 &&
	    !f->rec_err)
		f->rec_err = strdup(_("out of memory"));
}

static void host_connect(struct fleet *f, struct fleet_host *h, double now)
{
	struct remote_argv av;
	h->last_sample = now;
	h->l.to = h->l.from = h->l.err = -1;
	if (remote_argv_build(&av, f->ssh, f->remote, h->name, f->o) < 0) {
		host_offline(f, h, _("out of memory"), now);
		return;
	}
	if (link_start(&h->l, h->name, av.v, now, LINK_STREAM) < 0) {
		host_offline(f, h, h->l.why, now);
		link_free(&h->l);
	} else {
		h->linked = true;
		h->state = FLEET_CONNECTING;
		if (f->rec)
			rec_stream_tap(h->l.st, host_record, h);
	}
	remote_argv_free(&av);
}

/* Its connection goes; the pair shown keeps the strings of the stream it came by. */
static void host_unlink(struct fleet_host *h)
{
	if (h->have_pair && h->pair_live) {
		h->kept = h->l.st;
		h->l.st = NULL;
	}
	h->pair_live = false;
	host_drop_first(h);
	link_free(&h->l);
	h->linked = h->link_ended = false;
}

/* The connection ended (why, or the link's own reason). */
static void host_lost(struct fleet *f, struct fleet_host *h, const char *why, double now)
{
	host_offline(f, h, why, now);
	host_unlink(h);
}

/* The view of h's pair, which it now holds. The remote (or the recording)
 * selected what it sent: every task of it is shown. */
static int host_view(struct fleet *f, struct fleet_host *h)
{
	if (!f->no_view && shown_build(&h->shown, &h->prev.s, &h->cur.s, f->cs, NULL, f->threads) < 0) {
		rec_sample_free(&h->prev);
		rec_sample_free(&h->cur);
		h->have_pair = false;
		return -1;
	}
	h->have_pair = true;
	return 0;
}

/* A new pair of a live connection, viewed and given to the watcher. */
static int host_show(struct fleet *f, struct fleet_host *h)
{
	if (host_view(f, h) < 0)
		return -1;
	int w = f->watch.pair ? f->watch.pair(f->watch.ctx, h) : 0;
	return w < 0 ? -1 : 1 + w;
}

/* Its connection ends for good: it gave what the watcher asked. */
static void host_done(struct fleet_host *h)
{
	host_unlink(h);
	h->done = true;
}

/* Takes a sample of the open connection: 1 when a pair came, 2 when the
 * watcher is also done with the host, 0 when none came, -1 out of memory
 * or stopped. */
static int host_take(struct fleet *f, struct fleet_host *h, struct rec_sample *s, uint64_t seq)
{
	if (h->have_pair && h->pair_live && seq == h->cur_seq + 1) {
		shown_free(&h->shown);
		rec_sample_free(&h->prev);
		h->prev = h->cur;
		h->cur = *s;
		h->cur_seq = seq;
		return host_show(f, h);
	}
	if (h->have_first && seq == h->first_seq + 1) {
		/* the new connection's first pair replaces what the last one left */
		host_drop_pair(h);
		h->prev = h->first;
		h->have_first = false;
		h->cur = *s;
		h->cur_seq = seq;
		h->pair_live = true;
		return host_show(f, h);
	}
	/* a first sample, or one after a gap: the next pairs with it */
	host_drop_first(h);
	if (h->pair_live) {
		shown_free(&h->shown);
		rec_sample_free(&h->prev);
		rec_sample_free(&h->cur);
		h->have_pair = h->pair_live = false;
	}
	h->first = *s;
	h->first_seq = seq;
	h->have_first = true;
	return 0;
}

/* Reads h's connection; with take, takes its samples and moves its state
 * on: 1 when the screen changes. */
static int host_pump(struct fleet *f, struct fleet_host *h, double now, bool take)
{
	enum fleet_state was = h->state;
	if (h->done)
		return 0;
	if (!h->linked) {
		if (take && now >= h->next_try)
			host_connect(f, h, now);
		return h->state != was;
	}
	if (!h->link_ended)
		h->link_ended = link_pump(&h->l, now) == 0;
	if (!take)
		return 0;
	int changed = 0;
	for (;;) {
		struct rec_sample s;
		uint64_t seq;
		char *why = NULL;
		int rc = link_next(&h->l, &s, &seq, &h->clock, &why);
		if (rc < 0) {
			host_lost(f, h, why, now);
			free(why);
			return 1;
		}
		if (rc == 0)
			break;
		h->last_sample = h->last_seen = now;
		h->retry = FLEET_RETRY_MIN;
		h->state = FLEET_LIVE;
		h->cpus = host_cpus(rec_stream_schema(h->l.st));
		int took = host_take(f, h, &s, seq);
		if (took < 0)
			return -1;
		changed |= took > 0;
		if (took == 2) {
			host_done(h);
			return 1;
		}
	}
	if (h->link_ended) {
		host_lost(f, h, h->l.why, now);
		return 1;
	}
	if (now - h->last_sample > (h->state == FLEET_CONNECTING ? f->connect_wait : f->silence)) {
		/* samples, not bytes: a host that trickles bytes is silent too */
		char why[128];
		snprintf(why, sizeof(why), _("no sample for %.0f s"), now - h->last_sample);
		link_stop(&h->l);
		host_lost(f, h, why, now);
		return 1;
	}
	if (h->state == FLEET_LIVE && fleet_stale(now - h->last_sample, f->o->delay))
		h->state = FLEET_STALE;
	return changed || h->state != was;
}

/* The hosts of f->names, none connected yet. */
static int fleet_hosts(struct fleet *f, const struct cli_opts *o)
{
	f->o = o;
	f->n = f->names.n;
	f->h = calloc(f->n, sizeof(*f->h));
	f->parts = calloc(f->n, sizeof(*f->parts));
	if (!f->h || !f->parts) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	f->ssh = getenv("TASKVIEW_SSH");
	f->remote = getenv("TASKVIEW_REMOTE");
	f->silence = fmax(FLEET_SILENCE_MIN, 3 * o->delay);
	f->connect_wait = INFINITY;
	f->threads = true;
	for (size_t i = 0; i < f->n; i++) {
		struct fleet_host *h = &f->h[i];
		h->name = f->names.v[i];
		h->fleet = f;
		h->clock = -INFINITY;
		h->cpus = -1;
		h->retry = FLEET_RETRY_MIN;
	}
	return 0;
}

int fleet_open(struct fleet *f, const struct cli_opts *o)
{
	memset(f, 0, sizeof(*f));
	hostlist_init(&f->names);
	if (hosts_gather(&f->names, o) < 0)
		return 2;
	return fleet_hosts(f, o);
}

int fleet_open_recorded(struct fleet *f, const struct cli_opts *o, struct hostlist *names, const struct colset *cs)
{
	memset(f, 0, sizeof(*f));
	f->names = *names;
	hostlist_init(names);
	f->recorded = true;
	f->cs = cs;
	return fleet_hosts(f, o);
}

int fleet_host_set(struct fleet *f, struct fleet_host *h, struct rec_sample *prev, struct rec_sample *cur)
{
	host_drop_pair(h);
	if (!cur)
		return 0;
	h->prev = *prev;
	h->cur = *cur;
	return host_view(f, h);
}

double fleet_now(const struct fleet *f)
{
	return f->recorded ? f->at : clock_now(CLOCK_MONOTONIC);
}

void fleet_start(struct fleet *f, const struct colset *cs, double now)
{
	f->cs = cs;
	for (size_t i = 0; i < f->n; i++)
		host_connect(f, &f->h[i], now);
}

void fleet_free(struct fleet *f)
{
	if (f->have_merged)
		shown_free(&f->merged);
	for (size_t i = 0; f->h && i < f->n; i++) {
		struct fleet_host *h = &f->h[i];
		host_drop_first(h);
		/* the pair's strings may be in the link's stream: the pair goes first */
		host_drop_pair(h);
		if (h->linked)
			link_free(&h->l);
		free(h->why);
	}
	free(f->h);
	free(f->parts);
	for (size_t i = 0; i < f->nacts; i++)
		link_free(&f->acts[i].l);
	hostlist_free(&f->names);
	free(f->rec_err);
	memset(f, 0, sizeof(*f));
}

/* Why an action was not done: the remote taskview's own line where it wrote
 * one (an older one that knows no --act says so, then how to get help),
 * else ssh's or the remote's last line, else how ssh ended. */
static const char *act_words(struct link *l)
{
	const char *line = NULL;
	for (size_t i = 0; i < l->nerr; i++)
		if ((i == 0 || l->errtail[i - 1] == '\n') && l->nerr - i > 10 && memcmp(l->errtail + i, "taskview: ", 10) == 0)
			line = l->errtail + i;
	if (line) {
		/* its end: the tail was cut to a C string by the link's end (link_last_words) */
		char *nl = memchr(line, '\n', (size_t)(l->errtail + l->nerr - line));
		if (nl)
			*nl = '\0';
		return line;
	}
	return l->why ? l->why : _("the connection closed");
}

int fleet_act(struct fleet *f, unsigned host, const struct act_req *r, const char *what, double now,
	      const char **why)
{
	if (host >= f->n) {
		*why = _("no such host");
		return -1;
	}
	if (f->recorded) {
		/* TRANSLATORS: k, F7 or F8 over a recording of hosts (taskview -r FILE) */
		*why = _("a replay acts on no host: its tasks are the recording's, not running ones");
		return -1;
	}
	if (f->nacts == FLEET_ACTS_MAX) {
		/* TRANSLATORS: kill on the hosts' screen while earlier ones wait for their answers */
		*why = _("too many actions wait for their hosts' answers: try again in a moment");
		return -1;
	}
	struct remote_argv av;
	if (remote_argv_act(&av, f->ssh, f->remote, f->h[host].name, r) < 0) {
		*why = _("out of memory");
		return -1;
	}
	struct fleet_act *a = &f->acts[f->nacts];
	int rc = link_start(&a->l, f->h[host].name, av.v, now, r->kind == ACT_ANATOMY ? LINK_ASK : LINK_ACT);
	remote_argv_free(&av);
	if (rc < 0) {
		link_free(&a->l);
		*why = _("cannot start ssh");
		return -1;
	}
	/* the remote reads nothing */
	close(a->l.to);
	a->l.to = -1;
	a->host = host;
	a->kind = r->kind;
	a->req = *r;
	snprintf(a->what, sizeof(a->what), "%s", what);
	f->nacts++;
	return 0;
}

void fleet_acts_pump(struct fleet *f, double now, void (*told)(void *ctx, const struct fleet_act *a, const char *why),
		     void *ctx)
{
	for (size_t i = 0; i < f->nacts;) {
		struct fleet_act *a = &f->acts[i];
		const char *why = NULL;
		if (link_pump(&a->l, now)) {
			if (now - a->l.started < FLEET_ACT_WAIT) {
				i++;
				continue;
			}
			/* TRANSLATORS: kill on the hosts' screen: the host did not answer (a stopped host) */
			why = _("no answer within 30 s");
		} else if (!a->l.reaped || !WIFEXITED(a->l.status) || WEXITSTATUS(a->l.status) != 0) {
			why = act_words(&a->l);
		}
		told(ctx, a, why);
		link_free(&a->l);
		f->acts[i] = f->acts[--f->nacts];
	}
}

size_t fleet_fds(const struct fleet *f, int *out)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nacts; i++) {
		if (f->acts[i].l.from >= 0)
			out[n++] = f->acts[i].l.from;
		if (f->acts[i].l.err >= 0)
			out[n++] = f->acts[i].l.err;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct link *l = &f->h[i].l;
		if (!f->h[i].linked)
			continue;
		if (l->from >= 0)
			out[n++] = l->from;
		if (l->err >= 0)
			out[n++] = l->err;
	}
	return n;
}

int fleet_pump(struct fleet *f, double now, bool take)
{
	int changed = 0;
	for (size_t i = 0; i < f->n; i++) {
		int c = host_pump(f, &f->h[i], now, take);
		if (c < 0)
			return -1;
		changed |= c;
	}
	return changed;
}

int fleet_merge(struct fleet *f)
{
	if (f->have_merged)
		shown_free(&f->merged);
	f->have_merged = false;
	for (size_t i = 0; i < f->n; i++)
		f->parts[i] = f->h[i].have_pair ? &f->h[i].shown : NULL;
	int rc = shown_merge(&f->merged, (const struct shown *const *)f->parts, (const char *const *)f->names.v, f->n);
	f->have_merged = rc == 0;
	return rc;
}

bool fleet_all_live(const struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->h[i].state != FLEET_LIVE)
			return false;
	return true;
}

bool fleet_stale(double age, double interval)
{
	/* two intervals without a sample, and a little for the way */
	return age > 2 * interval + 0.5;
}

double fleet_age(const struct fleet_host *h, double now)
{
	return now - h->last_sample;
}
