/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The whole-system /proc parsers of the interactive header: /proc/stat,
 * /proc/meminfo, /proc/loadavg, /proc/uptime. The first byte picks one. */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "sample/proc/system.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *s = fuzz_cstr(data + 1, size - 1);
	switch (data[0] % 4) {
	case 0: {
		struct sys_info si;
		memset(&si, 0, sizeof(si));
		if (system_parse_stat(s, &si) == 0)
			FUZZ_CHECK(si.ncpu == 0 || si.cpu != NULL);
		system_free(&si);
		break;
	}
	case 1: {
		struct sys_mem m;
		system_parse_meminfo(s, &m);
		break;
	}
	case 2: {
		double load[3];
		if (system_parse_loadavg(s, load) == 0)
			for (int i = 0; i < 3; i++)
				FUZZ_CHECK(load[i] >= 0 && load[i] <= SYSTEM_LOAD_MAX);
		break;
	}
	default: {
		double up;
		if (system_parse_uptime(s, &up) == 0)
			FUZZ_CHECK(up >= 0 && up <= SYSTEM_UPTIME_MAX);
		break;
	}
	}
	free(s);
	return 0;
}
