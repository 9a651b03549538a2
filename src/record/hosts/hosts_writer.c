/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/hosts/hosts_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/codec.h"
#include "record/errmsg.h"
#include "record/hosts/hostframe.h"
#include "record/lockfile.h"
#include "util/buf.h"
#include "util/i18n.h"

#define SYNC_EVERY 60.0

struct rec_hosts_writer {
	char *path;
	int fd;
	struct buf frame;  /* kept: a frame's bytes are gathered here for its one write */
	double synced;     /* when last synced; 0: not yet */
};

struct rec_hosts_writer *rec_hosts_writer_open(const char *path, char **err)
{
	*err = NULL;
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		/* TRANSLATORS: -w DIR (daily files) with --host */
		*err = rec_err_path(_("%s is a directory: the hosts are recorded into one file (-w FILE)"), path, 0);
		return NULL;
	}
	struct rec_hosts_writer *w = calloc(1, sizeof(*w));
	if (!w || !(w->path = strdup(path))) {
		free(w);
		*err = strdup(_("out of memory"));
		return NULL;
	}
	buf_init(&w->frame);
	w->fd = rec_lockfile_open(path, false, err);
	if (w->fd < 0) {
		rec_hosts_writer_close(w);
		return NULL;
	}
	return w;
}

int rec_hosts_writer_add(struct rec_hosts_writer *w, const char *host, const uint8_t *frame, size_t len,
			 const struct rec_frame *f, int64_t taken_ns, double now, char **err)
{
	*err = NULL;
	buf_reset(&w->frame);
	if (rec_hostframe_pack(&w->frame, host, frame, len, f, taken_ns) < 0) {
		/* the host list refuses a longer name: memory it is */
		buf_free(&w->frame);
		*err = strdup(_("out of memory"));
		return -1;
	}
	/* one write: a frame is either whole in the file or the tail a crash cut */
	const char *p = w->frame.data;
	size_t left = w->frame.len;
	while (left) {
		ssize_t n = write(w->fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*err = rec_err_path(_("cannot write the recording %s: %s"), w->path, n < 0 ? errno : ENOSPC);
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	if (w->synced == 0)
		w->synced = now;
	if (now - w->synced >= SYNC_EVERY) {
		(void)fdatasync(w->fd);
		w->synced = now;
	}
	return 0;
}

void rec_hosts_writer_close(struct rec_hosts_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0) {
		(void)fdatasync(w->fd);
		close(w->fd);
	}
	buf_free(&w->frame);
	free(w->path);
	free(w);
}
