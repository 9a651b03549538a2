/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The C integration tests' check: a failure is printed and counted, and the
 * test goes on (main returns non-zero when failures is). One per program. */
#ifndef TV_TEST_CHECK_H
#define TV_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

#endif
