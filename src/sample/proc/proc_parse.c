/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/proc/proc_parse.h"

#include <stdbool.h>
#include <string.h>

/* Reads an unsigned decimal at *p, advancing past it and one following space.
 * A number that does not fit 64 bits is refused, never wrapped. */
static int read_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	while (s < end && *s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s++ - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (s < end && *s == ' ')
		s++;
	*p = s;
	*v = x;
	return 0;
}

/* The same, signed: exactly INT64_MIN .. INT64_MAX, anything else refused. */
static int read_i64(const char **p, const char *end, int64_t *v)
{
	const char *s = *p;
	bool neg = s < end && *s == '-';
	if (neg)
		s++;
	uint64_t u;
	if (read_u64(&s, end, &u) < 0 || u > (uint64_t)INT64_MAX + neg)
		return -1;
	/* -(u - 1) - 1 stays in range for u = 2^63, where -(int64_t)u would not */
	*v = neg ? (u ? -(int64_t)(u - 1) - 1 : 0) : (int64_t)u;
	*p = s;
	return 0;
}

static int skip_field(const char **p, const char *end)
{
	const char *s = *p;
	while (s < end && *s != ' ')
		s++;
	if (s >= end)
		return -1;
	*p = s + 1;
	return 0;
}

int proc_parse_stat(const char *buf, size_t len, struct proc_stat *out)
{
	memset(out, 0, sizeof(*out));
	const char *end = buf + len;
	const char *open = memchr(buf, '(', len);
	const char *close = NULL;
	/* the name may itself contain ") " — the real end is the last ')' */
	for (const char *q = end; q > buf; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!open || !close || close < open)
		return -1;
	const char *p = buf;
	uint64_t u;
	if (read_u64(&p, open, &u) < 0)
		return -1;
	out->pid = (int32_t)u;
	size_t n = (size_t)(close - open - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, n);
	out->comm[n] = '\0';

	p = close + 1;
	if (p + 3 > end || *p != ' ')
		return -1;
	p++;
	out->state = *p;
	p += 2; /* state and its space */
	int64_t v;
	if (read_i64(&p, end, &v) < 0) /* 4 ppid */
		return -1;
	out->ppid = (int32_t)v;
	for (int f = 5; f <= 8; f++) /* pgrp session tty_nr tpgid */
		if (skip_field(&p, end) < 0)
			return -1;
	if (read_u64(&p, end, &out->flags) < 0) /* 9 flags */
		return -1;
	if (read_u64(&p, end, &out->minflt) < 0 || skip_field(&p, end) < 0 || /* 10 minflt, 11 cminflt */
	    read_u64(&p, end, &out->majflt) < 0 || skip_field(&p, end) < 0)   /* 12 majflt, 13 cmajflt */
		return -1;
	if (read_u64(&p, end, &out->utime) < 0 || read_u64(&p, end, &out->stime) < 0)
		return -1;
	if (skip_field(&p, end) < 0 || skip_field(&p, end) < 0) /* cutime cstime */
		return -1;
	if (read_i64(&p, end, &v) < 0)
		return -1;
	out->prio = (int32_t)v;
	if (read_i64(&p, end, &v) < 0)
		return -1;
	out->nice = (int32_t)v;
	if (read_i64(&p, end, &out->nthreads) < 0)
		return -1;
	if (skip_field(&p, end) < 0) /* itrealvalue */
		return -1;
	if (read_u64(&p, end, &out->start_ticks) < 0)
		return -1;
	return 0;
}

/* Copies a Name: value, decoding the kernel's "\n" and "\\" escapes. */
static void unescape_name(const char *s, const char *e, char *out, size_t cap)
{
	size_t o = 0;
	while (s < e && o + 1 < cap) {
		if (*s == '\\' && s + 1 < e && (s[1] == 'n' || s[1] == '\\')) {
			out[o++] = s[1] == 'n' ? '\n' : '\\';
			s += 2;
		} else {
			out[o++] = *s++;
		}
	}
	out[o] = '\0';
}

static int64_t parse_num_field(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	int64_t v;
	const char *p = s;
	if (read_i64(&p, e, &v) < 0)
		return TV_UNKNOWN;
	return v;
}

/* A "Key:\tvalue" line of status or io: its key, and its value up to the end of the line. */
struct kv_line {
	const char *key, *v, *le;
	size_t klen;
};

#define KV_IS(kv, k) ((kv)->klen == sizeof(k) - 1 && memcmp((kv)->key, k, (kv)->klen) == 0)

/* The next line with a colon at or after *p, *p moved past it; false at the end. */
static bool kv_next(const char **p, const char *end, struct kv_line *kv)
{
	while (*p < end) {
		const char *line = *p;
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end;
		const char *colon = memchr(line, ':', (size_t)(le - line));
		*p = nl ? nl + 1 : end;
		if (colon) {
			*kv = (struct kv_line){line, colon + 1, le, (size_t)(colon - line)};
			return true;
		}
	}
	return false;
}

