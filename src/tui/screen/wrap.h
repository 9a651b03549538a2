/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text split into screen lines at blanks: the help screen, confirmations. */
#ifndef TV_TUI_WRAP_H
#define TV_TUI_WRAP_H

#include <stdbool.h>
#include <stddef.h>

/* Splits s at blanks into pieces of at most width columns; a word wider
 * than that is a piece of its own (the drawing cuts it). Stores up to max
 * pieces as start and length in bytes; returns how many there are, stored
 * or not (an empty s has none). */
size_t tui_wrap(const char *s, size_t width, bool utf8, const char **start, size_t *len, size_t max);

#endif
