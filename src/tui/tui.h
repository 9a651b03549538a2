/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interactive full-screen mode. */
#ifndef TV_TUI_TUI_H
#define TV_TUI_TUI_H

#include "app.h"
#include "cli.h"
#include "tui/screen/msgs.h"

struct tui_replay;

/* Runs until the user quits; returns the exit status. msgs holds the lines
 * app_init() reported (pass tui_msgs_add as its msg_cb); more arrive while
 * running, and whatever was collected is printed to stderr on exit. With
 * replay (tui/replay.h), the samples are a recording's instead of live. */
int tui_run(struct app *a, const struct cli_opts *o, struct tui_msgs *msgs, struct tui_replay *replay);

#endif
