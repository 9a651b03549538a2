/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/proc/proc_read.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t proc_pread(int fd, char *buf, size_t cap)
{
	size_t len = 0;
	/* one pread gets a consistent view of a small file; loop for larger ones.
	 * /proc fills a read as far as it can: a short one is the end (no second
	 * syscall just to see 0) */
	while (len + 1 < cap) {
		size_t want = cap - 1 - len;
		ssize_t n = pread(fd, buf + len, want, (off_t)len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len += (size_t)n;
		if ((size_t)n < want)
			break;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

ssize_t proc_read_at(int dirfd, const char *name, char *buf, size_t cap)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	size_t len = 0;
	/* /proc files are generated on read: one read() gets a consistent view
	 * of small files; loop only for the rare larger ones */
	while (len + 1 < cap) {
		size_t want = cap - 1 - len;
		ssize_t n = read(fd, buf + len, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return -e;
		}
		len += (size_t)n;
		if ((size_t)n < want)
			break; /* a short read is the end: see proc_pread */
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

int proc_open_dir(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
