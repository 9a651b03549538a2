/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/num.h"

/* A settings file is a few hundred bytes. A file past this is read not at
 * all (settings_load fails, so it is not written over), never in part. */
#define SETTINGS_MAX_BYTES (16 * 1024 * 1024)
/* The first line of a file taskview wrote. */
#define SETTINGS_HEADER "# taskview settings: written on quit by the interactive mode"
/* A broken file reports this many lines, then one summary. */
#define SETTINGS_MAX_WARNINGS 8

void settings_init(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->reverse = -1;
	s->threads = -1;
	s->tree = -1;
	s->groups = -1;
	s->kernel_threads = -1;
	s->mouse = -1;
	s->delay = -1;
}

void settings_free(struct settings *s)
{
	free(s->columns);
	free(s->sort);
	for (size_t i = 0; i < s->nextra; i++)
		free(s->extra[i]);
	free(s->extra);
	settings_init(s);
}

struct parse_ctx {
	settings_warn_fn warn;
	void *ctx;
	unsigned nwarn;
};

static void parse_warn(struct parse_ctx *p, unsigned line, const char *msg)
{
	if (!p->warn)
		return;
	if (p->nwarn < SETTINGS_MAX_WARNINGS)
		p->warn(p->ctx, line, msg);
	else if (p->nwarn == SETTINGS_MAX_WARNINGS)
		p->warn(p->ctx, line, _("more bad lines ignored"));
	p->nwarn++;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool parse_bool(const char *v, int *out)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "yes") == 0)
		*out = 1;
	else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "no") == 0)
		*out = 0;
	else
		return false;
	return true;
}

/* Column lists and ids: printable ASCII only, so nothing odd reaches the table. */
static bool is_id_list(const char *v)
{
	if (!*v)
		return false;
	for (const char *p = v; *p; p++)
		if (*p <= ' ' && *p != ' ')
			return false;
		else if ((unsigned char)*p >= 0x7f)
			return false;
	return true;
}

static int replace_str(char **dst, const char *v)
{
	char *c = strdup(v);
	if (!c)
		return -1;
	free(*dst);
	*dst = c;
	return 0;
}

static int keep_extra(struct settings *s, const char *line)
{
	/* doubled at each power of two: a file of many lines is read in linear time */
	size_t n = s->nextra;
	if ((n & (n - 1)) == 0) {
		char **p = realloc(s->extra, (n ? 2 * n : 1) * sizeof(*p));
		if (!p)
			return -1;
		s->extra = p;
	}
	char **p = s->extra;
	if (!(p[s->nextra] = strdup(line)))
		return -1;
	s->nextra++;
	return 0;
}

/* key=value kept verbatim for the next write. */
static int keep_line(struct settings *s, const char *key, const char *val)
{
	size_t fl = strlen(key) + strlen(val) + 2;
	char *full = malloc(fl);
	if (!full)
		return -1;
	snprintf(full, fl, "%s=%s", key, val);
	int rc = keep_extra(s, full);
	free(full);
	return rc;
}

/* A known key with a value this version cannot read: a mistake in a file of
 * this version, but a newer version's value to keep in a newer file. */
static int bad_value(struct settings *s, const char *key, const char *val, unsigned no, struct parse_ctx *p,
		     const char *msg)
{
	if (s->version <= SETTINGS_VERSION) {
		parse_warn(p, no, msg);
		return 0;
	}
	return keep_line(s, key, val);
}

