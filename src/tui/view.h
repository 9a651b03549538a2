/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's view of the current sample: what to ask the sampler for, the
 * rows built from the sample, and the selection on them. */
#ifndef TV_TUI_VIEW_H
#define TV_TUI_VIEW_H

#include "sample/sampler.h"
#include "tui/state.h"
#include "view/rows.h"

/* What the next sample must read for what is shown and used. */
void tui_sample_opts(struct tui *t, struct sample_opts *so);
void tui_view_opts(struct tui *t, struct view_opts *vo);
/* Whether the current sample carries what the view needs now (command
 * lines and thread names while a filter or search is in use). */
bool tui_sample_sufficient(const struct tui *t);
/* Whether s carries what the view matches on (names, groups). */
bool tui_snapshot_sufficient(const struct tui *t, const struct snapshot *s);

/* Rebuilds rows from cur. The selection stays on its screen row, or on its
 * task when following (F) or keep_task; a wanted row is selected when it
 * appears. */
void tui_rebuild_at(struct tui *t, bool keep_task);
/* After a sample: keeps the task when following or shortly after a key. */
void tui_rebuild(struct tui *t);
/* Selects row i (clamped) and remembers its task. */
void tui_select(struct tui *t, size_t i);
/* The selected row, or NULL. */
const struct row *tui_current(const struct tui *t);
/* After t or g: the first rows with the first selected, or the rows around
 * the selection (see view_switched). */
void tui_place_switched(struct tui *t);
/* Selects a task's row when it is there (thread: by TID, else by TGID). */
bool tui_select_task(struct tui *t, int32_t tid, bool thread);

#endif
