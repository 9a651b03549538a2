/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * taskstats decoding. Payloads are laid out here from the field list with
 * C's alignment rules, independently of the parser's offset tables, so a
 * wrong table entry shows up as a wrong value.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "model/delta.h"
#include "sample/taskstats/taskstats_parse.h"
#include "sample/taskstats/taskstats_window.h"

#if __has_include(<linux/taskstats.h>)
#include <linux/taskstats.h>
#define HAVE_UAPI_TASKSTATS 1
#endif

enum place { ALWAYS, ONLY_V15, FROM_V16 };

struct tfield {
	const char *name;
	unsigned size, align;
	int since;
	enum place place;
};

/* The struct in declaration order over all versions; where each field goes is decided by place. */
static const struct tfield fields[] = {
	{"version", 2, 2, 1, ALWAYS}, {"ac_exitcode", 4, 4, 1, ALWAYS},
	{"ac_flag", 1, 1, 1, ALWAYS}, {"ac_nice", 1, 1, 1, ALWAYS},
	{"cpu_count", 8, 8, 1, ALWAYS}, {"cpu_delay_total", 8, 8, 1, ALWAYS},
	{"cpu_delay_max", 8, 8, 15, ONLY_V15}, {"cpu_delay_min", 8, 8, 15, ONLY_V15},
	{"blkio_count", 8, 8, 1, ALWAYS}, {"blkio_delay_total", 8, 8, 1, ALWAYS},
	{"blkio_delay_max", 8, 8, 15, ONLY_V15}, {"blkio_delay_min", 8, 8, 15, ONLY_V15},
	{"swapin_count", 8, 8, 1, ALWAYS}, {"swapin_delay_total", 8, 8, 1, ALWAYS},
	{"swapin_delay_max", 8, 8, 15, ONLY_V15}, {"swapin_delay_min", 8, 8, 15, ONLY_V15},
	{"cpu_run_real_total", 8, 8, 1, ALWAYS}, {"cpu_run_virtual_total", 8, 8, 1, ALWAYS},
	{"ac_comm", 32, 1, 1, ALWAYS}, {"ac_sched", 1, 8, 1, ALWAYS}, {"ac_pad", 3, 1, 1, ALWAYS},
	{"ac_uid", 4, 8, 1, ALWAYS}, {"ac_gid", 4, 4, 1, ALWAYS}, {"ac_pid", 4, 4, 1, ALWAYS},
	{"ac_ppid", 4, 4, 1, ALWAYS}, {"ac_btime", 4, 4, 1, ALWAYS},
	{"ac_etime", 8, 8, 1, ALWAYS}, {"ac_utime", 8, 8, 1, ALWAYS}, {"ac_stime", 8, 8, 1, ALWAYS},
	{"ac_minflt", 8, 8, 1, ALWAYS}, {"ac_majflt", 8, 8, 1, ALWAYS},
	{"coremem", 8, 8, 1, ALWAYS}, {"virtmem", 8, 8, 1, ALWAYS},
	{"hiwater_rss", 8, 8, 1, ALWAYS}, {"hiwater_vm", 8, 8, 1, ALWAYS},
	{"read_char", 8, 8, 1, ALWAYS}, {"write_char", 8, 8, 1, ALWAYS},
	{"read_syscalls", 8, 8, 1, ALWAYS}, {"write_syscalls", 8, 8, 1, ALWAYS},
	{"read_bytes", 8, 8, 1, ALWAYS}, {"write_bytes", 8, 8, 1, ALWAYS},
	{"cancelled_write_bytes", 8, 8, 1, ALWAYS},
	{"nvcsw", 8, 8, 1, ALWAYS}, {"nivcsw", 8, 8, 1, ALWAYS},
	{"ac_utimescaled", 8, 8, 1, ALWAYS}, {"ac_stimescaled", 8, 8, 1, ALWAYS},
	{"cpu_scaled_run_real_total", 8, 8, 1, ALWAYS},
	{"freepages_count", 8, 8, 7, ALWAYS}, {"freepages_delay_total", 8, 8, 7, ALWAYS},
	{"freepages_delay_max", 8, 8, 15, ONLY_V15}, {"freepages_delay_min", 8, 8, 15, ONLY_V15},
	{"thrashing_count", 8, 8, 9, ALWAYS}, {"thrashing_delay_total", 8, 8, 9, ALWAYS},
	{"thrashing_delay_max", 8, 8, 15, ONLY_V15}, {"thrashing_delay_min", 8, 8, 15, ONLY_V15},
	{"ac_btime64", 8, 8, 10, ALWAYS},
	{"compact_count", 8, 8, 11, ALWAYS}, {"compact_delay_total", 8, 8, 11, ALWAYS},
	{"compact_delay_max", 8, 8, 15, ONLY_V15}, {"compact_delay_min", 8, 8, 15, ONLY_V15},
	{"ac_tgid", 4, 4, 12, ALWAYS}, {"ac_tgetime", 8, 8, 12, ALWAYS},
	{"ac_exe_dev", 8, 8, 12, ALWAYS}, {"ac_exe_inode", 8, 8, 12, ALWAYS},
	{"wpcopy_count", 8, 8, 13, ALWAYS}, {"wpcopy_delay_total", 8, 8, 13, ALWAYS},
	{"wpcopy_delay_max", 8, 8, 15, ONLY_V15}, {"wpcopy_delay_min", 8, 8, 15, ONLY_V15},
	{"irq_count", 8, 8, 14, ALWAYS}, {"irq_delay_total", 8, 8, 14, ALWAYS},
	{"irq_delay_max", 8, 8, 15, ONLY_V15}, {"irq_delay_min", 8, 8, 15, ONLY_V15},
	{"cpu_delay_max", 8, 8, 16, FROM_V16}, {"cpu_delay_min", 8, 8, 16, FROM_V16},
	{"blkio_delay_max", 8, 8, 16, FROM_V16}, {"blkio_delay_min", 8, 8, 16, FROM_V16},
	{"swapin_delay_max", 8, 8, 16, FROM_V16}, {"swapin_delay_min", 8, 8, 16, FROM_V16},
	{"freepages_delay_max", 8, 8, 16, FROM_V16}, {"freepages_delay_min", 8, 8, 16, FROM_V16},
	{"thrashing_delay_max", 8, 8, 16, FROM_V16}, {"thrashing_delay_min", 8, 8, 16, FROM_V16},
	{"compact_delay_max", 8, 8, 16, FROM_V16}, {"compact_delay_min", 8, 8, 16, FROM_V16},
	{"wpcopy_delay_max", 8, 8, 16, FROM_V16}, {"wpcopy_delay_min", 8, 8, 16, FROM_V16},
	{"irq_delay_max", 8, 8, 16, FROM_V16}, {"irq_delay_min", 8, 8, 16, FROM_V16},
	{"cpu_delay_max_ts", 16, 8, 17, FROM_V16}, {"blkio_delay_max_ts", 16, 8, 17, FROM_V16},
	{"swapin_delay_max_ts", 16, 8, 17, FROM_V16}, {"freepages_delay_max_ts", 16, 8, 17, FROM_V16},
	{"thrashing_delay_max_ts", 16, 8, 17, FROM_V16}, {"compact_delay_max_ts", 16, 8, 17, FROM_V16},
	{"wpcopy_delay_max_ts", 16, 8, 17, FROM_V16}, {"irq_delay_max_ts", 16, 8, 17, FROM_V16},
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static const char *const class_names[TV_DELAY_NCLASS] = {
	"cpu", "blkio", "swapin", "freepages", "thrashing", "compact", "wpcopy", "irq",
};
static const int class_since[TV_DELAY_NCLASS] = {1, 1, 1, 7, 9, 11, 13, 14};

static bool field_in(const struct tfield *f, int version)
{
	if (version < f->since)
		return false;
	return f->place == ALWAYS || (f->place == ONLY_V15 ? version == 15 : version >= 16);
}

/* Offset of a field in a version, or -1; *size gets the struct size when name is NULL. */
static long layout(int version, const char *name, size_t *size)
{
	size_t off = 0;

	for (size_t i = 0; i < NFIELDS; i++) {
		const struct tfield *f = &fields[i];

		if (!field_in(f, version))
			continue;
		off = (off + f->align - 1) / f->align * f->align;
		if (name && strcmp(name, f->name) == 0)
			return (long)off;
		off += f->size;
	}
	if (size)
		*size = (off + 7) / 8 * 8;
	return -1;
}

/* A distinct value per field, so a field read from a wrong offset is caught. */
static uint64_t value_of(size_t field_index)
{
	return 1000003u * (field_index + 1);
}

static uint64_t expect(int version, const char *name)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (field_in(&fields[i], version) && strcmp(fields[i].name, name) == 0)
			return value_of(i);
	ck_abort_msg("no field %s in v%d", name, version);
	return 0;
}

