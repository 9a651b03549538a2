/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/when.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "util/num.h"

/* n decimal digits at s, or -1. */
static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "HH:MM" or "HH:MM:SS", the whole of s. */
static bool parse_clock(const char *s, struct when *w)
{
	size_t l = strlen(s);
	if ((l != 5 && l != 8) || s[2] != ':' || (l == 8 && s[5] != ':'))
		return false;
	w->hour = digits(s, 2);
	w->min = digits(s + 3, 2);
	w->sec = l == 8 ? digits(s + 6, 2) : 0;
	return w->hour >= 0 && w->hour <= 23 && w->min >= 0 && w->min <= 59 && w->sec >= 0 && w->sec <= 60;
}

bool when_parse(const char *s, struct when *w)
{
	memset(w, 0, sizeof(*w));
	if (s[0] == '@') {
		w->kind = WHEN_EPOCH;
		return s[1] >= '0' && s[1] <= '9' && num_parse_double(s + 1, &w->epoch);
	}
	if (parse_clock(s, w)) {
		w->kind = WHEN_CLOCK;
		return true;
	}
	if (strlen(s) < 10 || s[4] != '-' || s[7] != '-')
		return false;
	w->year = digits(s, 4);
	w->mon = digits(s + 5, 2);
	w->mday = digits(s + 8, 2);
	if (w->year < 1970 || w->mon < 1 || w->mon > 12 || w->mday < 1 || w->mday > 31)
		return false;
	w->kind = WHEN_DATE;
	if (s[10] == '\0')
		return true;
	return (s[10] == ' ' || s[10] == 'T') && parse_clock(s + 11, w);
}

static double local_time(int year, int mon, int mday, int hour, int min, int sec)
{
	struct tm tm = {
		.tm_year = year - 1900, .tm_mon = mon - 1, .tm_mday = mday,
		.tm_hour = hour, .tm_min = min, .tm_sec = sec, .tm_isdst = -1,
	};
	return (double)mktime(&tm);
}

double when_resolve(const struct when *w, double after)
{
	if (w->kind == WHEN_EPOCH)
		return w->epoch;
	if (w->kind == WHEN_DATE)
		return local_time(w->year, w->mon, w->mday, w->hour, w->min, w->sec);
	time_t t = (time_t)floor(after);
	struct tm tm;
	if (!localtime_r(&t, &tm))
		return after;
	/* today at that time, or tomorrow (a day may be 23 or 25 hours long) */
	for (int day = 0; day < 3; day++) {
		double v = local_time(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday + day, w->hour, w->min, w->sec);
		if (v >= floor(after))
			return v;
	}
	return after;
}
