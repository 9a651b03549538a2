/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/taskstats/taskstats_window.h"

#include <stdlib.h>
#include <string.h>

enum { SLOT_PENDING, SLOT_INFLIGHT, SLOT_DONE };

int tswin_init(struct ts_window *w, size_t n, uint32_t seq_base, size_t limit, unsigned max_tries)
{
	memset(w, 0, sizeof(*w));
	/* calloc(0) may return NULL; one byte keeps "NULL means no memory" true */
	w->slot = calloc(n ? n : 1, 1);
	w->tries = calloc(n ? n : 1, 1);
	if (!w->slot || !w->tries) {
		tswin_free(w);
		return -1;
	}
	w->seq_base = seq_base;
	w->n = n;
	w->left = n;
	w->limit = limit ? limit : 1;
	w->max_tries = max_tries ? max_tries : 1;
	if (w->max_tries > 255)
		w->max_tries = 255; /* tries[] is one byte per query */
	return 0;
}

void tswin_free(struct ts_window *w)
{
	free(w->slot);
	free(w->tries);
	w->slot = w->tries = NULL;
	w->n = w->left = w->inflight = 0;
}

uint32_t tswin_seq(const struct ts_window *w, size_t i)
{
	return w->seq_base + (uint32_t)i;
}

size_t tswin_next(struct ts_window *w)
{
	if (w->inflight >= w->limit)
		return TSWIN_NONE;
	while (w->cursor < w->n && w->slot[w->cursor] != SLOT_PENDING)
		w->cursor++;
	if (w->cursor >= w->n)
		return TSWIN_NONE;
	size_t i = w->cursor++;
	w->slot[i] = SLOT_INFLIGHT;
	w->tries[i]++;
	w->inflight++;
	return i;
}

/* The in-flight query carrying seq, or TSWIN_NONE. */
static size_t tswin_find(const struct ts_window *w, uint32_t seq)
{
	size_t i = (size_t)(uint32_t)(seq - w->seq_base);

	if (i >= w->n || w->slot[i] != SLOT_INFLIGHT)
		return TSWIN_NONE;
	return i;
}

static void tswin_settle(struct ts_window *w, size_t i)
{
	if (w->slot[i] == SLOT_INFLIGHT)
		w->inflight--;
	if (w->slot[i] != SLOT_DONE)
		w->left--;
	w->slot[i] = SLOT_DONE;
}

/* charge false refunds the send: the query was not at fault, the window was too wide. */
static void tswin_requeue(struct ts_window *w, size_t i, bool charge)
{
	w->inflight--;
	if (!charge)
		w->tries[i]--;
	if (w->tries[i] >= w->max_tries) {
		w->slot[i] = SLOT_DONE;
		w->left--;
		return;
	}
	w->slot[i] = SLOT_PENDING;
	if (i < w->cursor)
		w->cursor = i;
}

size_t tswin_answer(struct ts_window *w, uint32_t seq)
{
	size_t i = tswin_find(w, seq);

	if (i != TSWIN_NONE)
		tswin_settle(w, i);
	return i;
}

size_t tswin_retry(struct ts_window *w, uint32_t seq)
{
	size_t i = tswin_find(w, seq);

	if (i != TSWIN_NONE)
		tswin_requeue(w, i, true);
	return i;
}

size_t tswin_lost(struct ts_window *w, bool shrink)
{
	size_t left = w->left;
	/*
	 * An overflow while the window can still shrink says nothing against the
	 * queries; once it cannot, every loss counts so the batch ends.
	 */
	bool charge = !shrink || w->limit <= 1;

	for (size_t i = 0; i < w->n && w->inflight > 0; i++)
		if (w->slot[i] == SLOT_INFLIGHT)
			tswin_requeue(w, i, charge);
	if (shrink && w->limit > 1)
		w->limit /= 2;
	return left - w->left;
}

void tswin_abandon(struct ts_window *w)
{
	for (size_t i = 0; i < w->n && w->left > 0; i++)
		if (w->slot[i] != SLOT_DONE)
			tswin_settle(w, i);
	w->cursor = w->n;
}

bool tswin_done(const struct ts_window *w)
{
	return w->left == 0;
}
