/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/keys/digits.h"

#include <string.h>

#include "util/clock.h"

#define DIGITS_GAP_S 1.5

const char *digits_add(struct digits *d, int key)
{
	double now = clock_now(CLOCK_MONOTONIC);
	size_t n = strlen(d->s);
	if (now - d->at > DIGITS_GAP_S || n + 1 >= sizeof(d->s))
		n = 0;
	d->s[n] = (char)key;
	d->s[n + 1] = '\0';
	d->at = now;
	return d->s;
}
