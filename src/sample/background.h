/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sampling off the input path: a thread of its own takes the samples, so a
 * key never waits for /proc, however many tasks a refresh reads. The caller
 * asks for a sample (with a copy of its options), goes on, and collects the
 * result when the notify descriptor becomes readable.
 */
#ifndef TV_SAMPLE_BACKGROUND_H
#define TV_SAMPLE_BACKGROUND_H

#include <stdbool.h>

#include "model/snapshot.h"
#include "sample/memory/anatomy.h"
#include "sample/sampler.h"

struct background;

/* Starts the sampling thread for s (borrowed; used only by that thread from now on). NULL when out of resources. */
struct background *background_start(struct sampler *s);
/*
 * Stops the thread: a sample in progress is asked to stop (sampler_cancel) and
 * waited for up to wait_s seconds; then b and what was collected are freed.
 * Returns false when the thread did not end in time: it is abandoned, still
 * owning b and the sampler, which the caller must then not free (it ends the
 * process soon instead: a refresh stuck on a busy machine never holds a quit
 * up). b may be NULL.
 */
bool background_stop(struct background *b, double wait_s);

/*
 * Asks for a sample with these options, copied: the filter, the list of
 * unfolded processes (o->expanded_list; a callback in o->expanded cannot be
 * copied and is refused), the plugin slots shown (nplugin_slots of them). A
 * request made while one is being taken replaces the one waiting, if any:
 * the newest wins. Returns a ticket that background_take() reports with the
 * result, or 0 when out of memory.
 */
unsigned background_request(struct background *b, const struct sample_opts *o, size_t nplugin_slots);

/* Hands a taskstats client to the sampler, before the next sample it takes
 * (the sampler is the sampling thread's: sampler_set_taskstats must not be
 * called on it from elsewhere). */
void background_set_taskstats(struct background *b, struct ts_client *ts);

/* Readable when a result is ready (for poll()). */
int background_fd(const struct background *b);

/*
 * Takes a finished sample, if there is one: returns its ticket (out filled)
 * or 0 (nothing yet). On failure the ticket is returned with *err set
 * (malloc'd) and out empty.
 */
unsigned background_take(struct background *b, struct snapshot *out, char **err);

/* Whether a request is waiting or being taken. */
bool background_busy(struct background *b);

/*
 * One process's address space by kind, for the detail panel: read on a
 * thread of its own, since a process whose mmap lock is held (a fork loop
 * beside 100,000 mappings) can take seconds, and neither the screen nor the
 * samples wait for it. Asking again replaces a request not taken up yet; the
 * result is announced on background_fd like a sample's.
 */
struct background_anatomy {
	int32_t tgid;
	struct anatomy a;        /* the taker frees it (anatomy_free) */
	struct anatomy_pages pg;
	int err;                 /* anatomy_read's */
};
/* false when the thread cannot be started (out of resources). */
bool background_ask_anatomy(struct background *b, int32_t tgid);
/* Takes a finished read, if there is one. */
bool background_take_anatomy(struct background *b, struct background_anatomy *out);

#endif
