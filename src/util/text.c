/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/text.h"

#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "util/text_width_table.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	if (n == 0)
		return 0;
	unsigned char c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t len;
	uint32_t v, min;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values beyond Unicode are invalid */
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

size_t utf8_encode(uint32_t cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

int text_cp_width(uint32_t cp)
{
	/* Unicode's data, not the locale's wcwidth(): the same answer
	 * everywhere, and nothing unassigned or invisible gets a width */
	size_t lo = 0, hi = text_width_nranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct text_width_range *r = &text_width_ranges[mid];
		if (cp < r->first)
			hi = mid;
		else if (cp > r->last)
			lo = mid + 1;
		else
			return r->width;
	}
	return 0;
}

/* The escaped form of a control byte; returns its length (all ASCII). */
static size_t escape_byte(unsigned char c, char out[5])
{
	static const char hex[] = "0123456789abcdef";
	const char *named = NULL;
	switch (c) {
	case '\n': named = "\\n"; break;
	case '\t': named = "\\t"; break;
	case '\r': named = "\\r"; break;
	case 0x1b: named = "\\e"; break;
	case '\\': named = "\\\\"; break;
	default: break;
	}
	if (named) {
		memcpy(out, named, 2);
		return 2;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}

static size_t sanitize(struct buf *out, const char *s, size_t len, size_t max_cols, bool utf8, bool own)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cols = 0, i = 0;
	while (i < len) {
		char tmp[5];
		size_t n, w, adv;
		uint32_t cp;
		if (p[i] < 0x20 || p[i] == 0x7f || (p[i] == '\\' && !own)) {
			n = escape_byte(p[i], tmp);
			w = n;
			adv = 1;
		} else if (p[i] < 0x80) {
			tmp[0] = (char)p[i];
			n = w = adv = 1;
		} else if ((adv = utf8_decode(p + i, len - i, &cp)) == 0) {
			adv = 1;
			n = utf8 ? utf8_encode(0xfffd, tmp) : (tmp[0] = '?', 1);
			w = 1;
		} else if (text_cp_width(cp) == 0) {
			/* C1 controls, separators, bidi and other format characters,
			 * zero-width and unassigned code points could reorder, hide or
			 * shift text: show the code point */
			char esc[12];
			int k = snprintf(esc, sizeof(esc), cp > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)cp);
			if (cols + (size_t)k > max_cols)
				break;
			buf_add(out, esc, (size_t)k);
			cols += (size_t)k;
			i += adv;
			continue;
		} else if (!utf8) {
			tmp[0] = '?';
			n = w = 1;
		} else {
			n = adv;
			memcpy(tmp, p + i, n);
			w = (size_t)text_cp_width(cp);
		}
		if (cols + w > max_cols)
			break;
		buf_add(out, tmp, n);
		cols += w;
		i += adv;
	}
	return cols;
}

size_t text_sanitize(struct buf *out, const char *s, size_t len, size_t max_cols, bool utf8)
{
	return sanitize(out, s, len, max_cols, utf8, false);
}

void text_sanitize_in(struct buf *out, const char *fmt, const char *s, size_t max_cols, bool utf8)
{
	const char *at = strstr(fmt, "%s");
	if (!at)
		return;
	buf_add(out, fmt, (size_t)(at - fmt));
	text_sanitize(out, s, strlen(s), max_cols, utf8);
	buf_adds(out, at + 2);
}

size_t text_sanitize_own(struct buf *out, const char *s, size_t len, size_t max_cols, bool utf8)
{
	return sanitize(out, s, len, max_cols, utf8, true);
}

size_t text_width(const char *s, size_t len, bool utf8)
{
	struct buf tmp;
	buf_init(&tmp);
	size_t w = text_sanitize(&tmp, s, len, SIZE_MAX, utf8);
	buf_free(&tmp);
	return w;
}

void text_fit(struct buf *out, const char *s, size_t cols, bool left_align, bool utf8)
{
	size_t len = strlen(s);
	if (left_align) {
		size_t w = text_sanitize(out, s, len, cols, utf8);
		buf_pad(out, ' ', cols - w);
		return;
	}
	struct buf tmp;
	buf_init(&tmp);
	size_t w = text_sanitize(&tmp, s, len, cols, utf8);
	buf_pad(out, ' ', cols - w);
	buf_add(out, tmp.data ? tmp.data : "", tmp.len);
	buf_free(&tmp);
}

static unsigned char ascii_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

bool text_contains_icase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	if (n == 0)
		return true;
	for (const char *h = hay; *h; h++) {
		size_t i = 0;
		while (i < n && h[i] && ascii_lower((unsigned char)h[i]) == ascii_lower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return false;
}

bool text_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}
