/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads a recording: a file, or a directory of daily files. Opening indexes
 * every sample by time from the frame headers, without decompressing; a
 * sample is decoded when asked for, from the start of its block. Damage is
 * skipped: each damaged stretch is reported once, through warn, with how
 * many samples it took and when they were.
 *
 * For a replay front (batch, or an interactive screen):
 *   r = rec_reader_open(path, warn, ctx, &err);
 *   rec_reader_info(r, &info);              host, time range, interval
 *   rec_reader_columns(r, &cs);             the recorded plugin columns
 *   i = rec_reader_find(r, wall);           jump to a time
 *   rec_reader_pair(r, i, k, &prev, &cur);  sample i and the one k before it
 *   delta_apply(&prev.s, &cur.s, &cs); rec_exited_rates(&prev.s, &cur.s, &cs);
 * Step with i +/- k; rec_reader_pair fails (-1) where a pair crosses lost
 * samples or a restart of the recorder (rec_reader_pairable says so first).
 */
#ifndef TV_RECORD_READER_H
#define TV_RECORD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/column.h"
#include "record/sample.h"

struct rec_reader;

/* msg: one translated line, without "taskview: " and newline. */
typedef void (*rec_warn_fn)(void *ctx, const char *msg);

/* NULL with *err (malloc'd) when path is not a readable recording. */
struct rec_reader *rec_reader_open(const char *path, rec_warn_fn warn, void *ctx, char **err);
void rec_reader_close(struct rec_reader *r);

/*
 * A recording of several hosts (taskview --host ... -w FILE) holds each
 * host's samples as it sent them. rec_reader_open indexes none of them;
 * it names the hosts, in the order they first come (0: a recording of this
 * machine alone). A reader of each host then gives that host's samples, as
 * a reader of a recording of one machine does. The readers of several hosts
 * opened together are indexed in one pass over the file.
 */
size_t rec_reader_hosts(const struct rec_reader *r, const char *const **names);
struct rec_host_open {
	const char *host;     /* in: its name */
	rec_warn_fn warn;     /* in: where its reader's warnings go */
	void *ctx;
	struct rec_reader *r; /* out: NULL when it cannot be read, */
	char *err;            /* and why (the caller's to free; NULL: out of memory) */
};
/* Opens a reader of each v[i].host. Returns 0, or -1 out of memory (none opened). */
int rec_reader_open_hosts(const char *path, struct rec_host_open *v, size_t n);
/* The same for one host: NULL with *err (malloc'd, NULL: out of memory). */
struct rec_reader *rec_reader_open_host(const char *path, const char *host, rec_warn_fn warn, void *ctx, char **err);
/* Where sample i lies in the recording: the samples of several hosts were
 * written in the order of their places. */
uint64_t rec_reader_place(const struct rec_reader *r, size_t i);
/* A host's sample i: when the viewer took it, by the viewer's clock (NaN: not known). */
double rec_reader_taken(const struct rec_reader *r, size_t i);
/* A host's sample i: its time less when the viewer took it, by the viewer's
 * clock, in seconds, from whole ns as the live viewer computes it (NaN: not known). */
double rec_reader_clock(const struct rec_reader *r, size_t i);
struct rec_schema;
/* The description sample i was recorded under; it lives as long as r. */
const struct rec_schema *rec_reader_schema(const struct rec_reader *r, size_t i);

struct rec_info {
	const char *host, *kernel, *version; /* as the first run recorded them; NULL when unknown */
	const char *filter;     /* the selection recorded (-p, -u, -F as given), or NULL */
	double interval;        /* seconds asked for, of the first run */
	bool threads;           /* recorded with -H */
	size_t nsamples;        /* in the index */
	size_t nruns;           /* times the recorder started */
	double first, last;     /* wall time of the first and last sample; 0 when none */
};
void rec_reader_info(const struct rec_reader *r, struct rec_info *info);

size_t rec_reader_count(const struct rec_reader *r);
/* Unix time of sample i (from its header). */
double rec_reader_wall(const struct rec_reader *r, size_t i);
/* The first sample at or after wall; rec_reader_count() when none. */
size_t rec_reader_find(const struct rec_reader *r, double wall);
/* Can sample i be shown with the one k before it (same run, nothing lost
 * in between as far as the index knows)? */
bool rec_reader_pairable(const struct rec_reader *r, size_t i, unsigned k);

/* Is sample i known to be lost (damaged, or written against a damaged one)?
 * A sample is known to be after a try to read it. */
bool rec_reader_lost(const struct rec_reader *r, size_t i);

/* Sample i, owned by the caller (rec_sample_free). Returns -1 when it is lost. */
int rec_reader_get(struct rec_reader *r, size_t i, struct rec_sample *out);
/*
 * prev = sample i - k, cur = sample i with what the k - 1 samples between
 * them recorded of ended tasks (exited threads, ended processes) merged in:
 * ready for delta_apply(&prev->s, &cur->s, cs). Both owned by the caller.
 * Returns -1 when i < k, the pair crosses a break, or a sample is lost.
 */
int rec_reader_pair(struct rec_reader *r, size_t i, unsigned k, struct rec_sample *prev, struct rec_sample *cur);

/* Appends the plugin columns of the recording to cs (their strings belong to
 * the reader: cs must not outlive it). Returns 0 or -1. */
int rec_reader_columns(struct rec_reader *r, struct colset *cs);

#endif
