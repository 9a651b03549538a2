/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recording format: checksums, varints, frame headers; samples to bytes and
 * back (real snapshots of this machine and hand-made edge cases), damaged
 * bytes never crash the decoder; the schema, newer versions and fields this
 * build does not know; files and daily directories written and read back,
 * with damage skipped and reported with what it cost.
 */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hosts/fleet.h"
#include "hosts/tape.h"
#include "model/column.h"
#include "model/delta.h"
#include "record/bytes.h"
#include "record/codec.h"
#include "record/copy.h"
#include "record/crc32c.h"
#include "record/format.h"
#include "record/hosts/hostframe.h"
#include "record/reader.h"
#include "record/reader_priv.h"
#include "record/schema.h"
#include "record/stream.h"
#include "record/strings.h"
#include "record/writer.h"
#include "record/zstream.h"
#include "replay.h"
#include "sample/sampler.h"
#include "sample/taskstats/taskstats.h"
#include "util/clock.h"
#include "view/rows.h"
#include "view/shown.h"

/* ---- helpers ---- */

static void layout_for(struct rec_schema *s, struct rec_layout *l, const struct colset *cs)
{
	ck_assert_int_eq(rec_schema_build(s, cs), 0);
	const char *ids[16];
	ck_assert_uint_le(s->ncols, 16);
	for (size_t i = 0; i < s->ncols; i++)
		ids[i] = s->cols[i].id;
	char *err = NULL;
	ck_assert_int_eq(rec_layout_bind(l, s, ids, s->ncols, &err), 0);
}

static void same_str(const char *a, const char *b, const char *what)
{
	ck_assert_msg((a == NULL) == (b == NULL), "%s: %s vs %s", what, a ? a : "NULL", b ? b : "NULL");
	if (a)
		ck_assert_msg(strcmp(a, b) == 0, "%s: '%s' vs '%s'", what, a, b);
}

/* Bit-equal doubles (NaN equals NaN). */
static void same_dbl(double a, double b, const char *what)
{
	ck_assert_msg(memcmp(&a, &b, sizeof(a)) == 0, "%s: %.17g vs %.17g", what, a, b);
}

static void same_task(const struct tv_task *a, const struct tv_task *b, size_t npv);

static void same_list(const struct tv_task *a, size_t na, const struct tv_task *b, size_t nb, size_t npv)
{
	ck_assert_uint_eq(na, nb);
	for (size_t i = 0; i < na; i++)
		same_task(&a[i], &b[i], npv);
}

static void same_task(const struct tv_task *a, const struct tv_task *b, size_t npv)
{
	ck_assert_int_eq(a->tid, b->tid);
	ck_assert_int_eq(a->tgid, b->tgid);
	ck_assert_int_eq(a->tid, b->tid);
	ck_assert_int_eq(a->ppid, b->ppid);
	ck_assert_int_eq(a->nice, b->nice);
	ck_assert_int_eq(a->prio, b->prio);
	ck_assert_uint_eq(a->partial, b->partial);
	ck_assert_int_eq(a->state, b->state);
	ck_assert_int_eq(a->is_thread, b->is_thread);
	ck_assert_int_eq(a->details_read, b->details_read);
	ck_assert_int_eq(a->cpu_fine, b->cpu_fine);
	ck_assert_int_eq(a->kthread, b->kthread);
	ck_assert_int_eq(a->threads_complete, b->threads_complete);
	ck_assert_int_eq(a->threads_are_rows, b->threads_are_rows);
	ck_assert_int_eq(a->live_sums, b->live_sums);
	ck_assert_uint_eq(a->start_ticks, b->start_ticks);
	ck_assert_int_eq(a->uid, b->uid);
	same_str(a->user, b->user, "user");
	ck_assert_int_eq(a->cpu_ns, b->cpu_ns);
	ck_assert_int_eq(a->nthreads, b->nthreads);
	ck_assert_int_eq(task_mem(a)->size, task_mem(b)->size);
	ck_assert_int_eq(task_mem(a)->rss, task_mem(b)->rss);
	ck_assert_int_eq(task_mem(a)->pte, task_mem(b)->pte);
	ck_assert_int_eq(task_mem(a)->swap, task_mem(b)->swap);
	ck_assert_int_eq(task_mem(a)->stk, task_mem(b)->stk);
	ck_assert_int_eq(task_mem(a)->hwm, task_mem(b)->hwm);
	ck_assert_int_eq(task_mem(a)->io_read, task_mem(b)->io_read);
	ck_assert_int_eq(task_mem(a)->io_write, task_mem(b)->io_write);
	same_dbl(task_mem(a)->t_io, task_mem(b)->t_io, "t_io");
	ck_assert_int_eq(a->ctxt_vol, b->ctxt_vol);
	ck_assert_int_eq(a->ctxt_invol, b->ctxt_invol);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		ck_assert_int_eq(a->delay[c].count, b->delay[c].count);
		ck_assert_int_eq(a->delay[c].total_ns, b->delay[c].total_ns);
	}
	same_dbl(a->t_cpu, b->t_cpu, "t_cpu");
	same_dbl(a->t_ctxt, b->t_ctxt, "t_ctxt");
	same_dbl(a->t_delay, b->t_delay, "t_delay");
	same_str(a->cmdline, b->cmdline, "cmdline");
	ck_assert_str_eq(task_comm(a), task_comm(b));
	for (size_t i = 0; i < npv; i++) {
		const struct tv_pvalue *x = a->pvals ? &a->pvals[i] : NULL, *y = b->pvals ? &b->pvals[i] : NULL;
		bool kx = x && x->known, ky = y && y->known;
		ck_assert_int_eq(kx, ky);
		if (kx && x->s)
			same_str(x->s, y->s, "plugin string");
	}
	same_list(a->threads, a->nthreads_read, b->threads, b->nthreads_read, npv);
	same_list(a->exited, a->nexited, b->exited, b->nexited, npv);
}

static void same_pressure(const struct tv_pressure *a, const struct tv_pressure *b)
{
	ck_assert_int_eq(a->some_known, b->some_known);
	ck_assert_int_eq(a->full_known, b->full_known);
	if (a->some_known) {
		ck_assert_int_eq(a->some_us, b->some_us);
		same_dbl(a->some_avg10, b->some_avg10, "some avg10");
	}
	if (a->full_known) {
		ck_assert_int_eq(a->full_us, b->full_us);
		same_dbl(a->full_avg10, b->full_avg10, "full avg10");
	}
}

/* The group tables, and each process in the same group. */
static void same_groups(const struct snapshot *a, const struct snapshot *b)
{
	ck_assert_uint_eq(a->ncgroups, b->ncgroups);
	for (size_t i = 0; i < a->ncgroups; i++) {
		const struct tv_cgroup *x = a->cgroups[i], *y = b->cgroups[i];
		ck_assert_str_eq(x->path, y->path);
		ck_assert_str_eq(x->unit, y->unit);
		ck_assert_uint_eq(y->index, i);
		same_str(x->parent ? x->parent->path : NULL, y->parent ? y->parent->path : NULL, "parent");
		ck_assert_int_eq(x->mem_bytes, y->mem_bytes);
		ck_assert_int_eq(x->swap_bytes, y->swap_bytes);
		same_str(x->mem_why, y->mem_why, "memory.why");
		same_str(x->psi_why, y->psi_why, "pressure.why");
		same_dbl(x->t_read, y->t_read, "t_read");
		ck_assert_int_eq(x->cpu_usage_us, y->cpu_usage_us);
		ck_assert_int_eq(x->cpu_user_us, y->cpu_user_us);
		ck_assert_int_eq(x->cpu_system_us, y->cpu_system_us);
		same_dbl(x->t_cpu, y->t_cpu, "t_cpu");
		for (int r = 0; r < TV_RES_N; r++)
			same_pressure(&x->psi[r], &y->psi[r]);
	}
	for (size_t i = 0; i < a->nprocs; i++) {
		const struct tv_cgroup *x = a->procs[i].cgroup, *y = b->procs[i].cgroup;
		same_str(x ? x->path : NULL, y ? y->path : NULL, "a process's group");
		ck_assert(!y || y == b->cgroups[y->index]);
	}
}

static void same_sample(const struct rec_sample *a, const struct rec_sample *b)
{
	ck_assert_uint_eq(a->s.self.cgroup_opens, b->s.self.cgroup_opens);
	ck_assert_uint_eq(a->s.self.cgroup_reads, b->s.self.cgroup_reads);
	ck_assert_uint_eq(a->s.needs, b->s.needs);
	same_str(a->s.cgroups_why, b->s.cgroups_why, "cgroups.why");
	same_str(a->s.pressure_why, b->s.pressure_why, "pressure.why");
	same_dbl(a->s.t_pressure, b->s.t_pressure, "t_pressure");
	for (int r = 0; r < TV_RES_N; r++)
		same_pressure(&a->s.pressure[r], &b->s.pressure[r]);
	same_groups(&a->s, &b->s);
	same_dbl(a->s.mono, b->s.mono, "mono");
	same_dbl(a->s.wall, b->s.wall, "wall");
	same_dbl(a->s.boot_ticks, b->s.boot_ticks, "boot_ticks");
	same_dbl(a->s.boot_offset, b->s.boot_offset, "boot_offset");
	same_dbl(a->s.hz, b->s.hz, "hz");
	ck_assert_uint_eq(a->s.sys_procs, b->s.sys_procs);
	ck_assert_uint_eq(a->s.sys_threads, b->s.sys_threads);
	ck_assert_uint_eq(a->s.sys_running, b->s.sys_running);
	ck_assert_uint_eq(a->s.nexits_seen, b->s.nexits_seen);
	ck_assert_uint_eq(a->s.exits_lost, b->s.exits_lost);
	ck_assert_int_eq(a->s.exits_watched, b->s.exits_watched);
	same_str(a->s.exits_why, b->s.exits_why, "exits_why");
	same_str(a->s.exits_source, b->s.exits_source, "exits_source");
	for (int i = 0; i < 3; i++)
		same_dbl(a->s.machine.load[i], b->s.machine.load[i], "load");
	same_dbl(a->s.machine.t_busy, b->s.machine.t_busy, "t_cpu_busy");
	ck_assert_int_eq(a->s.machine.busy_us, b->s.machine.busy_us);
	ck_assert_int_eq(a->s.machine.mem_total, b->s.machine.mem_total);
	ck_assert_int_eq(a->s.machine.mem_available, b->s.machine.mem_available);
	ck_assert_int_eq(a->s.machine.swap_total, b->s.machine.swap_total);
	ck_assert_int_eq(a->s.machine.swap_free, b->s.machine.swap_free);
	same_dbl(a->s.self.cpu_ms, b->s.self.cpu_ms, "self.cpu_ms");
	ck_assert_int_eq(a->s.self.rss_kib, b->s.self.rss_kib);
	ck_assert_uint_eq(a->s.self.opens, b->s.self.opens);
	ck_assert_uint_eq(a->s.self.reads, b->s.self.reads);
	ck_assert_uint_eq(a->s.self.queries, b->s.self.queries);
	ck_assert_uint_eq(a->s.self.kept_fds, b->s.self.kept_fds);
	same_str(a->delay_state, b->delay_state, "delayacct.state");
	same_str(a->delay_message, b->delay_message, "delayacct.message");
	same_list(a->s.procs, a->s.nprocs, b->s.procs, b->s.nprocs, a->s.npvals);
	same_list(a->s.gone, a->s.ngone, b->s.gone, b->s.ngone, 0);
}

/* A real sample of this machine: every process, threads read for all. */
static void take_real(struct sampler *sm, struct rec_sample *out)
{
	struct sample_opts so = {
		.needs = NEED_STAT | NEED_STATUS | NEED_CMDLINE | NEED_CTXT | NEED_DELAY | NEED_USER | NEED_TSTAT |
			 NEED_CGROUP | NEED_CGROUP_MEM | NEED_CGROUP_PSI,
		.all_threads = true,
		.details_all = true,
		.cmdline_wait = 0.5,
	};
	char *err = NULL;
	memset(out, 0, sizeof(*out));
	ck_assert_int_eq(sampler_take(sm, &so, &out->s, &err), 0);
	/* what a recorder does first: times to the nanosecond */
	rec_round_times(&out->s);
	out->delay_state = "on";
	out->delay_message = NULL;
}

static size_t encode(struct buf *b, const struct rec_layout *l, const struct rec_sample *cur,
		     const struct rec_sample *base)
{
	buf_reset(b);
	ck_assert_int_eq(rec_encode_sample(b, l, cur, base, NULL), 0);
	return b->len;
}

/* ---- bytes ---- */

/* The size a scalar field's ctype reads and writes, or 0 for the others. */
static size_t ctype_size(uint8_t ctype)
{
	switch (ctype) {
	case REC_C_I64: case REC_C_U64: case REC_C_START: case REC_C_STACK: return 8;
	case REC_C_I32: case REC_C_I32U: case REC_C_U32: return 4;
	case REC_C_CHAR: return 1;
	case REC_C_BOOL: return sizeof(bool);
	case REC_C_SIZE: return sizeof(size_t);
	case REC_C_DBL: case REC_C_TIME: case REC_C_MEM_TIME: return sizeof(double);
	case REC_C_CSTR: case REC_C_INTERN: case REC_C_CGROUP: return sizeof(void *);
	default: return 0;
	}
}

/* A member whose type changed under its field (a count made 32 bits, say)
 * would be read and written with the old width: caught here, not in a file. */
START_TEST(field_sizes_match_members)
{
	const struct rec_field *(*tables[])(size_t *) = {rec_task_fields, rec_sample_fields, rec_cgroup_fields};
	for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++) {
		size_t n;
		const struct rec_field *f = tables[k](&n);
		for (size_t i = 0; i < n; i++) {
			size_t want = ctype_size(f[i].ctype);
			if (want && want != f[i].size)
				ck_abort_msg("field %s: member of %u bytes, read as %zu", f[i].name, f[i].size, want);
		}
	}
}
END_TEST

START_TEST(crc_known_value)
{
	ck_assert_uint_eq(crc32c(0, "123456789", 9), 0xe3069283u);
	ck_assert_uint_eq(crc32c(0, "", 0), 0);
	/* in pieces, the same */
	ck_assert_uint_eq(crc32c(crc32c(0, "1234", 4), "56789", 5), 0xe3069283u);
}
END_TEST

START_TEST(varints)
{
	static const uint64_t v[] = {0, 1, 127, 128, 16383, 16384, UINT32_MAX, (uint64_t)INT64_MAX, UINT64_MAX};
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		put_varint(&b, v[i]);
	struct rcur c = rcur_make(b.data, b.len);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		ck_assert_uint_eq(get_varint(&c), v[i]);
	ck_assert(!c.bad);
	ck_assert_uint_eq(rcur_left(&c), 0);
	(void)get_varint(&c);
	ck_assert(c.bad); /* past the end */
	/* eleven bytes, or a tenth byte above 1, are not a varint */
	static const uint8_t long1[11] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
	static const uint8_t long2[10] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
	c = rcur_make(long1, sizeof(long1));
	(void)get_varint(&c);
	ck_assert(c.bad);
	c = rcur_make(long2, sizeof(long2));
	(void)get_varint(&c);
	ck_assert(c.bad);
	static const int64_t s[] = {0, -1, 1, -64, 63, INT64_MIN, INT64_MAX};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		ck_assert_int_eq(unzigzag(zigzag(s[i])), s[i]);
	ck_assert_uint_eq(zigzag(-1), 1);
	ck_assert_uint_eq(zigzag(1), 2);
	buf_free(&b);
}
END_TEST