/* Builds a payload of a version; extra bytes of 0x11 (plausible counters) follow it. Returns its length. */
static size_t build(int version, unsigned char *buf, size_t cap, size_t extra)
{
	size_t size = 0, off = 0;
	uint16_t v = (uint16_t)version;

	layout(version, NULL, &size);
	ck_assert_uint_le(size + extra, cap);
	memset(buf, 0, size);
	memset(buf + size, 0x11, extra);
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct tfield *f = &fields[i];

		if (!field_in(f, version))
			continue;
		off = (off + f->align - 1) / f->align * f->align;
		if (f->size == 8) {
			uint64_t x = value_of(i);
			memcpy(buf + off, &x, 8);
		} else if (f->size == 16) {
			memset(buf + off, 0x5a, 16);
		}
		off += f->size;
	}
	memcpy(buf, &v, 2);
	return size + extra;
}

/* extra trailing bytes must not be taken for fields the version lacks */
static void check_version(int version, size_t expected_size, size_t extra)
{
	unsigned char buf[1024];
	char name[64];
	struct ts_result r;
	size_t size = 0;

	layout(version, NULL, &size);
	ck_assert_uint_eq(size, expected_size);
	size_t len = build(version, buf, sizeof(buf), extra);
	ck_assert_int_eq(ts_parse_stats(buf, len, &r), 0);
	ck_assert_uint_eq(r.version, version);
	ck_assert_int_eq(r.utime_us, (int64_t)expect(version, "ac_utime"));
	ck_assert_int_eq(r.stime_us, (int64_t)expect(version, "ac_stime"));
	ck_assert_int_eq(r.nvcsw, (int64_t)expect(version, "nvcsw"));
	ck_assert_int_eq(r.nivcsw, (int64_t)expect(version, "nivcsw"));
	ck_assert_int_eq(r.cpu_ns, (int64_t)expect(version, "cpu_run_virtual_total"));
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		const struct ts_delay *d = &r.delay[c];

		if (version < class_since[c]) {
			ck_assert_msg(d->count == TV_UNKNOWN && d->total_ns == TV_UNKNOWN &&
				      d->max_ns == TV_UNKNOWN && d->min_ns == TV_UNKNOWN,
				      "v%d %s must be unknown", version, class_names[c]);
			continue;
		}
		snprintf(name, sizeof(name), "%s_count", class_names[c]);
		ck_assert_int_eq(d->count, (int64_t)expect(version, name));
		snprintf(name, sizeof(name), "%s_delay_total", class_names[c]);
		ck_assert_int_eq(d->total_ns, (int64_t)expect(version, name));
		if (version < 15) {
			ck_assert_int_eq(d->max_ns, TV_UNKNOWN);
			ck_assert_int_eq(d->min_ns, TV_UNKNOWN);
			continue;
		}
		snprintf(name, sizeof(name), "%s_delay_max", class_names[c]);
		ck_assert_int_eq(d->max_ns, (int64_t)expect(version, name));
		snprintf(name, sizeof(name), "%s_delay_min", class_names[c]);
		ck_assert_int_eq(d->min_ns, (int64_t)expect(version, name));
	}
}

