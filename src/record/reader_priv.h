/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reader's state, shared by its index (reader_scan.c) and its decoding (reader.c). */
#ifndef TV_RECORD_READER_PRIV_H
#define TV_RECORD_READER_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/reader.h"
#include "record/schema.h"
#include "record/strings.h"
#include "record/zstream.h"
#include "util/buf.h"

#define REC_NONE SIZE_MAX
/* Hosts of one recording, at most: a file naming more has the rest skipped. */
#define REC_HOSTS_MAX 4096

struct rec_rfile {
	char *path;
	int fd;
	uint64_t size;
};

/* One start of the recorder (a schema frame; a daily file of the same run repeats it). */
struct rec_run {
	struct rec_schema schema;
	struct rec_layout layout;
	struct buf bytes;        /* the schema frame's payload: the same bytes, the same run */
	bool usable;             /* bound to this build */
	bool kthreads;           /* its tasks say whether they are kernel threads (not in older files) */
};

struct rec_entry {
	int64_t wall_ns;
	int64_t taken_ns;        /* a host's sample: when the viewer took it (its clock); 0: not known */
	uint64_t off;            /* of the frame header */
	uint64_t seq;
	uint32_t len, crc;
	uint32_t file, run;
	size_t block;            /* index of its block's first sample; REC_NONE: cannot be decoded */
	size_t segment;          /* samples of one segment follow each other: they pair */
	uint16_t hlen;
	bool lost;
};

struct rec_reader {
	struct rec_rfile *files;
	size_t nfiles;
	struct rec_run *runs;
	size_t nruns;
	struct rec_entry *v;
	size_t n, cap;
	/* plugin columns of every run, by the slot they get here */
	const struct rec_col **slot_cols;
	const char **slot_ids;
	size_t nslots;
	rec_warn_fn warn;
	void *ctx;
	/* a recording of several hosts: the host whose samples are indexed
	 * (NULL: this machine's frames, none of a host's), and, for the file's
	 * reader (host NULL), the hosts its host frames name, in the order
	 * they first come */
	char *host;
	char **hosts;
	size_t nhosts;
	size_t schemas_damaged;  /* descriptions of runs found damaged while scanning */
	char *newer_why;         /* a run this version cannot read, as it says (the first) */
	struct rec_strings *st;
	struct zs_in *z;
	struct buf payload, raw;
	/* the sample decoded last: the base of the next one */
	size_t cur;
	struct rec_sample have;
};

/* reader_scan.c: indexes every file of each of the n readers, in one pass
 * when they read the same files; binds their runs. Returns 0 or -1 (out of memory). */
int rec_scan(struct rec_reader **rs, size_t n);
/* Reads n bytes at off of file f; -1 when they are not all there. */
int rec_pread(const struct rec_rfile *f, void *p, size_t n, uint64_t off);
/* A warning through the reader's callback, printf-style. */
void rec_warnf(const struct rec_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Local date and time of a unix time, for messages. */
void rec_fmt_time(char *out, size_t len, double wall);

#endif
