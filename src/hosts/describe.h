/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a host's description says of it: the one its stream sent, or the one
 * a recording of it holds. The live fronts and the replay name a host alike. */
#ifndef TV_HOSTS_DESCRIBE_H
#define TV_HOSTS_DESCRIBE_H

#include "record/schema.h"
#include "render/json.h"

/* The CPUs it says it has, or -1 (not said, not a count, or s NULL). */
long host_cpus(const struct rec_schema *s);
/* *jh for the host given as name (borrowed, as are the strings of s), its
 * clock against this one's; s NULL: nothing said yet. */
void host_describe(struct json_host *jh, const char *name, const struct rec_schema *s, double clock);

#endif
