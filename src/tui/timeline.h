/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen over a recording (-r PATH): samples come from the reader, keys
 * step through them; nothing acts on the system's tasks. */
#ifndef TV_TUI_TIMELINE_H
#define TV_TUI_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "record/reader.h"
#include "record/sample.h"
#include "sample/background.h"
#include "tui/screen/msgs.h"
#include "tui/state.h"
#include "view/shown.h"

struct fleet;
struct tape;

/* The address space of a host's process, read there for the detail panel
 * (an anatomy action): the last answer, until the panel takes it. */
struct fleet_anatomy {
	bool asked;              /* an action is on its way */
	bool ready;              /* an answer came, not taken yet */
	unsigned host;
	int32_t pid;             /* the host's own */
	uint64_t start_ticks;
	struct background_anatomy an; /* an.tgid: the screen's ID of the process */
	char why[256];           /* raw remote bytes: why it was not read (the action failed); "" when it was */
};

/* -r PATH, or --host: samples that are not this machine's. A fleet's come
 * live from other hosts (tui/fleet_view.c); the rest is a recording's. */
struct tui_replay {
	struct fleet *fleet;     /* --host, or a recording of hosts: the hosts (then none of what follows but tape) */
	struct tape *tape;       /* a recording of hosts: what sets their pairs (tape_view.c); NULL: live */
	double merged_at;        /* CLOCK_MONOTONIC of the fleet's last samples taken */
	const char *path;
	struct rec_reader *r;
	struct rec_info info;
	unsigned k;              /* samples per step (-d, d) */
	double from, to;         /* --begin, --end: the samples shown */
	size_t i;                /* the sample on screen */
	bool have;
	struct rec_sample prev, cur;
	struct shown shown;      /* what t->cur is */
	struct fleet_anatomy an; /* the hosts' screen's detail panel */
};

/* taskview -r PATH without -b: opens the recording and runs the screen
 * over it. Returns the exit status (replay_run.c). */
int tui_replay_run(const struct cli_opts *o, struct tui_msgs *msgs);

/* The first sample to show (at or after --begin) on screen; -1 with the
 * reason in the status line when none can be shown. */
int tui_replay_start(struct tui *t);
void tui_replay_free(struct tui *t);
/* b, f: dir samples of k intervals back or forth. */
void tui_replay_step(struct tui *t, int dir);
/* J: the sample at a time (HH:MM[:SS] on the day shown, or a date-time). */
void tui_replay_jump(struct tui *t, const char *when);
/* d: the step in seconds, a multiple of the recording's interval. */
void tui_replay_set_step(struct tui *t, double seconds);
/* taskview --host without -b: the hosts' screen. Returns the exit status (fleet_view.c). */
int tui_fleet_run(const struct cli_opts *o, struct tui_msgs *msgs);
/* The hosts' news: their connections read, the table merged again when a
 * pair came (at most four times a second). 0: nothing to show, 1: draw
 * again, 2: new samples (a refresh), -1: out of memory. */
int tui_fleet_collect(struct tui *t);
/* The hosts' screen begins: HOST among the columns unless -o chose them. 0, or -1 out of memory. */
int tui_fleet_begin(struct tui *t);
/* The fleet of the screen, or NULL. */
struct fleet *tui_fleet(const struct tui *t);
/* The fleet of the screen when its hosts are live (connected), or NULL. */
struct fleet *tui_fleet_live(const struct tui *t);
/* The fleet's pairs merged and on screen: 0, or -1 out of memory. Their
 * rows go first (unshow), before the pairs they point into change. */
int tui_fleet_show(struct tui *t);
void tui_fleet_unshow(struct tui *t);
/* Asks the host of process tgid (the screen's ID; start: its start time
 * there) for its address space. Returns 0, or -1 with *why (static). */
int tui_fleet_ask_anatomy(struct tui *t, int32_t tgid, uint64_t start, const char **why);
/* The HOST column over f's names (ctx), for app_init_replay. */
int tui_fleet_columns(void *ctx, struct colset *cs);
/* Whether the screen steps through a recording (-r, of one machine or of
 * hosts): its keys are b, f, J. */
static inline bool tui_recording(const struct tui *t)
{
	return t->replay && (!t->replay->fleet || t->replay->tape);
}

/* taskview -r FILE of a recording of hosts (top: the file's reader):
 * the hosts' screen over it. Returns the exit status (tape_view.c). */
int tui_tape_run(const struct cli_opts *o, struct tui_msgs *msgs, const struct rec_reader *top);
/* Its first moment on screen: 0, or -1 (told). */
int tui_tape_start(struct tui *t);
/* b, f: the moment a step back or forth; J: at a time (within the recording); d: the step. */
void tui_tape_step(struct tui *t, int dir);
void tui_tape_jump(struct tui *t, double at);
void tui_tape_set_step(struct tui *t, double seconds);

/* Kill, renice: true (and says why on the status line) in a replay. */
bool tui_replay_refuse(struct tui *t, const char *why);
/* "2026-11-22 03:12:05", local time. */
void tui_replay_time(char *out, size_t n, double wall);

#endif
