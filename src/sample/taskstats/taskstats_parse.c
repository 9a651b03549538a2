/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/taskstats/taskstats_parse.h"
#include "sample/taskstats/taskstats.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

/*
 * Numbers of the taskstats ABI. They are written out here rather than taken
 * from <linux/taskstats.h> so that the parser builds without that header and
 * cannot silently follow whatever struct version it happens to describe.
 */
enum {
	TS_CMD_GET = 1,
	TS_CMD_NEW = 2,
	TS_CMD_ATTR_REGISTER_CPUMASK = 3,
	TS_CMD_ATTR_DEREGISTER_CPUMASK = 4,
	TS_GENL_VERSION = 1,
	TS_CMD_ATTR_PID = 1,
	TS_CMD_ATTR_TGID = 2,
	TS_TYPE_PID = 1,
	TS_TYPE_TGID = 2,
	TS_TYPE_STATS = 3,
	TS_TYPE_AGGR_PID = 4,
	TS_TYPE_AGGR_TGID = 5,
	TS_TYPE_NULL = 6,
};

/* Versions 1-6 moved fields around (v1 had no aligned(8) padding). */
#define TS_FIRST_VERSION 7
#define TS_INSERTED_MINMAX_VERSION 15

/* Byte offsets inside struct taskstats; 0 means "not in this layout". */
struct ts_layout {
	uint16_t count[TV_DELAY_NCLASS];
	uint16_t max[TV_DELAY_NCLASS]; /* total is count + 8 in every layout */
	uint16_t min[TV_DELAY_NCLASS];
	uint16_t run_virtual, utime, stime, nvcsw, nivcsw;
	uint16_t comm, pid, etime, tgid; /* comm: 32 bytes; pid: u32; tgid: u32, v12 on */
	uint16_t uid, ppid;              /* u32 */
};

/* The first version that carries each class, in enum tv_delay_class order. */
static const uint8_t ts_class_since[TV_DELAY_NCLASS] = {1, 1, 1, 7, 9, 11, 13, 14};

/*
 * v7..v14 and v16+: every version only appended. The aligned(8) members
 * (cpu_count, ac_sched, ac_uid, ac_etime, ac_tgetime) leave holes at 10..15,
 * 116..119, 140..143 and 372..375. v16 appended max/min pairs at 432.
 */
static const struct ts_layout ts_layout_appended = {
	.count = {16, 32, 48, 312, 328, 352, 400, 416},
	.max = {432, 448, 464, 480, 496, 512, 528, 544},
	.min = {440, 456, 472, 488, 504, 520, 536, 552},
	.run_virtual = 72, .utime = 152, .stime = 160, .nvcsw = 272, .nivcsw = 280,
	.comm = 80, .pid = 128, .etime = 144, .tgid = 368, .uid = 120, .ppid = 132,
};

/*
 * v15 only (6.14): a max/min pair follows each class's total, so everything
 * after cpu_delay_total moved by 16 bytes per earlier pair.
 */
static const struct ts_layout ts_layout_v15 = {
	.count = {16, 48, 80, 360, 392, 432, 496, 528},
	.max = {32, 64, 96, 376, 408, 448, 512, 544},
	.min = {40, 72, 104, 384, 416, 456, 520, 552},
	.run_virtual = 120, .utime = 200, .stime = 208, .nvcsw = 320, .nivcsw = 328,
	.comm = 128, .pid = 176, .etime = 192, .tgid = 464, .uid = 168, .ppid = 180,
};

#define TS_TGID_VERSION 12 /* ac_tgid */
#define TS_COMM_LEN 32

/* Reads a u64 at off if it lies inside the payload; payloads are only 4-byte aligned. */
static int64_t ts_field(const unsigned char *p, size_t len, size_t off)
{
	uint64_t v;

	if (off == 0 || off > len || len - off < sizeof(v))
		return TV_UNKNOWN;
	memcpy(&v, p + off, sizeof(v));
	return v > (uint64_t)INT64_MAX ? TV_UNKNOWN : (int64_t)v;
}

