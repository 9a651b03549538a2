/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "render/format.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/fmt.h"
#include "util/i18n.h"
#include "util/text.h"

/* The usual form of a number, whatever its width. */
static void format_usual(const struct column *col, const struct tv_value *v, double f, char *out, size_t n)
{
	switch (col->type) {
	case COL_KIB:
		if (v->kind == TV_V_INT)
			fmt_kib(out, n, v->i);
		else
			fmt_fit(out, n, f, FMT_KIB, false, 6);
		break;
	case COL_BYTES:
		fmt_bytes(out, n, f);
		break;
	case COL_PERCENT:
		fmt_percent(out, n, f);
		break;
	case COL_RATE:
		fmt_count(out, n, f);
		break;
	case COL_SECONDS:
		fmt_seconds(out, n, f);
		break;
	case COL_MS:
		if (fabs(f) < 9999999.5)
			snprintf(out, n, fabs(f) < 9.995 ? "%.2f" : fabs(f) < 999.5 ? "%.1f" : "%.0f", f);
		else
			fmt_count(out, n, f); /* one wait of hours ends in this interval */
		break;
	case COL_FLOAT:
		snprintf(out, n, "%.2f", f);
		break;
	case COL_INT:
		if (v->kind == TV_V_INT)
			snprintf(out, n, "%lld", (long long)v->i);
		else
			fmt_count(out, n, f);
		break;
	default:
		snprintf(out, n, "%s", v->kind == TV_V_STR ? v->s : "?");
		break;
	}
}

/* An infinite float measures nothing: unknown, as JSON's null says too. */
static bool format_known(const struct tv_value *v)
{
	return v->kind != TV_V_UNKNOWN && (v->kind != TV_V_FLOAT || isfinite(v->f));
}

bool format_number_fit(const struct column *col, const struct tv_value *v, size_t width, char *out, size_t n)
{
	if (n == 0)
		return false;
	if (width > n - 1)
		width = n - 1;
	/* room for every digit of the largest double */
	char tmp[DBL_MAX_10_EXP + 32];
	if (!format_known(v)) {
		snprintf(tmp, sizeof(tmp), "-");
	} else {
		double f = v->kind == TV_V_INT ? (double)v->i : v->f;
		format_usual(col, v, f, tmp, sizeof(tmp));
		if (strlen(tmp) > width && v->kind != TV_V_STR) {
			/* too wide: coarser units, as precise as the column allows;
			 * cut to the column, the digits would show a wrong value */
			static const enum fmt_scale scale[] = {
				[COL_KIB] = FMT_KIB, [COL_BYTES] = FMT_BYTES, [COL_SECONDS] = FMT_SECONDS,
			};
			enum fmt_scale sc = (size_t)col->type < sizeof(scale) / sizeof(scale[0]) ? scale[col->type] : FMT_DECIMAL;
			bool whole = v->kind == TV_V_INT && (col->type == COL_INT || col->type == COL_KIB || col->type == COL_BYTES);
			fmt_fit(tmp, sizeof(tmp), f, sc, whole, width);
		}
	}
	size_t len = strlen(tmp);
	if (len && len <= width) {
		memcpy(out, tmp, len + 1);
		return true;
	}
	/* nothing honest fits: "#" across the column, as spreadsheets do */
	memset(out, '#', width);
	out[width] = '\0';
	return false;
}

void format_number(const struct column *col, const struct tv_value *v, char *out, size_t n)
{
	format_number_fit(col, v, col->width > 0 ? (size_t)col->width : 20, out, n);
}

