/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The columns shown when none were chosen (no -o, none saved): as many of a
 * preference list as the screen width allows, COMMAND keeping at least
 * AUTOCOLS_COMMAND_MIN columns. */
#ifndef TV_TUI_AUTOCOLS_H
#define TV_TUI_AUTOCOLS_H

#include <stdbool.h>

#include "model/column.h"

#define AUTOCOLS_COMMAND_MIN 15

/* Fills out with the columns for a screen cols wide; groups: for the group
 * view, with the groups' pressure. Returns 0 or -1. */
int autocols_pick(const struct colset *cs, int cols, bool utf8, bool groups, struct colsel *out);

#endif
