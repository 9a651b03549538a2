#include "util/fmt.h"

#include <math.h>
#include <stdio.h>

static void fmt_scaled(char *out, size_t n, double v, const char *units, int nunits)
{
	int u = 0;
	while (v >= 999.5 && u < nunits - 1) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(out, n, "%.0f%c", v, units[0] == ' ' ? '\0' : units[0]);
	else if (v < 9.95)
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
	static const char units[] = " kMGT";
	int u = 0;
	double a = fabs(v);
	if (a < 99999.5) {
		if (a != floor(a) && a < 99.95)
			snprintf(out, n, "%.1f", v);
		else
			snprintf(out, n, "%.0f", v);
		return;
	}
	while (a >= 999.5 && u < 4) {
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
