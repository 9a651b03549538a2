/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/describe.h"

#include <stdlib.h>

static const char *prop(const struct rec_schema *s, const char *key)
{
	return s ? rec_schema_prop(s, key) : NULL;
}

long host_cpus(const struct rec_schema *s)
{
	const char *cpus = prop(s, "cpus");
	char *end = NULL;
	long n = cpus ? strtol(cpus, &end, 10) : -1;
	return cpus && end != cpus && !*end && n >= 0 ? n : -1;
}

void host_describe(struct json_host *jh, const char *name, const struct rec_schema *s, double clock)
{
	*jh = (struct json_host){
		.name = name,
		.hostname = prop(s, "host"),
		.version = prop(s, "taskview"),
		.kernel = prop(s, "kernel"),
		.boot_id = prop(s, "boot_id"),
		.cpus = host_cpus(s),
		.clock = clock,
	};
}
