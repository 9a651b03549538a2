/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch output from a recording (-r PATH -b): the samples as batch mode
 * printed them, with the tasks that ended in each interval marked. */
#ifndef TV_REPLAY_H
#define TV_REPLAY_H

#include "cli.h"

/* Returns the exit status. */
int replay_run(const struct cli_opts *o);

#endif