START_TEST(frame_header)
{
	struct rec_frame f = {REC_FRAME_SAMPLE, REC_FLAG_BLOCK_START, 0, 1234, 0xdeadbeef, 77, 1795420800123456789LL};
	uint8_t h[REC_HDR_LEN], g[REC_HDR_LEN];
	rec_frame_pack(h, &f);
	struct rec_frame back;
	ck_assert_int_eq(rec_frame_unpack(h, sizeof(h), &back), 0);
	ck_assert_uint_eq(back.type, REC_FRAME_SAMPLE);
	ck_assert_uint_eq(back.flags, REC_FLAG_BLOCK_START);
	ck_assert_uint_eq(back.hlen, REC_HDR_LEN);
	ck_assert_uint_eq(back.len, 1234);
	ck_assert_uint_eq(back.crc, 0xdeadbeef);
	ck_assert_uint_eq(back.seq, 77);
	ck_assert_int_eq(back.wall_ns, 1795420800123456789LL);
	ck_assert_int_eq(rec_frame_unpack(h, sizeof(h) - 1, &back), -1);
	/* every single flipped bit is noticed */
	for (size_t i = 0; i < sizeof(h) * 8; i++) {
		memcpy(g, h, sizeof(h));
		g[i / 8] ^= (uint8_t)(1u << (i % 8));
		ck_assert_msg(rec_frame_unpack(g, sizeof(g), &back) < 0, "bit %zu", i);
	}
}
END_TEST

/* ---- samples to bytes and back ---- */

START_TEST(real_samples_round_trip)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	struct rec_schema sc;
	struct rec_layout l;
	layout_for(&sc, &l, &cs);
	char *err = NULL;
	struct sampler *sm = sampler_new(&err);
	ck_assert_ptr_nonnull(sm);
	struct ts_client *ts = ts_open();
	sampler_set_taskstats(sm, ts);
	struct rec_sample a, b, da, db;
	take_real(sm, &a);
	struct timespec pause = {0, 200000000};
	nanosleep(&pause, NULL);
	take_real(sm, &b);
	ck_assert_uint_gt(a.s.nprocs, 5);
	struct rec_strings *st = rec_strings_new();
	struct buf bytes;
	buf_init(&bytes);
	size_t whole = encode(&bytes, &l, &a, NULL);
	ck_assert_int_eq(rec_decode_sample((uint8_t *)bytes.data, bytes.len, &l, NULL, st, &da), 0);
	same_sample(&a, &da);
	/* against the previous sample: the same values, in a fraction of the bytes */
	size_t delta = encode(&bytes, &l, &b, &da);
	ck_assert_int_eq(rec_decode_sample((uint8_t *)bytes.data, bytes.len, &l, &da, st, &db), 0);
	same_sample(&b, &db);
	size_t tasks = 0;
	for (size_t i = 0; i < b.s.nprocs; i++)
		tasks += 1 + b.s.procs[i].nthreads_read;
	fprintf(stderr, "note: %zu processes, %zu tasks: %zu bytes whole, %zu against the previous sample\n",
		b.s.nprocs, tasks, whole, delta);
	/* what did not change costs a fraction of its bytes: a sample against itself (how much
	 * two real samples share depends on how busy the machine is: 10,000 threads waking
	 * made the pair 0.2 s apart 76 % of a whole sample) */
	struct rec_sample dsame;
	size_t same = encode(&bytes, &l, &a, &da);
	ck_assert_int_eq(rec_decode_sample((uint8_t *)bytes.data, bytes.len, &l, &da, st, &dsame), 0);
	same_sample(&a, &dsame);
	rec_sample_free(&dsame);
	/* the tasks that ended are new in every sample (an exit storm beside the test makes them
	 * most of it): the claim is the live tasks', so measured on a copy without them */
	struct rec_sample live = a, dlive, dlsame;
	live.s.ngone = 0;
	live.s.procs = malloc(a.s.nprocs * sizeof(*live.s.procs));
	ck_assert_ptr_nonnull(live.s.procs);
	size_t ended = a.s.ngone;
	for (size_t i = 0; i < a.s.nprocs; i++) {
		live.s.procs[i] = a.s.procs[i];
		live.s.procs[i].nexited = 0;
		ended += a.s.procs[i].nexited;
	}
	size_t whole_live = encode(&bytes, &l, &live, NULL);
	ck_assert_int_eq(rec_decode_sample((uint8_t *)bytes.data, bytes.len, &l, NULL, st, &dlive), 0);
	size_t same_live = encode(&bytes, &l, &live, &dlive);
	ck_assert_int_eq(rec_decode_sample((uint8_t *)bytes.data, bytes.len, &l, &dlive, st, &dlsame), 0);
	same_sample(&live, &dlsame);
	fprintf(stderr, "note: %zu bytes against an unchanged previous sample (%zu tasks that ended); its live "
		"tasks: %zu bytes whole, %zu against themselves\n", same, ended, whole_live, same_live);
	ck_assert_uint_lt(same_live * 2, whole_live);
	rec_sample_free(&dlive);
	rec_sample_free(&dlsame);
	free(live.s.procs);
	/* rates derived from the decoded pair are the live pair's */
	delta_apply(&a.s, &b.s, &cs);
	delta_apply(&da.s, &db.s, &cs);
	for (size_t i = 0; i < b.s.nprocs; i++) {
		same_dbl(b.s.procs[i].cpu_pct, db.s.procs[i].cpu_pct, "cpu_pct");
		same_dbl(b.s.procs[i].ctxt_vol_rate, db.s.procs[i].ctxt_vol_rate, "ctxt_vol_rate");
		for (int c = 0; c < TV_DELAY_NCLASS; c++)
			ck_assert(memcmp(&b.s.procs[i].delay_pct[c], &db.s.procs[i].delay_pct[c], sizeof(float)) == 0);
	}
	buf_free(&bytes);
	rec_sample_free(&da);
	rec_sample_free(&db);
	snapshot_free(&a.s);
	snapshot_free(&b.s);
	rec_strings_free(st);
	sampler_free(sm);
	if (ts)
		ts_close(ts);
	rec_layout_free(&l);
	rec_schema_free(&sc);
	colset_free(&cs);
}
END_TEST

/* A hand-made task: every kind of value, unknowns included. */
static void odd_task(struct tv_task *t, int32_t tid, int32_t tgid, int variant, size_t npv)
{
	task_init(t);
	t->tid = tid;
	t->tgid = tgid;
	t->is_thread = tid != tgid;
	t->ppid = variant ? 1 : INT32_MAX;
	t->nice = variant % 2 ? -20 : TV_UNKNOWN32;
	t->prio = variant % 3 ? 139 : TV_UNKNOWN32;
	t->partial = variant ? TV_PART_BIT(TV_PART_CTXT_VOL) | TV_PART_BIT(TV_PART_DELAY + TV_DELAY_IRQ) : 0;
	t->state = variant % 2 ? 'D' : (char)0xff;
	t->start_ticks = variant % 4 ? (uint64_t)variant * 1000003u : TV_START_UNKNOWN;
	t->uid = variant % 5 ? 4294967294LL : TV_UNKNOWN;
	t->user = variant % 5 ? "nobody" : NULL;
	t->cpu_ns = variant == 3 ? INT64_MAX : variant == 4 ? 0 : (int64_t)variant * 123456789;
	t->cpu_fine = variant & 1;
	t->kthread = variant % 3 == 1;
	t->nthreads = variant;
	task_mem_mut(t)->size = variant == 2 ? TV_UNKNOWN : 1LL << 40;
	task_mem_mut(t)->rss = -5; /* never read like this, but a value is a value */
	if (variant % 3 != 2) { /* the I/O of a process, read after its CPU time; or not read */
		task_mem_mut(t)->io_read = variant == 4 ? TV_UNKNOWN : (int64_t)variant << 33;
		task_mem_mut(t)->io_write = INT64_MAX - variant;
		task_mem_mut(t)->t_io = variant == 1 ? 4999.5 : 5000.123456789 + variant + 0.000003;
	}
	t->ctxt_vol = variant == 5 ? TV_UNKNOWN : INT64_MAX - variant;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		t->delay[c] = (struct tv_delay){variant + c, (int64_t)(variant + c) * 999999937};
	t->t_cpu = variant == 1 ? 0 : 5000.123456789 + variant;
	t->t_ctxt = variant == 2 ? 0 : t->t_cpu + 0.000001;
	t->t_delay = t->t_ctxt;
	char name[TV_COMM_MAX] = "";
	if (variant == 6)
		memset(name, 'k', TV_COMM_MAX - 1); /* the longest a name can be */
	else if (variant != 2)
		snprintf(name, sizeof(name), "w%d\x1b]0;x\x07", variant);
	task_set_comm(t, name, sizeof(name));
	if (variant % 3) {
		t->cmdline = malloc(300);
		for (int i = 0; i < 299; i++)
			t->cmdline[i] = (char)(1 + (i * 7 + variant) % 255);
		t->cmdline[299] = '\0';
	}
	if (npv) {
		t->pvals = calloc(npv, sizeof(*t->pvals));
		t->pvals[0] = (struct tv_pvalue){variant != 1, variant * 1000LL, NAN, NULL};
		if (npv > 1)
			t->pvals[1] = (struct tv_pvalue){variant % 2, 0, variant * 0.5, NULL};
		if (npv > 2 && variant % 3)
			t->pvals[2] = (struct tv_pvalue){true, 0, NAN, strdup(variant == 4 ? "" : "io\nwait")};
	}
}

/* Three plugin columns of the three kinds (the colset borrows these). */
static const struct column plugin_cols[] = {
	{.id = "t.count", .header = "CNT", .desc = "a counter", .type = COL_INT, .width = 6, .counter = true},
	{.id = "t.ratio", .header = "R", .desc = "a float", .type = COL_PERCENT, .width = 5},
	{.id = "t.name", .header = "N", .desc = "text", .type = COL_STRING, .width = 8, .align = COL_ALIGN_LEFT},
};

static void plugin_colset(struct colset *cs)
{
	ck_assert_int_eq(colset_init(cs), 0);
	for (int i = 0; i < 3; i++) {
		struct column c = plugin_cols[i];
		c.arg = i;
		ck_assert_int_ge(colset_add(cs, &c), 0);
	}
}

/* Groups with every kind of value: one that comes and goes, halves of
 * pressure unknown, odd bytes in paths; the processes put into them. */
static void odd_groups(struct snapshot *s, int seed)
{
	static const char *const paths[] = {"/", "/a b\x1b[31m", "/a b\x1b[31m/x\xff.scope", "/system.slice",
					    "/system.slice/n.service"};
	size_t n = 0;
	s->cgroups = calloc(5, sizeof(*s->cgroups));
	for (int i = 0; i < 5; i++) {
		if (i == 2 && seed == 1)
			continue; /* gone for a sample */
		struct tv_cgroup *g = calloc(1, sizeof(*g));
		g->path = strdup(paths[i]);
		g->unit = strdup(i ? strrchr(paths[i], '/') + 1 : "/");
		g->index = n;
		g->mem_bytes = i == 0 ? TV_UNKNOWN : 4096LL * (1000 + seed * i);
		g->swap_bytes = i == 0 ? TV_UNKNOWN : (int64_t)seed;
		g->mem_why = i == 0 ? "the root group has no memory.current" : NULL;
		for (int r = 0; r < TV_RES_N; r++) {
			pressure_unknown(&g->psi[r]);
			g->psi[r].some_known = i != 4;
			g->psi[r].some_us = 1000000LL * r + seed * 7;
			g->psi[r].some_avg10 = 0.25 * seed + r;
			g->psi[r].full_known = r != TV_RES_CPU && i != 4;
			g->psi[r].full_us = g->psi[r].full_known ? 12345 + seed : TV_UNKNOWN;
			g->psi[r].full_avg10 = g->psi[r].full_known ? 99.99 : NAN;
		}
		g->psi_why = i == 4 ? "the group has no pressure files" : NULL;
		cgroup_cpu_unknown(g);
		if (i != 1) {
			g->cpu_usage_us = 123456789LL * (seed + 1) + i;
			g->cpu_user_us = i == 3 ? TV_UNKNOWN : 100000000LL * (seed + 1);
			g->cpu_system_us = 23456789LL * (seed + 1);
			g->t_cpu = s->mono + 0.000321 * (i + 1);
		}
		g->t_read = i == 4 ? 0 : s->mono + 0.000123 * (i + 1);
		s->cgroups[n++] = g;
	}
	s->ncgroups = n;
	/* the table holds every ancestor: the parents above are the first ones */
	for (size_t i = 0; i < n; i++) {
		const char *slash = strrchr(s->cgroups[i]->path, '/');
		size_t pl = slash == s->cgroups[i]->path ? 1 : (size_t)(slash - s->cgroups[i]->path);
		s->cgroups[i]->parent = NULL;
		for (size_t j = 0; i && j < i; j++)
			if (strlen(s->cgroups[j]->path) == pl && strncmp(s->cgroups[j]->path, s->cgroups[i]->path, pl) == 0)
				s->cgroups[i]->parent = s->cgroups[j];
	}
	for (size_t i = 0; i < s->nprocs; i++)
		s->procs[i].cgroup = i == 3 ? NULL : s->cgroups[(i + (size_t)seed) % n];
	s->needs = NEED_CGROUP | NEED_CGROUP_PSI | (seed ? NEED_CGROUP_MEM : 0);
	s->self.cgroup_opens = (uint64_t)seed * 3;
	s->self.cgroup_reads = 17;
	s->cgroups_why = seed == 2 ? "only cgroup v1 is mounted" : NULL;
	for (int r = 0; r < TV_RES_N; r++) {
		pressure_unknown(&s->pressure[r]);
		s->pressure[r].some_known = true;
		s->pressure[r].some_us = 7000000000LL + seed * r;
		s->pressure[r].some_avg10 = 61.92;
		s->pressure[r].full_known = r != TV_RES_CPU || seed == 2;
		s->pressure[r].full_us = s->pressure[r].full_known ? 28779288 : TV_UNKNOWN;
		s->pressure[r].full_avg10 = s->pressure[r].full_known ? 0.0 : NAN;
	}
	s->t_pressure = s->mono + 0.0000421;
	s->pressure_why = NULL;
}

