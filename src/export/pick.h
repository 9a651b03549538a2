/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which commands (sums per command, export/accum.h) get series of their own:
 * at most n, those using the most CPU lately, and the same ones from sample
 * to sample. A command keeps its series while it has processes, unless a
 * command without them uses clearly more CPU (twice its recent average and
 * PICK_MARGIN more): series that come and go with every change of ranking
 * would leave a collector with ever more series, each of a few points.
 */
#ifndef TV_EXPORT_PICK_H
#define TV_EXPORT_PICK_H

#include <stddef.h>

#include "export/accum.h"

/* The time over which recent CPU use is averaged, seconds. */
#define PICK_TAU_S 60.0
/* How much more CPU, in CPUs, a command needs to take another's place. */
#define PICK_MARGIN 0.01

/* After accum_update of cmds; dt: seconds since the previous refresh. */
void pick_update(struct accum *cmds, size_t n, double dt);

#endif
