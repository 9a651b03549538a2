/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/clock.h"

double clock_now(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
