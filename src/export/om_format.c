/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "export/om_format.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

static void om_help_text(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			buf_adds(b, "\\\\");
		else if (*s == '\n')
			buf_adds(b, "\\n");
		else
			buf_addc(b, *s);
	}
}

/* The name the samples carry. */
static void om_sample_name(struct buf *b, const struct om_family *f)
{
	buf_adds(b, f->name);
	if (f->type == OM_COUNTER)
		buf_adds(b, "_total");
}

static void om_header(struct om_writer *w)
{
	const struct om_family *f = w->fam;
	const char *type = f->type == OM_COUNTER ? "counter" : "gauge";
	/* OpenMetrics names the family, the text format the samples: x_total */
	struct buf *b = w->to->buf;
	buf_adds(b, "# HELP ");
	if (w->to->dialect == OM_OPENMETRICS)
		buf_adds(b, f->name);
	else
		om_sample_name(b, f);
	buf_addc(b, ' ');
	om_help_text(b, f->help);
	buf_adds(b, "\n# TYPE ");
	if (w->to->dialect == OM_OPENMETRICS)
		buf_adds(b, f->name);
	else
		om_sample_name(b, f);
	buf_addf(b, " %s\n", type);
	if (w->to->dialect == OM_OPENMETRICS && f->unit)
		buf_addf(b, "# UNIT %s %s\n", f->name, f->unit);
	w->header_done = true;
}

void om_family_begin(struct om_writer *w, const struct om_out *to, const struct om_family *f)
{
	w->to = to;
	w->fam = f;
	w->header_done = false;
}

void om_writer_to(struct om_writer *w, const struct om_out *to)
{
	w->to = to;
}

void om_sample(struct om_writer *w, const struct om_label *labels, size_t nlabels, int64_t v, int scale)
{
	if (!w->header_done)
		om_header(w);
	struct buf *b = w->to->buf;
	om_sample_name(b, w->fam);
	size_t nbase = w->to->nbase;
	if (nbase + nlabels) {
		buf_addc(b, '{');
		for (size_t i = 0; i < nbase + nlabels; i++) {
			const struct om_label *l = i < nbase ? &w->to->base[i] : &labels[i - nbase];
			buf_addf(b, "%s%s=", i ? "," : "", l->name);
			om_add_label_value(b, l->value, strlen(l->value));
		}
		buf_addc(b, '}');
	}
	buf_addc(b, ' ');
	om_add_decimal(b, v, scale);
	buf_addc(b, '\n');
}

void om_end(struct buf *out, enum om_dialect d)
{
	if (d == OM_OPENMETRICS)
		buf_adds(out, "# EOF\n");
}

/* Code points that could reorder or break the text around them where it is shown. */
static bool om_escaped_cp(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static void om_add_percent(struct buf *b, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	for (size_t i = 0; i < n; i++) {
		char e[3] = {'%', hex[p[i] >> 4], hex[p[i] & 15]};
		buf_add(b, e, sizeof(e));
	}
}

void om_add_label_value(struct buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	buf_addc(b, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		uint32_t cp = c;
		size_t n = c < 0x80 ? 1 : utf8_decode(p + i, len - i, &cp);
		if (n == 0 || c == '%' || om_escaped_cp(cp)) {
			/* not text a label can show: its bytes as %XX (an invalid
			 * byte alone), so distinct names stay distinct */
			om_add_percent(b, p + i, n ? n : 1);
			i += n ? n : 1;
		} else if (c == '\\' || c == '"') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
			i++;
		} else {
			buf_add(b, p + i, n);
			i += n;
		}
	}
	buf_addc(b, '"');
}

void om_add_decimal(struct buf *b, int64_t v, int scale)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t div = 1;
	for (int i = 0; i < scale; i++)
		div *= 10;
	if (v < 0)
		buf_addc(b, '-');
	buf_addf(b, "%" PRIu64, mag / div);
	uint64_t frac = mag % div;
	if (frac == 0)
		return;
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%0*" PRIu64, scale, frac);
	while (n > 0 && digits[n - 1] == '0')
		n--;
	buf_addc(b, '.');
	buf_add(b, digits, (size_t)n);
}
