/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uid → user name, cached for the life of the sampler. */
#ifndef TV_SAMPLE_USERS_H
#define TV_SAMPLE_USERS_H

#include <stdint.h>

struct users;

struct users *users_new(void);
void users_free(struct users *u);
/* The name of uid (or its number as text when it has none); stable until users_free. */
const char *users_name(struct users *u, int64_t uid);

#endif
