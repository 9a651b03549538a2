/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/cgroups/cgroup_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of [*p, end): its start and length; false at the end. */
static bool next_line(const char **p, const char *end, const char **line, size_t *len)
{
	if (*p >= end)
		return false;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = (size_t)((nl ? nl : end) - *p);
	*p = nl ? nl + 1 : end;
	return true;
}

static bool copy_out(const char *s, size_t n, char *out, size_t cap)
{
	/* cut by the kernel, or too long for out: unknown, never a shorter path */
	if (n >= CGROUP_PATH_CUT || n + 1 > cap)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

enum cgroup_version cgroup_parse_membership(const char *buf, size_t len, char *out, size_t cap)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	enum cgroup_version found = CGROUP_NONE;
	while (next_line(&p, end, &line, &n)) {
		/* hierarchy-ID:controllers:path; the path may contain ':' */
		const char *c1 = memchr(line, ':', n);
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(line + n - c1 - 1)) : NULL;
		if (!c2 || c2 + 1 >= line + n || c2[1] != '/')
			continue;
		const char *path = c2 + 1;
		size_t plen = (size_t)(line + n - path);
		if (c1 - line == 1 && line[0] == '0' && c2 == c1 + 1) {
			if (copy_out(path, plen, out, cap))
				return CGROUP_V2;
			return CGROUP_NONE;
		}
		size_t clen = (size_t)(c2 - c1 - 1);
		if (found == CGROUP_NONE && clen == 12 && memcmp(c1 + 1, "name=systemd", 12) == 0 &&
		    copy_out(path, plen, out, cap))
			found = CGROUP_V1_SYSTEMD;
	}
	return found;
}

/* Decodes mountinfo's octal escapes (\040 for a space) into out. */
static bool unescape(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= cap)
			return false;
		out[o++] = c;
	}
	out[o] = '\0';
	return true;
}

bool cgroup_parse_mount(const char *buf, size_t len, enum cgroup_version version, char *out, size_t cap)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (next_line(&p, end, &line, &n)) {
		/* id parent major:minor root mountpoint options [optional...] - fstype source superoptions */
		const char *f[5];
		size_t fl[5];
		const char *q = line, *le = line + n;
		int k = 0;
		while (k < 5 && q < le) {
			const char *sp = memchr(q, ' ', (size_t)(le - q));
			f[k] = q;
			fl[k] = (size_t)((sp ? sp : le) - q);
			k++;
			q = sp ? sp + 1 : le;
		}
		const char *dash = NULL;
		for (const char *r = q; r + 2 < le; r++)
			if (r[0] == '-' && r[1] == ' ' && (r == line || r[-1] == ' ')) {
				dash = r + 2;
				break;
			}
		if (k < 5 || !dash)
			continue;
		const char *sp = memchr(dash, ' ', (size_t)(le - dash));
		size_t tl = (size_t)((sp ? sp : le) - dash);
		bool want = false;
		if (version == CGROUP_V2) {
			want = tl == 7 && memcmp(dash, "cgroup2", 7) == 0;
		} else if (version == CGROUP_V1_SYSTEMD && tl == 6 && memcmp(dash, "cgroup", 6) == 0 && sp) {
			/* the super options name the hierarchy: ...,name=systemd */
			const char *so = memchr(sp + 1, ' ', (size_t)(le - sp - 1));
			so = so ? so + 1 : le;
			for (const char *r = so; r < le;) {
				const char *comma = memchr(r, ',', (size_t)(le - r));
				size_t ol = (size_t)((comma ? comma : le) - r);
				want |= ol == 12 && memcmp(r, "name=systemd", 12) == 0;
				r = comma ? comma + 1 : le;
			}
		}
		if (want && unescape(f[4], fl[4], out, cap))
			return true;
	}
	return false;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t l = strlen(suffix);
	return n >= l && memcmp(s + n - l, suffix, l) == 0;
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t l = strlen(prefix);
	return n >= l && memcmp(s, prefix, l) == 0;
}

static bool is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return n > 0;
}

/* "docker-<64 hex>.scope" and friends: the runtime and a 12-character id. */
static bool container_name(const char *c, size_t n, char *out, size_t cap)
{
	static const struct {
		const char *prefix, *name;
	} runtimes[] = {
		{"docker-", "docker"}, {"libpod-", "podman"}, {"cri-containerd-", "containerd"},
		{"crio-", "crio"},     {"containerd-", "containerd"},
	};
	size_t m = n;
	if (ends_with(c, n, ".scope"))
		m -= 6;
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		size_t pl = strlen(runtimes[i].prefix);
		if (!starts_with(c, m, runtimes[i].prefix) || !is_hex(c + pl, m - pl) || m - pl < 12)
			continue;
		snprintf(out, cap, "%s:%.12s", runtimes[i].name, c + pl);
		return true;
	}
	/* a bare 64-hex component: docker with the cgroupfs driver (/docker/<id>) */
	if (n == 64 && is_hex(c, n)) {
		snprintf(out, cap, "container:%.12s", c);
		return true;
	}
	return false;
}

