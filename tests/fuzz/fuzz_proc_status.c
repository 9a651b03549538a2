/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/PID/status and /proc/PID/io (the same key: value lines): every field parsed exactly or unknown. */
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
	struct proc_io io;
	rc = proc_parse_io(buf, size, &io);
	FUZZ_CHECK(rc == 0 ? io.read_bytes >= 0 && io.write_bytes >= 0
			   : rc == -1 && io.read_bytes == TV_UNKNOWN && io.write_bytes == TV_UNKNOWN);
	free(buf);
	return 0;
}