#ifdef HAVE_UAPI_TASKSTATS
/* The generator against the compiler's own layout of the installed header (v13 on bookworm). */
START_TEST(test_layout_matches_header)
{
	int v = TASKSTATS_VERSION;
	size_t size = 0;

	if (v >= 15) /* a v15 header moves fields; the generator is still checked by sizes */
		return;
	layout(v, NULL, &size);
	ck_assert_uint_eq(size, sizeof(struct taskstats));
#define AT(f) ck_assert_int_eq(layout(v, #f, NULL), (long)offsetof(struct taskstats, f))
	AT(cpu_count); AT(blkio_count); AT(swapin_delay_total); AT(cpu_run_real_total); AT(cpu_run_virtual_total);
	AT(ac_comm); AT(ac_sched); AT(ac_uid); AT(ac_btime); AT(ac_etime); AT(ac_utime);
	AT(ac_stime); AT(nvcsw); AT(nivcsw); AT(freepages_count); AT(thrashing_delay_total);
	AT(ac_btime64); AT(compact_count); AT(ac_tgid); AT(ac_tgetime); AT(ac_exe_inode);
#undef AT
}
END_TEST
#endif

START_TEST(test_sizes)
{
	static const struct { int v; size_t size; } sizes[] = {
		{7, 328}, {8, 328}, {9, 344}, {10, 352}, {11, 368}, {12, 400},
		{13, 416}, {14, 432}, {15, 560}, {16, 560}, {17, 688},
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t size = 0;
		layout(sizes[i].v, NULL, &size);
		ck_assert_uint_eq(size, sizes[i].size);
	}
}
END_TEST

START_TEST(test_v8)
{
	check_version(8, 328, 0);
	check_version(8, 328, 128);
}
END_TEST
START_TEST(test_v10)
{
	check_version(10, 352, 0);
	check_version(10, 352, 128);
}
END_TEST
START_TEST(test_v14)
{
	check_version(14, 432, 0);
	check_version(14, 432, 128);
}
END_TEST
START_TEST(test_v15)
{
	check_version(15, 560, 0);
	check_version(15, 560, 128);
}
END_TEST
START_TEST(test_v16)
{
	check_version(16, 560, 0);
	check_version(16, 560, 128);
}
END_TEST
START_TEST(test_v17)
{
	check_version(17, 688, 0);
	check_version(17, 688, 128);
}
END_TEST

START_TEST(test_every_version)
{
	for (int v = 7; v <= 17; v++) {
		size_t size = 0;

		layout(v, NULL, &size);
		check_version(v, size, 0);
		check_version(v, size, 128);
	}
}
END_TEST

