/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/cgroup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/task.h"

void pressure_unknown(struct tv_pressure *p)
{
	memset(p, 0, sizeof(*p));
	p->some_us = p->full_us = TV_UNKNOWN;
	p->some_avg10 = p->full_avg10 = NAN;
	p->some_pct = p->full_pct = NAN;
}

void cgroup_cpu_unknown(struct tv_cgroup *g)
{
	g->cpu_usage_us = g->cpu_user_us = g->cpu_system_us = TV_UNKNOWN;
	g->t_cpu = 0;
	g->cpu_pct = NAN;
}

void cgroup_free(struct tv_cgroup *g)
{
	if (!g)
		return;
	free(g->path);
	free(g->unit);
	free(g->about);
	free(g);
}
