/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/PID/cmdline: the joined arguments fit the buffer, are a prefix of the
 * input with NULs as spaces, and carry the cut mark exactly when cut. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "sample/proc/proc_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	/* the first two bytes choose the output size and whether the input is whole */
	size_t cap = data[0];
	bool whole = data[1] & 1;
	data += 2;
	size -= 2;
	char *buf = malloc(size ? size : 1);
	char *out = malloc(cap ? cap : 1);
	FUZZ_CHECK(buf && out);
	memcpy(buf, data, size);
	bool cut = false;
	size_t n = proc_parse_cmdline(buf, size, whole, out, cap, &cut);
	if (cap == 0) {
		FUZZ_CHECK(n == 0);
	} else {
		FUZZ_CHECK(n < cap && out[n] == '\0' && strlen(out) == n);
		size_t mark = strlen(PROC_CMDLINE_CUT_MARK);
		size_t body = cut && n >= mark && memcmp(out + n - mark, PROC_CMDLINE_CUT_MARK, mark) == 0 ? n - mark : n;
		FUZZ_CHECK(body <= size);
		for (size_t i = 0; i < body; i++)
			FUZZ_CHECK(out[i] == (buf[i] ? buf[i] : ' '));
		/* not cut: everything but the trailing NULs is there */
		size_t len = size;
		while (len && buf[len - 1] == '\0')
			len--;
		if (!cut)
			FUZZ_CHECK(n == len && whole);
		else
			FUZZ_CHECK(body < len || !whole);
	}
	free(buf);
	free(out);
	return 0;
}