/* "kubepods-burstable-pod1234_5678.slice" or ".../pod1234-5678/...": the pod's UID. */
static bool pod_name(const char *c, size_t n, char *out, size_t cap)
{
	const char *pod = NULL;
	for (size_t i = 0; i + 3 < n; i++)
		if (memcmp(c + i, "pod", 3) == 0 && (i == 0 || c[i - 1] == '-'))
			pod = c + i + 3;
	if (!pod)
		return false;
	size_t m = (size_t)(c + n - pod);
	if (ends_with(pod, m, ".slice"))
		m -= 6;
	if (m < 8)
		return false;
	char uid[64];
	if (m >= sizeof(uid))
		return false;
	for (size_t i = 0; i < m; i++) {
		char ch = pod[i];
		if (ch == '_')
			ch = '-'; /* systemd escapes the UID's dashes */
		if (!(ch == '-' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')))
			return false;
		uid[i] = ch;
	}
	uid[m] = '\0';
	snprintf(out, cap, "pod:%s", uid);
	return true;
}

static bool is_unit(const char *c, size_t n)
{
	static const char *const kinds[] = {".service", ".scope", ".socket", ".mount", ".swap", ".device"};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (ends_with(c, n, kinds[i]) && n > strlen(kinds[i]))
			return true;
	return false;
}

void cgroup_unit_name(const char *path, char *out, size_t cap)
{
	if (cap == 0)
		return;
	/* from the deepest component up: a container or pod wins over the unit that holds it */
	const char *end = path + strlen(path);
	while (end > path && end[-1] == '/')
		end--;
	if (end == path) {
		snprintf(out, cap, "/");
		return;
	}
	const char *last = NULL;
	size_t last_n = 0;
	for (const char *e = end; e > path;) {
		const char *s = e;
		while (s > path && s[-1] != '/')
			s--;
		size_t n = (size_t)(e - s);
		if (!last) {
			last = s;
			last_n = n;
		}
		if (n && (container_name(s, n, out, cap) || pod_name(s, n, out, cap)))
			return;
		e = s > path ? s - 1 : path;
	}
	/* the deepest systemd unit (a service's own sub-groups belong to it) */
	for (const char *e = end; e > path;) {
		const char *s = e;
		while (s > path && s[-1] != '/')
			s--;
		size_t n = (size_t)(e - s);
		if (is_unit(s, n)) {
			snprintf(out, cap, "%.*s", (int)n, s);
			return;
		}
		e = s > path ? s - 1 : path;
	}
	snprintf(out, cap, "%.*s", (int)last_n, last);
}

/* A pressure average such as "12.34" (all of v), a share of time from 0 to
 * 100, without strtod: a refresh parses six of them per pressure file and
 * group. */
static bool parse_decimal(const char *v, double *out)
{
	double whole = 0, frac = 0, scale = 1;
	const char *p = v;
	while (*p >= '0' && *p <= '9')
		whole = whole * 10 + (*p++ - '0');
	if (p == v)
		return false;
	if (*p == '.') {
		const char *f = ++p;
		while (*p >= '0' && *p <= '9') {
			frac = frac * 10 + (*p++ - '0');
			scale *= 10;
		}
		if (p == f)
			return false;
	}
	if (*p != '\0' || whole + frac / scale > 100)
		return false;
	*out = whole + frac / scale;
	return true;
}

static bool parse_psi_line(const char *s, size_t n, struct psi_line *out)
{
	bool a10 = false, total = false;
	const char *p = s, *end = s + n;
	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		size_t l = (size_t)((sp ? sp : end) - p);
		char tok[64];
		if (l < sizeof(tok)) {
			memcpy(tok, p, l);
			tok[l] = '\0';
			char *eq = strchr(tok, '='), *ep;
			if (eq) {
				*eq = '\0';
				const char *v = eq + 1;
				if (strcmp(tok, "avg10") == 0) {
					a10 = parse_decimal(v, &out->avg10);
				} else if (strcmp(tok, "avg60") == 0) {
					parse_decimal(v, &out->avg60);
				} else if (strcmp(tok, "avg300") == 0) {
					parse_decimal(v, &out->avg300);
				} else if (strcmp(tok, "total") == 0) {
					out->total_us = strtoull(v, &ep, 10);
					total = *ep == '\0' && ep != v && v[0] != '-';
				}
			}
		}
		p = sp ? sp + 1 : end;
	}
	out->known = a10 && total;
	return out->known;
}

int psi_parse(const char *buf, size_t len, struct psi *out)
{
	memset(out, 0, sizeof(*out));
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (next_line(&p, end, &line, &n)) {
		if (starts_with(line, n, "some "))
			parse_psi_line(line + 5, n - 5, &out->some);
		else if (starts_with(line, n, "full "))
			parse_psi_line(line + 5, n - 5, &out->full);
	}
	return out->some.known ? 0 : -1;
}

/* The value of "key N" at the start of a line of buf, or -1. */
static int64_t stat_key(const char *buf, size_t len, const char *key)
{
	size_t kl = strlen(key);
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - buf) : len;
		if (end - at > kl && memcmp(buf + at, key, kl) == 0 && buf[at + kl] == ' ') {
			int64_t v = 0;
			size_t i = at + kl + 1, digits = 0;
			for (; i < end && buf[i] >= '0' && buf[i] <= '9' && digits < 18; i++, digits++)
				v = v * 10 + (buf[i] - '0');
			return digits && i == end ? v : -1;
		}
		at = end + 1;
	}
	return -1;
}

int cg_cpu_stat_parse(const char *buf, size_t len, struct cg_cpu_stat *out)
{
	out->usage_us = stat_key(buf, len, "usage_usec");
	out->user_us = stat_key(buf, len, "user_usec");
	out->system_us = stat_key(buf, len, "system_usec");
	return out->usage_us < 0 ? -1 : 0;
}
