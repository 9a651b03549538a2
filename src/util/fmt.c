/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void fmt_scaled(char *out, size_t n, double v, const char *units, int nunits)
{
	int u = 0;
	while (fabs(v) >= 999.5 && u < nunits - 1) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(out, n, "%.0f%c", v, units[0] == ' ' ? '\0' : units[0]);
	else if (fabs(v) < 9.95)
		snprintf(out, n, "%.1f%c", v, units[u]);
	else
		snprintf(out, n, "%.0f%c", v, units[u]);
}

void fmt_kib(char *out, size_t n, int64_t kib)
{
	fmt_scaled(out, n, (double)kib, "KMGTPE", 6);
}

void fmt_bytes(char *out, size_t n, double bytes)
{
	fmt_scaled(out, n, bytes, " KMGTPE", 7);
}

void fmt_count(char *out, size_t n, double v)
{
	static const char units[] = " kMGTPE";
	int u = 0;
	double a = fabs(v);
	if (a < 99999.5) {
		if (a != floor(a) && a < 99.95)
			snprintf(out, n, "%.1f", v);
		else
			snprintf(out, n, "%.0f", v);
		return;
	}
	while (a >= 999.5 && u < 6) {
		a /= 1000.0;
		v /= 1000.0;
		u++;
	}
	if (a < 9.995)
		snprintf(out, n, "%.2f%c", v, units[u]);
	else if (a < 99.95)
		snprintf(out, n, "%.1f%c", v, units[u]);
	else
		snprintf(out, n, "%.0f%c", v, units[u]);
}

void fmt_seconds(char *out, size_t n, double s)
{
	if (s < 0)
		s = 0;
	if (s < 3600.0) {
		long cs = lround(s * 100.0);
		snprintf(out, n, "%ld:%02ld.%02ld", cs / 6000, (cs / 100) % 60, cs % 100);
	} else if (s < 100.0 * 3600.0) {
		long t = (long)s;
		snprintf(out, n, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
	} else if (s < 100000.0 * 86400.0) {
		long h = (long)(s / 3600.0);
		snprintf(out, n, "%ldd%02ldh", h / 24, h % 24);
	} else {
		/* process rows sum the CPU time of every thread: days alone keep it in 9 columns */
		snprintf(out, n, "%.0fd", floor(s / 86400.0));
	}
}

void fmt_percent(char *out, size_t n, double pct)
{
	if (pct < 999.95)
		snprintf(out, n, "%.1f", pct);
	else if (pct < 99999.5)
		snprintf(out, n, "%.0f", pct);
	else
		fmt_count(out, n, pct); /* "250k": sums over thousands of threads */
}

struct fmt_unit {
	const char *name;
	double factor;
};

static const struct fmt_unit fmt_decimal[] = {
	{"", 1}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18},
};
static const struct fmt_unit fmt_bytes_units[] = {
	{"", 1}, {"K", 0x1p10}, {"M", 0x1p20}, {"G", 0x1p30}, {"T", 0x1p40}, {"P", 0x1p50}, {"E", 0x1p60},
};
static const struct fmt_unit fmt_kib_units[] = {
	{"K", 1}, {"M", 0x1p10}, {"G", 0x1p20}, {"T", 0x1p30}, {"P", 0x1p40}, {"E", 0x1p50},
};
/* no minutes: "m" would read as milli */
static const struct fmt_unit fmt_time_units[] = {
	{"s", 1}, {"h", 3600}, {"d", 86400}, {"kd", 86400e3}, {"Md", 86400e6}, {"Gd", 86400e9},
	{"Td", 86400e12}, {"Pd", 86400e15}, {"Ed", 86400e18},
};

static bool fmt_fits(size_t n, size_t width, int len)
{
	return len >= 0 && (size_t)len <= width && (size_t)len < n;
}

/* "1.50e+25" → "1.50e25": the exponent without '+' and leading zeros */
static int fmt_exp(char *out, size_t n, double v, int d, const char *unit)
{
	char tmp[64];
	snprintf(tmp, sizeof(tmp), "%.*e", d, v);
	char *e = strchr(tmp, 'e');
	if (!e)
		return -1;
	char *p = e + 1;
	bool neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	while (*p == '0' && p[1])
		p++;
	*e = '\0';
	return snprintf(out, n, "%se%s%s%s", tmp, neg ? "-" : "", p, unit);
}

bool fmt_fit(char *out, size_t n, double v, enum fmt_scale scale, bool whole, size_t width)
{
	const struct fmt_unit *units;
	size_t nunits;
	switch (scale) {
	case FMT_BYTES: units = fmt_bytes_units; nunits = sizeof(fmt_bytes_units) / sizeof(*units); break;
	case FMT_KIB: units = fmt_kib_units; nunits = sizeof(fmt_kib_units) / sizeof(*units); break;
	case FMT_SECONDS: units = fmt_time_units; nunits = sizeof(fmt_time_units) / sizeof(*units); break;
	default: units = fmt_decimal; nunits = sizeof(fmt_decimal) / sizeof(*units); break;
	}
	if (n)
		out[0] = '\0';
	if (!isfinite(v) || n == 0)
		return false;
	for (size_t u = whole ? 1 : 0; u < nunits; u++) {
		double m = v / units[u].factor, a = fabs(m);
		/* "0.5M" says less than "500k" would have */
		if (u > 0 && a < 1)
			break;
		/* three integer digits at most, while a larger unit can take it */
		if (a >= 999.5 && u + 1 < nunits && fabs(v / units[u + 1].factor) >= 1)
			continue;
		for (int d = a < 9.995 ? 2 : a < 99.95 ? 1 : 0; d >= 0; d--) {
			char tmp[64];
			int len = snprintf(tmp, sizeof(tmp), "%.*f%s", d, m, units[u].name);
			if (fmt_fits(n, width, len)) {
				memcpy(out, tmp, (size_t)len + 1);
				return true;
			}
		}
		break; /* the next unit would only be coarser */
	}
	/* beyond the units: floats of any size, in the first unit */
	if (fabs(v) >= 999.5 * units[nunits - 1].factor) {
		for (int d = 2; d >= 0; d--) {
			char tmp[64];
			int len = fmt_exp(tmp, sizeof(tmp), v, d, units[0].name);
			if (fmt_fits(n, width, len)) {
				memcpy(out, tmp, (size_t)len + 1);
				return true;
			}
		}
	}
	if (n)
		out[0] = '\0';
	return false;
}
