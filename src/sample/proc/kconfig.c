/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/proc/kconfig.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#if TV_HAVE_ZLIB
#include <zlib.h>
#endif

#define KCONFIG_MAX (4 << 20) /* configs are ~250 KiB; refuse anything absurd */

/* The line starting at p (up to the next newline or end). */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return (size_t)((nl ? nl : end) - p);
}

enum kconfig_answer kconfig_lookup(const char *text, size_t len, const char *sym)
{
	const char *p = text, *end = text + len;
	size_t sl = strlen(sym);
	bool is_config = false;

	while (p < end) {
		size_t l = line_len(p, end);
		if (l > 7 && memcmp(p, "CONFIG_", 7) == 0)
			is_config = true;
		if (l >= sl + 2 && memcmp(p, sym, sl) == 0 && p[sl] == '=')
			return (p[sl + 1] == 'y' || p[sl + 1] == 'm') ? KCONFIG_YES : KCONFIG_NO;
		if (l > 2 && memcmp(p, "# ", 2) == 0 && l >= sl + 2 + 11 && memcmp(p + 2, sym, sl) == 0 &&
		    memcmp(p + 2 + sl, " is not set", 11) == 0)
			return KCONFIG_NO;
		p += l + 1;
	}
	/* a generated config lists every symbol of the enabled menus; one that is
	 * not there at all was not even offered */
	return is_config ? KCONFIG_NO : KCONFIG_UNKNOWN;
}

static char *read_plain(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 1 << 18, n = 0;
	char *b = malloc(cap);
	while (b) {
		if (n == cap) {
			char *nb = cap < KCONFIG_MAX ? realloc(b, cap * 2) : NULL;
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return b;
}

#if TV_HAVE_ZLIB
static char *read_gz(const char *path, size_t *len)
{
	gzFile z = gzopen(path, "rb");
	if (!z)
		return NULL;
	size_t cap = 1 << 18, n = 0;
	char *b = malloc(cap);
	while (b) {
		if (n == cap) {
			char *nb = cap < KCONFIG_MAX ? realloc(b, cap * 2) : NULL;
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		int r = gzread(z, b + n, (unsigned)(cap - n));
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	gzclose(z);
	*len = n;
	return b;
}
#endif

enum kconfig_answer kconfig_running(const char *sym)
{
	size_t len = 0;
	char *text = NULL;
#if TV_HAVE_ZLIB
	text = read_gz("/proc/config.gz", &len);
#endif
	if (!text) {
		struct utsname u;
		char path[sizeof(u.release) + 16];
		if (uname(&u) == 0) {
			snprintf(path, sizeof(path), "/boot/config-%s", u.release);
			text = read_plain(path, &len);
		}
	}
	if (!text)
		return KCONFIG_UNKNOWN;
	enum kconfig_answer a = kconfig_lookup(text, len, sym);
	free(text);
	return a;
}
