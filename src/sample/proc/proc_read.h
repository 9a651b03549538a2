/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading small /proc files relative to an open directory. */
#ifndef TV_SAMPLE_PROC_READ_H
#define TV_SAMPLE_PROC_READ_H

#include <stddef.h>
#include <sys/types.h>

/* Reads a whole file at dirfd/name into buf (NUL-terminated). Returns the
 * length, or -errno (-ENOENT / -ESRCH: the task is gone; -EACCES: not ours). */
ssize_t proc_read_at(int dirfd, const char *name, char *buf, size_t cap);
/* Reads a whole file on an fd kept open across refreshes: /proc regenerates
 * it on every read at offset 0. Returns the length, or -errno (-ESRCH: the
 * task the fd was opened for is gone, even if its ID was reused since). */
ssize_t proc_pread(int fd, char *buf, size_t cap);
/* Opens a directory relative to dirfd (AT_FDCWD for absolute); -errno on failure. */
int proc_open_dir(int dirfd, const char *name);

#endif
