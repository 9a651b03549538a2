/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/PID/status: every field parsed exactly or unknown. */
#include <string.h>

#include "fuzz.h"
#include "sample/proc/proc_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	FUZZ_CHECK(buf != NULL);
	memcpy(buf, data, size);
	struct proc_status ps;
	int rc = proc_parse_status(buf, size, &ps);
	FUZZ_CHECK(rc == 0 || rc == -1);
	FUZZ_CHECK(memchr(ps.name, '\0', sizeof(ps.name)) != NULL);
	/* no Name: line, no parse */
	if (!memmem(buf, size, "Name:", 5))
		FUZZ_CHECK(rc == -1);
	free(buf);
	return 0;
}