START_TEST(test_v15_v16_differ)
{
	unsigned char a[1024], b[1024];
	struct ts_result ra, rb;

	/* same bytes, version field alone changes where blkio lives */
	size_t len = build(16, a, sizeof(a), 0);
	memcpy(b, a, len);
	uint16_t v15 = 15;
	memcpy(b, &v15, 2);
	ck_assert_int_eq(ts_parse_stats(a, len, &ra), 0);
	ck_assert_int_eq(ts_parse_stats(b, len, &rb), 0);
	ck_assert_int_ne(ra.delay[TV_DELAY_IO].count, rb.delay[TV_DELAY_IO].count);
	ck_assert_int_eq(ra.delay[TV_DELAY_CPU].count, rb.delay[TV_DELAY_CPU].count);
}
END_TEST

START_TEST(test_truncated)
{
	unsigned char buf[1024];
	struct ts_result r;

	build(16, buf, sizeof(buf), 0);
	/* irq_count is 416..424, irq_delay_total 424..432: cut between them */
	ck_assert_int_eq(ts_parse_stats(buf, 424, &r), 0);
	ck_assert_int_eq(r.delay[TV_DELAY_IRQ].count, (int64_t)expect(16, "irq_count"));
	ck_assert_int_eq(r.delay[TV_DELAY_IRQ].total_ns, TV_UNKNOWN);
	ck_assert_int_eq(r.delay[TV_DELAY_CPU].max_ns, TV_UNKNOWN);
	ck_assert_int_eq(r.delay[TV_DELAY_WPCOPY].total_ns, (int64_t)expect(16, "wpcopy_delay_total"));
	/* cut inside the first counter */
	ck_assert_int_eq(ts_parse_stats(buf, 20, &r), 0);
	ck_assert_uint_eq(r.version, 16);
	ck_assert_int_eq(r.delay[TV_DELAY_CPU].count, TV_UNKNOWN);
	ck_assert_int_eq(r.utime_us, TV_UNKNOWN);
	/* nothing to go on */
	ck_assert_int_eq(ts_parse_stats(buf, 1, &r), -1);
	ck_assert_int_eq(r.delay[TV_DELAY_CPU].count, TV_UNKNOWN);
	ck_assert_int_eq(ts_parse_stats(buf, 0, &r), -1);
}
END_TEST

/* Field by field: the struct's padding bytes are not part of the result. */
static void assert_same(const struct ts_result *a, const struct ts_result *b)
{
	ck_assert_uint_eq(a->version, b->version);
	ck_assert_int_eq(a->nvcsw, b->nvcsw);
	ck_assert_int_eq(a->nivcsw, b->nivcsw);
	ck_assert_int_eq(a->utime_us, b->utime_us);
	ck_assert_int_eq(a->stime_us, b->stime_us);
	ck_assert_int_eq(a->cpu_ns, b->cpu_ns);
	ck_assert_mem_eq(a->delay, b->delay, sizeof(a->delay));
}

START_TEST(test_trailing_bytes)
{
	unsigned char buf[1024];
	struct ts_result plain, longer;

	size_t len = build(16, buf, sizeof(buf), 0);
	ck_assert_int_eq(ts_parse_stats(buf, len, &plain), 0);
	len = build(16, buf, sizeof(buf), 200);
	ck_assert_int_eq(ts_parse_stats(buf, len, &longer), 0);
	assert_same(&plain, &longer);
	/* a future version is read with the appended layout */
	uint16_t v = 23;
	memcpy(buf, &v, 2);
	ck_assert_int_eq(ts_parse_stats(buf, len, &longer), 0);
	ck_assert_int_eq(longer.delay[TV_DELAY_IRQ].min_ns, plain.delay[TV_DELAY_IRQ].min_ns);
}
END_TEST

START_TEST(test_unaligned_and_odd_values)
{
	unsigned char buf[1100];
	struct ts_result r;

	size_t len = build(16, buf + 3, sizeof(buf) - 3, 0);
	ck_assert_int_eq(ts_parse_stats(buf + 3, len, &r), 0);
	ck_assert_int_eq(r.nvcsw, (int64_t)expect(16, "nvcsw"));
	/* a counter above INT64_MAX cannot be shown truthfully */
	uint64_t huge = UINT64_MAX - 5;
	memcpy(buf + 3 + 24, &huge, 8);
	ck_assert_int_eq(ts_parse_stats(buf + 3, len, &r), 0);
	ck_assert_int_eq(r.delay[TV_DELAY_CPU].total_ns, TV_UNKNOWN);
	/* versions before the fixed layout are refused */
	uint16_t v1 = 6;
	memcpy(buf, &v1, 2);
	ck_assert_int_eq(ts_parse_stats(buf, 400, &r), -1);
	ck_assert_uint_eq(r.version, 6);
	ck_assert_int_eq(r.delay[TV_DELAY_CPU].count, TV_UNKNOWN);
}
END_TEST

/* --- whole messages --- */

#define FAMILY 0x1c

static size_t put_attr(unsigned char *p, uint16_t type, const void *data, size_t len)
{
	struct nlattr a = {.nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = type};

	memcpy(p, &a, sizeof(a));
	if (len)
		memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	return NLA_HDRLEN + NLA_ALIGN(len);
}

