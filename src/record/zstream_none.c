/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A build without libzstd: recording and replay report that they are not available. */
#include "record/zstream.h"

bool zs_available(void)
{
	return false;
}

struct zs_out *zs_out_new(int level)
{
	(void)level;
	return NULL;
}

void zs_out_free(struct zs_out *z)
{
	(void)z;
}

void zs_out_restart(struct zs_out *z)
{
	(void)z;
}

int zs_out_chunk(struct zs_out *z, const void *p, size_t n, struct buf *out)
{
	(void)z;
	(void)p;
	(void)n;
	(void)out;
	return -1;
}

struct zs_in *zs_in_new(void)
{
	return NULL;
}

void zs_in_free(struct zs_in *z)
{
	(void)z;
}

void zs_in_restart(struct zs_in *z)
{
	(void)z;
}

int zs_in_chunk(struct zs_in *z, const void *p, size_t n, struct buf *out, size_t max)
{
	(void)z;
	(void)p;
	(void)n;
	(void)out;
	(void)max;
	return -1;
}
