/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OpenMetrics label values: whatever the bytes, the output is one quoted
 * value of valid UTF-8 whose only escapes are \\ and \", with no raw
 * control, DEL, C1, bidi control or line separator, and it decodes back to
 * the input exactly (undoing those escapes, then %XX): distinct inputs can
 * never share a value. The input's halves as two values: equal values only
 * for equal halves. Exact decimals: the digits read back. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "export/om_format.h"
#include "fuzz.h"
#include "util/text.h"

static bool shown_raw(uint32_t cp)
{
	return !(cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
		 (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069));
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes the quoted value at s into out; false when it is not one. */
static bool label_decode(const char *s, size_t len, struct buf *out)
{
	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return false;
	for (size_t i = 1; i < len - 1;) {
		uint32_t cp;
		size_t k = utf8_decode((const unsigned char *)s + i, len - 1 - i, &cp);
		if (k == 0 || cp == '"' || !shown_raw(cp))
			return false;
		if (cp == '%') {
			if (i + 2 >= len - 1 || hexval(s[i + 1]) < 0 || hexval(s[i + 2]) < 0)
				return false;
			buf_addc(out, (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2])));
			i += 3;
			continue;
		}
		if (cp != '\\') {
			buf_add(out, s + i, k);
			i += k;
			continue;
		}
		if (i + 1 >= len - 1)
			return false;
		char e = s[i + 1];
		if (e != '\\' && e != '"')
			return false;
		buf_addc(out, e);
		i += 2;
	}
	return true;
}

static bool same(const struct buf *a, const void *p, size_t n)
{
	return a->len == n && (n == 0 || memcmp(a->data, p, n) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf l, back;
	buf_init(&l);
	buf_init(&back);
	om_add_label_value(&l, (const char *)data, size);
	FUZZ_CHECK(label_decode(l.data, l.len, &back));
	FUZZ_CHECK(same(&back, data, size));

	/* injective: two names give the same value only when they are the same */
	size_t half = size / 2;
	struct buf x, y;
	buf_init(&x);
	buf_init(&y);
	om_add_label_value(&x, (const char *)data, half);
	om_add_label_value(&y, (const char *)data + half, size - half);
	bool equal_in = half == size - half && memcmp(data, data + half, half) == 0;
	FUZZ_CHECK(equal_in == (x.len == y.len && memcmp(x.data, y.data, x.len) == 0));
	buf_free(&x);
	buf_free(&y);

	/* the first 8 bytes as a value, the next as its scale */
	if (size >= 9) {
		int64_t v;
		memcpy(&v, data, sizeof(v));
		int scale = data[8] % 10;
		struct buf d;
		buf_init(&d);
		om_add_decimal(&d, v, scale);
		const char *s = buf_str(&d);
		const char *dot = strchr(s, '.');
		FUZZ_CHECK(!dot || (dot[1] && s[d.len - 1] != '0' && (size_t)(s + d.len - dot - 1) <= (size_t)scale));
		/* the digits without the point are v, its trailing zeros restored */
		char digits[48];
		size_t n = 0;
		for (const char *p = s; *p && n + 1 < sizeof(digits); p++)
			if (*p != '.')
				digits[n++] = *p;
		size_t frac = dot ? (size_t)(s + d.len - dot - 1) : 0;
		for (size_t z = frac; z < (size_t)scale && n + 1 < sizeof(digits); z++)
			digits[n++] = '0';
		digits[n] = '\0';
		FUZZ_CHECK(n > 0 && strtoll(digits, NULL, 10) == v);
		buf_free(&d);
	}
	buf_free(&l);
	buf_free(&back);
	return 0;
}