static void odd_sample(struct rec_sample *rs, int seed)
{
	memset(rs, 0, sizeof(*rs));
	struct snapshot *s = &rs->s;
	s->mono = 5000.5 + seed;
	s->wall = 1795420800.25 + seed;
	s->boot_offset = 12.000000321;
	s->hz = 100;
	s->boot_ticks = (s->mono + s->boot_offset) * s->hz;
	s->sys_procs = 3;
	s->npvals = 3;
	s->self.cpu_ms = seed ? 1.5 : NAN;
	s->self.rss_kib = TV_UNKNOWN;
	s->exits_why = seed ? NULL : "no \"permission\"";
	s->exits_source = seed % 3 ? (seed % 3 == 1 ? "bpf" : "netlink") : NULL;
	/* the machine: known, unknown (a recorder, not a stream), or in part */
	machine_unknown(&s->machine);
	if (seed % 3 != 1) {
		s->machine.load[0] = 0.52 + seed;
		s->machine.load[1] = 0.4;
		s->machine.load[2] = seed % 3 ? NAN : 0.31;
	}
	if (seed % 3 == 0) {
		s->machine.t_busy = s->mono + 0.000125;
		s->machine.busy_us = 123456789012LL + seed * 1000;
		s->machine.mem_total = 16303836;
		s->machine.mem_available = 9000000 - seed;
		s->machine.swap_total = 0;
		s->machine.swap_free = seed ? TV_UNKNOWN : 0;
	}
	rs->delay_state = "no-permission";
	rs->delay_message = seed ? "taskstats needs CAP_NET_ADMIN" : NULL;
	s->nprocs = 4;
	s->procs = calloc(4, sizeof(*s->procs));
	int32_t ids[4] = {1, 2 + seed % 1000, 40000, INT32_MAX};
	for (int i = 0; i < 4; i++)
		odd_task(&s->procs[i], ids[i], ids[i], (i + seed) % 7, 3);
	struct tv_task *p = &s->procs[2];
	p->nthreads_read = 3;
	p->threads = calloc(3, sizeof(*p->threads));
	for (int j = 0; j < 3; j++)
		odd_task(&p->threads[j], 40001 + j * (seed + 1), 40000, j + seed, 3);
	p->nexited = 2;
	p->exited = calloc(2, sizeof(*p->exited));
	odd_task(&p->exited[0], 50000, 40000, 5, 3);
	odd_task(&p->exited[1], 40001, 40000, 1, 3); /* an id listed alive in the previous sample */
	/* one or two: a count that differs from the sample it is written against */
	s->ngone = 1 + (size_t)(seed % 2);
	s->gone = calloc(2, sizeof(*s->gone));
	odd_task(&s->gone[0], 9, 9, 3, 0);
	if (s->ngone > 1)
		odd_task(&s->gone[1], 2, 2, 6, 0);
	odd_groups(s, seed);
	rec_round_times(s);
}

/* The writer's base (rec_decode_base) is the sample a reader decodes, less the
 * exited threads' records, which it only counts: read past them, the tasks after
 * them (their times, written against the times before) are read the same. */
static void same_base_as(const struct buf *b, const struct rec_layout *l, const struct rec_sample *prev,
			 struct rec_strings *st, const struct rec_sample *whole, const struct rec_jumps *j)
{
	struct rec_sample base;
	ck_assert_int_eq(rec_decode_base((const uint8_t *)b->data, b->len, l, prev, st, &base, j), 0);
	ck_assert_uint_eq(base.s.nprocs, whole->s.nprocs);
	ck_assert_uint_eq(base.s.ngone, whole->s.ngone);
	ck_assert_ptr_null(base.s.gone);
	for (size_t i = 0; i < whole->s.nprocs; i++) {
		struct tv_task x = whole->s.procs[i], y = base.s.procs[i];
		ck_assert_uint_eq(x.nexited, y.nexited);
		ck_assert_ptr_null(y.exited);
		x.nexited = y.nexited = 0;
		same_task(&x, &y, l->npvals);
	}
	rec_sample_free(&base);
}

/* ... read record by record, and stepped over where the writer noted the
 * lists of the bytes it wrote (cur: the sample b holds, written against prev). */
static void same_base(const struct buf *b, const struct rec_layout *l, const struct rec_sample *cur,
		      const struct rec_sample *prev, struct rec_strings *st, const struct rec_sample *whole)
{
	same_base_as(b, l, prev, st, whole, NULL);
	struct rec_jumps j = {0};
	struct buf again;
	buf_init(&again);
	ck_assert_int_eq(rec_encode_sample(&again, l, cur, prev, &j), 0);
	ck_assert_mem_eq(again.data, b->data, b->len);
	size_t lists = 0;
	for (size_t i = 0; i < cur->s.nprocs; i++)
		lists += cur->s.procs[i].nexited > 0;
	ck_assert_uint_eq(j.n, lists);
	same_base_as(&again, l, prev, st, whole, &j);
	rec_jumps_free(&j);
	buf_free(&again);
}

START_TEST(edge_values_round_trip)
{
	struct colset cs;
	plugin_colset(&cs);
	struct rec_schema sc;
	struct rec_layout l;
	layout_for(&sc, &l, &cs);
	ck_assert_uint_eq(l.npvals, 3);
	struct rec_strings *st = rec_strings_new();
	struct buf b;
	buf_init(&b);
	struct rec_sample s[3], d[3];
	for (int i = 0; i < 3; i++) {
		odd_sample(&s[i], i);
		encode(&b, &l, &s[i], i ? &d[i - 1] : NULL);
		ck_assert_int_eq(rec_decode_sample((uint8_t *)b.data, b.len, &l, i ? &d[i - 1] : NULL, st, &d[i]), 0);
		same_sample(&s[i], &d[i]);
		same_base(&b, &l, &s[i], i ? &d[i - 1] : NULL, st, &d[i]);
		/* plugin values of each kind */
		const struct tv_pvalue *pv = d[i].s.procs[1].pvals;
		ck_assert_ptr_nonnull(pv);
		ck_assert_int_eq(pv[0].known, s[i].s.procs[1].pvals[0].known);
		if (pv[0].known)
			ck_assert_int_eq(pv[0].i, s[i].s.procs[1].pvals[0].i);
		same_dbl(pv[1].known ? pv[1].f : 0, s[i].s.procs[1].pvals[1].known ? s[i].s.procs[1].pvals[1].f : 0, "pv f");
	}
	for (int i = 0; i < 3; i++) {
		snapshot_free(&s[i].s);
		rec_sample_free(&d[i]);
	}
	buf_free(&b);
	rec_strings_free(st);
	rec_layout_free(&l);
	rec_schema_free(&sc);
	colset_free(&cs);
}
END_TEST

START_TEST(out_of_order_refused)
{
	struct colset cs;
	plugin_colset(&cs);
	struct rec_schema sc;
	struct rec_layout l;
	layout_for(&sc, &l, &cs);
	struct rec_sample s;
	odd_sample(&s, 0);
	int32_t t = s.s.procs[0].tgid;
	s.s.procs[0].tgid = s.s.procs[1].tgid;
	s.s.procs[1].tgid = t;
	struct buf b;
	buf_init(&b);
	ck_assert_int_eq(rec_encode_sample(&b, &l, &s, NULL, NULL), -1);
	s.s.procs[1].tgid = s.s.procs[0].tgid; /* a duplicate */
	buf_reset(&b);
	ck_assert_int_eq(rec_encode_sample(&b, &l, &s, NULL, NULL), -1);
	buf_free(&b);
	snapshot_free(&s.s);
	rec_layout_free(&l);
	rec_schema_free(&sc);
	colset_free(&cs);
}
END_TEST

/* What a decoder promises whatever it is given: sorted, unique ids. */
static void check_invariants(const struct rec_sample *d)
{
	for (size_t i = 1; i < d->s.nprocs; i++)
		ck_assert_int_lt(d->s.procs[i - 1].tgid, d->s.procs[i].tgid);
	for (size_t i = 0; i < d->s.nprocs; i++) {
		const struct tv_task *p = &d->s.procs[i];
		ck_assert_int_eq(p->tid, p->tgid);
		for (size_t j = 1; j < p->nthreads_read; j++)
			ck_assert_int_lt(p->threads[j - 1].tid, p->threads[j].tid);
		ck_assert(strlen(task_comm(p)) < TV_COMM_MAX);
	}
}

START_TEST(damaged_bytes_never_crash)
{
	struct colset cs;
	plugin_colset(&cs);
	struct rec_schema sc;
	struct rec_layout l;
	layout_for(&sc, &l, &cs);
	struct rec_strings *st = rec_strings_new();
	struct rec_sample s0, s1, d0, d;
	odd_sample(&s0, 0);
	odd_sample(&s1, 1);
	struct buf b;
	buf_init(&b);
	encode(&b, &l, &s0, NULL);
	ck_assert_int_eq(rec_decode_sample((uint8_t *)b.data, b.len, &l, NULL, st, &d0), 0);
	encode(&b, &l, &s1, &d0);
	uint8_t *copy = malloc(b.len);
	/* every cut is refused */
	for (size_t n = 0; n < b.len; n++)
		ck_assert_msg(rec_decode_sample((uint8_t *)b.data, n, &l, &d0, st, &d) == -1, "cut at %zu", n);
	/* every byte changed, in a few ways: refused, or read as something sane */
	size_t accepted = 0;
	for (size_t i = 0; i < b.len; i++) {
		static const uint8_t x[] = {0x01, 0x80, 0xff, 0x7f};
		for (size_t k = 0; k < sizeof(x); k++) {
			memcpy(copy, b.data, b.len);
			copy[i] ^= x[k];
			for (int with_base = 0; with_base < 2; with_base++) {
				if (rec_decode_sample(copy, b.len, &l, with_base ? &d0 : NULL, st, &d) == 0) {
					check_invariants(&d);
					rec_sample_free(&d);
					accepted++;
				}
			}
		}
	}
	/* pseudo-random garbage of every length up to 600 */
	uint32_t seed = 12345;
	for (size_t n = 0; n < 600; n++) {
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			copy[i % b.len] = (uint8_t)(seed >> 16);
		}
		if (rec_decode_sample(copy, n < b.len ? n : b.len, &l, &d0, st, &d) == 0) {
			check_invariants(&d);
			rec_sample_free(&d);
		}
	}
	fprintf(stderr, "note: %zu of %zu damaged samples still decoded (changed values)\n", accepted, b.len * 8);
	free(copy);
	buf_free(&b);
	rec_sample_free(&d0);
	snapshot_free(&s0.s);
	snapshot_free(&s1.s);
	rec_strings_free(st);
	rec_layout_free(&l);
	rec_schema_free(&sc);
	colset_free(&cs);
}
END_TEST

/* ---- the schema ---- */

START_TEST(schema_round_trip)
{
	struct colset cs;
	plugin_colset(&cs);
	struct rec_schema a, b;
	ck_assert_int_eq(rec_schema_build(&a, &cs), 0);
	rec_schema_set(&a, "host", "h\x1b[31m");
	struct buf bytes;
	buf_init(&bytes);
	rec_schema_encode(&bytes, &a);
	char *err = NULL;
	ck_assert_int_eq(rec_schema_decode((uint8_t *)bytes.data, bytes.len, &b, &err), 0);
	ck_assert_str_eq(rec_schema_prop(&b, "host"), "h\x1b[31m");
	ck_assert_uint_eq(a.ntf, b.ntf);
	ck_assert_uint_eq(a.nsf, b.nsf);
	for (size_t i = 0; i < a.ntf; i++) {
		ck_assert_str_eq(a.tf[i].name, b.tf[i].name);
		ck_assert_uint_eq(a.tf[i].kind, b.tf[i].kind);
		ck_assert_uint_eq(a.tf[i].base, b.tf[i].base);
	}
	ck_assert_uint_eq(b.ncols, 3);
	ck_assert_str_eq(b.cols[2].id, "t.name");
	ck_assert_int_eq(b.cols[2].type, COL_STRING);
	ck_assert_int_eq(b.cols[2].align, COL_ALIGN_LEFT);
	ck_assert(b.cols[0].counter);
	ck_assert_int_eq(b.cols[1].type, COL_PERCENT);
	/* every cut is refused */
	for (size_t n = 0; n < bytes.len; n++) {
		struct rec_schema c;
		ck_assert_int_eq(rec_schema_decode((uint8_t *)bytes.data, n, &c, &err), -1);
		free(err);
	}
	/* a writer that says it needs a newer reader is refused, by name */
	a.min_reader = REC_READS + 1;
	a.format = REC_READS + 1;
	buf_reset(&bytes);
	rec_schema_encode(&bytes, &a);
	struct rec_schema c;
	ck_assert_int_eq(rec_schema_decode((uint8_t *)bytes.data, bytes.len, &c, &err), -2);
	ck_assert_msg(strstr(err, "newer taskview") != NULL, "%s", err);
	free(err);
	buf_free(&bytes);
	rec_schema_free(&a);
	rec_schema_free(&b);
	colset_free(&cs);
}
END_TEST

/* A later version adds fields of every kind, among the known ones, and
 * writes them: this version reads the rest and skips them. */
START_TEST(unknown_fields_skipped)
{
	struct colset cs;
	plugin_colset(&cs);
	struct rec_schema later;
	ck_assert_int_eq(rec_schema_build(&later, &cs), 0);
	later.format = REC_FORMAT + 1;
	static const struct {
		size_t at;
		const char *name;
		uint8_t kind;
		uint32_t base;
	} add[] = {{0, "future.int", REC_K_INT, 0}, {5, "future.str", REC_K_STR, 0}, {10, "future.dbl", REC_K_DBL, 0},
		   {20, "future.time", REC_K_TIME, 0}};
	for (size_t k = 0; k < 4; k++) {
		struct rec_fdesc *v = realloc(later.tf, (later.ntf + 1) * sizeof(*v));
		ck_assert_ptr_nonnull(v);
		later.tf = v;
		memmove(&v[add[k].at + 1], &v[add[k].at], (later.ntf - add[k].at) * sizeof(*v));
		later.ntf++;
		v[add[k].at] = (struct rec_fdesc){strdup(add[k].name), add[k].kind, add[k].base};
		for (size_t i = add[k].at + 1; i < later.ntf; i++)
			if (v[i].base >> 1 > add[k].at)
				v[i].base += 2; /* (1 + index) << 1 */
	}
	const char *ids[3] = {"t.count", "t.ratio", "t.name"};
	char *err = NULL;
	struct rec_layout w, r;
	ck_assert_int_eq(rec_layout_bind(&r, &later, ids, 3, &err), 0);
	ck_assert_int_eq(rec_layout_bind(&w, &later, ids, 3, &err), 0);
	/* the later writer fills its new fields (here: from fields it also has) */
	size_t nt;
	const struct rec_field *known = rec_task_fields(&nt);
	for (size_t i = 0; i < w.ntb; i++) {
		if (w.tb[i].ctype != REC_C_SKIP)
			continue;
		const char *from = w.tb[i].kind == REC_K_INT ? "vm_stk" : w.tb[i].kind == REC_K_STR ? "cmdline" :
				   w.tb[i].kind == REC_K_TIME ? "t_cpu" : NULL;
		if (!from) {
			w.tb[i].ctype = REC_C_PV_F; /* a double: the float plugin value */
			w.tb[i].off = 1;
			continue;
		}
		for (size_t j = 0; j < nt; j++)
			if (strcmp(known[j].name, from) == 0) {
				w.tb[i].ctype = known[j].ctype;
				w.tb[i].off = known[j].off;
			}
	}
	struct rec_strings *st = rec_strings_new();
	struct buf b;
	buf_init(&b);
	struct rec_sample s[2], d[2];
	size_t plain = 0;
	for (int i = 0; i < 2; i++) {
		odd_sample(&s[i], i);
		ck_assert_int_eq(rec_encode_sample(&b, &w, &s[i], i ? &d[0] : NULL, NULL), 0);
		ck_assert_int_eq(rec_decode_sample((uint8_t *)b.data, b.len, &r, i ? &d[0] : NULL, st, &d[i]), 0);
		same_sample(&s[i], &d[i]);
		plain = b.len;
		buf_reset(&b);
	}
	ck_assert_uint_gt(plain, 0);
	for (int i = 0; i < 2; i++) {
		snapshot_free(&s[i].s);
		rec_sample_free(&d[i]);
	}
	buf_free(&b);
	rec_strings_free(st);
	rec_layout_free(&w);
	rec_layout_free(&r);
	rec_schema_free(&later);
	colset_free(&cs);
}
END_TEST

