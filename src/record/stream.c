/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/codec.h"
#include "record/copy.h"
#include "record/crc32c.h"
#include "record/format.h"
#include "record/schema.h"
#include "record/strings.h"
#include "record/zstream.h"
#include "util/i18n.h"

struct rec_stream {
	struct buf in;            /* bytes received and not yet taken (REC_STREAM_HOLD_MAX at most) */
	size_t off;               /* where the next frame starts in in */
	uint64_t bytes;
	struct rec_schema schema;
	struct rec_layout layout;
	bool have_schema;
	struct zs_in *z;
	struct buf raw;
	struct rec_strings *strings;
	size_t max_tasks;         /* a sample's, at most */
	struct rec_sample base;   /* the last sample decoded: the next is written against it */
	bool have_base;
	uint64_t base_seq;
	int64_t wall_ns;          /* the header's time of the last sample given */
	bool broken;
	rec_tap_fn tap;
	void *tap_ctx;
};

struct rec_stream *rec_stream_new(void)
{
	struct rec_stream *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	buf_init(&st->in);
	buf_init(&st->raw);
	st->z = zs_in_new();
	st->max_tasks = REC_STREAM_TASKS_MAX;
	st->strings = rec_strings_new();
	if (st->strings)
		rec_strings_limit(st->strings); /* what a remote names: a stream lasts */
	if (!st->z || !st->strings) {
		rec_stream_free(st);
		return NULL;
	}
	return st;
}

static void drop_base(struct rec_stream *st)
{
	if (st->have_base)
		rec_sample_free(&st->base);
	st->have_base = false;
}

static void drop_schema(struct rec_stream *st)
{
	if (!st->have_schema)
		return;
	rec_layout_free(&st->layout);
	rec_schema_free(&st->schema);
	st->have_schema = false;
}

void rec_stream_free(struct rec_stream *st)
{
	if (!st)
		return;
	drop_base(st);
	drop_schema(st);
	zs_in_free(st->z);
	rec_strings_free(st->strings);
	buf_free(&st->in);
	buf_free(&st->raw);
	free(st);
}

void rec_stream_tap(struct rec_stream *st, rec_tap_fn fn, void *ctx)
{
	st->tap = fn;
	st->tap_ctx = ctx;
}

void rec_stream_max_tasks(struct rec_stream *st, size_t n)
{
	st->max_tasks = n < REC_STREAM_TASKS_MAX ? n : REC_STREAM_TASKS_MAX;
}

static int fail(struct rec_stream *st, char **err, const char *msg)
{
	st->broken = true;
	*err = strdup(msg);
	return -1;
}

int rec_stream_feed(struct rec_stream *st, const void *p, size_t n, char **err)
{
	*err = NULL;
	if (st->broken)
		return fail(st, err, _("the stream ended after damage"));
	/* what was taken goes first, so the buffer holds one frame at most */
	if (st->off) {
		memmove(st->in.data, st->in.data + st->off, st->in.len - st->off);
		st->in.len -= st->off;
		st->off = 0;
	}
	/* a whole frame and what came after it, not taken yet: twice a frame at most */
	if (st->in.len + n > REC_STREAM_HOLD_MAX)
		return fail(st, err, _("the stream sent a frame larger than a sample may be"));
	buf_add(&st->in, p, n);
	if (st->in.oom)
		return fail(st, err, _("out of memory"));
	st->bytes += n;
	return 0;
}

/* Binds a description: the plugin columns it names take the slots in its order. */
static int take_schema(struct rec_stream *st, const uint8_t *p, size_t n, char **err)
{
	drop_base(st);
	drop_schema(st);
	char *why = NULL;
	if (rec_schema_decode(p, n, &st->schema, &why) < 0) {
		/* a newer taskview says so: its reason is the user's */
		st->broken = true;
		*err = why ? why : strdup(_("the stream's description is damaged"));
		return -1;
	}
	const char **ids = calloc(st->schema.ncols ? st->schema.ncols : 1, sizeof(*ids));
	if (!ids) {
		rec_schema_free(&st->schema);
		return fail(st, err, _("out of memory"));
	}
	for (size_t i = 0; i < st->schema.ncols; i++)
		ids[i] = st->schema.cols[i].id;
	int rc = rec_layout_bind(&st->layout, &st->schema, ids, st->schema.ncols, &why);
	free(ids);
	if (rc < 0) {
		rec_schema_free(&st->schema);
		st->broken = true;
		*err = why ? why : strdup(_("out of memory"));
		return -1;
	}
	st->layout.max_tasks = st->max_tasks;
	st->have_schema = true;
	return 0;
}