/* A reply as the kernel builds it, with NULL padding and attributes we must skip. */
static size_t build_reply(unsigned char *p, uint32_t seq, uint16_t aggr, uint32_t id, int version)
{
	unsigned char stats[1024], nest[1200];
	size_t n = 0, m = NLMSG_HDRLEN + GENL_HDRLEN;
	size_t slen = build(version, stats, sizeof(stats), 0);
	uint16_t idtype = aggr == 5 ? 2 : 1;
	const char odd[6] = "abcde";

	n += put_attr(nest + n, idtype, &id, 4);
	n += put_attr(nest + n, 6 /* NULL */, NULL, 0);
	n += put_attr(nest + n, 77, odd, sizeof(odd));
	n += put_attr(nest + n, 3 /* STATS */, stats, slen);

	m += put_attr(p + m, 6, NULL, 0);
	m += put_attr(p + m, 99, odd, 3);
	m += put_attr(p + m, aggr, nest, n);

	struct nlmsghdr h = {.nlmsg_len = (uint32_t)m, .nlmsg_type = FAMILY, .nlmsg_seq = seq};
	struct genlmsghdr g = {.cmd = 2, .version = 1};
	memcpy(p, &h, sizeof(h));
	memcpy(p + NLMSG_HDRLEN, &g, sizeof(g));
	return m;
}

static size_t build_error(unsigned char *p, uint32_t seq, int err)
{
	struct nlmsghdr h = {.nlmsg_len = NLMSG_HDRLEN + sizeof(struct nlmsgerr),
			     .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = seq};
	struct nlmsgerr e = {.error = -err};

	memcpy(p, &h, sizeof(h));
	memcpy(p + NLMSG_HDRLEN, &e, sizeof(e));
	return h.nlmsg_len;
}

START_TEST(test_message_walk)
{
	unsigned char buf[4096];
	struct ts_reply rep;
	size_t a = build_reply(buf, 77, 5 /* AGGR_TGID */, 1234, 16);
	size_t b = build_error(buf + a, 78, ESRCH);
	size_t c = build_reply(buf + a + b, 79, 4 /* AGGR_PID */, 4321, 8);

	ck_assert_int_eq(ts_parse_msg(buf, a + b + c, FAMILY, &rep), (ssize_t)a);
	ck_assert_int_eq(rep.kind, TS_MSG_STATS);
	ck_assert_uint_eq(rep.seq, 77);
	ck_assert_int_eq(rep.id, 1234);
	ck_assert(rep.is_tgid);
	ck_assert_uint_eq(rep.r.version, 16);
	ck_assert_int_eq(rep.r.delay[TV_DELAY_IRQ].total_ns, (int64_t)expect(16, "irq_delay_total"));
	/* a group's extremes are not reported by the kernel */
	ck_assert_int_eq(rep.r.delay[TV_DELAY_IRQ].max_ns, TV_UNKNOWN);
	ck_assert_int_eq(rep.r.delay[TV_DELAY_CPU].min_ns, TV_UNKNOWN);

	ck_assert_int_eq(ts_parse_msg(buf + a, b + c, FAMILY, &rep), (ssize_t)b);
	ck_assert_int_eq(rep.kind, TS_MSG_ERROR);
	ck_assert_int_eq(rep.error, ESRCH);
	ck_assert_uint_eq(rep.seq, 78);

	ck_assert_int_eq(ts_parse_msg(buf + a + b, c, FAMILY, &rep), (ssize_t)c);
	ck_assert_int_eq(rep.kind, TS_MSG_STATS);
	ck_assert(!rep.is_tgid);
	ck_assert_int_eq(rep.id, 4321);
	ck_assert_int_eq(rep.r.delay[TV_DELAY_THRASHING].count, TV_UNKNOWN);
	ck_assert_int_eq(rep.r.delay[TV_DELAY_RECLAIM].count, (int64_t)expect(8, "freepages_count"));

	/* a thread's extremes are kept */
	size_t d = build_reply(buf, 80, 4, 99, 16);
	ck_assert_int_eq(ts_parse_msg(buf, d, FAMILY, &rep), (ssize_t)d);
	ck_assert_int_eq(rep.r.delay[TV_DELAY_IRQ].max_ns, (int64_t)expect(16, "irq_delay_max"));
	ck_assert_int_eq(rep.r.delay[TV_DELAY_CPU].min_ns, (int64_t)expect(16, "cpu_delay_min"));

	/* another family's message is not ours */
	ck_assert_int_eq(ts_parse_msg(buf, a, FAMILY + 1, &rep), (ssize_t)a);
	ck_assert_int_eq(rep.kind, TS_MSG_OTHER);
}
END_TEST

