/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A recording's file opened to append to: made when missing (mode 0640), a
 * regular file (never a FIFO waited on), and locked for this recorder. */
#ifndef TV_RECORD_LOCKFILE_H
#define TV_RECORD_LOCKFILE_H

#include <stdbool.h>

/* Returns the descriptor (O_APPEND, blocking), or -1 with *err (malloc'd).
 * nofollow: a symbolic link of the name is refused (a daily file). */
int rec_lockfile_open(const char *file, bool nofollow, char **err);

#endif