static int take_sample(struct rec_stream *st, const struct rec_frame *f, const uint8_t *p, struct rec_sample *out,
		       uint64_t *seq, char **err)
{
	if (!st->have_schema)
		return fail(st, err, _("the stream sent a sample before its description"));
	bool start = f->flags & REC_FLAG_BLOCK_START;
	/* a sample goes on from the one before it in its block: one missing breaks the stream */
	if (!start && (!st->have_base || f->seq != st->base_seq + 1))
		return fail(st, err, _("the stream skipped a sample"));
	if (start)
		zs_in_restart(st->z);
	struct rec_sample next;
	if (zs_in_chunk(st->z, p, f->len, &st->raw, REC_SAMPLE_MAX) < 0)
		return fail(st, err, _("the stream sent a damaged sample"));
	int rc = rec_decode_sample((const uint8_t *)st->raw.data, st->raw.len, &st->layout,
				   start ? NULL : &st->base, st->strings, &next);
	if (rc == -2)
		return fail(st, err, _("the stream sent a sample of too many tasks"));
	if (rc < 0)
		return fail(st, err, rec_strings_full(st->strings) ? _("the stream sent too many distinct names")
								   : _("the stream sent a damaged sample"));
	if (rec_sample_copy(out, &next) < 0) {
		rec_sample_free(&next);
		return fail(st, err, _("out of memory"));
	}
	drop_base(st);
	st->base = next;
	st->have_base = true;
	st->base_seq = f->seq;
	st->wall_ns = f->wall_ns;
	*seq = f->seq;
	return 1;
}

int rec_stream_next(struct rec_stream *st, struct rec_sample *out, uint64_t *seq, char **err)
{
	*err = NULL;
	memset(out, 0, sizeof(*out));
	if (st->broken)
		return fail(st, err, _("the stream ended after damage"));
	for (;;) {
		const uint8_t *p = (const uint8_t *)st->in.data + st->off;
		size_t have = st->in.len - st->off;
		if (have < 8)
			return 0;
		if (memcmp(p, REC_MAGIC, 4) != 0)
			return fail(st, err, _("what came is not a taskview stream"));
		size_t hlen = (size_t)p[6] | (size_t)p[7] << 8;
		if (have < hlen)
			return 0;
		struct rec_frame f;
		if (rec_frame_unpack(p, have, &f) < 0 || f.len > REC_STREAM_FRAME_MAX)
			return fail(st, err, _("the stream sent a damaged frame header"));
		if (have - f.hlen < f.len)
			return 0;
		const uint8_t *payload = p + f.hlen;
		st->off += f.hlen + f.len;
		if (crc32c(0, payload, f.len) != f.crc)
			return fail(st, err, _("the stream sent a damaged frame"));
		if (st->tap)
			st->tap(st->tap_ctx, p, f.hlen + f.len, &f);
		if (f.type == REC_FRAME_SCHEMA) {
			if (take_schema(st, payload, f.len, err) < 0)
				return -1;
			continue;
		}
		if (f.type == REC_FRAME_SAMPLE)
			return take_sample(st, &f, payload, out, seq, err);
		/* a frame of a later version: skipped, as a file reader does */
	}
}

int64_t rec_stream_wall_ns(const struct rec_stream *st)
{
	return st->wall_ns;
}

const struct rec_schema *rec_stream_schema(const struct rec_stream *st)
{
	return st->have_schema ? &st->schema : NULL;
}

uint64_t rec_stream_bytes(const struct rec_stream *st)
{
	return st->bytes;
}