void format_cell(struct buf *out, const struct column *col, const struct tv_value *v, size_t width,
		 const char *prefix, bool utf8)
{
	bool left = col->align == COL_ALIGN_LEFT;
	if (v->kind == TV_V_STR) {
		struct buf tmp;
		buf_init(&tmp);
		size_t used = 0;
		if (prefix) {
			/* tree glyphs are ours and already in the terminal's charset */
			size_t pw = text_width(prefix, strlen(prefix), true);
			if (pw <= width) {
				buf_adds(&tmp, prefix);
				used = pw;
			}
		}
		used += text_sanitize(&tmp, v->s, strlen(v->s), width - used, utf8);
		if (!left)
			buf_pad(out, ' ', width - used);
		buf_add(out, tmp.data ? tmp.data : "", tmp.len);
		if (left)
			buf_pad(out, ' ', width - used);
		buf_free(&tmp);
		return;
	}
	char num[64];
	/* a lower bound reads "130+": at least 130. The mark takes a column
	 * too: the number gets coarser units for it, it is never cut */
	size_t mark = v->partial && format_known(v) ? strlen(FORMAT_PARTIAL_MARK) : 0;
	if (width >= mark && format_number_fit(col, v, width - mark, num, sizeof(num) - mark)) {
		if (mark)
			strcat(num, FORMAT_PARTIAL_MARK);
		text_fit(out, num, width, left, utf8);
	} else {
		buf_pad(out, '#', width);
	}
}

size_t format_col_width(const struct column *col, bool utf8)
{
	const char *h = _(col->header);
	size_t w = text_width(h, strlen(h), utf8);
	return w > (size_t)col->width ? w : (size_t)col->width;
}

const char *format_delay_id(enum tv_delay_class c)
{
	static const char *const ids[TV_DELAY_NCLASS] = {
		"cpu_delay", "io_delay", "swapin_delay", "reclaim_delay",
		"thrashing_delay", "compact_delay", "wpcopy_delay", "irq_delay",
	};
	return (unsigned)c < TV_DELAY_NCLASS ? ids[c] : "?";
}

/* Decimals enough (from min, up to 6) that a step and its bound print apart. */
static int reject_digits(double step, double bound, int min)
{
	int d = min;
	char a[64], b[64];
	for (; d < 6; d++) {
		snprintf(a, sizeof(a), "%.*f", d, step);
		snprintf(b, sizeof(b), "%.*f", d, bound);
		if (strcmp(a, b) != 0)
			break;
	}
	return d;
}

void format_reject(struct buf *out, const struct tv_reject *r)
{
	if (r->cpu) {
		char who[64];
		if (r->cgroup)
			snprintf(who, sizeof(who), "%s", _("a group"));
		else
			snprintf(who, sizeof(who), "%s %d", r->is_thread ? _("thread") : _("process"), r->tid);
		int d = reject_digits(r->step_s, r->bound_s, 2);
		/* TRANSLATORS: %1$s "thread 123", "process 123" or "a group", then CPU seconds, each
		   printed with the decimals given before it (enough to tell them apart) */
		buf_addf(out, _("%s: CPU time grew by %.*f s, more than its CPUs can give in the interval (%.*f s): "
				"shown as unknown"),
			 who, d, r->step_s, d, r->bound_s);
		if (r->cgroup)
			buf_addf(out, " (%s)", r->cgroup);
		return;
	}
	int d = reject_digits(r->step_s, r->bound_s, 1);
	/* TRANSLATORS: %1$s thread or process, %2$d its ID, %3$s a column id such as io_delay,
	   then two durations in seconds, each printed with the decimals given before it */
	buf_addf(out, _("%s %d: %s grew by %.*f s, more than its tasks can have waited (%.*f s): "
			"a kernel counter jump, shown as unknown"),
		 r->is_thread ? _("thread") : _("process"), r->tid, format_delay_id(r->cls), d, r->step_s, d,
		 r->bound_s);
}

const char *format_tree_prefix(bool last, bool utf8)
{
	if (utf8)
		return last ? "\xe2\x94\x94\xe2\x94\x80 " : "\xe2\x94\x9c\xe2\x94\x80 "; /* └─ ├─ */
	return last ? "`- " : "|- ";
}

const char *format_count(char *buf, size_t size, size_t n)
{
	if (n == TV_COUNT_UNKNOWN)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%zu", n);
	return buf;
}
