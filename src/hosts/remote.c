/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/remote.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void remote_quote(struct buf *b, const char *s)
{
	/* ' and \ outside the quotes: fish reads \' and \\ inside them as escapes, a POSIX shell does not */
	buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else if (*s == '\\')
			buf_adds(b, "'\\\\'");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
}

/* The screen's own column: each remote is one host, and knows no such column. */
static bool viewer_column(const char *id, size_t n)
{
	return n == 4 && memcmp(id, "host", 4) == 0;
}

/* The columns of list (-o) but the viewer's own, quoted; nothing when none is left. */
static void remote_columns(struct buf *b, const char *list)
{
	struct buf keep;
	buf_init(&keep);
	for (const char *p = list;;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, ",");
		size_t len = n;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (!viewer_column(p, len)) {
			if (keep.len)
				buf_addc(&keep, ',');
			buf_add(&keep, p, len);
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	if (keep.len) {
		buf_adds(b, " -o ");
		remote_quote(b, buf_str(&keep));
	}
	b->oom |= keep.oom;
	buf_free(&keep);
}

/* The remote command line: one string, which the remote user's shell splits. */
static void remote_line(struct buf *b, const char *remote, const struct cli_opts *o)
{
	buf_adds(b, "exec ");
	buf_adds(b, remote && *remote ? remote : "taskview");
	buf_addf(b, " --stream --no-plugins -d %.17g", o->delay);
	if (o->threads)
		buf_adds(b, " -H");
	if (o->filter.npids) {
		buf_adds(b, " -p ");
		for (size_t i = 0; i < o->filter.npids; i++)
			buf_addf(b, "%s%d", i ? "," : "", o->filter.pids[i]);
	}
	if (o->user_arg) {
		buf_adds(b, " -u ");
		remote_quote(b, o->user_arg);
	}
	if (o->filter.text) {
		buf_adds(b, " -F ");
		remote_quote(b, o->filter.text);
	}
	if (o->filter.cgroup) {
		buf_adds(b, " -c ");
		remote_quote(b, o->filter.cgroup);
	}
	/* metrics sum what they need, whatever the columns and the sort */
	if ((o->format == CLI_FORMAT_OPENMETRICS && o->batch) || o->textfile) {
		buf_adds(b, " -o " REMOTE_METRICS_COLUMNS);
		return;
	}
	/* the host's control groups, nested under its row (metrics sum none of them) */
	if (o->group == CLI_GROUP_CGROUP)
		buf_adds(b, " --group cgroup");
	if (o->columns)
		remote_columns(b, o->columns);
	/* the sort column is read even when it is not shown */
	if (o->sort && !viewer_column(o->sort, strlen(o->sort))) {
		buf_adds(b, " -s ");
		remote_quote(b, o->sort);
	}
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* ssh's words, its options, the host and the remote command line (freed here). */
static int remote_argv_words(struct remote_argv *a, const char *ssh, const char *host, struct buf *line)
{
	memset(a, 0, sizeof(*a));
	struct buf w;
	buf_init(&w);
	/* every word, each ended by a NUL: ssh's, the options, the host, the line */
	size_t nssh = 0;
	const char *p = ssh && *ssh ? ssh : "ssh";
	while (*p) {
		while (blank(*p))
			p++;
		if (!*p)
			break;
		while (*p && !blank(*p))
			buf_addc(&w, *p++);
		buf_addc(&w, '\0');
		nssh++;
	}
	if (nssh == 0) {
		buf_add(&w, "ssh", 4);
		nssh = 1;
	}
	/* no prompt (a key or an agent, or nothing), no terminal; the host never an option */
	static const char *const fixed[] = {"-o", "BatchMode=yes", "-T", "--"};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		buf_add(&w, fixed[i], strlen(fixed[i]) + 1);
	buf_add(&w, host, strlen(host) + 1);
	buf_add(&w, buf_str(line), line->len + 1);
	w.oom |= line->oom;
	buf_free(line);
	size_t n = nssh + sizeof(fixed) / sizeof(fixed[0]) + 2;
	a->v = calloc(n + 1, sizeof(*a->v));
	if (w.oom || !a->v) {
		buf_free(&w);
		free(a->v);
		a->v = NULL;
		return -1;
	}
	a->words = w.data; /* the buf's bytes are now the argv's */
	char *q = a->words;
	for (size_t i = 0; i < n; i++) {
		a->v[i] = q;
		q += strlen(q) + 1;
	}
	a->n = n;
	return 0;
}

int remote_argv_build(struct remote_argv *a, const char *ssh, const char *remote, const char *host,
		      const struct cli_opts *o)
{
	struct buf line;
	buf_init(&line);
	remote_line(&line, remote, o);
	return remote_argv_words(a, ssh, host, &line);
}

int remote_argv_act(struct remote_argv *a, const char *ssh, const char *remote, const char *host,
		    const struct act_req *r)
{
	struct buf line, spec;
	buf_init(&line);
	buf_init(&spec);
	act_format(&spec, r);
	buf_adds(&line, "exec ");
	buf_adds(&line, remote && *remote ? remote : "taskview");
	buf_adds(&line, " --act ");
	remote_quote(&line, buf_str(&spec));
	line.oom |= spec.oom;
	buf_free(&spec);
	return remote_argv_words(a, ssh, host, &line);
}

void remote_argv_free(struct remote_argv *a)
{
	free(a->v);
	free(a->words);
	memset(a, 0, sizeof(*a));
}
