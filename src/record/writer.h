/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Appends samples to a recording: one file, or a directory of daily files
 * (taskview-YYYY-MM-DD.tvr, local date) of which the last keep_days are kept.
 * Every sample is written whole in one write: a crash loses at most the
 * sample being written. A block (the samples sharing one compressed stream)
 * is synced to disk when it ends.
 */
#ifndef TV_RECORD_WRITER_H
#define TV_RECORD_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "model/column.h"
#include "record/sample.h"

#define REC_BLOCK_SAMPLES 60        /* samples per block */
#define REC_BLOCK_BYTES (4u << 20)  /* or fewer, when they grow past this uncompressed */
#define REC_FILE_PREFIX "taskview-"
#define REC_FILE_SUFFIX ".tvr"

struct rec_writer;

struct rec_writer_opts {
	const char *path;         /* a file, or an existing directory; with stream, a name for messages */
	/* write to standard output, a pipe to a viewer (--stream): nothing is
	 * locked, synced or removed; the stream starts with its description */
	bool stream;
	int keep_days;            /* directory: days of files kept, today's included; 0: all */
	double interval;          /* seconds between samples, as asked */
	bool threads;             /* -H */
	const char *filter;       /* the selection as given (-p, -u, -F), or NULL */
	const struct colset *cs;  /* its plugin columns are recorded */
};

/* Returns NULL with *err (malloc'd) when the path cannot be written. */
struct rec_writer *rec_writer_open(const struct rec_writer_opts *o, char **err);
/* Returns 0; 1 with *err (malloc'd), the recording going on, when the
 * sample was left out (larger than REC_SAMPLE_MAX: a reader would take it
 * for damage) or, after it was written, when --keep could not remove an old
 * daily file; or -1 with *err: the recording cannot go on. */
int rec_writer_append(struct rec_writer *w, const struct rec_sample *s, char **err);
void rec_writer_close(struct rec_writer *w);

/* Is name a daily file, and of which day (days since 1970-01-01)? */
bool rec_daily_name(const char *name, long *day);

#endif
