/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads a recording as it arrives through a pipe (taskview --stream on
 * another host): bytes are fed in as they come, whole samples come out.
 * Unlike a file, a stream is not resynchronised after damage: the sender is
 * asked again (a new connection), so any damage ends it, with a reason.
 *
 *   st = rec_stream_new();
 *   rec_stream_feed(st, bytes, n, &err);      as they are read
 *   while ((rc = rec_stream_next(st, &s, &err)) > 0) ...  each sample, owned by the caller
 *
 * A sample's shared strings (user names, groups) are the stream's: samples
 * must not outlive it. What it holds is bounded: REC_STREAM_HOLD_MAX bytes
 * not yet taken, the last sample decoded (REC_STREAM_TASKS_MAX tasks), and
 * the strings the samples share (REC_STRINGS_MAX).
 */
#ifndef TV_RECORD_STREAM_H
#define TV_RECORD_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/sample.h"

/* A frame larger than this ends the stream: a sample never takes more (REC_SAMPLE_MAX). */
#define REC_STREAM_FRAME_MAX (32u << 20)
/* Bytes held before they are taken: a whole frame and what came behind it. */
#define REC_STREAM_HOLD_MAX (2 * REC_STREAM_FRAME_MAX)

/* A sample of more tasks ends the stream, before they are decoded: about
 * 110 MiB decoded, past the threads of any machine a selection leaves. */
#define REC_STREAM_TASKS_MAX (1u << 18)

struct rec_stream;

struct rec_stream *rec_stream_new(void);
/* A lower limit than REC_STREAM_TASKS_MAX on the tasks of one sample (a
 * viewer of many hosts may want one), from the next description on. */
void rec_stream_max_tasks(struct rec_stream *st, size_t n);
void rec_stream_free(struct rec_stream *st);

/* Each frame of the stream, as it came (header and payload, len bytes,
 * its checksum good), told as rec_stream_next reaches it, before it is
 * decoded: a recorder of several hosts writes them as they are. */
struct rec_frame;
typedef void (*rec_tap_fn)(void *ctx, const uint8_t *frame, size_t len, const struct rec_frame *f);
void rec_stream_tap(struct rec_stream *st, rec_tap_fn fn, void *ctx);

/* Takes n bytes. Returns 0, or -1 with *err (malloc'd) when they cannot be
 * a stream's (the stream is then over). */
int rec_stream_feed(struct rec_stream *st, const void *p, size_t n, char **err);

/*
 * The next whole sample: 1 with *out (the caller's: rec_sample_free) and
 * *seq, its number in the sender's run (consecutive numbers pair for
 * rates); 0 when none is whole yet; -1 with *err (malloc'd) when the stream
 * is damaged, or from a version that this one cannot read.
 */
int rec_stream_next(struct rec_stream *st, struct rec_sample *out, uint64_t *seq, char **err);

struct rec_schema;
/* The sender's description (its properties: host, taskview, kernel, cpus,
 * boot_id, interval, ... through rec_schema_prop): NULL before it came. It
 * lives until the next rec_stream_next or rec_stream_free. */
const struct rec_schema *rec_stream_schema(const struct rec_stream *st);

/* The time in the header of the last sample rec_stream_next gave (ns). */
int64_t rec_stream_wall_ns(const struct rec_stream *st);

/* Bytes taken so far. */
uint64_t rec_stream_bytes(const struct rec_stream *st);

#endif
