/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/PID/stat: any bytes are refused or parsed, never read past their end. */
#include <string.h>

#include "fuzz.h"
#include "sample/proc/proc_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy: a read past the end shows under ASan */
	char *buf = malloc(size ? size : 1);
	FUZZ_CHECK(buf != NULL);
	memcpy(buf, data, size);
	struct proc_stat st;
	if (proc_parse_stat(buf, size, &st) == 0) {
		FUZZ_CHECK(memchr(st.comm, '\0', sizeof(st.comm)) != NULL);
		FUZZ_CHECK(strlen(st.comm) < sizeof(st.comm));
	}
	free(buf);
	return 0;
}
