/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/hostlist.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"

void hostlist_init(struct hostlist *l)
{
	l->v = NULL;
	l->n = 0;
}

void hostlist_free(struct hostlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	hostlist_init(l);
}

/* Letters, digits and what names, users, IPv6 addresses and zones use. */
static bool host_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr("._-@:%[]+", c));
}

static int add_one(struct hostlist *l, const char *p, size_t n, struct buf *err)
{
	if (n == 0)
		return 0;
	bool ok = n <= HOST_NAME_MAX_LEN && p[0] != '-';
	for (size_t i = 0; ok && i < n; i++)
		ok = host_char((unsigned char)p[i]);
	if (!ok) {
		/* the name may hold anything: shown as far as it is plain */
		buf_adds(err, _("not a host name: "));
		for (size_t i = 0; i < n && i < 64; i++)
			buf_addc(err, (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] < 0x7f ? p[i] : '?');
		return -1;
	}
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == n && memcmp(l->v[i], p, n) == 0)
			return 0;
	if (l->n >= HOSTS_MAX) {
		buf_addf(err, _("more than %d hosts"), HOSTS_MAX);
		return -1;
	}
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));
	char *s = malloc(n + 1);
	if (v)
		l->v = v;
	if (!v || !s) {
		free(s);
		buf_adds(err, _("out of memory"));
		return -1;
	}
	memcpy(s, p, n);
	s[n] = '\0';
	l->v[l->n++] = s;
	return 0;
}

int hostlist_add(struct hostlist *l, const char *name, struct buf *err)
{
	return add_one(l, name, strlen(name), err);
}

int hostlist_add_csv(struct hostlist *l, const char *text, struct buf *err)
{
	const char *p = text;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (add_one(l, p, n, err) < 0)
			return -1;
		if (!end)
			return 0;
		p = end + 1;
	}
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int hostlist_add_lines(struct hostlist *l, const char *p, size_t n, const char *what, struct buf *err)
{
	size_t line = 0;
	for (size_t i = 0; i < n;) {
		size_t end = i;
		while (end < n && p[end] != '\n')
			end++;
		line++;
		size_t a = i, b = end;
		for (size_t k = a; k < b; k++)
			if (p[k] == '#') {
				b = k;
				break;
			}
		while (a < b && blank(p[a]))
			a++;
		while (b > a && blank(p[b - 1]))
			b--;
		if (add_one(l, p + a, b - a, err) < 0) {
			struct buf why;
			buf_init(&why);
			buf_add(&why, err->data, err->len);
			buf_reset(err);
			buf_addf(err, "%s:%zu: %s", what, line, buf_str(&why));
			buf_free(&why);
			return -1;
		}
		i = end + 1;
	}
	return 0;
}
