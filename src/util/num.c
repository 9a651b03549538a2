/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/num.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>

bool num_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool num_parse_double(const char *s, double *out)
{
	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' && *p != '+')
			return false;
	/* "0.5" whatever the user's locale: main() sets LC_ALL from the
	 * environment, and strtod would want "0,5" under de_DE */
	static locale_t c_numeric;
	if (!c_numeric)
		c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	errno = 0;
	char *end;
	double v = c_numeric ? strtod_l(s, &end, c_numeric) : strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

int num_parse_hex(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	const char *start = p;
	for (; p < end; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (v >> 60)
			return -1; /* more than 64 bits */
		v = v << 4 | d;
	}
	if (p == start)
		return -1;
	*out = v;
	*pp = p;
	return 0;
}
