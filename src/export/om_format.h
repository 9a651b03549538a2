/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text of a metrics exposition, piece by piece: family headers, samples
 * with their labels, exact decimal values. Two dialects share it: OpenMetrics
 * 1.0 and the Prometheus text format 0.0.4 that node_exporter's textfile
 * collector parses. Pure: appends to a buffer.
 */
#ifndef TV_EXPORT_OM_FORMAT_H
#define TV_EXPORT_OM_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

enum om_dialect {
	OM_OPENMETRICS,     /* "# TYPE x counter" for samples x_total; "# UNIT"; ends in "# EOF" */
	OM_PROMETHEUS_TEXT, /* "# TYPE x_total counter": the name of the samples; no UNIT, no EOF */
};

enum om_type { OM_COUNTER, OM_GAUGE };

/* A metric family: name without the counter's "_total"; unit NULL when it has none. */
struct om_family {
	const char *name;
	enum om_type type;
	const char *unit;
	const char *help;
};

struct om_label {
	const char *name;
	const char *value; /* raw bytes, escaped when written */
};

/* Where an exposition goes: its buffer, its dialect, and labels every sample
 * carries first (a host's name; none when nbase is 0). */
struct om_out {
	struct buf *buf;
	enum om_dialect dialect;
	const struct om_label *base;
	size_t nbase;
};

/* Writes one family's samples; the header only comes with the first sample,
 * so a family without any known value leaves no trace. */
struct om_writer {
	const struct om_out *to;
	const struct om_family *fam;
	bool header_done;
};

void om_family_begin(struct om_writer *w, const struct om_out *to, const struct om_family *f);
/* The family's next samples carry to's labels (the same buffer and dialect). */
void om_writer_to(struct om_writer *w, const struct om_out *to);
/* A sample whose value is v / 10^scale (v >= 0 for counters), written exactly. */
void om_sample(struct om_writer *w, const struct om_label *labels, size_t nlabels, int64_t v, int scale);
/* The closing line the dialect wants (OpenMetrics: "# EOF"). */
void om_end(struct buf *out, enum om_dialect d);

/* A quoted label value that names s unambiguously (docs/metrics.md, Labels):
 * '%', each byte of invalid UTF-8 and of a control character (C0, DEL, C1),
 * a bidi control or U+2028/U+2029 as %XX; backslash and double quote escaped
 * as the format wants. Distinct inputs give distinct values, all valid UTF-8
 * with nothing a terminal would act on; percent-decoding gives s back. */
void om_add_label_value(struct buf *b, const char *s, size_t len);
/* v / 10^scale as an exact decimal without trailing zeros ("1.5", "3", "0.000001"). */
void om_add_decimal(struct buf *b, int64_t v, int scale);

#endif
