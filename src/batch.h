/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch mode: samples printed as text or JSON Lines. */
#ifndef TV_BATCH_H
#define TV_BATCH_H

#include "app.h"
#include "cli.h"

/* Returns the exit status. */
int batch_run(struct app *a, const struct cli_opts *o);

#endif