/* A reader of 0.1.0 knows neither the group table nor pressure: bound
 * without them (their names unknown, the table's section not read), it
 * reads the rest of the samples as before. */
/* A stream of a taskview before the machine's fields: the machine is
 * unknown, never zeros (a host's row would show an idle machine with no
 * memory in use). The schema such a writer describes: the last fields
 * left out. */
START_TEST(machine_unknown_without_its_fields)
{
	struct colset cs;
	plugin_colset(&cs);
	struct rec_schema sc;
	ck_assert_int_eq(rec_schema_build(&sc, &cs), 0);
	static const char *const added[] = {"load.1", "load.5", "load.15", "t_cpu_busy", "cpu_busy_us",
					    "memory.total_kib", "memory.available_kib", "swap.total_kib", "swap.free_kib"};
	size_t nadded = sizeof(added) / sizeof(added[0]);
	ck_assert_uint_ge(sc.nsf, nadded);
	for (size_t k = 0; k < nadded; k++) {
		struct rec_fdesc *f = &sc.sf[sc.nsf - nadded + k];
		ck_assert_str_eq(f->name, added[k]);
		free(f->name);
	}
	sc.nsf -= nadded;
	const char *ids[16];
	for (size_t i = 0; i < sc.ncols; i++)
		ids[i] = sc.cols[i].id;
	struct rec_layout l;
	char *err = NULL;
	ck_assert_int_eq(rec_layout_bind(&l, &sc, ids, sc.ncols, &err), 0);
	struct rec_strings *st = rec_strings_new();
	struct buf b;
	buf_init(&b);
	struct rec_sample s[3], d[3];
	for (int i = 0; i < 3; i++) {
		odd_sample(&s[i], i);
		encode(&b, &l, &s[i], i ? &d[i - 1] : NULL);
		ck_assert_int_eq(rec_decode_sample((uint8_t *)b.data, b.len, &l, i ? &d[i - 1] : NULL, st, &d[i]), 0);
		const struct tv_machine *m = &d[i].s.machine;
		ck_assert(isnan(m->load[0]) && isnan(m->load[1]) && isnan(m->load[2]));
		ck_assert(m->t_busy == 0 && m->busy_us == TV_UNKNOWN && isnan(m->cpu_pct));
		ck_assert(m->mem_total == TV_UNKNOWN && m->mem_available == TV_UNKNOWN);
		ck_assert(m->swap_total == TV_UNKNOWN && m->swap_free == TV_UNKNOWN);
		/* the rest as written */
		ck_assert_uint_eq(d[i].s.nprocs, s[i].s.nprocs);
	}
	for (int i = 0; i < 3; i++) {
		snapshot_free(&s[i].s);
		rec_sample_free(&d[i]);
	}
	buf_free(&b);
	rec_strings_free(st);
	rec_layout_free(&l);
	rec_schema_free(&sc);
	colset_free(&cs);
}
END_TEST

START_TEST(older_reader_skips_groups)
{
	struct colset cs;
	plugin_colset(&cs);
	struct rec_schema sc;
	struct rec_layout w, old;
	layout_for(&sc, &w, &cs);
	const char *ids[3] = {"t.count", "t.ratio", "t.name"};
	char *err = NULL;
	ck_assert_int_eq(rec_layout_bind(&old, &sc, ids, 3, &err), 0);
	static const char *const added[] = {"self.cgroup_opens", "self.cgroup_reads", "needs", "cgroups.why",
					    "t_pressure", "pressure.", "cgroups"};
	size_t skipped = 0;
	for (size_t i = 0; i < old.nsb; i++)
		for (size_t k = 0; k < sizeof(added) / sizeof(added[0]); k++)
			if (strncmp(sc.sf[i].name, added[k], strlen(added[k])) == 0 &&
			    (added[k][strlen(added[k]) - 1] == '.' || strcmp(sc.sf[i].name, added[k]) == 0)) {
				old.sb[i].ctype = REC_C_SKIP;
				skipped++;
			}
	for (size_t i = 0; i < old.ntb; i++)
		if (strcmp(sc.tf[i].name, "cgroup") == 0) {
			old.tb[i].ctype = REC_C_SKIP;
			skipped++;
		}
	ck_assert_uint_eq(skipped, 5 + 13 + 1 + 1);
	old.ncb = 0;
	struct rec_strings *st = rec_strings_new();
	struct buf b;
	buf_init(&b);
	struct rec_sample s[3], d[3];
	for (int i = 0; i < 3; i++) {
		odd_sample(&s[i], i);
		ck_assert_uint_gt(s[i].s.ncgroups, 0);
		encode(&b, &w, &s[i], i ? &d[i - 1] : NULL);
		ck_assert_int_eq(rec_decode_sample((uint8_t *)b.data, b.len, &old, i ? &d[i - 1] : NULL, st, &d[i]), 0);
		ck_assert_uint_eq(d[i].s.ncgroups, 0);
		ck_assert(!d[i].s.pressure[TV_RES_CPU].some_known);
		/* what 0.1.0 knew of them is the same */
		struct rec_sample v1 = s[i];
			v1.s.self.cgroup_opens = v1.s.self.cgroup_reads = 0;
		v1.s.needs = 0;
		v1.s.cgroups_why = v1.s.pressure_why = NULL;
		v1.s.t_pressure = 0;
		for (int r = 0; r < TV_RES_N; r++)
			pressure_unknown(&v1.s.pressure[r]);
		struct tv_task *procs = malloc(v1.s.nprocs * sizeof(*procs));
		memcpy(procs, v1.s.procs, v1.s.nprocs * sizeof(*procs));
		for (size_t j = 0; j < v1.s.nprocs; j++)
			procs[j].cgroup = NULL;
		v1.s.procs = procs;
		v1.s.ncgroups = 0;
		same_sample(&v1, &d[i]);
		free(procs);
	}
	for (int i = 0; i < 3; i++) {
		snapshot_free(&s[i].s);
		rec_sample_free(&d[i]);
	}
	buf_free(&b);
	rec_strings_free(st);
	rec_layout_free(&w);
	rec_layout_free(&old);
	rec_schema_free(&sc);
	colset_free(&cs);
}
END_TEST

/* ---- files ---- */

struct warnings {
	char text[8192];
	int n;
};

static void collect(void *ctx, const char *msg)
{
	struct warnings *w = ctx;
	size_t l = strlen(w->text);
	snprintf(w->text + l, sizeof(w->text) - l, "%s\n", msg);
	w->n++;
}

static char *tmp_dir(void)
{
	char tmpl[] = "/tmp/tv-record-test.XXXXXX";
	char *d = mkdtemp(tmpl);
	ck_assert_ptr_nonnull(d);
	return strdup(d);
}

static void rm_tree(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* ---- several hosts in one file ---- */

/* A host frame around an inner frame of type `type` with payload pl. */
static void host_frame(struct buf *out, const char *host, uint8_t type, uint64_t seq, const char *pl, int64_t taken)
{
	struct rec_frame in = {.type = type, .len = (uint32_t)strlen(pl), .crc = crc32c(0, pl, strlen(pl)), .seq = seq,
			       .wall_ns = 1795420800000000000LL + (int64_t)seq};
	uint8_t h[REC_HDR_LEN];
	rec_frame_pack(h, &in);
	struct buf inner;
	buf_init(&inner);
	buf_add(&inner, h, sizeof(h));
	buf_adds(&inner, pl);
	ck_assert_int_eq(rec_hostframe_pack(out, host, (const uint8_t *)inner.data, inner.len, &in, taken), 0);
	buf_free(&inner);
}

START_TEST(host_frames)
{
	struct buf b;
	buf_init(&b);
	host_frame(&b, "web1", REC_FRAME_SAMPLE, 7, "payload", 42);
	struct rec_frame outer;
	ck_assert_int_eq(rec_frame_unpack((const uint8_t *)b.data, b.len, &outer), 0);
	ck_assert_uint_eq(outer.type, REC_FRAME_HOST);
	ck_assert_uint_eq(outer.seq, 7);
	ck_assert_int_eq(outer.wall_ns, 42);
	ck_assert_uint_eq(outer.len, b.len - REC_HDR_LEN);
	ck_assert_uint_eq(outer.crc, crc32c(0, b.data + REC_HDR_LEN, outer.len));
	const uint8_t *pl = (const uint8_t *)b.data + REC_HDR_LEN;
	struct rec_hostframe hf;
	ck_assert_int_eq(rec_hostframe_unpack(pl, outer.len, outer.len, &hf), 0);
	ck_assert_uint_eq(hf.name_len, 4);
	ck_assert(memcmp(hf.name, "web1", 4) == 0);
	ck_assert_uint_eq(hf.inner, 5);
	ck_assert_uint_eq(hf.f.type, REC_FRAME_SAMPLE);
	ck_assert_uint_eq(hf.f.seq, 7);
	ck_assert_int_eq(hf.f.wall_ns, 1795420800000000007LL);
	ck_assert(memcmp(pl + hf.inner + hf.f.hlen, "payload", 7) == 0);
	/* the inner frame must end where the payload does; a cut name or header is not one */
	ck_assert_int_eq(rec_hostframe_unpack(pl, outer.len, outer.len + 1, &hf), -1);
	ck_assert_int_eq(rec_hostframe_unpack(pl, outer.len - 1, outer.len - 1, &hf), -1);
	ck_assert_int_eq(rec_hostframe_unpack(pl, 3, 3, &hf), -1);
	uint8_t zero[64] = {0};
	ck_assert_int_eq(rec_hostframe_unpack(zero, sizeof(zero), sizeof(zero), &hf), -1);
	/* a name of 256 bytes, or none, is refused both ways */
	char longname[REC_HOST_NAME_MAX + 2];
	memset(longname, 'h', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	struct rec_frame in = {.type = REC_FRAME_SAMPLE};
	ck_assert_int_eq(rec_hostframe_pack(&b, longname, (const uint8_t *)"x", 1, &in, 0), -1);
	ck_assert_int_eq(rec_hostframe_pack(&b, "", (const uint8_t *)"x", 1, &in, 0), -1);
	uint8_t big[4] = {0x80, 0x02, 'h', 'h'}; /* length 256 */
	ck_assert_int_eq(rec_hostframe_unpack(big, sizeof(big), sizeof(big), &hf), -1);
	buf_free(&b);
}
END_TEST

/* A file naming more hosts than a reader keeps, one with a NUL in its name,
 * and frames of unknown types: the hosts are capped (said once), the bad
 * name is damage, nothing is indexed as this machine's. */
START_TEST(host_frames_hostile)
{
	char *dir = tmp_dir();
	char path[600];
	snprintf(path, sizeof(path), "%s/hosts.tvr", dir);
	struct buf b;
	buf_init(&b);
	char name[32];
	for (int i = 0; i < REC_HOSTS_MAX + 10; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		host_frame(&b, name, 9, (uint64_t)i, "later", 0);
	}
	host_frame(&b, "bad", 9, 0, "x", 0);
	/* the name's third byte: "bad" becomes "ba\0" */
	size_t last_off = b.len - (REC_HDR_LEN + 1 + 3 + REC_HDR_LEN + 1);
	b.data[last_off + REC_HDR_LEN + 1 + 2] = '\0';
	/* its checksum made good again: the inside is what is wrong */
	struct rec_frame last;
	ck_assert_int_eq(rec_frame_unpack((const uint8_t *)b.data + last_off, REC_HDR_LEN, &last), 0);
	last.crc = crc32c(0, b.data + last_off + REC_HDR_LEN, last.len);
	rec_frame_pack((uint8_t *)b.data + last_off, &last);
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(b.data, 1, b.len, fp), b.len);
	fclose(fp);
	buf_free(&b);
	struct warnings w = {0};
	char *err = NULL;
	struct rec_reader *r = rec_reader_open(path, collect, &w, &err);
	ck_assert_msg(r != NULL, "%s", err ? err : "");
	const char *const *names;
	ck_assert_uint_eq(rec_reader_hosts(r, &names), REC_HOSTS_MAX);
	ck_assert_str_eq(names[0], "h0");
	ck_assert_uint_eq(rec_reader_count(r), 0);
	ck_assert_msg(strstr(w.text, "more than 4096 hosts") != NULL, "%s", w.text);
	ck_assert_msg(strstr(w.text, "damaged bytes") != NULL, "%s", w.text);
	rec_reader_close(r);
	/* a host's reader of a host the file does not hold finds nothing of it */
	r = rec_reader_open_host(path, "web9", NULL, NULL, &err);
	ck_assert_ptr_null(r);
	ck_assert_msg(err && strstr(err, "no sample of this host"), "%s", err ? err : "");
	free(err);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Writes n samples (odd_sample(first .. first + n - 1), each with one exit record seen). */
static void write_series(const char *path, int first, int n, const struct colset *cs, int keep)
{
	struct rec_writer_opts o = {.path = path, .interval = 1.0, .cs = cs, .keep_days = keep, .filter = "-u 0"};
	char *err = NULL;
	struct rec_writer *w = rec_writer_open(&o, &err);
	ck_assert_msg(w != NULL, "%s", err ? err : "");
	for (int i = first; i < first + n; i++) {
		struct rec_sample s;
		odd_sample(&s, i);
		s.s.nexits_seen = 1;
		ck_assert_int_eq(rec_writer_append(w, &s, &err), 0);
		snapshot_free(&s.s);
	}
	rec_writer_close(w);
}

/* The offset of the header of sample k (counting sample frames from 0). */
static long frame_offset(const char *path, int k)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	long off = 0;
	int seen = 0;
	uint8_t h[REC_HDR_LEN];
	while (fseek(f, off, SEEK_SET) == 0 && fread(h, 1, sizeof(h), f) == sizeof(h)) {
		struct rec_frame fr;
		ck_assert_int_eq(rec_frame_unpack(h, sizeof(h), &fr), 0);
		if (fr.type == REC_FRAME_SAMPLE && seen++ == k)
			break;
		off += fr.hlen + (long)fr.len;
	}
	fclose(f);
	return off;
}

static void flip_byte(const char *path, long off)
{
	int fd = open(path, O_RDWR);
	uint8_t c;
	ck_assert_int_eq(pread(fd, &c, 1, off), 1);
	c ^= 0x5a;
	ck_assert_int_eq(pwrite(fd, &c, 1, off), 1);
	close(fd);
}

static struct rec_reader *open_rec(const char *path, struct warnings *w)
{
	memset(w, 0, sizeof(*w));
	char *err = NULL;
	struct rec_reader *r = rec_reader_open(path, collect, w, &err);
	ck_assert_msg(r != NULL, "%s", err ? err : "");
	return r;
}

/* A recording in a temporary directory of its own, with the plugin columns. */
struct rec_tmp {
	struct colset cs;
	char *dir;
	char path[512];
};

static void rec_tmp_open(struct rec_tmp *f, const char *name)
{
	plugin_colset(&f->cs);
	f->dir = tmp_dir();
	snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, name);
}

