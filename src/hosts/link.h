/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One host's connection: an ssh child whose standard output is the remote
 * taskview's stream. Its stdin is ours to close (the remote ends with it),
 * its stderr is kept (the last 4 KiB) for the reason it gives when it ends.
 * Every descriptor is non-blocking: a host that is slow or stopped never
 * holds up the others.
 */
#ifndef TV_HOSTS_LINK_H
#define TV_HOSTS_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/sample.h"
#include "record/stream.h"

#define LINK_ERR_KEEP 4096
/* An answer on standard output (LINK_ASK): its first bytes, at most. */
#define LINK_OUT_KEEP 1024

/* What the child's standard output is: a stream of samples; nothing (an
 * action: /dev/null); or a short answer, kept. */
enum link_mode { LINK_STREAM, LINK_ACT, LINK_ASK };

struct link {
	const char *host;       /* borrowed */
	pid_t pid;              /* the ssh child; 0 when none */
	int to, from, err;      /* its stdin (ours to write), stdout, stderr; -1 when closed */
	struct rec_stream *st;  /* NULL: no stream (an action) */
	char errtail[LINK_ERR_KEEP];
	size_t nerr;
	char out[LINK_OUT_KEEP]; /* LINK_ASK: the answer's first bytes */
	size_t nout;
	bool out_over;          /* it said more than those */
	double started, last_data; /* CLOCK_MONOTONIC seconds */
	double ended_at;        /* when its output closed; 0 while open */
	int64_t taken_ns;       /* CLOCK_REALTIME ns when link_next last looked for a sample */
	int status;             /* the child's, once reaped */
	bool reaped;
	char *why;              /* why it ended (malloc'd), or NULL */
};

/* Starts argv (ssh ...) with its standard output as mode says; without a
 * stream (an action, hosts/act.h) the link is open until its standard output
 * and error close. Returns 0, or -1 with l->why set. */
int link_start(struct link *l, const char *host, char *const argv[], double now, enum link_mode mode);
/* Reads what is there; feeds the stream. Returns 1 while the link is open
 * (or its child is still saying why it ends), 0 once it ended (l->why says
 * why, the samples already fed can still be taken). */
int link_pump(struct link *l, double now);
/* Ends the link without waiting for it: stdin closed, the child signalled
 * and reaped when it is gone (else by link_reap or link_free). */
void link_stop(struct link *l);
/* Reaps the child of a stopped link if it is gone by now. */
void link_reap(struct link *l);
/* Frees what link_start took; the child is killed if it still runs. */
void link_free(struct link *l);
/* The next sample the stream holds: 1, and *clock raised to its time there
 * less the time here (the host's clock minus this one's, at least); 0 when
 * none is whole yet; -1 when the stream broke, *why its reason (the link's
 * before the stream's; malloc'd, or NULL out of memory). */
int link_next(struct link *l, struct rec_sample *s, uint64_t *seq, double *clock, char **why);
/* The last line ssh or the remote wrote to stderr (raw bytes), or NULL. */
const char *link_last_words(struct link *l);

#endif
