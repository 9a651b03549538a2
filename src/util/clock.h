/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clock readings in seconds. */
#ifndef TV_UTIL_CLOCK_H
#define TV_UTIL_CLOCK_H

#include <time.h>

/* Seconds on clock id (CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME). */
double clock_now(clockid_t id);

#endif