static void rec_tmp_close(struct rec_tmp *f)
{
	rm_tree(f->dir);
	free(f->dir);
	colset_free(&f->cs);
}

START_TEST(file_written_and_read)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	write_series(f.path, 0, 130, &f.cs, 0);
	struct warnings w;
	struct rec_reader *r = open_rec(f.path, &w);
	ck_assert_int_eq(w.n, 0);
	struct rec_info info;
	rec_reader_info(r, &info);
	ck_assert_uint_eq(info.nsamples, 130);
	ck_assert_uint_eq(info.nruns, 1);
	ck_assert_double_eq(info.interval, 1.0);
	ck_assert_str_eq(info.filter, "-u 0");
	ck_assert_ptr_nonnull(info.host);
	ck_assert_double_eq_tol(info.first, 1795420800.25, 1e-6);
	ck_assert_double_eq_tol(info.last, 1795420800.25 + 129, 1e-6);
	/* jumps: the first sample at or after a time */
	ck_assert_uint_eq(rec_reader_find(r, 1795420800.25 + 64.5), 65);
	ck_assert_uint_eq(rec_reader_find(r, 0), 0);
	ck_assert_uint_eq(rec_reader_find(r, 2e9), 130);
	/* every sample as written, in any order (blocks of 60) */
	static const size_t order[] = {129, 0, 61, 60, 59, 1, 128, 119, 120};
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		struct rec_sample got, want;
		ck_assert_int_eq(rec_reader_get(r, order[k], &got), 0);
		odd_sample(&want, (int)order[k]);
		want.s.nexits_seen = 1;
		same_sample(&want, &got);
		rec_sample_free(&got);
		snapshot_free(&want.s);
	}
	/* pairs: k = 5 collects what the samples between recorded of ended tasks */
	ck_assert(!rec_reader_pairable(r, 0, 1));
	ck_assert(rec_reader_pairable(r, 60, 1));
	struct rec_sample prev, cur;
	ck_assert_int_eq(rec_reader_pair(r, 100, 5, &prev, &cur), 0);
	same_dbl(cur.s.mono - prev.s.mono, 5.0, "interval");
	ck_assert_uint_eq(cur.s.nexits_seen, 5);
	ck_assert_uint_eq(cur.s.ngone, 2); /* the same two every time: listed once */
	const struct tv_task *p = snapshot_find(&cur.s, 40000);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->nexited, 2);
	rec_sample_free(&prev);
	rec_sample_free(&cur);
	ck_assert_int_eq(rec_reader_pair(r, 3, 5, &prev, &cur), -1);
	/* the plugin columns come back as columns */
	struct colset rcs;
	ck_assert_int_eq(colset_init(&rcs), 0);
	ck_assert_int_eq(rec_reader_columns(r, &rcs), 0);
	ck_assert_uint_eq(rcs.n, rcs.nbuiltin + 3);
	const struct column *c = colset_find(&rcs, "t.count");
	ck_assert_ptr_nonnull(c);
	ck_assert(c->counter);
	ck_assert_str_eq(colset_find(&rcs, "t.name")->header, "N");
	colset_free(&rcs);
	rec_reader_close(r);
	rec_tmp_close(&f);
}
END_TEST

START_TEST(damage_skipped_and_counted)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	write_series(f.path, 0, 130, &f.cs, 0);
	/* a byte of sample 70's compressed data: the rest of its block (60-119) */
	flip_byte(f.path, frame_offset(f.path, 70) + REC_HDR_LEN + 3);
	struct warnings w;
	struct rec_reader *r = open_rec(f.path, &w);
	ck_assert_int_eq(w.n, 0); /* found when read */
	struct rec_sample s;
	ck_assert_int_eq(rec_reader_get(r, 69, &s), 0);
	rec_sample_free(&s);
	ck_assert_int_eq(rec_reader_get(r, 75, &s), -1);
	ck_assert_int_eq(w.n, 1);
	ck_assert_msg(strstr(w.text, "50 samples lost") != NULL, "%s", w.text);
	ck_assert_int_eq(rec_reader_get(r, 119, &s), -1);
	ck_assert_int_eq(w.n, 1); /* said once */
	struct rec_sample prev, cur;
	ck_assert_int_eq(rec_reader_pair(r, 121, 1, &prev, &cur), 0);
	rec_sample_free(&prev);
	rec_sample_free(&cur);
	ck_assert_int_eq(rec_reader_pair(r, 120, 1, &prev, &cur), -1);
	rec_reader_close(r);

	/* a header: the frame is skipped, and the samples of its block after it */
	write_series(f.path, 0, 130, &f.cs, 0); /* appended: a second run */
	unlink(f.path);
	write_series(f.path, 0, 130, &f.cs, 0);
	flip_byte(f.path, frame_offset(f.path, 30) + 9);
	r = open_rec(f.path, &w);
	ck_assert_int_eq(w.n, 1);
	ck_assert_msg(strstr(w.text, "30 samples lost") != NULL, "%s", w.text);
	ck_assert_uint_eq(rec_reader_count(r), 129);
	ck_assert_int_eq(rec_reader_get(r, 29, &s), 0);
	rec_sample_free(&s);
	ck_assert_int_eq(rec_reader_get(r, 59, &s), 0); /* index 59 is sample 60 */
	same_dbl(s.s.mono, 5000.5 + 60, "the sample after the lost ones");
	rec_sample_free(&s);
	rec_reader_close(r);

	/* the end cut in the middle of a frame (a crash): one sample */
	unlink(f.path);
	write_series(f.path, 0, 10, &f.cs, 0);
	struct stat sb;
	ck_assert_int_eq(stat(f.path, &sb), 0);
	ck_assert_int_eq(truncate(f.path, sb.st_size - 7), 0);
	r = open_rec(f.path, &w);
	ck_assert_int_eq(w.n, 1);
	ck_assert_msg(strstr(w.text, "cut short") != NULL, "%s", w.text);
	ck_assert_uint_eq(rec_reader_count(r), 9);
	rec_reader_close(r);
	/* ... and the recorder started again: both runs read, nothing swallowed */
	write_series(f.path, 100, 10, &f.cs, 0);
	r = open_rec(f.path, &w);
	ck_assert_int_eq(w.n, 1);
	struct rec_info info;
	rec_reader_info(r, &info);
	ck_assert_uint_eq(info.nruns, 2);
	ck_assert_uint_eq(rec_reader_count(r), 19);
	ck_assert(!rec_reader_pairable(r, 9, 1)); /* across the restart */
	ck_assert(rec_reader_pairable(r, 10, 1));
	ck_assert_int_eq(rec_reader_get(r, 18, &s), 0);
	same_dbl(s.s.mono, 5000.5 + 109, "the last sample of the second run");
	rec_sample_free(&s);
	rec_reader_close(r);

	/* not a recording at all */
	FILE *fp = fopen(f.path, "w");
	fputs("hello, world\n", fp);
	fclose(fp);
	char *err = NULL;
	memset(&w, 0, sizeof(w));
	ck_assert_ptr_null(rec_reader_open(f.path, collect, &w, &err));
	ck_assert_msg(strstr(err, "not a taskview recording") != NULL, "%s", err);
	ck_assert_int_eq(w.n, 0);
	free(err);
	rec_tmp_close(&f);
}
END_TEST

/* A flip in the description at the start: nothing can be decoded, and the
 * message says the recording is damaged, not that it is something else. */
START_TEST(damaged_description_said)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	write_series(f.path, 0, 10, &f.cs, 0);
	flip_byte(f.path, 200); /* inside the first frame: the schema, about 2 KB */
	struct warnings w;
	memset(&w, 0, sizeof(w));
	char *err = NULL;
	ck_assert_ptr_null(rec_reader_open(f.path, collect, &w, &err));
	ck_assert_msg(strstr(err, "description of the recorded fields is damaged") != NULL, "%s", err);
	ck_assert_msg(w.n >= 1, "the damage is located in a warning");
	free(err);
	rec_tmp_close(&f);
}
END_TEST

START_TEST(daily_files_kept)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	char old[600], other[600], yesterday[600];
	time_t now = time(NULL), y = now - 86400;
	struct tm tm;
	localtime_r(&y, &tm);
	char name[64];
	strftime(name, sizeof(name), "taskview-%Y-%m-%d.tvr", &tm);
	snprintf(old, sizeof(old), "%s/taskview-2001-01-01.tvr", f.dir);
	snprintf(other, sizeof(other), "%s/notes.txt", f.dir);
	snprintf(yesterday, sizeof(yesterday), "%s/%s", f.dir, name);
	for (int i = 0; i < 3; i++) {
		const char *p = i == 0 ? old : i == 1 ? other : yesterday;
		FILE *fp = fopen(p, "w");
		fclose(fp);
	}
	struct rec_writer_opts o = {.path = f.dir, .interval = 1.0, .cs = &f.cs, .keep_days = 2};
	char *err = NULL;
	struct rec_writer *w = rec_writer_open(&o, &err);
	ck_assert_msg(w != NULL, "%s", err ? err : "");
	ck_assert_int_ne(access(old, F_OK), 0);
	ck_assert_int_eq(access(other, F_OK), 0);
	ck_assert_int_eq(access(yesterday, F_OK), 0);
	/* two samples before midnight, two after: two files, one run */
	struct tm mid = {.tm_year = 126, .tm_mon = 10, .tm_mday = 24, .tm_isdst = -1};
	double midnight = (double)mktime(&mid);
	for (int i = 0; i < 4; i++) {
		struct rec_sample s;
		odd_sample(&s, i);
		s.s.wall = midnight - 2 + i;
		ck_assert_int_eq(rec_writer_append(w, &s, &err), 0);
		snapshot_free(&s.s);
	}
	rec_writer_close(w);
	char d1[600], d2[600];
	snprintf(d1, sizeof(d1), "%s/taskview-2026-11-23.tvr", f.dir);
	snprintf(d2, sizeof(d2), "%s/taskview-2026-11-24.tvr", f.dir);
	ck_assert_int_eq(access(d1, F_OK), 0);
	ck_assert_int_eq(access(d2, F_OK), 0);
	struct warnings wn;
	struct rec_reader *r = open_rec(f.dir, &wn);
	ck_assert_msg(wn.n == 0, "%s", wn.text);
	ck_assert_uint_eq(rec_reader_count(r), 4);
	ck_assert(rec_reader_pairable(r, 2, 1)); /* across midnight */
	struct rec_sample prev, cur;
	ck_assert_int_eq(rec_reader_pair(r, 2, 2, &prev, &cur), 0);
	same_dbl(cur.s.wall, midnight, "after midnight");
	rec_sample_free(&prev);
	rec_sample_free(&cur);
	rec_reader_close(r);
	/* --keep wants a directory */
	o.path = d1;
	ck_assert_ptr_null(rec_writer_open(&o, &err));
	ck_assert_msg(strstr(err, "directory") != NULL, "%s", err);
	free(err);
	rec_tmp_close(&f);
}
END_TEST

/* An old daily file --keep cannot remove (here a directory of the name) is
 * said with the next sample written, once a day; the recording goes on. */
START_TEST(keep_failure_said)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	char stuck[600];
	snprintf(stuck, sizeof(stuck), "%s/taskview-2001-01-02.tvr", f.dir);
	ck_assert_int_eq(mkdir(stuck, 0700), 0);
	struct rec_writer_opts o = {.path = f.dir, .interval = 1.0, .cs = &f.cs, .keep_days = 2};
	char *err = NULL;
	struct rec_writer *w = rec_writer_open(&o, &err);
	ck_assert_msg(w != NULL, "%s", err ? err : "");
	struct tm mid = {.tm_year = 126, .tm_mon = 10, .tm_mday = 24, .tm_isdst = -1};
	double midnight = (double)mktime(&mid);
	for (int i = 0; i < 4; i++) {
		struct rec_sample s;
		odd_sample(&s, i);
		s.s.wall = midnight - 2 + i;
		int rc = rec_writer_append(w, &s, &err);
		snapshot_free(&s.s);
		/* the first sample, and the first of the next day's file */
		if (i == 0 || i == 2) {
			ck_assert_int_eq(rc, 1);
			ck_assert_msg(strstr(err, "--keep") && strstr(err, stuck), "%s", err);
			free(err);
		} else {
			ck_assert_int_eq(rc, 0);
		}
	}
	rec_writer_close(w);
	struct warnings wn;
	struct rec_reader *r = open_rec(f.dir, &wn);
	ck_assert_uint_eq(rec_reader_count(r), 4); /* every sample written */
	rec_reader_close(r);
	ck_assert_int_eq(rmdir(stuck), 0);
	rec_tmp_close(&f);
}
END_TEST

/* --keep removes what rec_daily_name accepts: exact digits only, so that a
 * file of someone else's whose name only looks like a day survives. */
START_TEST(daily_names_strict)
{
	long day;
	ck_assert(rec_daily_name("taskview-2026-11-24.tvr", &day));
	ck_assert(rec_daily_name("taskview-2001-01-01.tvr", &day));
	static const char *const foreign[] = {
		"taskview-+202-+1-+1.tvr", "taskview- 202- 1- 1.tvr", "taskview-2026-1-24.tvr",
		"taskview-2026-11-4.tvr",  "taskview-26-11-24.tvr",   "taskview-2026-11-24.tvr~",
		"taskview-2026-13-01.tvr", "taskview-2026-11-00.tvr", "taskview-2026_11_24.tvr",
		"taskview-2026-11-24.tv",  "taskview-2026-11-2x.tvr", "taskview-",
	};
	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++)
		ck_assert_msg(!rec_daily_name(foreign[i], &day), "%s taken for a daily file", foreign[i]);
	/* and --keep leaves them where they are */
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	char p[600];
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", f.dir, foreign[i]);
		FILE *fp = fopen(p, "w");
		ck_assert_ptr_nonnull(fp);
		fclose(fp);
	}
	snprintf(p, sizeof(p), "%s/taskview-2001-01-01.tvr", f.dir);
	fclose(fopen(p, "w"));
	struct rec_writer_opts o = {.path = f.dir, .interval = 1.0, .cs = &f.cs, .keep_days = 1};
	char *err = NULL;
	struct rec_writer *w = rec_writer_open(&o, &err);
	ck_assert_msg(w != NULL, "%s", err ? err : "");
	rec_writer_close(w);
	ck_assert_int_ne(access(p, F_OK), 0);
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", f.dir, foreign[i]);
		ck_assert_msg(access(p, F_OK) == 0, "%s removed by --keep", foreign[i]);
	}
	rec_tmp_close(&f);
}
END_TEST

/* A FIFO (or any file not regular) of a recording's name: refused at once
 * with a message, by the recorder and the reader; open() never waits. */
