/* Interactive full-screen mode. */
#ifndef TV_RENDER_TUI_TUI_H
#define TV_RENDER_TUI_TUI_H

#include "app.h"
#include "cli.h"

/* Runs until the user quits; returns the exit status. */
int tui_run(struct app *a, const struct cli_opts *o);

#endif
