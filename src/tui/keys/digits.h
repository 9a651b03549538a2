/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TV_TUI_DIGITS_H
#define TV_TUI_DIGITS_H

/* Digits typed as one number: each within a second and a half of the one
 * before (1, then 5: 15), as for a PID to jump to or a signal's number. */
struct digits {
	char s[12];
	double at;   /* CLOCK_MONOTONIC of the last digit */
};

/* Adds digit key (a character '0'..'9'); returns the number typed so far. */
const char *digits_add(struct digits *d, int key);

#endif
