/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/PID/maps, line by line as the panel reads it: any bytes are refused
 * or counted, never read past their end, and the kinds add up. */
#include <string.h>

#include "fuzz.h"
#include "sample/memory/anatomy_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct anatomy a;
	anatomy_init(&a);
	for (size_t at = 0; at < size;) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
		/* an exact-size copy of the line: a read past its end shows under ASan */
		char *line = malloc(len ? len : 1);
		FUZZ_CHECK(line != NULL);
		memcpy(line, data + at, len);
		anatomy_add(&a, line, len);
		free(line);
		at += len + 1;
	}
	anatomy_finish(&a);
	size_t n = 0;
	for (int k = 0; k < ANAT_NKIND; k++) {
		FUZZ_CHECK(a.kib[k] >= 0);
		n += a.count[k];
	}
	FUZZ_CHECK(a.nranges <= n);
	for (size_t i = 0; i < a.nranges; i++) {
		FUZZ_CHECK(a.ranges[i].lo <= a.ranges[i].hi);
		FUZZ_CHECK(a.ranges[i].kind == ANAT_STACK || a.ranges[i].kind == ANAT_HEAP ||
			   a.ranges[i].kind == ANAT_ANON);
	}
	anatomy_free(&a);
	return 0;
}
