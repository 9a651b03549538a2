/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sample to bytes and back (pure, over buffers). Each record is written
 * against a base: the same task in the previous sample, so unchanged values
 * cost nothing and counters cost their change. A sample without a base is
 * written whole (the first of a compressed block).
 */
#ifndef TV_RECORD_CODEC_H
#define TV_RECORD_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/sample.h"
#include "record/schema.h"
#include "record/strings.h"
#include "util/buf.h"

/*
 * Where a sample's lists of exited threads lie in its bytes (offsets from
 * its start), and the time bases that follow each: what lets the writer's
 * own rec_decode_base step over them, where reading them record by record
 * cost it a tenth of its CPU beside an exit storm. Filled by
 * rec_encode_sample; the caller owns it (rec_jumps_free).
 */
struct rec_jump {
	size_t from, to;
};
struct rec_jumps {
	struct rec_jump *v;
	double *last;  /* ntimes for each jump */
	size_t n, cap, ntimes;
	bool oom;      /* one was left out: none is used */
};
void rec_jumps_free(struct rec_jumps *j);

/* Appends cur. base: the previous sample written in this block, or NULL.
 * j: where to note its exited lists (emptied first), or NULL. Returns -1
 * when the tasks are out of order (or memory ran out). */
int rec_encode_sample(struct buf *out, const struct rec_layout *l, const struct rec_sample *cur,
		      const struct rec_sample *base, struct rec_jumps *j);

/* Decodes the n bytes at p against base (NULL for a block's first sample).
 * Returns 0, -1 when the bytes are damaged, or -2 when they hold more tasks
 * than l->max_tasks (out is then empty). Strings shared between samples go
 * to st. */
int rec_decode_sample(const uint8_t *p, size_t n, const struct rec_layout *l, const struct rec_sample *base,
		      struct rec_strings *st, struct rec_sample *out);
/* As rec_decode_sample, without the lists of processes and threads that ended
 * (out->s.gone and each process's exited are NULL, ngone and nexited their
 * numbers): what the next sample is written against, which looks up only live
 * processes and threads. A recorder beside an exit storm keeps none of them.
 * j: what rec_encode_sample noted of these very bytes, or NULL. */
int rec_decode_base(const uint8_t *p, size_t n, const struct rec_layout *l, const struct rec_sample *base,
		    struct rec_strings *st, struct rec_sample *out, const struct rec_jumps *j);

/* Seconds to whole nanoseconds (the time in frame headers). */
int64_t rec_sec_to_ns(double t);
/* Rounds every time of s to the microsecond, as a replay of it will have
 * them: a recorder calls it before deriving anything from s. */
void rec_round_times(struct snapshot *s);

#endif