START_TEST(test_message_malformed)
{
	unsigned char buf[4096];
	struct ts_reply rep;
	size_t a = build_reply(buf, 5, 4, 42, 16);

	ck_assert_int_eq(ts_parse_msg(buf, a - 1, FAMILY, &rep), -1); /* nlmsg_len beyond data */
	ck_assert_int_eq(ts_parse_msg(buf, 10, FAMILY, &rep), -1);
	/* a nest whose length runs past the message */
	struct nlattr bad = {.nla_len = 0x7fff, .nla_type = 4};
	memcpy(buf + NLMSG_HDRLEN + GENL_HDRLEN + 4 + 8, &bad, sizeof(bad));
	ck_assert_int_eq(ts_parse_msg(buf, a, FAMILY, &rep), (ssize_t)a);
	ck_assert_int_eq(rep.kind, TS_MSG_INVALID);
	ck_assert_uint_eq(rep.seq, 5);
	/* a nest without stats */
	size_t m = NLMSG_HDRLEN + GENL_HDRLEN;
	uint32_t id = 9;
	unsigned char nest[16];
	size_t n = put_attr(nest, 1, &id, 4);
	m += put_attr(buf + m, 4, nest, n);
	struct nlmsghdr h = {.nlmsg_len = (uint32_t)m, .nlmsg_type = FAMILY, .nlmsg_seq = 6};
	memcpy(buf, &h, sizeof(h));
	ck_assert_int_eq(ts_parse_msg(buf, m, FAMILY, &rep), (ssize_t)m);
	ck_assert_int_eq(rep.kind, TS_MSG_INVALID);
}
END_TEST

START_TEST(test_request)
{
	unsigned char buf[64];
	struct nlmsghdr h;
	struct genlmsghdr g;
	struct nlattr a;
	uint32_t v;

	ck_assert_uint_eq(ts_build_request(buf, 10, FAMILY, 1, 2, false), 0);
	size_t len = ts_build_request(buf, sizeof(buf), FAMILY, 0xdeadbeef, 4242, true);
	ck_assert_uint_eq(len, 28);
	memcpy(&h, buf, sizeof(h));
	memcpy(&g, buf + NLMSG_HDRLEN, sizeof(g));
	memcpy(&a, buf + NLMSG_HDRLEN + GENL_HDRLEN, sizeof(a));
	memcpy(&v, buf + NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN, sizeof(v));
	ck_assert_uint_eq(h.nlmsg_len, 28);
	ck_assert_uint_eq(h.nlmsg_type, FAMILY);
	ck_assert_uint_eq(h.nlmsg_flags, NLM_F_REQUEST); /* no ACK asked */
	ck_assert_uint_eq(h.nlmsg_seq, 0xdeadbeef);
	ck_assert_uint_eq(g.cmd, 1);
	ck_assert_uint_eq(g.version, 1);
	ck_assert_uint_eq(a.nla_type, 2);
	ck_assert_uint_eq(a.nla_len, 8);
	ck_assert_uint_eq(v, 4242);
	ts_build_request(buf, sizeof(buf), FAMILY, 1, 7, false);
	memcpy(&a, buf + NLMSG_HDRLEN + GENL_HDRLEN, sizeof(a));
	ck_assert_uint_eq(a.nla_type, 1);
}
END_TEST

/* --- arithmetic: model/delta.h turns two taskstats samples into interval figures --- */

START_TEST(test_pct)
{
	ck_assert_double_eq_tol(delta_delay_pct(0, 500000000, 1.0), 50.0, 1e-9);
	ck_assert_double_eq_tol(delta_delay_pct(1000, 1000 + 300000000, 2.0), 15.0, 1e-9);
	/* a thread group sums its threads */
	ck_assert_double_eq_tol(delta_delay_pct(0, 3000000000, 1.0), 300.0, 1e-9);
	ck_assert_double_eq_tol(delta_delay_pct(5, 5, 1.0), 0.0, 1e-12);
	ck_assert(isnan(delta_delay_pct(TV_UNKNOWN, 5, 1.0)));
	ck_assert(isnan(delta_delay_pct(5, TV_UNKNOWN, 1.0)));
	ck_assert(isnan(delta_delay_pct(0, 5, 0.0)));
	ck_assert(isnan(delta_delay_pct(0, 5, -1.0)));
	ck_assert(isnan(delta_delay_pct(0, 5, NAN)));
	/* wrapped total: unknown, never negative */
	ck_assert(isnan(delta_delay_pct(INT64_MAX - 10, 20, 1.0)));
	/* a new task under an old id starts again from a small total */
	ck_assert(isnan(delta_delay_pct(4000000000, 1000, 1.0)));
}
END_TEST

