/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary directories of the unit tests go under $TMPDIR: the test runner
 * (tests/isolate.py) points it at a private directory that it removes with
 * everything in it, also after a test that failed halfway.
 */
#ifndef TV_TEST_TMPDIR_H
#define TV_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* mkdtemp of $TMPDIR/PREFIX-XXXXXX (/tmp without TMPDIR) into buf; NULL on failure. */
static inline char *test_mkdtemp(char *buf, size_t len, const char *prefix)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	int n = snprintf(buf, len, "%s/%s-XXXXXX", tmp, prefix);
	if (n < 0 || (size_t)n >= len)
		return NULL;
	return mkdtemp(buf);
}

#endif