/* A u32 id at off, 0 when outside the payload. */
static int32_t ts_field32(const unsigned char *p, size_t len, size_t off)
{
	uint32_t v;

	if (off == 0 || off > len || len - off < sizeof(v))
		return 0;
	memcpy(&v, p + off, sizeof(v));
	return v > INT32_MAX ? 0 : (int32_t)v;
}

void ts_result_init(struct ts_result *out)
{
	out->version = 0;
	out->nvcsw = out->nivcsw = TV_UNKNOWN;
	out->utime_us = out->stime_us = TV_UNKNOWN;
	out->cpu_ns = TV_UNKNOWN;
	out->etime_us = TV_UNKNOWN;
	out->uid = TV_UNKNOWN;
	out->ppid = 0;
	out->pid = out->tgid = 0;
	out->comm[0] = '\0';
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		out->delay[c] = (struct ts_delay){TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN};
}

int ts_parse_stats(const void *payload, size_t len, struct ts_result *out)
{
	const unsigned char *p = payload;
	const struct ts_layout *l;
	uint16_t version;
	bool minmax;

	ts_result_init(out);
	if (len < sizeof(version))
		return -1;
	memcpy(&version, p, sizeof(version));
	out->version = version;
	if (version < TS_FIRST_VERSION)
		return -1;

	l = version == TS_INSERTED_MINMAX_VERSION ? &ts_layout_v15 : &ts_layout_appended;
	minmax = version >= TS_INSERTED_MINMAX_VERSION;

	out->cpu_ns = ts_field(p, len, l->run_virtual);
	out->utime_us = ts_field(p, len, l->utime);
	out->stime_us = ts_field(p, len, l->stime);
	out->nvcsw = ts_field(p, len, l->nvcsw);
	out->nivcsw = ts_field(p, len, l->nivcsw);
	out->etime_us = ts_field(p, len, l->etime);
	out->ppid = ts_field32(p, len, l->ppid);
	if (len >= (size_t)l->uid + 4) {
		uint32_t u;
		memcpy(&u, p + l->uid, sizeof(u));
		out->uid = u;
	}
	out->pid = ts_field32(p, len, l->pid);
	if (version >= TS_TGID_VERSION)
		out->tgid = ts_field32(p, len, l->tgid);
	if (len >= (size_t)l->comm + TS_COMM_LEN) {
		/* raw bytes, zero-padded; the kernel's name is at most 16 (64 for kernel threads: cut) */
		memcpy(out->comm, p + l->comm, TS_COMM_LEN);
		out->comm[TS_COMM_LEN] = '\0';
	}
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		if (version < ts_class_since[c])
			continue;
		out->delay[c].count = ts_field(p, len, l->count[c]);
		out->delay[c].total_ns = ts_field(p, len, l->count[c] + 8u);
		if (minmax) {
			out->delay[c].max_ns = ts_field(p, len, l->max[c]);
			out->delay[c].min_ns = ts_field(p, len, l->min[c]);
		}
	}
	return 0;
}

/* One step of an attribute walk over [*pos, end); false at the end or on a malformed attribute. */
static bool ts_attr_next(const unsigned char *base, size_t end, size_t *pos,
			 uint16_t *type, const unsigned char **data, size_t *dlen)
{
	struct nlattr a;

	if (*pos > end || end - *pos < sizeof(a))
		return false;
	memcpy(&a, base + *pos, sizeof(a));
	if (a.nla_len < NLA_HDRLEN || a.nla_len > end - *pos)
		return false;
	*type = a.nla_type & NLA_TYPE_MASK;
	*data = base + *pos + NLA_HDRLEN;
	*dlen = a.nla_len - NLA_HDRLEN;
	*pos += NLA_ALIGN(a.nla_len);
	return true;
}