START_TEST(test_avg)
{
	ck_assert_double_eq_tol(delta_delay_avg_ms(0, 10, 0, 20000000), 2.0, 1e-9);
	ck_assert_double_eq_tol(delta_delay_avg_ms(10, 14, 1000, 1000 + 2000000), 0.5, 1e-9);
	ck_assert(isnan(delta_delay_avg_ms(10, 10, 0, 0)));           /* no event */
	ck_assert(isnan(delta_delay_avg_ms(10, 12, 5000, 100)));      /* total wrapped, count went on */
	ck_assert(isnan(delta_delay_avg_ms(10, 12, INT64_MAX - 10, 20))); /* wrapped near the top */
	ck_assert(isnan(delta_delay_avg_ms(12, 10, 0, 100)));         /* new task under an old id */
	ck_assert(isnan(delta_delay_avg_ms(TV_UNKNOWN, 10, 0, 100)));
	ck_assert(isnan(delta_delay_avg_ms(0, TV_UNKNOWN, 0, 100)));
	ck_assert(isnan(delta_delay_avg_ms(0, 10, TV_UNKNOWN, 100)));
	ck_assert(isnan(delta_delay_avg_ms(0, 10, 0, TV_UNKNOWN)));
}
END_TEST

/* --- in-flight window --- */

START_TEST(test_window_basic)
{
	struct ts_window w;

	ck_assert_int_eq(tswin_init(&w, 10, 100, 4, 3), 0);
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(tswin_next(&w), i);
	ck_assert_uint_eq(tswin_next(&w), TSWIN_NONE); /* window full */
	ck_assert_uint_eq(tswin_seq(&w, 3), 103);
	ck_assert_uint_eq(tswin_answer(&w, 101), 1);
	ck_assert_uint_eq(tswin_answer(&w, 101), TSWIN_NONE); /* duplicate */
	ck_assert_uint_eq(tswin_answer(&w, 99), TSWIN_NONE);  /* earlier batch */
	ck_assert_uint_eq(tswin_answer(&w, 110), TSWIN_NONE); /* beyond the batch */
	ck_assert_uint_eq(tswin_answer(&w, 105), TSWIN_NONE); /* not sent yet */
	ck_assert_uint_eq(tswin_next(&w), 4);

	/* 0, 2, 3, 4 got no reply: back to pending, window halves */
	ck_assert_uint_eq(tswin_lost(&w, true), 0);
	ck_assert_uint_eq(w.limit, 2);
	ck_assert_uint_eq(w.inflight, 0);
	ck_assert_uint_eq(tswin_next(&w), 0);
	ck_assert_uint_eq(tswin_next(&w), 2);
	ck_assert_uint_eq(tswin_next(&w), TSWIN_NONE);
	/* a late reply to the first send of 0 still settles it */
	ck_assert_uint_eq(tswin_answer(&w, 100), 0);
	ck_assert_uint_eq(tswin_retry(&w, 102), 2);
	ck_assert_uint_eq(tswin_next(&w), 2);
	ck_assert(!tswin_done(&w));
	tswin_abandon(&w);
	ck_assert(tswin_done(&w));
	ck_assert_uint_eq(tswin_next(&w), TSWIN_NONE);
	tswin_free(&w);
}
END_TEST

START_TEST(test_window_gives_up)
{
	struct ts_window w;

	ck_assert_int_eq(tswin_init(&w, 2, 0, 8, 3), 0);
	for (int round = 0; round < 3; round++) {
		ck_assert_uint_eq(tswin_next(&w), 0);
		if (round == 0)
			ck_assert_uint_eq(tswin_next(&w), 1);
		if (round == 0)
			ck_assert_uint_eq(tswin_answer(&w, 1), 1);
		size_t gone = tswin_lost(&w, false);
		ck_assert_uint_eq(gone, round == 2 ? 1 : 0);
	}
	ck_assert(tswin_done(&w));
	tswin_free(&w);

	/* retry also respects the limit of sends */
	ck_assert_int_eq(tswin_init(&w, 1, 0, 8, 2), 0);
	tswin_next(&w);
	ck_assert_uint_eq(tswin_retry(&w, 0), 0);
	tswin_next(&w);
	ck_assert_uint_eq(tswin_retry(&w, 0), 0);
	ck_assert(tswin_done(&w));
	tswin_free(&w);
}
END_TEST

START_TEST(test_window_seq_wrap)
{
	struct ts_window w;

	ck_assert_int_eq(tswin_init(&w, 4, UINT32_MAX - 1, 8, 3), 0);
	while (tswin_next(&w) != TSWIN_NONE)
		;
	ck_assert_uint_eq(tswin_seq(&w, 3), 1);
	ck_assert_uint_eq(tswin_answer(&w, 1), 3);
	ck_assert_uint_eq(tswin_answer(&w, UINT32_MAX), 1);
	ck_assert_uint_eq(tswin_answer(&w, UINT32_MAX - 2), TSWIN_NONE);
	tswin_free(&w);

	ck_assert_int_eq(tswin_init(&w, 0, 0, 8, 3), 0);
	ck_assert(tswin_done(&w));
	ck_assert_uint_eq(tswin_next(&w), TSWIN_NONE);
	tswin_free(&w);
}
END_TEST

/*
 * The client's loop against a simulated kernel that answers inside send()
 * and drops replies beyond its buffer (reporting the overflow once), with
 * some tasks gone: every query ends answered or gone, none is lost.
 */
