/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fuzz harnesses share: libFuzzer's entry point and a check that
 * turns a broken promise into a crash libFuzzer reports. */
#ifndef TV_FUZZ_H
#define TV_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                   \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "%s:%d: broken promise: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                           \
		}                                                                          \
	} while (0)

/* A NUL-terminated copy (for parsers of C strings); the caller frees it. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	for (size_t i = 0; i < size; i++)
		s[i] = (char)data[i];
	s[size] = '\0';
	return s;
}

#endif
