/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/taskstats/exit_queue.h"

#include <stdlib.h>
#include <string.h>

/* room kept however few come (beyond, an eighth must be used) */
#define ROOM_KEEP 4096

struct ts_exit_rec *exit_queue_push(struct exit_queue *x, size_t need)
{
	if (x->n + need > x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 256;
		struct ts_exit_rec *q = cap <= TS_LISTEN_KEEP ? realloc(x->q, cap * sizeof(*q)) : NULL;
		if (!q)
			return NULL;
		x->q = q;
		x->cap = cap;
	}
	struct ts_exit_rec *e = &x->q[x->n];
	x->n += need;
	return e;
}

size_t exit_queue_take(struct exit_queue *x, struct ts_exit_rec **out)
{
	*out = x->q;
	size_t n = x->n;
	x->lent_n = n;
	x->lent_cap = x->cap;
	x->q = NULL;
	x->n = x->cap = 0;
	return n;
}

struct ts_exit_rec *exit_queue_give_back(struct exit_queue *x, struct ts_exit_rec *recs)
{
	size_t room = x->lent_cap, used = x->lent_n;
	x->lent_n = x->lent_cap = 0;
	/* what came since the take moves in: the room stays mapped; a storm that ended gives it back */
	if (recs && room >= x->n && !(room > ROOM_KEEP && room / 8 > used)) {
		if (x->n)
			memcpy(recs, x->q, x->n * sizeof(*recs));
		free(x->q);
		x->q = recs;
		x->cap = room;
		recs = NULL;
	}
	return recs;
}

void exit_queue_free(struct exit_queue *x)
{
	free(x->q);
	memset(x, 0, sizeof(*x));
}