START_TEST(test_window_overflow_simulation)
{
	enum { N = 3000, CAP = 100 };
	struct ts_window w;
	static uint32_t queue[CAP];
	static bool answered[N];
	size_t queued = 0, sends = 0, losses = 0;
	bool overflow = false;

	memset(answered, 0, sizeof(answered));
	ck_assert_int_eq(tswin_init(&w, N, 5000, 1000 /* far too many */, 3), 0);
	while (!tswin_done(&w)) {
		size_t i;
		while ((i = tswin_next(&w)) != TSWIN_NONE) {
			sends++;
			if (queued < CAP)
				queue[queued++] = tswin_seq(&w, i);
			else
				overflow = true;
		}
		for (size_t k = 0; k < queued; k++) {
			size_t q = tswin_answer(&w, queue[k]);
			if (q != TSWIN_NONE)
				answered[q] = q % 97 != 0; /* every 97th task vanished */
		}
		queued = 0;
		if (overflow) {
			ck_assert_uint_eq(tswin_lost(&w, true), 0);
			losses++;
			overflow = false;
		}
	}
	for (size_t i = 0; i < N; i++)
		ck_assert_msg(answered[i] == (i % 97 != 0), "query %zu", i);
	ck_assert_uint_le(w.limit, CAP);
	ck_assert_uint_le(losses, 4);          /* 1000 -> 500 -> 250 -> 125 -> 62 */
	ck_assert_uint_lt(sends, N + 1000 + 500 + 250 + 125);
	tswin_free(&w);
}
END_TEST

/* Kernels before 5.14 have no kernel.task_delayacct: on from boot unless nodelayacct. */
START_TEST(test_acct_without_switch)
{
	ck_assert(ts_cmdline_has("BOOT_IMAGE=/vmlinuz ro delayacct quiet\n", "delayacct"));
	ck_assert(!ts_cmdline_has("ro nodelayacct quiet", "delayacct"));
	ck_assert(ts_cmdline_has("ro nodelayacct", "nodelayacct"));
	ck_assert(!ts_cmdline_has("ro delayacct=1", "delayacct"));
	ck_assert(!ts_cmdline_has("", "delayacct"));

	/* Debian 11, Ubuntu 20.04, RHEL 8: on, or off when booted so */
	ck_assert_int_eq(ts_acct_without_switch("5.10.0-28-amd64", "ro quiet", KCONFIG_YES), TS_ACCT_ON);
	ck_assert_int_eq(ts_acct_without_switch("5.4.0-150-generic", "ro", KCONFIG_UNKNOWN), TS_ACCT_ON);
	ck_assert_int_eq(ts_acct_without_switch("4.18.0-513.el8.x86_64", "ro nodelayacct", KCONFIG_UNKNOWN),
			 TS_ACCT_OFF);
	ck_assert_int_eq(ts_acct_without_switch("5.13.19", "", KCONFIG_YES), TS_ACCT_ON);
	/* built without it, as the config says */
	ck_assert_int_eq(ts_acct_without_switch("5.10.0", "", KCONFIG_NO), TS_ACCT_ABSENT);
	/* from 5.14 on the switch exists wherever delay accounting is built in */
	ck_assert_int_eq(ts_acct_without_switch("5.14.0", "", KCONFIG_UNKNOWN), TS_ACCT_ABSENT);
	ck_assert_int_eq(ts_acct_without_switch("6.1.0-13-amd64", "", KCONFIG_YES), TS_ACCT_ABSENT);
	ck_assert_int_eq(ts_acct_without_switch("garbage", "", KCONFIG_YES), TS_ACCT_ABSENT);
}
END_TEST

static Suite *taskstats_suite(void)
{
	Suite *s = suite_create("taskstats");
	TCase *tc = tcase_create("parse");

#ifdef HAVE_UAPI_TASKSTATS
	tcase_add_test(tc, test_layout_matches_header);
#endif
	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_v8);
	tcase_add_test(tc, test_v10);
	tcase_add_test(tc, test_v14);
	tcase_add_test(tc, test_v15);
	tcase_add_test(tc, test_v16);
	tcase_add_test(tc, test_v17);
	tcase_add_test(tc, test_every_version);
	tcase_add_test(tc, test_v15_v16_differ);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_trailing_bytes);
	tcase_add_test(tc, test_unaligned_and_odd_values);
	tcase_add_test(tc, test_message_walk);
	tcase_add_test(tc, test_message_malformed);
	tcase_add_test(tc, test_request);
	suite_add_tcase(s, tc);

	tc = tcase_create("arithmetic");
	tcase_add_test(tc, test_pct);
	tcase_add_test(tc, test_avg);
	tcase_add_test(tc, test_acct_without_switch);
	suite_add_tcase(s, tc);

	tc = tcase_create("window");
	tcase_add_test(tc, test_window_basic);
	tcase_add_test(tc, test_window_gives_up);
	tcase_add_test(tc, test_window_seq_wrap);
	tcase_add_test(tc, test_window_overflow_simulation);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(taskstats_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
