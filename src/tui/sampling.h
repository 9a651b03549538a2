/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Taking samples for the screen. */
#ifndef TV_TUI_SAMPLING_H
#define TV_TUI_SAMPLING_H

#include "tui/state.h"

/* Asks for a sample now; it is applied by tui_collect() when it arrives.
 * immediate: out of schedule (unfold, a column that needs more), rates then
 * measured from the last scheduled sample. Returns 0, or -1 (out of memory). */
int tui_sample(struct tui *t, bool immediate);
/* Applies the sample that arrived, if any: 0 none, 1 one a key asked for,
 * 2 the scheduled refresh, -1 sampling failed (the status says why). */
int tui_collect(struct tui *t);
/* Asks for the scheduled refresh when it is due and none is out. 0, or -1. */
int tui_tick(struct tui *t);
/* A key, or TERM_KEY_WAKE when a sample arrived (tui_collect takes it; on
 * the hosts' screen also when time passed), within timeout_ms; ERR when none. */
int tui_key_wait(struct tui *t, int timeout_ms);
/* Recomputes what the sampler reads after the columns or sort changed. */
void tui_columns_changed(struct tui *t);
/* Opens taskstats where t->needs asks for it and hands it to the sampler
 * through the sampling thread (never to the sampler directly while it runs). */
void tui_open_taskstats(struct tui *t);
/* Seconds since the sample shown was read, when that is more than two
 * intervals (its figures are stale: a refresh of a busy machine is late);
 * else 0. Never while frozen or in a replay. */
double tui_stale_age(const struct tui *t);

#endif
