/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/zstream.h"

#include <stdlib.h>
#include <zstd.h>

struct zs_out {
	ZSTD_CCtx *c;
};

struct zs_in {
	ZSTD_DCtx *d;
};

bool zs_available(void)
{
	return true;
}

struct zs_out *zs_out_new(int level)
{
	struct zs_out *z = calloc(1, sizeof(*z));
	if (!z || !(z->c = ZSTD_createCCtx())) {
		free(z);
		return NULL;
	}
	ZSTD_CCtx_setParameter(z->c, ZSTD_c_compressionLevel, level);
	return z;
}

void zs_out_free(struct zs_out *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->c);
	free(z);
}

void zs_out_restart(struct zs_out *z)
{
	ZSTD_CCtx_reset(z->c, ZSTD_reset_session_only);
}

int zs_out_chunk(struct zs_out *z, const void *p, size_t n, struct buf *out)
{
	ZSTD_inBuffer in = {p, n, 0};
	for (;;) {
		size_t room = ZSTD_CStreamOutSize();
		/* grow, then let zstd write after what is there */
		size_t len = out->len;
		buf_pad(out, 0, room);
		if (out->oom)
			return -1;
		ZSTD_outBuffer ob = {out->data + len, room, 0};
		size_t left = ZSTD_compressStream2(z->c, &ob, &in, ZSTD_e_flush);
		out->len = len + ob.pos;
		if (ZSTD_isError(left))
			return -1;
		if (left == 0 && in.pos == in.size)
			return 0;
	}
}

struct zs_in *zs_in_new(void)
{
	struct zs_in *z = calloc(1, sizeof(*z));
	if (!z || !(z->d = ZSTD_createDCtx())) {
		free(z);
		return NULL;
	}
	/* a window this large is never written; refuse it rather than allocate it */
	ZSTD_DCtx_setParameter(z->d, ZSTD_d_windowLogMax, 27);
	return z;
}

void zs_in_free(struct zs_in *z)
{
	if (!z)
		return;
	ZSTD_freeDCtx(z->d);
	free(z);
}

void zs_in_restart(struct zs_in *z)
{
	ZSTD_DCtx_reset(z->d, ZSTD_reset_session_only);
}

int zs_in_chunk(struct zs_in *z, const void *p, size_t n, struct buf *out, size_t max)
{
	buf_reset(out);
	ZSTD_inBuffer in = {p, n, 0};
	/* room for one byte past max: a stream that fills it is longer than max,
	 * found before more memory is spent on it */
	size_t limit = max + 1;
	for (;;) {
		size_t room = ZSTD_DStreamOutSize();
		if (out->len + room > limit)
			room = limit - out->len;
		size_t len = out->len;
		buf_pad(out, 0, room);
		if (out->oom)
			return -1;
		ZSTD_outBuffer ob = {out->data + len, room, 0};
		size_t r = ZSTD_decompressStream(z->d, &ob, &in);
		out->len = len + ob.pos;
		if (ZSTD_isError(r) || out->len > max)
			return -1;
		/* all input taken and the output not full: everything flushed is out */
		if (in.pos == in.size && ob.pos < ob.size)
			return 0;
	}
}
