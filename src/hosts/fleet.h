/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hosts of the hosts' screen (taskview --host without -b): a connection
 * to each, its state, and the last pair of its samples with their rates,
 * merged into one table. Nothing here waits: the screen polls the
 * descriptors fleet_fds gives and calls fleet_pump when one is ready or
 * time has passed.
 *
 * A host is Connecting until its first sample; Live while samples come;
 * Stale when none came for two intervals (its rows stay, with their age);
 * Offline when its connection ended, with the reason ssh or the remote gave,
 * or when no sample came for FLEET_SILENCE_MIN s (three intervals, if
 * longer: a stopped host, a network that holds packets) after one came (the
 * screen waits on a connection that gave none yet, with its age: a handshake
 * begun again would only take longer; batch gives up after the same time);
 * it is connected
 * again after 1 s, then 2, 4 ... up to 60 s while it fails. A host's rows
 * stay on screen until a new connection brings a pair. The batch front
 * takes each pair as it comes (fleet_watch), and is done with a host that
 * gave its samples or that it gives up.
 *
 * Ownership: the fleet owns every sample, and the streams their strings live
 * in; fleet_merged borrows from them until the next fleet_pump or fleet_free.
 */
#ifndef TV_HOSTS_FLEET_H
#define TV_HOSTS_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "hosts/act.h"
#include "hosts/hostlist.h"
#include "hosts/link.h"
#include "model/column.h"
#include "record/hosts/hosts_writer.h"
#include "record/sample.h"
#include "view/shown.h"

enum fleet_state { FLEET_CONNECTING, FLEET_LIVE, FLEET_STALE, FLEET_OFFLINE };

#define FLEET_RETRY_MIN 1.0
#define FLEET_RETRY_MAX 60.0
#define FLEET_SILENCE_MIN 15.0

struct fleet_host;

/* An action sent to a host (hosts/act.h), over a connection of its own,
 * until its answer: done (its exit status 0), else why not (the remote's or
 * ssh's last line), or no answer within FLEET_ACT_WAIT s (it is ended). At
 * most FLEET_ACTS_MAX at once. */
#define FLEET_ACTS_MAX 8
#define FLEET_ACT_WAIT 30.0

struct fleet_act {
	unsigned host;
	enum act_kind kind;
	struct act_req req;
	struct link l;    /* an anatomy's answer: l.out */
	char what[160];   /* what it does, for the answer (raw: names are the remote's) */
};

/* Told as it happens, when set. pair: h has a new pair (h->shown, of h->cur
 * and h->prev; h->shown empty with no_view); returns 0, 1 when h is done
 * (its connection ends, it is not connected again), -1 to stop (fleet_pump
 * then returns -1). offline: h went Offline (h->why, h->next_try); true
 * gives it up (done). */
struct fleet_watch {
	void *ctx;
	int (*pair)(void *ctx, struct fleet_host *h);
	bool (*offline)(void *ctx, const struct fleet_host *h, double now);
};

struct fleet_host {
	const char *name;        /* as given (the host list's) */
	struct fleet *fleet;     /* the fleet it is of */
	struct link l;
	bool linked;             /* l is started (and not freed) */
	bool link_ended;         /* ... and its end was read, not yet taken */
	enum fleet_state state;
	char *why;               /* why its last connection ended (raw remote bytes, malloc'd; NULL: none did):
				    said while Offline and while Connecting again */
	double last_sample;      /* CLOCK_MONOTONIC here of its last sample (the connection's start before one) */
	double last_seen;        /* ... of its last sample over every connection; 0: none yet */
	double next_try, retry;  /* Offline: when it is connected again, and the wait after that */
	double clock;            /* its clock minus this one's, at least (-INFINITY: none yet) */
	int64_t cpus;            /* online there, as it said; -1 when not said */
	/* the pair shown: cur, its rates over prev, and what of it is shown */
	struct rec_sample prev, cur;
	struct shown shown;
	bool have_pair, pair_live; /* pair_live: from the connection open now */
	uint64_t cur_seq;
	/* a new connection's first sample, until the second makes a pair */
	struct rec_sample first;
	bool have_first;
	uint64_t first_seq;
	struct rec_stream *kept; /* the stream the pair's strings are in, when its connection is gone */
	bool done;               /* gave what was asked, or given up (fleet_watch): not connected again */
};

