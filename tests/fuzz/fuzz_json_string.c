/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON strings: whatever the bytes, the output is one valid RFC 8259 string
 * with no raw control, DEL, C1, bidi control or line separator, and it
 * decodes back to the input (invalid UTF-8 bytes as U+FFFD). */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "util/json.h"
#include "util/text.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool raw_forbidden(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Decodes the JSON string at s into out (UTF-8); false when it is not one. */
static bool json_decode(const char *s, size_t len, struct buf *out)
{
	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return false;
	for (size_t i = 1; i < len - 1;) {
		uint32_t cp;
		size_t k = utf8_decode((const unsigned char *)s + i, len - 1 - i, &cp);
		if (k == 0 || raw_forbidden(cp) || cp == '"')
			return false;
		if (cp != '\\') {
			buf_add(out, s + i, k);
			i += k;
			continue;
		}
		if (i + 1 >= len - 1)
			return false;
		char e = s[i + 1];
		const char *simple = strchr("\"\\/bfnrt", e);
		if (simple && e) {
			static const char to[] = "\"\\/\b\f\n\r\t";
			buf_addc(out, to[simple - "\"\\/bfnrt"]);
			i += 2;
			continue;
		}
		if (e != 'u' || i + 6 > len - 1)
			return false;
		uint32_t v = 0;
		for (int j = 0; j < 4; j++) {
			int h = hexval(s[i + 2 + j]);
			if (h < 0)
				return false;
			v = v << 4 | (uint32_t)h;
		}
		/* taskview escapes only code points that need no surrogate pair */
		if (v >= 0xd800 && v <= 0xdfff)
			return false;
		char enc[4];
		buf_add(out, enc, utf8_encode(v, enc));
		i += 6;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf j, back, want;
	buf_init(&j);
	buf_init(&back);
	buf_init(&want);
	json_add_string(&j, (const char *)data, size);
	FUZZ_CHECK(json_decode(j.data, j.len, &back));
	/* what it should decode to: the input, invalid bytes replaced */
	for (size_t i = 0; i < size;) {
		uint32_t cp;
		size_t k = utf8_decode(data + i, size - i, &cp);
		if (k == 0) {
			buf_adds(&want, "\xef\xbf\xbd");
			i++;
		} else {
			buf_add(&want, data + i, k);
			i += k;
		}
	}
	FUZZ_CHECK(back.len == want.len && (want.len == 0 || memcmp(back.data, want.data, want.len) == 0));
	buf_free(&j);
	buf_free(&back);
	buf_free(&want);
	return 0;
}
