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

/* A text file for the collector, replaced whole with each write. */
struct metrics_file {
	const char *path;
	char *tmp;            /* path + ".tmp": not *.prom, so the collector skips it */
	struct buf text;
};

struct metrics {
	struct accum acc;
	struct accum cmds;    /* sums per command, for --top */
	struct metrics_file *file; /* --textfile, or NULL */
	size_t top;
	const char *host;     /* labels every series (--host); NULL: none */
	bool unseen_exits;
	struct om_system sys; /* of the latest sample */
};

unsigned metrics_needs(void)
{
	return NEED_STAT | NEED_STATUS | NEED_CTXT | NEED_DELAY | NEED_CGROUP | NEED_CGROUP_CPU;
}

struct metrics_file *metrics_file_new(const char *path)
{
	struct metrics_file *f = calloc(1, sizeof(*f));
	size_t n = strlen(path);
	char *tmp = f ? malloc(n + 5) : NULL;
	if (!tmp) {
		free(f);
		return NULL;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);
	*f = (struct metrics_file){.path = path, .tmp = tmp};
	buf_init(&f->text);
	return f;
}

void metrics_file_free(struct metrics_file *f)
{
	if (!f)
		return;
	buf_free(&f->text);
	free(f->tmp);
	free(f);
}

static struct metrics *metrics_alloc(const struct cli_opts *o, const char *host)
{
	struct metrics *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	accum_init(&m->acc);
	accum_init_commands(&m->cmds);
	m->top = (size_t)o->top;
	m->host = host;
	/* processes seen only in their exit record are in the selection unless
	 * it depends on what only a live process shows (its name, its group) */
	m->unseen_exits = !o->filter.text && !o->filter.cgroup;
	return m;
}

struct metrics *metrics_new(const struct cli_opts *o)
{
	struct metrics *m = metrics_alloc(o, NULL);
	if (m && o->textfile && !(m->file = metrics_file_new(o->textfile))) {
		metrics_free(m);
		return NULL;
	}
	return m;
}

struct metrics *metrics_new_part(const struct cli_opts *o, const char *host)
{
	return metrics_alloc(o, host);
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	accum_free(&m->acc);
	accum_free(&m->cmds);
	metrics_file_free(m->file);
	free(m);
}

void metrics_part(const struct metrics *m, struct om_part *out)
{
	*out = (struct om_part){&m->acc, m->top ? &m->cmds : NULL, m->sys, m->host};
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
static int file_write(struct metrics_file *m, char **err)
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
	const char *p = m->text.data ? m->text.data : "";
	size_t left = m->text.len;
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
	if (rename(m->tmp, m->path) < 0) {
		int e = errno;
		unlink(m->tmp);
		*err = metrics_error(_("cannot replace %s: %s"), m->path, e);
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
	om_system_of(cur, &m->sys);
	const struct accum *cmds = NULL;
	if (m->top) {
		pick_update(&m->cmds, m->top, cur->mono - prev->mono);
		cmds = &m->cmds;
	}
	if (m->file) {
		struct om_part part;
		metrics_part(m, &part);
		if (metrics_file_write(m->file, &part, 1, err) < 0)
			return -1;
	}
	if (om_out) {
		struct openmetrics_opts oo = {OM_OPENMETRICS, m->host};
		openmetrics_render(om_out, &m->acc, cmds, cur, &oo);
	}
	return 0;
}

int metrics_file_write(struct metrics_file *f, const struct om_part *parts, size_t n, char **err)
{
	*err = NULL;
	buf_reset(&f->text);
	if (openmetrics_render_parts(&f->text, parts, n, OM_PROMETHEUS_TEXT) < 0 || f->text.oom) {
		*err = strdup(_("out of memory"));
		return -1;
	}
	return file_write(f, err);
}
