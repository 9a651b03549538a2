/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal sanitizer: whatever the bytes, the output is valid UTF-8 (or
 * ASCII), holds no byte a terminal acts on, and takes exactly the columns it
 * says, within the limit. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "util/text.h"

static size_t columns(const char *s, size_t len, bool utf8)
{
	size_t cols = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = utf8_decode((const unsigned char *)s + i, len - i, &cp);
		FUZZ_CHECK(k > 0);
		FUZZ_CHECK(cp >= 0x20 && cp != 0x7f);
		FUZZ_CHECK(utf8 || cp < 0x80);
		int w = text_cp_width(cp);
		FUZZ_CHECK(w == 1 || w == 2);
		cols += (size_t)w;
		i += k;
	}
	return cols;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	size_t max = data[0] == 255 ? SIZE_MAX : data[0];
	bool utf8 = data[1] & 1, own = data[1] & 2;
	const char *s = (const char *)data + 2;
	size_t len = size - 2;
	struct buf b;
	buf_init(&b);
	size_t w = own ? text_sanitize_own(&b, s, len, max, utf8) : text_sanitize(&b, s, len, max, utf8);
	FUZZ_CHECK(w <= max);
	FUZZ_CHECK(columns(b.data ? b.data : "", b.len, utf8) == w);
	/* with no limit, text_width says the same */
	if (!own && max == SIZE_MAX)
		FUZZ_CHECK(text_width(s, len, utf8) == w);
	/* a fitted cell is exactly as wide as asked */
	if (!own && max != SIZE_MAX && memchr(s, '\0', len) == NULL) {
		char *z = fuzz_cstr((const uint8_t *)s, len);
		for (int left = 0; left < 2; left++) {
			struct buf f;
			buf_init(&f);
			text_fit(&f, z, max, left, utf8);
			FUZZ_CHECK(columns(f.data ? f.data : "", f.len, utf8) == max);
			buf_free(&f);
		}
		free(z);
	}
	buf_free(&b);
	return 0;
}