/* Reads one AGGR_PID / AGGR_TGID nest; true if it held both an id and decodable stats. */
static bool ts_parse_aggr(const unsigned char *nest, size_t len, struct ts_reply *out)
{
	bool have_id = false, have_stats = false;
	size_t pos = 0, dlen;
	const unsigned char *data;
	uint16_t type;

	while (ts_attr_next(nest, len, &pos, &type, &data, &dlen)) {
		switch (type) {
		case TS_TYPE_PID:
		case TS_TYPE_TGID: {
			uint32_t id;

			if (dlen < sizeof(id))
				return false;
			memcpy(&id, data, sizeof(id));
			out->id = (int32_t)id;
			have_id = true;
			break;
		}
		case TS_TYPE_STATS:
			have_stats = ts_parse_stats(data, dlen, &out->r) == 0;
			break;
		default: /* TS_TYPE_NULL pads STATS to 8 bytes on some architectures */
			break;
		}
	}
	return have_id && have_stats;
}

/*
 * A group reply sums counts and totals over its threads, but max and min
 * are one thread's values (often 0 while count is not), not the group's.
 */
static void ts_drop_minmax(struct ts_result *r)
{
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		r->delay[c].max_ns = r->delay[c].min_ns = TV_UNKNOWN;
}

ssize_t ts_parse_msg(const void *buf, size_t len, uint16_t family, struct ts_reply *out)
{
	const unsigned char *p = buf;
	struct nlmsghdr h;
	size_t msglen, pos, dlen;
	const unsigned char *data;
	uint16_t type;

	memset(out, 0, sizeof(*out));
	ts_result_init(&out->r);
	out->kind = TS_MSG_OTHER;
	if (len < sizeof(h))
		return -1;
	memcpy(&h, p, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
		return -1;
	msglen = h.nlmsg_len;
	out->seq = h.nlmsg_seq;

	if (h.nlmsg_type == NLMSG_ERROR) {
		int32_t err; /* first member of struct nlmsgerr */

		if (msglen - NLMSG_HDRLEN < sizeof(err))
			return -1;
		memcpy(&err, p + NLMSG_HDRLEN, sizeof(err));
		out->kind = TS_MSG_ERROR;
		/* errno values are below 4096; anything else is a malformed reply */
		out->error = err == 0 ? 0 : (err < 0 && err > -4096 ? -err : EPROTO);
	} else if (h.nlmsg_type == family && family >= NLMSG_MIN_TYPE) {
		out->kind = TS_MSG_INVALID;
		pos = NLMSG_HDRLEN + GENL_HDRLEN;
		while (ts_attr_next(p, msglen, &pos, &type, &data, &dlen)) {
			if (type != TS_TYPE_AGGR_PID && type != TS_TYPE_AGGR_TGID)
				continue;
			out->is_tgid = type == TS_TYPE_AGGR_TGID;
			if (ts_parse_aggr(data, dlen, out))
				out->kind = TS_MSG_STATS;
			if (out->is_tgid)
				ts_drop_minmax(&out->r);
			break;
		}
	}
	msglen = NLMSG_ALIGN(msglen);
	return (ssize_t)(msglen < len ? msglen : len);
}

ssize_t ts_parse_exit(const void *buf, size_t len, uint16_t family, struct ts_exit_msg *out, bool *is_exit)
{
	const unsigned char *p = buf;
	struct nlmsghdr h;
	struct genlmsghdr g;
	size_t pos, dlen;
	const unsigned char *data;
	uint16_t type;

	memset(out, 0, sizeof(*out));
	ts_result_init(&out->r);
	ts_result_init(&out->g);
	*is_exit = false;
	if (len < sizeof(h))
		return -1;
	memcpy(&h, p, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
		return -1;
	size_t msglen = h.nlmsg_len;
	if (h.nlmsg_type == family && family >= NLMSG_MIN_TYPE && msglen >= NLMSG_HDRLEN + GENL_HDRLEN) {
		memcpy(&g, p + NLMSG_HDRLEN, sizeof(g));
		pos = NLMSG_HDRLEN + GENL_HDRLEN;
		while (g.cmd == TS_CMD_NEW && ts_attr_next(p, msglen, &pos, &type, &data, &dlen)) {
			struct ts_reply one;
			memset(&one, 0, sizeof(one));
			ts_result_init(&one.r);
			if (type == TS_TYPE_AGGR_PID && !*is_exit && ts_parse_aggr(data, dlen, &one)) {
				out->pid = one.id;
				out->r = one.r;
				*is_exit = true;
			} else if (type == TS_TYPE_AGGR_TGID && ts_parse_aggr(data, dlen, &one)) {
				out->tgid = one.id;
				out->g = one.r;
				ts_drop_minmax(&out->g);
			}
		}
		if (!*is_exit)
			out->tgid = 0;
	}
	msglen = NLMSG_ALIGN(msglen);
	return (ssize_t)(msglen < len ? msglen : len);
}

size_t ts_build_listen(void *buf, size_t size, uint16_t family, uint32_t seq, const char *cpulist, bool reg)
{
	size_t slen = strlen(cpulist) + 1;
	const size_t len = NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + slen;
	unsigned char *p = buf;
	struct nlmsghdr h = {
		.nlmsg_len = (uint32_t)len,
		.nlmsg_type = family,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlmsg_seq = seq,
	};
	struct genlmsghdr g = {.cmd = TS_CMD_GET, .version = TS_GENL_VERSION};
	struct nlattr a = {
		.nla_len = (uint16_t)(NLA_HDRLEN + slen),
		.nla_type = reg ? TS_CMD_ATTR_REGISTER_CPUMASK : TS_CMD_ATTR_DEREGISTER_CPUMASK,
	};

	if (slen > 1024 || size < NLMSG_ALIGN(len))
		return 0;
	memset(p, 0, NLMSG_ALIGN(len));
	memcpy(p, &h, sizeof(h));
	memcpy(p + NLMSG_HDRLEN, &g, sizeof(g));
	memcpy(p + NLMSG_HDRLEN + GENL_HDRLEN, &a, sizeof(a));
	memcpy(p + NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN, cpulist, slen);
	return NLMSG_ALIGN(len);
}

size_t ts_build_request(void *buf, size_t size, uint16_t family, uint32_t seq,
			int32_t id, bool tgid)
{
	const size_t len = NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + sizeof(uint32_t);
	unsigned char *p = buf;
	struct nlmsghdr h = {
		.nlmsg_len = (uint32_t)len,
		.nlmsg_type = family,
		.nlmsg_flags = NLM_F_REQUEST, /* no NLM_F_ACK: the reply itself answers */
		.nlmsg_seq = seq,
	};
	struct genlmsghdr g = {.cmd = TS_CMD_GET, .version = TS_GENL_VERSION};
	struct nlattr a = {
		.nla_len = NLA_HDRLEN + sizeof(uint32_t),
		.nla_type = tgid ? TS_CMD_ATTR_TGID : TS_CMD_ATTR_PID,
	};
	uint32_t v = (uint32_t)id;

	if (size < NLMSG_ALIGN(len))
		return 0;
	memcpy(p, &h, sizeof(h));
	memcpy(p + NLMSG_HDRLEN, &g, sizeof(g));
	memcpy(p + NLMSG_HDRLEN + GENL_HDRLEN, &a, sizeof(a));
	memcpy(p + NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN, &v, sizeof(v));
	return NLMSG_ALIGN(len);
}

/* Shared by the netlink client and the build without it. */
const char *ts_state_name(enum ts_state s)
{
	switch (s) {
	case TS_ON:
		return "on";
	case TS_OFF:
		return "off";
	case TS_NO_PERMISSION:
		return "no-permission";
	case TS_UNSUPPORTED:
		break;
	}
	return "unsupported";
}

bool ts_cmdline_has(const char *cmdline, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = cmdline; n && (p = strstr(p, word)); p += n) {
		bool starts = p == cmdline || p[-1] == ' ';
		bool ends = p[n] == '\0' || p[n] == ' ' || p[n] == '\n';
		if (starts && ends)
			return true;
	}
	return false;
}

enum ts_acct ts_acct_without_switch(const char *release, const char *cmdline, enum kconfig_answer built)
{
	int major, minor;
	if (built == KCONFIG_NO || sscanf(release, "%d.%d", &major, &minor) != 2)
		return TS_ACCT_ABSENT;
	if (major > 5 || (major == 5 && minor >= 14))
		return TS_ACCT_ABSENT;
	return ts_cmdline_has(cmdline, "nodelayacct") ? TS_ACCT_OFF : TS_ACCT_ON;
}
