/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "metrics.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/accum.h"
#include "export/openmetrics.h"
#include "export/pick.h"
#include "model/column.h"
#include "util/i18n.h"

struct metrics {
	struct accum acc;
	struct accum cmds;    /* sums per command, for --top */
	const char *textfile;
	char *tmp;            /* textfile + ".tmp": not *.prom, so the collector skips it */
	size_t top;
	const char *host;     /* labels every series (--host); NULL: none */
	bool unseen_exits;
	struct buf file;
};

unsigned metrics_needs(void)
{
	return NEED_STAT | NEED_STATUS | NEED_CTXT | NEED_DELAY | NEED_CGROUP | NEED_CGROUP_CPU;
}

struct metrics *metrics_new(const struct cli_opts *o)
{
	struct metrics *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	accum_init(&m->acc);
	accum_init_commands(&m->cmds);
	buf_init(&m->file);
	m->top = (size_t)o->top;
	/* processes seen only in their exit record are in the selection unless
	 * it depends on what only a live process shows (its name, its group) */
	m->unseen_exits = !o->filter.text && !o->filter.cgroup;
	m->textfile = o->textfile;
	if (m->textfile) {
		size_t n = strlen(m->textfile);
		m->tmp = malloc(n + 5);
		if (!m->tmp) {
			free(m);
			return NULL;
		}
		memcpy(m->tmp, m->textfile, n);
		memcpy(m->tmp + n, ".tmp", 5);
	}
	return m;
}

void metrics_label_host(struct metrics *m, const char *host)
{
	m->host = host;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	accum_free(&m->acc);
	accum_free(&m->cmds);
	buf_free(&m->file);
	free(m->tmp);
	free(m);
}

/* fmt: translated, with %s for the file and %s for the error */
static char *metrics_error(const char *fmt, const char *path, int e)
{
	char *msg = NULL;
	if (asprintf(&msg, fmt, path, strerror(e)) < 0)
		return NULL;
	return msg;
}

/* The whole file or nothing: written beside it, then renamed over it. */
static int metrics_write_file(struct metrics *m, char **err)
{
	/* a file left by an earlier run (or planted) is replaced, never followed */
	if (unlink(m->tmp) < 0 && errno != ENOENT) {
		*err = metrics_error(_("cannot remove %s: %s"), m->tmp, errno);
		return -1;
	}
	int fd = open(m->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		*err = metrics_error(_("cannot create %s: %s"), m->tmp, errno);
		return -1;
	}
	/* readable by the collector, another user, whatever the umask: who may
	 * read it is the directory's to say */
	if (fchmod(fd, 0644) < 0) {
		int e = errno;
		close(fd);
		unlink(m->tmp);
		*err = metrics_error(_("cannot write %s: %s"), m->tmp, e);
		return -1;
	}
	const char *p = m->file.data ? m->file.data : "";
	size_t left = m->file.len;
	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;
			close(fd);
			unlink(m->tmp);
			*err = metrics_error(_("cannot write %s: %s"), m->tmp, e);
			return -1;
		}
		p += w;
		left -= (size_t)w;
	}
	if (close(fd) < 0) {
		int e = errno;
		unlink(m->tmp);
		*err = metrics_error(_("cannot write %s: %s"), m->tmp, e);
		return -1;
	}
	if (rename(m->tmp, m->textfile) < 0) {
		int e = errno;
		unlink(m->tmp);
		*err = metrics_error(_("cannot replace %s: %s"), m->textfile, e);
		return -1;
	}
	return 0;
}

int metrics_sample(struct metrics *m, const struct snapshot *prev, const struct snapshot *cur, struct buf *om_out,
		   char **err)
{
	*err = NULL;
	if (accum_update(&m->acc, prev, cur, m->unseen_exits) < 0 ||
	    (m->top && accum_update(&m->cmds, prev, cur, false) < 0)) {
		*err = strdup(_("out of memory"));
		return -1;
	}
	const struct accum *cmds = NULL;
	if (m->top) {
		pick_update(&m->cmds, m->top, cur->mono - prev->mono);
		cmds = &m->cmds;
	}
	if (m->textfile) {
		struct openmetrics_opts to = {OM_PROMETHEUS_TEXT, m->host};
		buf_reset(&m->file);
		openmetrics_render(&m->file, &m->acc, cmds, cur, &to);
		if (m->file.oom) {
			*err = strdup(_("out of memory"));
			return -1;
		}
		if (metrics_write_file(m, err) < 0)
			return -1;
	}
	if (om_out) {
		struct openmetrics_opts oo = {OM_OPENMETRICS, m->host};
		openmetrics_render(om_out, &m->acc, cmds, cur, &oo);
	}
	return 0;
}