/* One line, NUL-terminated and without its newline. */
static int parse_line(struct settings *s, char *line, unsigned no, struct parse_ctx *p)
{
	while (is_blank(*line))
		line++;
	size_t n = strlen(line);
	while (n && is_blank(line[n - 1]))
		line[--n] = '\0';
	if (!*line)
		return 0;
	/* a comment is the user's: kept for the next write (after the settings),
	 * but for the line this file starts with when taskview wrote it */
	if (*line == '#')
		return strcmp(line, SETTINGS_HEADER) == 0 ? 0 : keep_extra(s, line);
	char *eq = strchr(line, '=');
	if (!eq) {
		parse_warn(p, no, _("not a key=value line; ignored"));
		return 0;
	}
	char *key = line, *val = eq + 1;
	char *ke = eq;
	while (ke > key && is_blank(ke[-1]))
		ke--;
	*ke = '\0';
	while (is_blank(*val))
		val++;
	if (strcmp(key, "version") == 0) {
		int64_t v;
		if (!num_parse_int(val, 1, 1000000, &v))
			parse_warn(p, no, _("bad version; ignored"));
		else if (v > s->version) /* the newest writer's lines are kept */
			s->version = (int)v;
	} else if (strcmp(key, "columns") == 0) {
		if (!is_id_list(val))
			return bad_value(s, key, val, no, p, _("bad column list; ignored"));
		else if (replace_str(&s->columns, val) < 0)
			return -1;
	} else if (strcmp(key, "sort") == 0) {
		if (!is_id_list(val) || strchr(val, ',') || strchr(val, ' '))
			return bad_value(s, key, val, no, p, _("bad sort column; ignored"));
		else if (replace_str(&s->sort, val) < 0)
			return -1;
	} else if (strcmp(key, "reverse") == 0) {
		if (!parse_bool(val, &s->reverse))
			return bad_value(s, key, val, no, p, _("reverse must be 0 or 1; ignored"));
	} else if (strcmp(key, "threads") == 0) {
		if (!parse_bool(val, &s->threads))
			return bad_value(s, key, val, no, p, _("threads must be 0 or 1; ignored"));
	} else if (strcmp(key, "tree") == 0) {
		if (!parse_bool(val, &s->tree))
			return bad_value(s, key, val, no, p, _("tree must be 0 or 1; ignored"));
	} else if (strcmp(key, "groups") == 0) {
		if (!parse_bool(val, &s->groups))
			return bad_value(s, key, val, no, p, _("groups must be 0 or 1; ignored"));
	} else if (strcmp(key, "kernel_threads") == 0) {
		if (!parse_bool(val, &s->kernel_threads))
			return bad_value(s, key, val, no, p, _("kernel_threads must be 0 or 1; ignored"));
	} else if (strcmp(key, "mouse") == 0) {
		if (!parse_bool(val, &s->mouse))
			return bad_value(s, key, val, no, p, _("mouse must be 0 or 1; ignored"));
	} else if (strcmp(key, "delay") == 0) {
		double d;
		if (!num_parse_double(val, &d) || d < 0.1 || d > 86400)
			return bad_value(s, key, val, no, p, _("delay must be seconds, from 0.1 to 86400; ignored"));
		else
			s->delay = d;
	} else {
		/* a newer taskview's key: keep it for the next write, quietly when
		 * the file says it is from a newer version */
		if (s->version <= SETTINGS_VERSION)
			parse_warn(p, no, _("unknown setting; ignored"));
		bool printable = *key != '\0';
		for (const char *c = key; *c && printable; c++)
			printable = (unsigned char)*c > ' ' && (unsigned char)*c < 0x7f;
		if (printable)
			return keep_line(s, key, val);
	}
	return 0;
}

int settings_parse(const char *buf, size_t len, struct settings *out, settings_warn_fn warn, void *ctx)
{
	struct parse_ctx p = {warn, ctx, 0};
	unsigned no = 0;
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && buf[j] != '\n')
			j++;
		no++;
		size_t n = j - i;
		if (memchr(buf + i, '\0', n)) {
			parse_warn(&p, no, _("binary data; ignored"));
		} else {
			char *line = malloc(n + 1);
			if (!line)
				return -1;
			memcpy(line, buf + i, n);
			line[n] = '\0';
			int rc = parse_line(out, line, no, &p);
			free(line);
			if (rc < 0)
				return -1;
		}
		i = j + 1;
	}
	return 0;
}

/* Whether a kept line sets key (a newer version's value for it). */
static bool line_sets(const char *line, const char *key)
{
	size_t n = strlen(key);
	return strncmp(line, key, n) == 0 && line[n] == '=';
}

void settings_format(struct buf *out, const struct settings *s)
{
	buf_addf(out, "%s\n", SETTINGS_HEADER);
	/* a newer version's file stays one: it is the one that knows its keys */
	buf_addf(out, "version=%d\n", s->version > SETTINGS_VERSION ? s->version : SETTINGS_VERSION);
	if (s->columns)
		buf_addf(out, "columns=%s\n", s->columns);
	if (s->sort)
		buf_addf(out, "sort=%s\n", s->sort);
	if (s->reverse >= 0)
		buf_addf(out, "reverse=%d\n", s->reverse);
	if (s->delay > 0)
		buf_addf(out, "delay=%g\n", s->delay);
	if (s->threads >= 0)
		buf_addf(out, "threads=%d\n", s->threads);
	if (s->tree >= 0)
		buf_addf(out, "tree=%d\n", s->tree);
	if (s->groups >= 0)
		buf_addf(out, "groups=%d\n", s->groups);
	if (s->kernel_threads >= 0)
		buf_addf(out, "kernel_threads=%d\n", s->kernel_threads);
	if (s->mouse >= 0)
		buf_addf(out, "mouse=%d\n", s->mouse);
	for (size_t i = 0; i < s->nextra; i++) {
		const char *l = s->extra[i];
		/* a value set here replaces a kept one */
		if ((s->columns && line_sets(l, "columns")) || (s->sort && line_sets(l, "sort")) ||
		    (s->reverse >= 0 && line_sets(l, "reverse")) || (s->delay > 0 && line_sets(l, "delay")) ||
		    (s->threads >= 0 && line_sets(l, "threads")) || (s->tree >= 0 && line_sets(l, "tree")) ||
		    (s->groups >= 0 && line_sets(l, "groups")) ||
		    (s->kernel_threads >= 0 && line_sets(l, "kernel_threads")) ||
		    (s->mouse >= 0 && line_sets(l, "mouse")))
			continue;
		buf_addf(out, "%s\n", l);
	}
}