struct fleet {
	struct hostlist names;
	struct fleet_host *h;
	size_t n;
	const struct cli_opts *o;
	const struct colset *cs;
	const char *ssh, *remote; /* TASKVIEW_SSH, TASKVIEW_REMOTE */
	double silence;           /* no sample for this long on a connection that gave one: Offline */
	double connect_wait;      /* ... on one that gave none yet (INFINITY: never) */
	bool threads;             /* each process's exited threads shown under it (shown_build) */
	bool no_view;             /* no watcher looks at a pair's view (a recorder that prints nothing): none is built */
	struct fleet_watch watch;
	struct shown merged;
	bool have_merged;
	const struct shown **parts; /* n, for the merge */
	struct fleet_act acts[FLEET_ACTS_MAX];
	size_t nacts;
	/* -w: every frame a host sends, written as it is taken (set before
	 * fleet_start; the caller's); the first failure, when the recording
	 * cannot go on (malloc'd), after which nothing more is written */
	struct rec_hosts_writer *rec;
	char *rec_err;
	/* -r FILE of a recording of hosts: each host's pair is set from it
	 * (hosts/tape.h), and nothing connects or is sent; at: the moment shown,
	 * by the recording viewer's clock (CLOCK_REALTIME seconds then), which a
	 * host's last_sample is also on */
	bool recorded;
	double at;
};

/* Reads the host list of o (--host, --hosts-file). Returns 0, 2 after
 * printing why the list is bad, or 1 out of memory. */
int fleet_open(struct fleet *f, const struct cli_opts *o);
/* The hosts of a recording, names taken over (validated by the host list);
 * cs: the columns the rates are derived for. 0, or 1 out of memory (told). */
int fleet_open_recorded(struct fleet *f, const struct cli_opts *o, struct hostlist *names, const struct colset *cs);
/* A recorded host's pair: prev and cur taken over (cur NULL: none), and
 * what of it is shown built. 0, or -1 out of memory (h then has none). */
int fleet_host_set(struct fleet *f, struct fleet_host *h, struct rec_sample *prev, struct rec_sample *cur);
/* The time ages are taken against: CLOCK_MONOTONIC seconds now, or a recording's moment shown. */
double fleet_now(const struct fleet *f);
/* Connects to each host; cs: the columns the rates are derived for. Set
 * threads and watch before. */
void fleet_start(struct fleet *f, const struct colset *cs, double now);
void fleet_free(struct fleet *f);
/* Sends r to host (its number) over ssh; what: what it does, for the
 * answer. Returns 0, or -1 with *why (static, translated): too many sent
 * and not answered yet, or ssh could not start. */
int fleet_act(struct fleet *f, unsigned host, const struct act_req *r, const char *what, double now,
	      const char **why);
/* Reads the actions' answers; tells each that ended (why NULL: done, else
 * raw remote bytes) and forgets it. */
void fleet_acts_pump(struct fleet *f, double now, void (*told)(void *ctx, const struct fleet_act *a, const char *why),
		     void *ctx);
/* The descriptors to wait on (at most 2 (n + FLEET_ACTS_MAX)), into out. */
size_t fleet_fds(const struct fleet *f, int *out);
/* Reads what came. With take, also takes the samples (freeing the pairs
 * they replace: fleet_merge again before the merged table is used), moves
 * the states on and connects again where due; without, only reads, so
 * that no pipe fills while the screen waits to take. Returns 1 when what
 * the screen shows changed (a pair came, a state changed), 0 when not, -1
 * out of memory. */
int fleet_pump(struct fleet *f, double now, bool take);
/* The hosts' pairs as one (shown_merge); 0, or -1 out of memory. */
int fleet_merge(struct fleet *f);
/* Whether every host is Live (no state with an age to show). */
bool fleet_all_live(const struct fleet *f);
/* Whether a host whose last sample is age s old, at interval s, is Stale. */
bool fleet_stale(double age, double interval);
/* Seconds since h's last sample. */
double fleet_age(const struct fleet_host *h, double now);

#endif
