/* Human-readable number formatting, shared by the text and TUI renderers. */
#ifndef TV_UTIL_FMT_H
#define TV_UTIL_FMT_H

#include <stddef.h>
#include <stdint.h>

/* KiB → "812K", "1.5G", "80G"; at most 5 characters for values < 1000 PiB. */
void fmt_kib(char *out, size_t n, int64_t kib);
/* bytes → "0", "812", "4.0K", "1.5M" */
void fmt_bytes(char *out, size_t n, double bytes);
/* counts and rates: "123", "12.3k", "4.56M" (at most 6 characters) */
void fmt_count(char *out, size_t n, double v);
/* CPU seconds → "0:04.25" (m:ss.cc), "12:03:44" (h:mm:ss), "3d04h" or "123456d" */
void fmt_seconds(char *out, size_t n, double s);
/* percent with one decimal below 1000, integer above, "250k" from 100000 */
void fmt_percent(char *out, size_t n, double pct);

#endif