START_TEST(fifo_refused)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	char name[64], p[600];
	strftime(name, sizeof(name), "taskview-%Y-%m-%d.tvr", &tm);
	snprintf(p, sizeof(p), "%s/%s", f.dir, name);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	/* a hang fails the test by its timeout */
	struct rec_writer_opts o = {.path = f.dir, .interval = 1.0, .cs = &f.cs};
	char *err = NULL;
	ck_assert_ptr_null(rec_writer_open(&o, &err));
	ck_assert_msg(strstr(err, "not a regular file") != NULL && strstr(err, name) != NULL, "%s", err);
	free(err);
	o.path = p;
	ck_assert_ptr_null(rec_writer_open(&o, &err));
	ck_assert_msg(strstr(err, "not a regular file") != NULL, "%s", err);
	free(err);
	struct warnings w;
	memset(&w, 0, sizeof(w));
	ck_assert_ptr_null(rec_reader_open(p, collect, &w, &err));
	ck_assert_msg(strstr(err, "not a regular file") != NULL, "%s", err);
	free(err);
	ck_assert_ptr_null(rec_reader_open(f.dir, collect, &w, &err));
	ck_assert_msg(strstr(err, "none of the daily files") != NULL, "%s", err);
	ck_assert_msg(strstr(w.text, "not a regular file") != NULL, "%s", w.text);
	free(err);
	rec_tmp_close(&f);
}
END_TEST

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* The peak resident size of this process, in KiB (VmHWM); 0 when the kernel
 * does not say. reset: from now on (the kernel sets it to the size now). */
static long peak_rss(bool reset)
{
	FILE *fp;
	if (reset && (fp = fopen("/proc/self/clear_refs", "w"))) {
		fputs("5", fp);
		fclose(fp);
	}
	long kib = 0;
	char line[256];
	fp = fopen("/proc/self/status", "r");
	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	if (fp)
		fclose(fp);
	return kib;
}

/* A recording whose run says it needs a newer reader: the message says so,
 * not that it is no recording at all. */
START_TEST(newer_recording_said)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	char good[600];
	snprintf(good, sizeof(good), "%s/good.tvr", f.dir);
	write_series(good, 0, 3, &f.cs, 0);
	long samples = frame_offset(good, 0);
	FILE *in = fopen(good, "rb");
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(fseek(in, 0, SEEK_END), 0);
	long end = ftell(in);
	char *rest = malloc((size_t)(end - samples));
	ck_assert_int_eq(fseek(in, samples, SEEK_SET), 0);
	ck_assert_uint_eq(fread(rest, 1, (size_t)(end - samples), in), (size_t)(end - samples));
	fclose(in);
	struct rec_schema later;
	ck_assert_int_eq(rec_schema_build(&later, &f.cs), 0);
	later.format = later.min_reader = REC_READS + 1;
	struct buf b;
	buf_init(&b);
	rec_schema_encode(&b, &later);
	struct rec_frame fr = {
		.type = REC_FRAME_SCHEMA,
		.len = (uint32_t)b.len,
		.crc = crc32c(0, b.data, b.len),
		.wall_ns = (int64_t)1795420800 * 1000000000,
	};
	uint8_t hdr[REC_HDR_LEN];
	rec_frame_pack(hdr, &fr);
	FILE *out = fopen(f.path, "wb");
	ck_assert_ptr_nonnull(out);
	fwrite(hdr, 1, sizeof(hdr), out);
	fwrite(b.data, 1, b.len, out);
	fwrite(rest, 1, (size_t)(end - samples), out);
	fclose(out);
	struct warnings w;
	memset(&w, 0, sizeof(w));
	char *err = NULL;
	ck_assert_ptr_null(rec_reader_open(f.path, collect, &w, &err));
	ck_assert_msg(strstr(err, "made by a newer taskview") != NULL && strstr(err, f.path) != NULL, "%s", err);
	free(err);
	free(rest);
	buf_free(&b);
	rec_schema_free(&later);
	rec_tmp_close(&f);
}
END_TEST

/* A recording whose sample frame is a valid zstd stream of `raw` zero bytes
 * (checksums right): a decompression bomb. Returns its payload length. */
static size_t write_bomb(const struct rec_tmp *f, const char *path, size_t raw, int frames)
{
	char good[600];
	snprintf(good, sizeof(good), "%s/good.tvr", f->dir);
	write_series(good, 0, 1, &f->cs, 0);
	long schema_end = frame_offset(good, 0);
	FILE *in = fopen(good, "rb");
	char *head = malloc((size_t)schema_end);
	ck_assert_uint_eq(fread(head, 1, (size_t)schema_end, in), (size_t)schema_end);
	fclose(in);
	FILE *out = fopen(path, "wb");
	fwrite(head, 1, (size_t)schema_end, out);
	free(head);
	/* in pieces of a MiB: the stream of one frame, made without holding it all */
	static const char zeros[1 << 20];
	struct zs_out *z = zs_out_new(3);
	struct buf chunk;
	buf_init(&chunk);
	for (size_t done = 0; done < raw; done += sizeof(zeros))
		ck_assert_int_eq(zs_out_chunk(z, zeros, sizeof(zeros), &chunk), 0);
	for (int i = 0; i < frames; i++) {
		struct rec_frame fr = {
			.type = REC_FRAME_SAMPLE,
			.flags = REC_FLAG_BLOCK_START,
			.len = (uint32_t)chunk.len,
			.crc = crc32c(0, chunk.data, chunk.len),
			.seq = (uint64_t)i,
			.wall_ns = (int64_t)(1795420800 + i) * 1000000000,
		};
		uint8_t hdr[REC_HDR_LEN];
		rec_frame_pack(hdr, &fr);
		fwrite(hdr, 1, sizeof(hdr), out);
		fwrite(chunk.data, 1, chunk.len, out);
	}
	fclose(out);
	size_t len = chunk.len;
	buf_free(&chunk);
	zs_out_free(z);
	return len;
}

/* A frame that decompresses to more than a sample can be is damage, found
 * before the memory is spent: reading a bomb costs little. */
START_TEST(zstd_bomb_bounded)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "bomb.tvr");
	size_t len = write_bomb(&f, f.path, 256u << 20, 4);
	long hwm0 = peak_rss(true);
	double t0 = clock_now(CLOCK_PROCESS_CPUTIME_ID);
	struct warnings w;
	struct rec_reader *r = open_rec(f.path, &w);
	ck_assert_uint_eq(rec_reader_count(r), 4);
	struct rec_sample s;
	for (size_t i = 0; i < 4; i++)
		ck_assert_int_eq(rec_reader_get(r, i, &s), -1);
	double t1 = clock_now(CLOCK_PROCESS_CPUTIME_ID);
	long hwm1 = peak_rss(false);
	rec_reader_close(r);
	ck_assert_int_eq(w.n, 4);
	ck_assert_msg(strstr(w.text, "damaged sample") != NULL, "%s", w.text);
	fprintf(stderr, "note: 4 frames of %zu bytes, each 256 MiB of zeros: %.3f s of CPU, peak RSS %ld KiB more\n",
		len, t1 - t0, hwm1 - hwm0);
	/* what a sample may take (32 MiB), and a little: not the 256 MiB it asks
	 * for (AddressSanitizer keeps freed blocks a while: the buffer's smaller
	 * sizes as it grew, and the 32 MiB of each frame) */
	ck_assert_int_gt(hwm0, 0);
	ck_assert_int_lt(hwm1 - hwm0, (SANITIZED ? 160 : 48) * 1024);
	rec_tmp_close(&f);
}
END_TEST

/* The writer never writes what a reader would take for a bomb: a sample
 * larger than REC_SAMPLE_MAX is left out with a message, the run goes on,
 * and a reader says one is missing. */
START_TEST(huge_sample_left_out)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	struct rec_writer_opts o = {.path = f.path, .interval = 1.0, .cs = &f.cs};
	char *err = NULL;
	struct rec_writer *w = rec_writer_open(&o, &err);
	ck_assert_msg(w != NULL, "%s", err ? err : "");
	size_t cmdlen = 60000, extra = REC_SAMPLE_MAX / cmdlen + 10;
	char *cmd = malloc(cmdlen + 1);
	for (size_t i = 0; i < cmdlen; i++)
		cmd[i] = (char)('a' + i % 26);
	cmd[cmdlen] = '\0';
	for (int k = 0; k < 3; k++) {
		struct rec_sample s;
		odd_sample(&s, k);
		if (k == 1) {
			/* processes with long command lines, between 40000 and the last */
			struct tv_task *v = calloc(4 + extra, sizeof(*v));
			memcpy(v, s.s.procs, 3 * sizeof(*v));
			v[3 + extra] = s.s.procs[3];
			for (size_t i = 0; i < extra; i++) {
				odd_task(&v[3 + i], (int32_t)(100000 + i), (int32_t)(100000 + i), 1, 3);
				free(v[3 + i].cmdline);
				v[3 + i].cmdline = strdup(cmd);
				/* each its own: strings equal to the base's are not written again */
				snprintf(v[3 + i].cmdline, 16, "%015zu", i);
				v[3 + i].cmdline[15] = 'x';
			}
			free(s.s.procs);
			s.s.procs = v;
			s.s.nprocs = 4 + extra;
		}
		int rc = rec_writer_append(w, &s, &err);
		if (k == 1) {
			ck_assert_int_eq(rc, 1);
			ck_assert_msg(strstr(err, "left out") != NULL, "%s", err);
			free(err);
		} else {
			ck_assert_msg(rc == 0, "%s", err ? err : "");
		}
		snapshot_free(&s.s);
	}
	free(cmd);
	rec_writer_close(w);
	struct warnings wn;
	struct rec_reader *r = open_rec(f.path, &wn);
	ck_assert_uint_eq(rec_reader_count(r), 2);
	ck_assert_msg(wn.n == 1 && strstr(wn.text, "1 sample missing") != NULL, "%s", wn.text);
	ck_assert(!rec_reader_pairable(r, 1, 1)); /* not across the one left out */
	struct rec_sample got, want;
	ck_assert_int_eq(rec_reader_get(r, 1, &got), 0);
	odd_sample(&want, 2);
	same_sample(&want, &got);
	rec_sample_free(&got);
	snapshot_free(&want.s);
	rec_reader_close(r);
	rec_tmp_close(&f);
}
END_TEST

static void zero_range(const char *path, long from, long to)
{
	int fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	char *z = calloc(1, (size_t)(to - from));
	ck_assert_int_eq(pwrite(fd, z, (size_t)(to - from), from), to - from);
	free(z);
	close(fd);
}

/* Each damage message says what happened, and counts what was lost. */
START_TEST(damage_messages_true)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	struct warnings w;
	struct rec_reader *r;
	/* blocks start at samples 0, 60 and 120; 51 to 58 damaged: 59 is lost
	 * with them (its block's stream is broken), and said so */
	write_series(f.path, 0, 130, &f.cs, 0);
	zero_range(f.path, frame_offset(f.path, 51), frame_offset(f.path, 59));
	r = open_rec(f.path, &w);
	ck_assert_msg(w.n == 1 && strstr(w.text, "skipped: 9 samples lost") != NULL &&
		      strstr(w.text, "(1 of them intact, but written against a damaged one)") != NULL, "%s", w.text);
	rec_reader_close(r);
	/* 52 to 59: the eight, and nothing more */
	unlink(f.path);
	write_series(f.path, 0, 130, &f.cs, 0);
	zero_range(f.path, frame_offset(f.path, 52), frame_offset(f.path, 60));
	r = open_rec(f.path, &w);
	ck_assert_msg(w.n == 1 && strstr(w.text, "skipped: 8 samples lost") != NULL && strstr(w.text, "intact") == NULL,
		      "%s", w.text);
	rec_reader_close(r);
	/* the last ten frames zeroed: damage to the end, not a sample cut short */
	unlink(f.path);
	write_series(f.path, 0, 130, &f.cs, 0);
	struct stat sb;
	ck_assert_int_eq(stat(f.path, &sb), 0);
	zero_range(f.path, frame_offset(f.path, 120), sb.st_size);
	r = open_rec(f.path, &w);
	ck_assert_msg(w.n == 1 && strstr(w.text, "cut short") == NULL && strstr(w.text, "what the file holds after") != NULL,
		      "%s", w.text);
	ck_assert_uint_eq(rec_reader_count(r), 120);
	rec_reader_close(r);
	/* the first bytes of a header at the end: the recorder stopped writing it */
	unlink(f.path);
	write_series(f.path, 0, 10, &f.cs, 0);
	ck_assert_int_eq(truncate(f.path, frame_offset(f.path, 9) + 3), 0);
	r = open_rec(f.path, &w);
	ck_assert_msg(w.n == 1 && strstr(w.text, "the last sample is cut short") != NULL, "%s", w.text);
	rec_reader_close(r);
	/* a daily file of random bytes beside a good one: not a recording, not a cut */
	char day[600], junk[600];
	snprintf(day, sizeof(day), "%s/taskview-2026-11-23.tvr", f.dir);
	snprintf(junk, sizeof(junk), "%s/taskview-2026-11-24.tvr", f.dir);
	write_series(day, 0, 5, &f.cs, 0);
	FILE *fp = fopen(junk, "wb");
	srand(7);
	for (int i = 0; i < 30000; i++)
		fputc(rand() & 0xff, fp);
	fclose(fp);
	r = open_rec(f.dir, &w);
	ck_assert_msg(w.n == 1 && strstr(w.text, "taskview-2026-11-24.tvr: not a taskview recording: skipped") != NULL,
		      "%s", w.text);
	ck_assert_uint_eq(rec_reader_count(r), 5);
	rec_reader_close(r);
	rec_tmp_close(&f);
}
END_TEST

/* Why nothing can be shown: each reason as it is. */
START_TEST(none_shown_said)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "r.tvr");
	struct warnings w;
	/* a run started and stopped before its first sample */
	write_series(f.path, 0, 0, &f.cs, 0);
	struct rec_reader *r = open_rec(f.path, &w);
	ck_assert_str_eq(replay_none_why(r, -INFINITY, INFINITY, 1), "the recording holds no sample");
	rec_reader_close(r);
	/* one sample: it has none before it */
	unlink(f.path);
	write_series(f.path, 0, 1, &f.cs, 0);
	r = open_rec(f.path, &w);
	ck_assert_msg(strstr(replay_none_why(r, -INFINITY, INFINITY, 1), "too few samples") != NULL, "one sample");
	rec_reader_close(r);
	/* every frame intact, none readable (the first sample's data damaged:
	 * its block with it) */
	unlink(f.path);
	write_series(f.path, 0, 5, &f.cs, 0);
	flip_byte(f.path, frame_offset(f.path, 0) + REC_HDR_LEN + 3);
	r = open_rec(f.path, &w);
	struct rec_sample s;
	ck_assert_int_eq(rec_reader_get(r, 1, &s), -1);
	const char *why = replay_none_why(r, -INFINITY, INFINITY, 1);
	ck_assert_msg(strstr(why, "range") == NULL && strstr(why, "none can be read") != NULL, "%s", why);
	/* ... and a range with nothing in it */
	ck_assert_msg(strstr(replay_none_why(r, 1.0, 2.0, 1), "in the range asked for") != NULL, "range");
	rec_reader_close(r);
	rec_tmp_close(&f);
}
END_TEST

