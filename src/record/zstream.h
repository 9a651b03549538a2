/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compressed stream of a block: each sample is compressed and flushed on
 * its own, so what was written decodes without what follows, while later
 * samples still refer to earlier ones. Without libzstd, both ends fail.
 */
#ifndef TV_RECORD_ZSTREAM_H
#define TV_RECORD_ZSTREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

struct zs_out;
struct zs_in;

/* NULL when not built with libzstd or out of memory. */
struct zs_out *zs_out_new(int level);
void zs_out_free(struct zs_out *z);
/* Starts a new block: what follows refers to nothing before. */
void zs_out_restart(struct zs_out *z);
/* Appends the compressed, flushed form of the n bytes at p to out. Returns 0 or -1. */
int zs_out_chunk(struct zs_out *z, const void *p, size_t n, struct buf *out);

struct zs_in *zs_in_new(void);
void zs_in_free(struct zs_in *z);
void zs_in_restart(struct zs_in *z);
/* Decompresses one chunk into out (replacing its contents). Returns 0, or -1
 * when the data is damaged or would exceed max bytes. */
int zs_in_chunk(struct zs_in *z, const void *p, size_t n, struct buf *out, size_t max);

/* Whether this build can compress and decompress. */
bool zs_available(void);

#endif
