/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/dialogs/inspect.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/proc/proc_read.h"
#include "util/i18n.h"

/* An environment is at most what execve() accepted; this bounds a process
 * that grew its own past any sensible screen. */
#define ENVIRON_MAX (8u << 20)

/* Reads a whole /proc file of any size up to max; *len is its length.
 * Returns the buffer (NUL-terminated, the caller frees it) or NULL with errno. */
static char *read_all(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);
	while (b) {
		if (n == cap) {
			if (cap >= max)
				break; /* cut: what was read is shown */
			char *nb = realloc(b, 2 * cap + 1);
			if (!nb) {
				free(b);
				b = NULL;
				errno = ENOMEM;
				break;
			}
			b = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(b);
			b = NULL;
			errno = e;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	int e = errno;
	close(fd);
	errno = e;
	if (b) {
		b[n] = '\0';
		*len = n;
	}
	return b;
}

/* A process that exited leaves ENOENT; taskview says ESRCH for it. */
static int gone_or(int e)
{
	return e == ENOENT ? ESRCH : e;
}

int inspect_environ(int32_t pid, struct detail_lines *out)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	size_t len = 0;
	char *b = read_all(path, ENVIRON_MAX, &len);
	if (!b)
		return gone_or(errno);
	detail_lines_free(out);
	size_t count = 0;
	/* NUL-separated; a process may have written anything there */
	for (size_t i = 0; i < len;) {
		size_t n = strnlen(b + i, len - i);
		if (n)
			detail_add(out, DETAIL_NOTE, b + i, NULL);
		count += n > 0;
		i += n + 1;
	}
	free(b);
	if (count == 0)
		/* a kernel thread, or a process that cleared it */
		detail_add(out, DETAIL_HEADING, _("(empty environment)"), NULL);
	return 0;
}

/* "r", "w" or "rw" from the flags in fdinfo, "-" when unknown. */
static void fd_mode(int dirfd, const char *fd, char *mode, size_t n, char *pos, size_t np)
{
	char name[64], buf[4096];
	snprintf(name, sizeof(name), "fdinfo/%s", fd);
	snprintf(mode, n, "-");
	snprintf(pos, np, "-");
	if (proc_read_at(dirfd, name, buf, sizeof(buf)) <= 0)
		return;
	const char *f = strstr(buf, "flags:");
	if (f) {
		unsigned long flags = strtoul(f + 6, NULL, 8);
		int acc = (int)(flags & O_ACCMODE);
		snprintf(mode, n, "%s", acc == O_RDONLY ? "r" : acc == O_WRONLY ? "w" : acc == O_RDWR ? "rw" : "-");
	}
	const char *p = strstr(buf, "pos:");
	if (p)
		snprintf(pos, np, "%llu", strtoull(p + 4, NULL, 10));
}

static int fd_cmp(const void *a, const void *b)
{
	long x = atol(*(char *const *)a), y = atol(*(char *const *)b);
	return (x > y) - (x < y);
}

/* The target of a link in dirfd, raw; "?" when it cannot be read. */
static void link_target(int dirfd, const char *name, char *out, size_t n)
{
	ssize_t r = readlinkat(dirfd, name, out, n - 1);
	if (r < 0)
		r = snprintf(out, n, "?");
	out[r] = '\0';
}

int inspect_files(int32_t pid, int32_t tid, struct detail_lines *out)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tid);
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return gone_or(errno);
	int fdfd = openat(dirfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fdfd >= 0 ? fdopendir(fdfd) : NULL;
	if (!d) {
		int e = errno;
		if (fdfd >= 0)
			close(fdfd);
		close(dirfd);
		return gone_or(e);
	}
	char **names = NULL;
	size_t nn = 0, cap = 0;
	struct dirent *de;
	int e = 0;
	errno = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (nn == cap) {
			size_t nc = cap ? 2 * cap : 64;
			char **v = realloc(names, nc * sizeof(*v));
			if (!v) {
				e = ENOMEM;
				break;
			}
			names = v;
			cap = nc;
		}
		if (!(names[nn] = strdup(de->d_name))) {
			e = ENOMEM;
			break;
		}
		nn++;
	}
	/* a listing that fails at its first entry: permission is checked there */
	if (!e && errno && nn == 0)
		e = errno;
	closedir(d);
	if (!e) {
		detail_lines_free(out);
		char target[4096 + 1];
		static const struct {
			const char *link;
			const char *label;
		} special[] = {{"cwd", N_("cwd")}, {"root", N_("root")}, {"exe", N_("exe")}};
		for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
			link_target(dirfd, special[i].link, target, sizeof(target));
			detail_add(out, DETAIL_ROW, _(special[i].label), target);
		}
		/* the descriptors' columns, labelled as the rows are laid out */
		char head[96];
		/* TRANSLATORS: column titles of the open files panel (l): descriptor, access mode (r, w, rw), file
		 * position; at most 4, 4 and 10 columns */
		snprintf(head, sizeof(head), "%4s %-4s %10s", _("FD"), _("mode"), _("position"));
		/* TRANSLATORS: column title of the open files panel (l): what the descriptor is open on */
		detail_add(out, DETAIL_ROW, head, _("file"));
		if (nn > 1) /* qsort wants an array, even of none: a kernel thread has no descriptors */
			qsort(names, nn, sizeof(*names), fd_cmp);
		int fd_dir = openat(dirfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (size_t i = 0; i < nn; i++) {
			char label[64], mode[8], pos[32], name[300];
			fd_mode(dirfd, names[i], mode, sizeof(mode), pos, sizeof(pos));
			snprintf(label, sizeof(label), "%4s %-4s %10s", names[i], mode, pos);
			snprintf(name, sizeof(name), "%s", names[i]);
			link_target(fd_dir, name, target, sizeof(target));
			detail_add(out, DETAIL_ROW, label, target);
		}
		if (fd_dir >= 0)
			close(fd_dir);
		if (nn == 0)
			detail_add(out, DETAIL_HEADING, _("(no open file descriptors)"), NULL);
	}
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	close(dirfd);
	return gone_or(e);
}