/* A day at one sample a second: jumping to a time answers well within a second.
 * The reader's own CPU time is measured, not the wall clock: on a busy
 * machine the wall clock also counts the time other tasks had the CPU. */
START_TEST(day_jump_fast)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "day.tvr");
	double t0 = clock_now(CLOCK_MONOTONIC);
	write_series(f.path, 0, 86400, &f.cs, 0);
	double t1 = clock_now(CLOCK_MONOTONIC);
	struct warnings w;
	double c1 = clock_now(CLOCK_THREAD_CPUTIME_ID);
	struct rec_reader *r = open_rec(f.path, &w);
	double t2 = clock_now(CLOCK_MONOTONIC), c2 = clock_now(CLOCK_THREAD_CPUTIME_ID);
	ck_assert_uint_eq(rec_reader_count(r), 86400);
	static const double at[] = {3 * 3600 + 12 * 60, 23 * 3600 + 59 * 60, 60, 12 * 3600 + 1};
	double worst = 0;
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		double a = clock_now(CLOCK_THREAD_CPUTIME_ID);
		size_t i = rec_reader_find(r, 1795420800.25 + at[k]);
		struct rec_sample prev, cur;
		ck_assert_int_eq(rec_reader_pair(r, i, 1, &prev, &cur), 0);
		double b = clock_now(CLOCK_THREAD_CPUTIME_ID);
		ck_assert_double_eq_tol(cur.s.wall, 1795420800.25 + at[k], 1e-6);
		rec_sample_free(&prev);
		rec_sample_free(&cur);
		worst = b - a > worst ? b - a : worst;
	}
	struct stat sb;
	stat(f.path, &sb);
	fprintf(stderr, "note: a day of samples: written in %.1f s, %lld bytes, indexed in %.3f s; the slowest jump "
		"took %.3f s (CPU time: indexing %.3f s)\n", t1 - t0, (long long)sb.st_size, t2 - t1, worst, c2 - c1);
	ck_assert_double_lt(worst + (c2 - c1), 1.0);
	rec_reader_close(r);
	rec_tmp_close(&f);
}
END_TEST

/* ---- streams ---- */

/* The bytes of a file. */
static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *p = malloc((size_t)len + 1);
	ck_assert_uint_eq(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

/*
 * A recording of two hosts, a and b, into path (in f's directory): one
 * machine's series (frame 0 its description, then samples 0 to 5), frame k
 * a's when k <= last_a, taken at 99 + k s, and b's after it when k <=
 * last_b, taken half a second later. Returns the offset of b's frame mark
 * (-1: none).
 */
static long two_hosts(struct rec_tmp *f, int last_a, int last_b, int mark, char *path, size_t len)
{
	rec_tmp_open(f, "one.tvr");
	write_series(f->path, 0, 6, &f->cs, 0);
	size_t n;
	uint8_t *one = slurp(f->path, &n);
	struct buf b;
	buf_init(&b);
	const int64_t s = 1000000000;
	long marked = -1;
	int k = 0;
	for (size_t off = 0; off < n; k++) {
		struct rec_frame fr;
		ck_assert_int_eq(rec_frame_unpack(one + off, n - off, &fr), 0);
		int64_t at = 99 * s + (int64_t)k * s;
		if (k <= last_a)
			ck_assert_int_eq(rec_hostframe_pack(&b, "a", one + off, fr.hlen + fr.len, &fr, at), 0);
		if (k == mark)
			marked = (long)b.len;
		if (k <= last_b)
			ck_assert_int_eq(rec_hostframe_pack(&b, "b", one + off, fr.hlen + fr.len, &fr, at + s / 2), 0);
		off += fr.hlen + fr.len;
	}
	ck_assert_int_eq(k, 7);
	snprintf(path, len, "%s/hosts.tvr", f->dir);
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(b.data, 1, b.len, fp), b.len);
	fclose(fp);
	free(one);
	buf_free(&b);
	return marked;
}

/*
 * Two hosts in one file, as a viewer records them: a's frames and b's taken
 * in turn, then b's last two after a's last. The header of b's sample after
 * a's last is damaged: b tells what it lost, a (which cannot know whose the
 * damage was) tells nothing and keeps every sample, and the file's reader
 * tells the stretch of bytes.
 */
START_TEST(host_damage_told_by_its_host)
{
	struct rec_tmp f;
	char path[600];
	long damaged = two_hosts(&f, 4, 6, 5, path, sizeof(path));
	flip_byte(path, damaged + 10); /* its length */
	struct warnings w = {0};
	char *err = NULL;
	struct rec_reader *r = rec_reader_open_host(path, "a", collect, &w, &err);
	ck_assert_msg(r != NULL, "%s", err ? err : "");
	ck_assert_uint_eq(rec_reader_count(r), 4);
	ck_assert_msg(w.n == 0, "a told: %s", w.text);
	rec_reader_close(r);
	r = rec_reader_open_host(path, "b", collect, &w, &err);
	ck_assert_msg(r != NULL, "%s", err ? err : "");
	ck_assert_msg(w.n == 1 && strstr(w.text, "damaged bytes"), "b told: %s", w.text);
	rec_reader_close(r);
	r = open_rec(path, &w);
	ck_assert_msg(w.n == 1 && strstr(w.text, "damaged bytes at offset"), "the file told %d: %s", w.n, w.text);
	rec_reader_close(r);
	rec_tmp_close(&f);
}
END_TEST

/*
 * The readers of several hosts opened together (one pass over the file)
 * index and tell exactly what each opened alone does: the same samples,
 * places and times, the same warnings, and why a host of none cannot be
 * read.
 */
START_TEST(hosts_indexed_together)
{
	struct rec_tmp f;
	char path[600];
	long damaged = two_hosts(&f, 4, 6, 5, path, sizeof(path));
	flip_byte(path, damaged + 10);
	const char *names[] = {"a", "b", "nobody"};
	struct warnings alone[3] = {0}, together[3] = {0};
	struct rec_reader *r[3];
	for (int i = 0; i < 3; i++) {
		char *err = NULL;
		r[i] = rec_reader_open_host(path, names[i], collect, &alone[i], &err);
		ck_assert_msg((r[i] != NULL) == (i < 2), "%s: %s", names[i], err ? err : "");
		if (err)
			collect(&alone[i], err);
		free(err);
	}
	struct rec_host_open v[3];
	for (int i = 0; i < 3; i++)
		v[i] = (struct rec_host_open){.host = names[i], .warn = collect, .ctx = &together[i]};
	ck_assert_int_eq(rec_reader_open_hosts(path, v, 3), 0);
	for (int i = 0; i < 3; i++) {
		if (v[i].err)
			collect(&together[i], v[i].err);
		free(v[i].err);
		ck_assert_msg(together[i].n == alone[i].n && strcmp(together[i].text, alone[i].text) == 0,
			      "%s told alone:\n%stogether:\n%s", names[i], alone[i].text, together[i].text);
		ck_assert_int_eq(v[i].r != NULL, r[i] != NULL);
		if (!r[i])
			continue;
		ck_assert_uint_eq(rec_reader_count(v[i].r), rec_reader_count(r[i]));
		for (size_t k = 0; k < rec_reader_count(r[i]); k++) {
			ck_assert_uint_eq(rec_reader_place(v[i].r, k), rec_reader_place(r[i], k));
			ck_assert(rec_reader_taken(v[i].r, k) == rec_reader_taken(r[i], k));
		}
		rec_reader_close(v[i].r);
		rec_reader_close(r[i]);
	}
	ck_assert_msg(strstr(alone[1].text, "damaged bytes") && strstr(alone[2].text, "no sample of this host"),
		      "b: %s; nobody: %s", alone[1].text, alone[2].text);
	rec_tmp_close(&f);
}
END_TEST

/*
 * The tape over a recording of two hosts, taken by the recorder at known
 * times: a every second from 100 s, b at 100.5 s and 101.5 s only (then
 * stopped). Each moment shows each host's last pair taken by then, Live,
 * Stale past two intervals, or none yet; the moments where a pair changes;
 * a step at which nothing pairs is refused.
 */
START_TEST(tape_moments)
{
	struct rec_tmp f;
	char path[600];
	two_hosts(&f, 6, 2, -1, path, sizeof(path));
	struct warnings w;
	struct rec_reader *top = open_rec(path, &w);
	struct cli_opts o;
	memset(&o, 0, sizeof(o));
	o.replay = path;
	o.delay = 1;
	struct fleet fl;
	struct tape tp;
	ck_assert_int_eq(tape_open(&tp, &fl, &o, top, &f.cs, collect, &w), 0);
	ck_assert_uint_eq(fl.n, 2);
	/* a's first pair, samples 0 and 1, taken at 101 s */
	ck_assert(tp.start == 101 && tp.end == 105 && tp.step == 1);
	ck_assert_int_eq(tape_show(&tp, &fl, tp.start), 1);
	ck_assert_int_eq(fl.h[0].state, FLEET_LIVE);
	ck_assert(fl.h[0].have_pair && !fl.h[1].have_pair);
	ck_assert_int_eq(fl.h[1].state, FLEET_CONNECTING);
	ck_assert(tape_next(&tp, 101) == 101.5 && tape_prev(&tp, 101.5) == 101 && tape_prev(&tp, 101) == -INFINITY);
	/* 103.9 s: b's pair (101.5 s) 2.4 s old, within two intervals and a half */
	ck_assert_int_eq(tape_show(&tp, &fl, 103.9), 1);
	ck_assert(fl.h[1].have_pair && fl.h[1].last_sample == 101.5);
	ck_assert_int_eq(fl.h[1].state, FLEET_LIVE);
	ck_assert_int_eq(tape_show(&tp, &fl, 103.9), 0); /* the same moment: nothing changed */
	/* the end: b 3.5 s old, stale, its pair kept; a's last pair */
	ck_assert_int_eq(tape_show(&tp, &fl, tp.end), 1);
	ck_assert_int_eq(fl.h[1].state, FLEET_STALE);
	ck_assert(fl.h[1].have_pair && fleet_age(&fl.h[1], fl.at) == 3.5);
	ck_assert_uint_eq(tp.h[0].i, 5);
	ck_assert(tape_next(&tp, tp.end) == INFINITY);
	/* two seconds a step: a's samples 3 and 5, b none (it has two) */
	ck_assert_int_eq(tape_set_step(&tp, 2), 0);
	ck_assert(tp.start == 102);
	ck_assert_int_eq(tape_show(&tp, &fl, tp.end), 1);
	ck_assert(!fl.h[1].have_pair && fl.h[0].have_pair);
	ck_assert_uint_eq(tp.h[0].k, 2);
	/* ten: nothing pairs, the step stays */
	ck_assert_int_eq(tape_set_step(&tp, 10), -1);
	ck_assert(tp.step == 2 && tp.h[0].k == 2);
	fleet_free(&fl);
	tape_free(&tp);
	rec_reader_close(top);
	rec_tmp_close(&f);
}
END_TEST

/* Feeds bytes in pieces of step (cycling through odd sizes when 0) and
 * compares each sample that comes out with the file reader's. */
static void stream_matches_file(const char *path, const uint8_t *p, size_t n, size_t step)
{
	struct warnings w;
	struct rec_reader *r = open_rec(path, &w);
	struct rec_stream *st = rec_stream_new();
	ck_assert_ptr_nonnull(st);
	size_t got = 0, off = 0, k = 0;
	static const size_t odd[] = {1, 7, 36, 3, 4096, 11, 100000};
	while (off < n) {
		size_t piece = step ? step : odd[k++ % 7];
		if (piece > n - off)
			piece = n - off;
		char *err = NULL;
		ck_assert_int_eq(rec_stream_feed(st, p + off, piece, &err), 0);
		off += piece;
		struct rec_sample a, b;
		uint64_t seq;
		int rc;
		while ((rc = rec_stream_next(st, &a, &seq, &err)) > 0) {
			ck_assert_uint_eq(seq, got);
			ck_assert_int_eq(rec_reader_get(r, got, &b), 0);
			same_sample(&a, &b);
			rec_sample_free(&a);
			rec_sample_free(&b);
			got++;
		}
		ck_assert_msg(rc == 0, "%s", err ? err : "");
	}
	ck_assert_uint_eq(got, rec_reader_count(r));
	ck_assert_ptr_nonnull(rec_stream_schema(st));
	ck_assert_ptr_nonnull(rec_schema_prop(rec_stream_schema(st), "host"));
	ck_assert_str_eq(rec_schema_prop(rec_stream_schema(st), "interval"), "1");
	ck_assert_uint_eq(rec_stream_bytes(st), n);
	rec_stream_free(st);
	rec_reader_close(r);
}

START_TEST(stream_read_as_it_comes)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "s.tvr");
	/* more than a block: a new compressed stream starts inside */
	write_series(f.path, 0, REC_BLOCK_SAMPLES + 10, &f.cs, 0);
	size_t n;
	uint8_t *p = slurp(f.path, &n);
	stream_matches_file(f.path, p, n, 0);
	stream_matches_file(f.path, p, n, 1);
	stream_matches_file(f.path, p, n, n);
	free(p);
	rec_tmp_close(&f);
}
END_TEST

/* What a stream does with bytes fed in front of or in place of good ones. */
static int stream_of(const uint8_t *p, size_t n, size_t max_tasks, char **err)
{
	struct rec_stream *st = rec_stream_new();
	if (max_tasks)
		rec_stream_max_tasks(st, max_tasks);
	int rc = rec_stream_feed(st, p, n, err);
	struct rec_sample s;
	uint64_t seq;
	while (rc == 0) {
		rc = rec_stream_next(st, &s, &seq, err);
		if (rc <= 0)
			break;
		rec_sample_free(&s);
		rc = 0;
	}
	rec_stream_free(st);
	return rc;
}

/* Writes samples of nprocs processes each; named: each task a user of its own. */
static void write_many(const char *path, const struct colset *cs, int nsamples, int nprocs, bool named)
{
	struct rec_writer_opts o = {.path = path, .interval = 1.0, .cs = cs, .filter = "-u 0"};
	char *err = NULL;
	struct rec_writer *w = rec_writer_open(&o, &err);
	ck_assert_msg(w != NULL, "%s", err ? err : "");
	char (*names)[16] = calloc((size_t)nprocs, sizeof(*names));
	for (int k = 0; k < nsamples; k++) {
		struct rec_sample rs;
		odd_sample(&rs, k + 1);
		struct snapshot *sn = &rs.s;
		for (size_t i = 0; i < sn->nprocs; i++)
			task_release(&sn->procs[i], sn->npvals);
		free(sn->procs);
		for (size_t i = 0; i < sn->ngone; i++) /* the tasks are these processes only */
			task_release(&sn->gone[i], 0);
		free(sn->gone);
		sn->gone = NULL;
		sn->ngone = 0;
		sn->procs = calloc((size_t)nprocs, sizeof(*sn->procs));
		sn->nprocs = (size_t)nprocs;
		for (int i = 0; i < nprocs; i++) {
			odd_task(&sn->procs[i], i + 1, i + 1, 1, 3);
			snprintf(names[i], sizeof(names[i]), "u%d-%d", k, i);
			sn->procs[i].user = named ? names[i] : "nobody";
		}
		ck_assert_int_eq(rec_writer_append(w, &rs, &err), 0);
		snapshot_free(sn);
	}
	rec_writer_close(w);
	free(names);
}

