/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Times given to --begin and --end: a clock time (HH:MM or HH:MM:SS), a
 * local date (YYYY-MM-DD) with or without a clock time (separated by a space
 * or a T), or @SECONDS since the epoch. Parsing is pure; a clock time gets
 * its day from the recording when resolved.
 */
#ifndef TV_RECORD_WHEN_H
#define TV_RECORD_WHEN_H

#include <stdbool.h>

struct when {
	enum { WHEN_CLOCK, WHEN_DATE, WHEN_EPOCH } kind;
	int year, mon, mday;    /* WHEN_DATE */
	int hour, min, sec;     /* WHEN_CLOCK, WHEN_DATE */
	double epoch;           /* WHEN_EPOCH */
};

/* false when s is none of the forms. */
bool when_parse(const char *s, struct when *w);
/* Unix time: a clock time is the first such local time at or after `after`. */
double when_resolve(const struct when *w, double after);

#endif