int proc_parse_status(const char *buf, size_t len, struct proc_status *out)
{
	memset(out, 0, sizeof(*out));
	out->state = '?';
	out->tgid = out->ppid = out->euid = out->threads = TV_UNKNOWN;
	out->vm_size = out->vm_rss = out->vm_pte = out->vm_swap = out->vm_stk = out->vm_hwm = TV_UNKNOWN;
	out->rss_anon = out->rss_file = out->rss_shmem = TV_UNKNOWN;
	out->ctxt_vol = out->ctxt_invol = TV_UNKNOWN;
	int have_name = 0;
	const char *p = buf, *end = buf + len;
	struct kv_line kv;
	while (kv_next(&p, end, &kv)) {
		const char *v = kv.v, *le = kv.le;
		if (KV_IS(&kv, "Name")) {
			if (v < le && *v == '\t')
				v++;
			unescape_name(v, le, out->name, sizeof(out->name));
			have_name = 1;
		} else if (KV_IS(&kv, "State")) {
			while (v < le && (*v == ' ' || *v == '\t'))
				v++;
			if (v < le)
				out->state = *v;
		} else if (KV_IS(&kv, "Tgid")) {
			out->tgid = parse_num_field(v, le);
		} else if (KV_IS(&kv, "PPid")) {
			out->ppid = parse_num_field(v, le);
		} else if (KV_IS(&kv, "Uid")) {
			/* real, effective, saved, fs: take the effective one */
			const char *q = v;
			while (q < le && (*q == ' ' || *q == '\t'))
				q++;
			while (q < le && *q != ' ' && *q != '\t')
				q++;
			out->euid = parse_num_field(q, le);
		} else if (KV_IS(&kv, "Threads")) {
			out->threads = parse_num_field(v, le);
		} else if (KV_IS(&kv, "VmSize")) {
			out->vm_size = parse_num_field(v, le);
		} else if (KV_IS(&kv, "VmRSS")) {
			out->vm_rss = parse_num_field(v, le);
		} else if (KV_IS(&kv, "VmPTE")) {
			out->vm_pte = parse_num_field(v, le);
		} else if (KV_IS(&kv, "VmSwap")) {
			out->vm_swap = parse_num_field(v, le);
		} else if (KV_IS(&kv, "VmStk")) {
			out->vm_stk = parse_num_field(v, le);
		} else if (KV_IS(&kv, "VmHWM")) {
			out->vm_hwm = parse_num_field(v, le);
		} else if (KV_IS(&kv, "RssAnon")) {
			out->rss_anon = parse_num_field(v, le);
		} else if (KV_IS(&kv, "RssFile")) {
			out->rss_file = parse_num_field(v, le);
		} else if (KV_IS(&kv, "RssShmem")) {
			out->rss_shmem = parse_num_field(v, le);
		} else if (KV_IS(&kv, "voluntary_ctxt_switches")) {
			out->ctxt_vol = parse_num_field(v, le);
		} else if (KV_IS(&kv, "nonvoluntary_ctxt_switches")) {
			out->ctxt_invol = parse_num_field(v, le);
		}
	}
	return have_name ? 0 : -1;
}

int proc_parse_schedstat(const char *buf, size_t len, struct proc_schedstat *out)
{
	const char *p = buf, *end = buf + len;
	uint64_t v[3];

	out->runtime_ns = out->run_delay_ns = out->pcount = TV_UNKNOWN;
	for (int i = 0; i < 3; i++) {
		if (read_u64(&p, end, &v[i]) < 0 || v[i] > (uint64_t)INT64_MAX)
			return -1;
	}
	if (p < end && *p != '\n')
		return -1;
	out->runtime_ns = (int64_t)v[0];
	out->run_delay_ns = (int64_t)v[1];
	out->pcount = (int64_t)v[2];
	return 0;
}

int proc_parse_io(const char *buf, size_t len, struct proc_io *out)
{
	out->read_bytes = out->write_bytes = TV_UNKNOWN;
	struct proc_io v = {TV_UNKNOWN, TV_UNKNOWN};
	const char *p = buf, *end = buf + len;
	struct kv_line kv;
	while (kv_next(&p, end, &kv)) {
		if (KV_IS(&kv, "read_bytes"))
			v.read_bytes = parse_num_field(kv.v, kv.le);
		else if (KV_IS(&kv, "write_bytes"))
			v.write_bytes = parse_num_field(kv.v, kv.le);
	}
	if (v.read_bytes == TV_UNKNOWN || v.write_bytes == TV_UNKNOWN || v.read_bytes < 0 || v.write_bytes < 0)
		return -1;
	*out = v;
	return 0;
}

size_t proc_parse_cmdline(const char *buf, size_t len, bool whole, char *out, size_t cap, bool *cut)
{
	if (cut)
		*cut = false;
	if (cap == 0)
		return 0;
	while (len > 0 && buf[len - 1] == '\0')
		len--;
	bool cutting = len >= cap || !whole;
	size_t mark = sizeof(PROC_CMDLINE_CUT_MARK) - 1;
	if (cutting) {
		size_t room = cap - 1;
		size_t keep = len < room ? len : room;
		/* the mark takes the place of the last bytes when it does not fit after them */
		if (keep + mark > room)
			keep = room > mark ? room - mark : 0;
		/* back to the start of a UTF-8 character cut in two */
		for (int i = 0; i < 3 && keep > 0 && keep < len && ((unsigned char)buf[keep] & 0xc0) == 0x80; i++)
			keep--;
		len = keep;
	}
	for (size_t i = 0; i < len; i++)
		out[i] = buf[i] == '\0' ? ' ' : buf[i];
	if (cutting && len + mark < cap) {
		memcpy(out + len, PROC_CMDLINE_CUT_MARK, mark);
		len += mark;
	}
	out[len] = '\0';
	if (cut)
		*cut = cutting;
	return len;
}
