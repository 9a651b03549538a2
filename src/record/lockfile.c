/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/errmsg.h"
#include "util/i18n.h"

int rec_lockfile_open(const char *file, bool nofollow, char **err)
{
	/* O_NONBLOCK: a FIFO of the name would block open() until a reader came */
	int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK | (nofollow ? O_NOFOLLOW : 0), 0640);
	struct stat sb;
	if (fd < 0 && errno == ENXIO && stat(file, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		*err = rec_err_path(_("cannot write the recording %s: not a regular file"), file, 0);
		return -1;
	}
	if (fd < 0) {
		*err = rec_err_path(_("cannot write the recording %s: %s"), file, errno);
		return -1;
	}
	if (fstat(fd, &sb) < 0) {
		int e = errno;
		close(fd);
		*err = rec_err_path(_("cannot write the recording %s: %s"), file, e);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		*err = rec_err_path(_("cannot write the recording %s: not a regular file"), file, 0);
		return -1;
	}
	(void)fcntl(fd, F_SETFL, O_APPEND);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			*err = rec_err_path(_("%s: another taskview is recording to it"), file, 0);
		else
			*err = rec_err_path(_("cannot lock the recording %s: %s"), file, e);
		return -1;
	}
	return fd;
}
