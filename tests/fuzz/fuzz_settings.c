/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The settings file: parsed without failing, and what it writes back reads
 * back to the same settings (and the same text). */
#include <string.h>

#include "fuzz.h"
#include "settings.h"

static void no_warn(void *ctx, unsigned line, const char *msg)
{
	(void)ctx;
	(void)line;
	FUZZ_CHECK(msg && *msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	FUZZ_CHECK(buf != NULL);
	memcpy(buf, data, size);
	struct settings a, b;
	settings_init(&a);
	settings_init(&b);
	FUZZ_CHECK(settings_parse(buf, size, &a, no_warn, NULL) == 0);
	struct buf t1, t2;
	buf_init(&t1);
	buf_init(&t2);
	settings_format(&t1, &a);
	FUZZ_CHECK(settings_parse(t1.data, t1.len, &b, no_warn, NULL) == 0);
	settings_format(&t2, &b);
	FUZZ_CHECK(t1.len == t2.len && memcmp(t1.data, t2.data, t1.len) == 0);
	FUZZ_CHECK((a.columns == NULL) == (b.columns == NULL));
	FUZZ_CHECK(!a.columns || strcmp(a.columns, b.columns) == 0);
	FUZZ_CHECK(a.reverse == b.reverse && a.threads == b.threads);
	buf_free(&t1);
	buf_free(&t2);
	settings_free(&a);
	settings_free(&b);
	free(buf);
	return 0;
}