/* A remote that names a new user on every task, or sends more tasks than a
 * machine's selection holds: what the stream keeps is limited, and it says
 * why it ended. */
START_TEST(stream_names_are_limited)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "n.tvr");
	/* three samples: the third passes the limit */
	enum { NPROCS = REC_STRINGS_MAX / 2 - 8 };
	write_many(f.path, &f.cs, 3, NPROCS, true);
	char *err = NULL;
	size_t n;
	uint8_t *p = slurp(f.path, &n);
	struct rec_stream *st = rec_stream_new();
	ck_assert_int_eq(rec_stream_feed(st, p, n, &err), 0);
	struct rec_sample s;
	uint64_t seq;
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(rec_stream_next(st, &s, &seq, &err), 1);
		ck_assert_uint_eq(s.s.nprocs, NPROCS);
		rec_sample_free(&s);
	}
	ck_assert_int_eq(rec_stream_next(st, &s, &seq, &err), -1);
	ck_assert_str_eq(err, "the stream sent too many distinct names");
	free(err);
	rec_stream_free(st);
	free(p);
	rec_tmp_close(&f);

	/* the limits themselves: a count of strings, and their bytes */
	struct rec_strings *ss = rec_strings_new();
	rec_strings_limit(ss);
	for (int i = 0; i < REC_STRINGS_MAX; i++) {
		char b[16];
		int len = snprintf(b, sizeof(b), "%d", i);
		ck_assert_ptr_nonnull(rec_strings_get(ss, b, (size_t)len));
	}
	ck_assert(!rec_strings_full(ss));
	ck_assert_str_eq(rec_strings_get(ss, "7", 1), "7"); /* one kept is still found */
	ck_assert_ptr_null(rec_strings_get(ss, "new", 3));
	ck_assert(rec_strings_full(ss));
	rec_strings_free(ss);
	ss = rec_strings_new();
	rec_strings_limit(ss);
	char *big = calloc(1, REC_STRINGS_MAX_BYTES);
	memset(big, 'x', REC_STRINGS_MAX_BYTES - 1);
	ck_assert_ptr_nonnull(rec_strings_get(ss, big, REC_STRINGS_MAX_BYTES / 2));
	ck_assert(!rec_strings_full(ss));
	big[0] = 'y'; /* another string of the same length: past the bytes kept */
	ck_assert_ptr_null(rec_strings_get(ss, big, REC_STRINGS_MAX_BYTES / 2));
	ck_assert(rec_strings_full(ss));
	free(big);
	rec_strings_free(ss);
}
END_TEST

/* The hosts' screen: two hosts' shown samples as one table, each task's IDs
 * carrying its host, PIDs and HOST shown as each host has them. */
START_TEST(shown_merge_keeps_hosts_apart)
{
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	struct rec_sample a0, a1, b0, b1;
	odd_sample(&a0, 1);
	odd_sample(&a1, 2);
	odd_sample(&b0, 3);
	odd_sample(&b1, 4);
	struct shown sa, sb, m;
	ck_assert_int_eq(shown_build(&sa, &a0.s, &a1.s, &cs, NULL, true), 0);
	ck_assert_int_eq(shown_build(&sb, &b0.s, &b1.s, &cs, NULL, true), 0);
	const struct shown *parts[3] = {&sa, NULL, &sb}; /* the second host has sent no pair yet */
	const char *names[3] = {"web1", "web2", "db1"};
	ck_assert_int_eq(shown_merge(&m, parts, names, 3), 0);
	/* live ones: the first host's, then the third's; ended ones after them, in the same order;
	 * odd_sample's process INT32_MAX is no PID: left out */
	const struct tv_task *want[64];
	int want_host[64];
	size_t nwant = 0, nlive = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int hi = 0; hi < 3; hi++) {
			const struct shown *src = parts[hi];
			for (size_t j = src ? (pass ? src->nlive : 0) : 0; src && j < (pass ? src->s.nprocs : src->nlive); j++)
				if (src->procs[j].tgid != INT32_MAX) {
					want_host[nwant] = hi;
					want[nwant++] = &src->procs[j];
					nlive += !pass;
				}
		}
	ck_assert_uint_eq(m.s.nprocs, nwant);
	ck_assert_uint_eq(m.nlive, nlive);
	ck_assert_uint_eq(m.s.ngone, nwant - nlive);
	ck_assert_uint_gt(m.s.ngone, 0);
	struct column host = column_host(names, 3);
	const struct column *pid = colset_find(&cs, "pid");
	for (size_t i = 0; i < m.s.nprocs; i++) {
		const struct tv_task *t = &m.s.procs[i], *o = want[i];
		ck_assert_int_eq(task_id_host(t->tgid), want_host[i]);
		ck_assert_int_eq(task_id_pid(t->tgid), o->tgid);
		ck_assert_int_eq(pid->get(pid, t).i, o->tid);
		ck_assert_str_eq(host.get(&host, t).s, names[want_host[i]]);
		/* its group, nested under its host's: "/NAME" and the path there; the root and no
		 * group are the host's own */
		const struct tv_cgroup *hg = m.s.cgroups[want_host[i]];
		if (!o->cgroup && i >= m.nlive) {
			/* ended in a group not known: in none (every group's sums a lower bound) */
			ck_assert_ptr_null(t->cgroup);
		} else if (!o->cgroup || strcmp(o->cgroup->path, "/") == 0) {
			ck_assert_ptr_eq(t->cgroup, hg);
		} else {
			char path[256];
			snprintf(path, sizeof(path), "/%s%s", names[want_host[i]], o->cgroup->path);
			ck_assert_str_eq(t->cgroup->path, path);
			ck_assert_str_eq(t->cgroup->unit, o->cgroup->unit);
			ck_assert_ptr_eq(m.s.cgroups[t->cgroup->index], t->cgroup);
			ck_assert_int_eq(t->cgroup->cpu_usage_us, o->cgroup->cpu_usage_us);
			const struct tv_cgroup *up = t->cgroup;
			for (const struct tv_cgroup *og = o->cgroup; og->parent && og->parent->parent; og = og->parent) {
				up = up->parent;
				ck_assert_str_eq(up->unit, og->parent->unit);
			}
			ck_assert_ptr_eq(up->parent, hg);
		}
		ck_assert_uint_eq(t->nthreads_read, o->nthreads_read);
		for (size_t k = 0; k < t->nthreads_read; k++) {
			/* copies: the host's own threads keep their IDs */
			ck_assert_ptr_ne(t->threads, o->threads);
			ck_assert_int_eq(t->threads[k].tid, task_id_on(o->threads[k].tid, (unsigned)want_host[i]));
			ck_assert_int_eq(task_id_pid(t->threads[k].tgid), o->threads[k].tgid);
		}
	}
	/* the same PID on two hosts is two tasks */
	ck_assert_ptr_nonnull(snapshot_find(&m.s, 1));
	ck_assert_ptr_nonnull(snapshot_find(&m.s, task_id_on(1, 2)));
	ck_assert_ptr_null(snapshot_find(&m.s, task_id_on(1, 1)));
	/* the ended ones are marked as the hosts' own shown samples mark them */
	struct rows rows = {0};
	struct view_opts vo = {.cs = &cs, .sort_col = colset_index(&cs, "pid"), .all_threads = true};
	ck_assert_int_eq(rows_build(&m.s, &vo, &rows), 0);
	shown_mark(&m, &rows);
	size_t marked = 0;
	for (size_t r = 0; r < rows.n; r++)
		marked += rows.v[r].exited && !rows.v[r].is_thread;
	ck_assert_uint_eq(marked, m.s.ngone);
	rows_free(&rows);
	/* each host is a group, its row the sum of its processes (the group view's); its control
	 * groups but the root are nested under it */
	ck_assert_uint_eq(m.s.ncgroups, 3 + (sa.s.ncgroups - 1) + (sb.s.ncgroups - 1));
	ck_assert_str_eq(m.s.cgroups[2]->path, "/db1");
	ck_assert_str_eq(m.s.cgroups[3]->path, "/web1/a b\x1b[31m");
	vo.groups = true;
	ck_assert_int_eq(rows_build(&m.s, &vo, &rows), 0);
	size_t hosts_shown = 0;
	for (size_t r = 0; r < rows.n; r++) {
		const struct row *row = &rows.v[r];
		if (!row->group)
			continue;
		const struct tv_cgroup *root = row->task->cgroup;
		while (root->parent)
			root = root->parent;
		if (root != row->task->cgroup) {
			/* a host's control group: HOST names its host */
			ck_assert_str_eq(host.get(&host, row->task).s, root->unit);
			continue;
		}
		hosts_shown++;
		int hi = row->task->cgroup == m.s.cgroups[0] ? 0 : 2;
		ck_assert_ptr_eq(row->task->cgroup, m.s.cgroups[hi]);
		ck_assert_str_eq(host.get(&host, row->task).s, names[hi]);
		int64_t threads = 0;
		for (size_t i = 0; i < m.nlive; i++)
			if (task_id_host(m.s.procs[i].tgid) == (unsigned)hi)
				threads += m.s.procs[i].nthreads;
		ck_assert_int_eq(row->task->nthreads, threads);
	}
	ck_assert_uint_eq(hosts_shown, 2); /* the host without a pair has no row */
	rows_free(&rows);
	shown_free(&m);
	shown_free(&sa);
	shown_free(&sb);
	rec_sample_free(&a0);
	rec_sample_free(&a1);
	rec_sample_free(&b0);
	rec_sample_free(&b1);
	colset_free(&cs);
}
END_TEST

START_TEST(stream_tasks_are_limited)
{
	/* a limit of 1,000 stands for REC_STREAM_TASKS_MAX: the same check, a test of milliseconds */
	enum { LIMIT = 1000 };
	struct rec_tmp f;
	rec_tmp_open(&f, "t.tvr");
	write_many(f.path, &f.cs, 1, LIMIT, false);
	size_t n;
	uint8_t *p = slurp(f.path, &n);
	char *err = NULL;
	ck_assert_int_eq(stream_of(p, n, LIMIT, &err), 0); /* as many as may come */
	free(p);
	rec_tmp_close(&f);
	rec_tmp_open(&f, "u.tvr");
	write_many(f.path, &f.cs, 1, LIMIT + 1, false);
	p = slurp(f.path, &n);
	ck_assert_int_eq(stream_of(p, n, LIMIT, &err), -1);
	ck_assert_str_eq(err, "the stream sent a sample of too many tasks");
	free(err);
	free(p);
	rec_tmp_close(&f);
}
END_TEST

START_TEST(stream_damage_ends_it)
{
	struct rec_tmp f;
	rec_tmp_open(&f, "d.tvr");
	write_series(f.path, 0, 5, &f.cs, 0);
	size_t n;
	uint8_t *p = slurp(f.path, &n);
	char *err = NULL;
	/* whole: every sample, then nothing more is whole */
	ck_assert_int_eq(stream_of(p, n, 0, &err), 0);
	/* cut in the middle of a frame: waits for the rest */
	ck_assert_int_eq(stream_of(p, n - 3, 0, &err), 0);
	/* not a stream at all */
	ck_assert_int_eq(stream_of((const uint8_t *)"garbage\n and more", 18, 0, &err), -1);
	ck_assert_str_eq(err, "what came is not a taskview stream");
	free(err);
	/* a byte of a sample's payload changed: its checksum fails */
	long off = frame_offset(f.path, 2);
	uint8_t *q = malloc(n);
	memcpy(q, p, n);
	q[off + REC_HDR_LEN + 2] ^= 0x40;
	ck_assert_int_eq(stream_of(q, n, 0, &err), -1);
	ck_assert_str_eq(err, "the stream sent a damaged frame");
	free(err);
	/* a sample left out: the next cannot be decoded against it */
	long a = frame_offset(f.path, 2), b = frame_offset(f.path, 3);
	memcpy(q, p, (size_t)a);
	memcpy(q + a, p + b, n - (size_t)b);
	ck_assert_int_eq(stream_of(q, n - (size_t)(b - a), 0, &err), -1);
	ck_assert_str_eq(err, "the stream skipped a sample");
	free(err);
	/* a header that claims more than a sample may take: refused before it is buffered */
	struct rec_frame fr = {.type = REC_FRAME_SAMPLE, .len = REC_STREAM_FRAME_MAX + 1};
	rec_frame_pack(q, &fr);
	ck_assert_int_eq(stream_of(q, REC_HDR_LEN, 0, &err), -1);
	free(err);
	/* more bytes than it holds, fed without one taken: refused */
	struct rec_stream *st = rec_stream_new();
	ck_assert_int_eq(rec_stream_feed(st, p, 8, &err), 0);
	uint8_t *big = calloc(1, REC_STREAM_HOLD_MAX);
	ck_assert_int_eq(rec_stream_feed(st, big, REC_STREAM_HOLD_MAX - 8, &err), 0);
	ck_assert_int_eq(rec_stream_feed(st, big, 1, &err), -1);
	free(err);
	free(big);
	rec_stream_free(st);
	free(q);
	free(p);
	rec_tmp_close(&f);
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("bytes");
	tcase_add_test(tc, crc_known_value);
	tcase_add_test(tc, field_sizes_match_members);
	tcase_add_test(tc, varints);
	tcase_add_test(tc, frame_header);
	suite_add_tcase(s, tc);
	tc = tcase_create("codec");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, real_samples_round_trip);
	tcase_add_test(tc, edge_values_round_trip);
	tcase_add_test(tc, out_of_order_refused);
	tcase_add_test(tc, damaged_bytes_never_crash);
	tcase_add_test(tc, schema_round_trip);
	tcase_add_test(tc, unknown_fields_skipped);
	tcase_add_test(tc, older_reader_skips_groups);
	tcase_add_test(tc, machine_unknown_without_its_fields);
	suite_add_tcase(s, tc);
	tc = tcase_create("files");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, file_written_and_read);
	tcase_add_test(tc, damage_skipped_and_counted);
	tcase_add_test(tc, damaged_description_said);
	tcase_add_test(tc, newer_recording_said);
	tcase_add_test(tc, daily_files_kept);
	tcase_add_test(tc, keep_failure_said);
	tcase_add_test(tc, daily_names_strict);
	tcase_add_test(tc, fifo_refused);
	tcase_add_test(tc, zstd_bomb_bounded);
	tcase_add_test(tc, huge_sample_left_out);
	tcase_add_test(tc, damage_messages_true);
	tcase_add_test(tc, none_shown_said);
	tcase_add_test(tc, stream_read_as_it_comes);
	tcase_add_test(tc, stream_damage_ends_it);
	tcase_add_test(tc, stream_names_are_limited);
	tcase_add_test(tc, stream_tasks_are_limited);
	tcase_add_test(tc, shown_merge_keeps_hosts_apart);
	tcase_add_test(tc, host_frames);
	tcase_add_test(tc, host_frames_hostile);
	tcase_add_test(tc, host_damage_told_by_its_host);
	tcase_add_test(tc, hosts_indexed_together);
	tcase_add_test(tc, tape_moments);
	suite_add_tcase(s, tc);
	tc = tcase_create("day");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, day_jump_fast);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(record_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
