#include "render/format.h"

#include <stdio.h>
#include <string.h>

#include "util/fmt.h"
#include "util/i18n.h"
#include "util/text.h"

void format_number(const struct column *col, const struct tv_value *v, char *out, size_t n)
{
	if (v->kind == TV_V_UNKNOWN) {
		snprintf(out, n, "-");
		return;
	}
	double f = v->kind == TV_V_INT ? (double)v->i : v->f;
	switch (col->type) {
	case COL_KIB:
		fmt_kib(out, n, v->kind == TV_V_INT ? v->i : (int64_t)f);
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
		if (f < 9999999.5)
			snprintf(out, n, f < 9.995 ? "%.2f" : f < 999.5 ? "%.1f" : "%.0f", f);
		else
			fmt_count(out, n, f); /* one wait of hours ends in this interval */
		break;
	case COL_FLOAT:
		snprintf(out, n, "%.2f", f);
		break;
	case COL_INT:
		/* exact digits when they fit the column, else "1.50G": cutting a
		 * number to the column width would show a wrong value */
		if (v->kind != TV_V_INT ||
		    snprintf(out, n, "%lld", (long long)v->i) > (col->width > 0 ? col->width : 20))
			fmt_count(out, n, f);
		break;
	default:
		snprintf(out, n, "%s", v->kind == TV_V_STR ? v->s : "?");
		break;
	}
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
	format_number(col, v, num, sizeof(num));
	/* a lower bound reads "130+": at least 130 */
	if (v->partial)
		strncat(num, FORMAT_PARTIAL_MARK, sizeof(num) - strlen(num) - 1);
	text_fit(out, num, width, left, utf8);
}

size_t format_col_width(const struct column *col, bool utf8)
{
	const char *h = _(col->header);
	size_t w = text_width(h, strlen(h), utf8);
	return w > (size_t)col->width ? w : (size_t)col->width;
}

const char *format_tree_prefix(bool last, bool utf8)
{
	if (utf8)
		return last ? "\xe2\x94\x94\xe2\x94\x80 " : "\xe2\x94\x9c\xe2\x94\x80 "; /* └─ ├─ */
	return last ? "`- " : "|- ";
}