static char *str_printf2(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s", a, b);
	return s;
}

char *settings_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	/* the spec says a relative XDG_CONFIG_HOME is invalid and to be ignored */
	if (xdg && xdg[0] == '/')
		return str_printf2(xdg, "/taskview/taskviewrc");
	const char *home = getenv("HOME");
	if (home && home[0] == '/')
		return str_printf2(home, "/.config/taskview/taskviewrc");
	return NULL;
}

/* fmt takes the path, then the error text. */
static char *err_printf(const char *fmt, const char *path, int e)
{
	size_t n = strlen(fmt) + strlen(path) + 128;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, fmt, path, strerror(e));
	return s;
}

int settings_load(const char *path, struct settings *out, settings_warn_fn warn, void *ctx, char **err)
{
	*err = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		*err = err_printf(_("cannot read %s: %s"), path, errno);
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		*err = err_printf(_("cannot read %s: %s"), path, EINVAL);
		return -1;
	}
	/* all of it: a part would be written back as the whole on save */
	size_t cap = 0, len = 0;
	char *buf = NULL;
	int e = 0;
	for (;;) {
		if (len == cap) {
			if (cap == SETTINGS_MAX_BYTES + 1) {
				e = EFBIG;
				break;
			}
			size_t ncap = cap ? cap * 4 : 16384;
			if (ncap > SETTINGS_MAX_BYTES + 1)
				ncap = SETTINGS_MAX_BYTES + 1;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				e = ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e = errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (e) {
		*err = err_printf(_("cannot read %s: %s"), path, e);
		free(buf);
		close(fd);
		return -1;
	}
	close(fd);
	/* a line with a NUL byte cannot be kept as text: read, the file would
	 * be written back without it (garbage, or a file that is not ours) */
	if (memchr(buf, '\0', len)) {
		/* TRANSLATORS: %s is the settings file */
		const char *fmt = _("cannot read %s: it holds binary data (a NUL byte)");
		size_t n = strlen(fmt) + strlen(path) + 1;
		*err = malloc(n);
		if (*err)
			snprintf(*err, n, fmt, path);
		free(buf);
		return -1;
	}
	int rc = settings_parse(buf, len, out, warn, ctx);
	free(buf);
	return rc;
}

/* mkdir -p for the directory part of path. */
static int make_dirs(const char *path)
{
	char *p = strdup(path);
	if (!p)
		return -1;
	char *slash = strrchr(p, '/');
	if (slash)
		*slash = '\0';
	for (char *c = p + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*c = '/';
	}
	int rc = mkdir(p, 0700) < 0 && errno != EEXIST ? -1 : 0;
	free(p);
	return rc;
}

int settings_save(const char *path, const struct settings *s, char **err)
{
	*err = NULL;
	if (make_dirs(path) < 0) {
		*err = err_printf(_("cannot create the directory of %s: %s"), path, errno);
		return -1;
	}
	char *tmp = str_printf2(path, ".XXXXXX");
	if (!tmp)
		return -1;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		*err = err_printf(_("cannot write %s: %s"), path, errno);
		free(tmp);
		return -1;
	}
	struct buf b;
	buf_init(&b);
	settings_format(&b, s);
	size_t off = 0;
	int e = b.oom ? ENOMEM : 0;
	while (!e && off < b.len) {
		ssize_t n = write(fd, b.data + off, b.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e = errno;
		else
			off += (size_t)n;
	}
	/* the file keeps the mode it was given (a file made read-only, or shared
	 * with a group, stays so); a new one is the owner's alone */
	struct stat old;
	if (!e && stat(path, &old) == 0 && S_ISREG(old.st_mode) && fchmod(fd, old.st_mode & 07777) < 0)
		e = errno;
	/* the data must be on disk before the rename makes it the file */
	if (!e && fsync(fd) < 0)
		e = errno;
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	buf_free(&b);
	if (e) {
		unlink(tmp);
		*err = err_printf(_("cannot write %s: %s"), path, e);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
