/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/json.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

/* Code points written as \uXXXX although JSON allows them raw: C1 controls
 * and DEL reach a terminal that shows the JSON; the bidi controls reorder
 * the text around them; U+2028 and U+2029 end a line for JavaScript and for
 * line splitters that follow Unicode, which would break JSON Lines. */
static bool json_escapes_cp(uint32_t cp)
{
	return (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static void json_add_u_escape(struct buf *b, uint32_t cp)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = {'\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15], hex[cp & 15]};
	buf_add(b, esc, 6);
}

void json_add_string(struct buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	buf_addc(b, '"');
	size_t i = 0;
	while (i < len) {
		unsigned char c = p[i];
		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
			i++;
		} else if (c < 0x20) {
			switch (c) {
			case '\n': buf_adds(b, "\\n"); break;
			case '\t': buf_adds(b, "\\t"); break;
			case '\r': buf_adds(b, "\\r"); break;
			case '\b': buf_adds(b, "\\b"); break;
			case '\f': buf_adds(b, "\\f"); break;
			default: json_add_u_escape(b, c); break;
			}
			i++;
		} else if (c == 0x7f) {
			json_add_u_escape(b, c);
			i++;
		} else if (c < 0x80) {
			buf_addc(b, (char)c);
			i++;
		} else {
			uint32_t cp;
			size_t n = utf8_decode(p + i, len - i, &cp);
			if (n == 0) {
				buf_adds(b, "\xef\xbf\xbd"); /* U+FFFD */
				i++;
			} else {
				if (json_escapes_cp(cp))
					json_add_u_escape(b, cp);
				else
					buf_add(b, p + i, n);
				i += n;
			}
		}
	}
	buf_addc(b, '"');
}

void json_add_double(struct buf *b, double v, int decimals)
{
	if (!isfinite(v)) {
		buf_adds(b, "null");
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 20)
		decimals = 20;
	/* every integer digit of the largest double fits: a value is never cut */
	char tmp[DBL_MAX_10_EXP + 32];
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, v);
	/* taskview runs in the user's locale: JSON wants '.' whatever LC_NUMERIC says */
	const char *dp = localeconv()->decimal_point;
	size_t dl = strlen(dp);
	char *q;
	if (dl && strcmp(dp, ".") != 0 && (q = strstr(tmp, dp))) {
		*q = '.';
		memmove(q + 1, q + dl, strlen(q + dl) + 1);
	}
	/* "-0.00" is valid JSON but confusing; print 0 */
	if (tmp[0] == '-' && tmp[1 + strspn(tmp + 1, "0.")] == '\0')
		memmove(tmp, tmp + 1, strlen(tmp));
	buf_adds(b, tmp);
}
