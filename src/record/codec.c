/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A record is a list of (tag, value) for the fields that differ from the
 * base, ended by a zero tag. tag = (index gap << 1) | unknown: the gap from
 * the previous field written (at least 1), the low bit when the value is
 * unknown (no bytes follow). A time is written in microseconds against one
 * of two bases, the low bit saying which: its default base (a field of the
 * same record it follows closely, or the same field of the previous record)
 * or that previous record's. Times are kept to the microsecond (a reading
 * is not more exact: it is taken next to a read, not at it): the recorder
 * rounds its samples' times first (rec_round_times), so what it derives live
 * and what a replay derives are the same to the last bit.
 */
#include "record/codec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/bytes.h"

#define STR_MAX (1u << 20)

int64_t rec_sec_to_ns(double t)
{
	if (!(fabs(t) < 9e9))
		return 0;
	return (int64_t)llround(t * 1e9);
}

/* Microseconds to the nearest. llrint (ties to even, in the rounding mode
 * taskview never changes) is one instruction where llround is a routine:
 * this runs for every time of every task a recorder writes. */
static int64_t sec_to_us(double t)
{
	if (!(fabs(t) < 9e12))
		return 0;
	return (int64_t)llrint(t * 1e6);
}

/* Whole seconds and the fraction apart, as clock_now makes a reading. */
static double us_to_sec(int64_t us)
{
	return (double)(us / 1000000) + (double)(us % 1000000) / 1e6;
}

static double round_us(double t)
{
	return t == 0 ? 0 : us_to_sec(sec_to_us(t));
}

static void round_task(struct tv_task *t)
{
	t->t_cpu = round_us(t->t_cpu);
	t->t_ctxt = round_us(t->t_ctxt);
	t->t_delay = round_us(t->t_delay);
	if (t->mem_own) /* once per block: threads borrow their process's */
		t->mem->t_io = round_us(t->mem->t_io);
	for (size_t i = 0; i < t->nthreads_read; i++)
		round_task(&t->threads[i]);
	for (size_t i = 0; i < t->nexited; i++)
		round_task(&t->exited[i]);
}

void rec_round_times(struct snapshot *s)
{
	s->mono = round_us(s->mono);
	s->wall = round_us(s->wall);
	s->t_pressure = round_us(s->t_pressure);
	s->machine.t_busy = round_us(s->machine.t_busy);
	for (size_t i = 0; i < s->ncgroups; i++) {
		s->cgroups[i]->t_read = round_us(s->cgroups[i]->t_read);
		s->cgroups[i]->t_cpu = round_us(s->cgroups[i]->t_cpu);
	}
	for (size_t i = 0; i < s->nprocs; i++)
		round_task(&s->procs[i]);
	for (size_t i = 0; i < s->ngone; i++)
		round_task(&s->gone[i]);
}

static uint64_t bits_of(double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof(b));
	return b;
}

#define FIELD(rec, off, type) ((type *)((char *)(rec) + (off)))
#define CFIELD(rec, off, type) ((const type *)((const char *)(rec) + (off)))

static struct tv_pvalue *pv_at(const void *rec, uint32_t slot, size_t npv)
{
	const struct tv_task *t = rec;
	return t->pvals && slot < npv ? &t->pvals[slot] : NULL;
}

static bool is_pv(uint8_t ctype)
{
	return ctype == REC_C_PV_I || ctype == REC_C_PV_F || ctype == REC_C_PV_S;
}

/* The value of an integer field; false when unknown. */
static bool get_int(const void *rec, const struct rec_bind *b, size_t npv, int64_t *v)
{
	switch (b->ctype) {
	case REC_C_I64:
		*v = *CFIELD(rec, b->off, int64_t);
		return *v != TV_UNKNOWN;
	case REC_C_I32:
		*v = *CFIELD(rec, b->off, int32_t);
		return true;
	case REC_C_I32U:
		*v = *CFIELD(rec, b->off, int32_t);
		return *v != TV_UNKNOWN32;
	case REC_C_U32:
		*v = *CFIELD(rec, b->off, uint32_t);
		return true;
	case REC_C_MEM:
		*v = *CFIELD(task_mem(rec), b->off, int64_t);
		return *v != TV_UNKNOWN;
	case REC_C_STACK:
		*v = b->off == offsetof(struct tv_mem, stack_size) ? task_stack_size(rec) : task_stack_rss(rec);
		return *v != TV_UNKNOWN;
	case REC_C_U64:
		*v = (int64_t)*CFIELD(rec, b->off, uint64_t);
		return true;
	case REC_C_START:
		*v = (int64_t)*CFIELD(rec, b->off, uint64_t);
		return *CFIELD(rec, b->off, uint64_t) != TV_START_UNKNOWN;
	case REC_C_CHAR:
		*v = (unsigned char)*CFIELD(rec, b->off, char);
		return true;
	case REC_C_BOOL:
		*v = *CFIELD(rec, b->off, bool);
		return true;
	case REC_C_SIZE:
		*v = (int64_t)*CFIELD(rec, b->off, size_t);
		return true;
	case REC_C_COUNT:
		*v = (int64_t)*CFIELD(rec, b->off, size_t);
		return *CFIELD(rec, b->off, size_t) != TV_COUNT_UNKNOWN;
	case REC_C_PV_I: {
		const struct tv_pvalue *pv = pv_at(rec, b->off, npv);
		*v = pv && pv->known ? pv->i : 0;
		return pv && pv->known;
	}
	case REC_C_PSI_SOME_US:
	case REC_C_PSI_FULL_US: {
		const struct tv_pressure *p = CFIELD(rec, b->off, struct tv_pressure);
		bool some = b->ctype == REC_C_PSI_SOME_US;
		*v = some ? p->some_us : p->full_us;
		return some ? p->some_known : p->full_known;
	}
	default:
		*v = 0;
		return false;
	}
}

/* Sets an integer field; -1 when the value cannot be one of it. */
static int set_int(void *rec, const struct rec_bind *b, size_t npv, int64_t v, bool known)
{
	switch (b->ctype) {
	case REC_C_I64:
		*FIELD(rec, b->off, int64_t) = known ? v : TV_UNKNOWN;
		return 0;
	case REC_C_MEM: {
		if (!known && !((const struct tv_task *)rec)->mem)
			return 0; /* unknown already */
		struct tv_mem *m = task_mem_mut(rec);
		if (!m)
			return -1;
		*FIELD(m, b->off, int64_t) = known ? v : TV_UNKNOWN;
		return 0;
	}
	case REC_C_STACK: {
		struct tv_task *t = rec;
		if (!known && !t->mem)
			return 0; /* unknown already */
		struct tv_mem *m = task_mem_mut(t);
		if (!m)
			return -1;
		int64_t *dst = FIELD(m, b->off, int64_t);
		if (t->is_thread) {
			/* its own block holds its own stack only (task_stack_size) */
			if (!m->stacks && !(m->stacks = malloc(sizeof(*m->stacks))))
				return -1;
			if (!m->nstacks)
				m->stacks[0] = (struct tv_stack){0, TV_UNKNOWN, TV_UNKNOWN};
			m->nstacks = 1;
			dst = b->off == offsetof(struct tv_mem, stack_size) ? &m->stacks[0].size : &m->stacks[0].rss;
		}
		*dst = known ? v : TV_UNKNOWN;
		return 0;
	}
	case REC_C_I32:
	case REC_C_I32U:
		if (!known && b->ctype == REC_C_I32U) {
			*FIELD(rec, b->off, int32_t) = TV_UNKNOWN32;
			return 0;
		}
		if (!known || v < INT32_MIN || v > INT32_MAX)
			return -1;
		*FIELD(rec, b->off, int32_t) = (int32_t)v;
		return 0;
	case REC_C_U32:
		if (!known || v < 0 || v > UINT32_MAX)
			return -1;
		*FIELD(rec, b->off, uint32_t) = (uint32_t)v;
		return 0;
	case REC_C_U64:
		if (!known)
			return -1;
		*FIELD(rec, b->off, uint64_t) = (uint64_t)v;
		return 0;
	case REC_C_START:
		*FIELD(rec, b->off, uint64_t) = known ? (uint64_t)v : TV_START_UNKNOWN;
		return 0;
	case REC_C_CHAR:
		if (!known || v < 0 || v > 255)
			return -1;
		*FIELD(rec, b->off, char) = (char)(unsigned char)v;
		return 0;
	case REC_C_BOOL:
		if (!known || (v != 0 && v != 1))
			return -1;
		*FIELD(rec, b->off, bool) = v;
		return 0;
	case REC_C_COUNT:
		if (known && (v < 0 || (uint64_t)v >= TV_COUNT_UNKNOWN))
			return -1;
		*FIELD(rec, b->off, size_t) = known ? (size_t)v : TV_COUNT_UNKNOWN;
		return 0;
	case REC_C_SIZE:
		if (!known || v < 0 || (uint64_t)v > SIZE_MAX)
			return -1;
		*FIELD(rec, b->off, size_t) = (size_t)v;
		return 0;
	case REC_C_PV_I: {
		struct tv_pvalue *pv = pv_at(rec, b->off, npv);
		if (pv) {
			pv->known = known;
			pv->i = known ? v : 0;
			pv->f = NAN;
		}
		return 0;
	}
	case REC_C_PSI_SOME_US:
	case REC_C_PSI_FULL_US: {
		struct tv_pressure *p = FIELD(rec, b->off, struct tv_pressure);
		if (b->ctype == REC_C_PSI_SOME_US) {
			p->some_known = known;
			p->some_us = known ? v : TV_UNKNOWN;
		} else {
			p->full_known = known;
			p->full_us = known ? v : TV_UNKNOWN;
		}
		return 0;
	}
	default:
		return -1;
	}
}

static bool get_dbl(const void *rec, const struct rec_bind *b, size_t npv, double *v)
{
	if (b->ctype == REC_C_PSI_SOME_AVG || b->ctype == REC_C_PSI_FULL_AVG) {
		const struct tv_pressure *p = CFIELD(rec, b->off, struct tv_pressure);
		bool some = b->ctype == REC_C_PSI_SOME_AVG;
		*v = some ? p->some_avg10 : p->full_avg10;
		return (some ? p->some_known : p->full_known) && !isnan(*v);
	}
	if (b->ctype == REC_C_PV_F) {
		const struct tv_pvalue *pv = pv_at(rec, b->off, npv);
		*v = pv && pv->known ? pv->f : NAN;
		return pv && pv->known;
	}
	*v = *CFIELD(rec, b->off, double);
	return !isnan(*v);
}

static void set_dbl(void *rec, const struct rec_bind *b, size_t npv, double v, bool known)
{
	if (b->ctype == REC_C_PSI_SOME_AVG || b->ctype == REC_C_PSI_FULL_AVG) {
		struct tv_pressure *p = FIELD(rec, b->off, struct tv_pressure);
		*(b->ctype == REC_C_PSI_SOME_AVG ? &p->some_avg10 : &p->full_avg10) = known ? v : NAN;
		return;
	}
	if (b->ctype == REC_C_PV_F) {
		struct tv_pvalue *pv = pv_at(rec, b->off, npv);
		if (pv) {
			pv->known = known;
			pv->f = known ? v : NAN;
		}
		return;
	}
	*FIELD(rec, b->off, double) = known ? v : NAN;
}

static bool is_time(const struct rec_bind *b)
{
	return b->kind == REC_K_TIME && (b->ctype == REC_C_TIME || b->ctype == REC_C_MEM_TIME);
}

/* A time field's value (0: not read). */
static double get_time(const void *rec, const struct rec_bind *b)
{
	if (b->ctype == REC_C_MEM_TIME)
		return *CFIELD(task_mem(rec), b->off, double);
	return *CFIELD(rec, b->off, double);
}

/* Sets a time field; -1 when out of memory. */
static int set_time(void *rec, const struct rec_bind *b, double v)
{
	if (b->ctype != REC_C_MEM_TIME) {
		*FIELD(rec, b->off, double) = v;
		return 0;
	}
	if (v == 0 && !((const struct tv_task *)rec)->mem)
		return 0; /* not read already */
	struct tv_mem *m = task_mem_mut(rec);
	if (!m)
		return -1;
	*FIELD(m, b->off, double) = v;
	return 0;
}

/* A string field's bytes, or NULL when unknown. */
static const char *get_str(const void *rec, const struct rec_bind *b, size_t npv, size_t *len)
{
	const char *s = NULL;
	switch (b->ctype) {
	case REC_C_CSTR:
	case REC_C_INTERN:
		s = *CFIELD(rec, b->off, char *);
		break;
	case REC_C_COMM:
		s = task_comm(rec);
		*len = strlen(s);
		return s;
	case REC_C_PV_S: {
		const struct tv_pvalue *pv = pv_at(rec, b->off, npv);
		s = pv && pv->known ? pv->s : NULL;
		break;
	}
	case REC_C_CGROUP: {
		const struct tv_cgroup *g = *CFIELD(rec, b->off, struct tv_cgroup *);
		s = g ? g->path : NULL;
		break;
	}
	case REC_C_BLOB: {
		const struct rec_blob *bl = CFIELD(rec, b->off, struct rec_blob);
		*len = bl->n;
		return (const char *)bl->p;
	}
	default:
		break;
	}
	*len = s ? strlen(s) : 0;
	return s;
}

static int cmp_cgroup_path(const void *key, const void *elem)
{
	return strcmp(key, (*(struct tv_cgroup *const *)elem)->path);
}

/* cgs: the snapshot whose group table a task's group is found in. */
static int set_str(void *rec, const struct rec_bind *b, size_t npv, const char *s, size_t len,
		   struct rec_strings *st, const struct snapshot *cgs)
{
	if (b->ctype == REC_C_BLOB) {
		struct rec_blob *bl = FIELD(rec, b->off, struct rec_blob);
		free(bl->p);
		bl->p = NULL;
		bl->n = 0;
		if (s && (bl->p = malloc(len ? len : 1))) {
			memcpy(bl->p, s, len);
			bl->n = len;
		}
		return s && !bl->p ? -1 : 0;
	}
	if (b->ctype == REC_C_CGROUP) {
		struct tv_cgroup *const *g = NULL;
		char key[4096];
		/* a group the table does not hold (or a path it cannot be) is damage */
		if (s && (len >= sizeof(key) || memchr(s, 0, len) || !cgs || !cgs->ncgroups))
			return -1;
		if (s) {
			memcpy(key, s, len);
			key[len] = '\0';
			g = bsearch(key, cgs->cgroups, cgs->ncgroups, sizeof(*cgs->cgroups), cmp_cgroup_path);
			if (!g)
				return -1;
		}
		*FIELD(rec, b->off, const struct tv_cgroup *) = g ? *g : NULL;
		return 0;
	}
	char *copy = NULL;
	if (s && b->ctype != REC_C_INTERN && b->ctype != REC_C_COMM) {
		copy = malloc(len + 1);
		if (!copy)
			return -1;
		memcpy(copy, s, len);
		copy[len] = '\0';
	}
	switch (b->ctype) {
	case REC_C_CSTR:
		*FIELD(rec, b->off, char *) = copy;
		return 0;
	case REC_C_INTERN:
		*FIELD(rec, b->off, const char *) = s ? rec_strings_get(st, s, len) : NULL;
		return s && !*FIELD(rec, b->off, const char *) ? -1 : 0;
	case REC_C_COMM:
		if (!s || len >= TV_COMM_MAX || memchr(s, '\0', len))
			return -1;
		task_set_comm(rec, s, len);
		return 0;
	case REC_C_PV_S: {
		struct tv_pvalue *pv = pv_at(rec, b->off, npv);
		if (!pv) {
			free(copy);
			return 0;
		}
		free(pv->s);
		pv->s = copy;
		pv->known = copy != NULL;
		return 0;
	}
	default:
		free(copy);
		return -1;
	}
}

/* The bytes of a field with b->raw set. */
static const void *raw_at(const void *rec, const struct rec_bind *b)
{
	return b->ctype == REC_C_MEM ? CFIELD(task_mem(rec), b->off, char) : CFIELD(rec, b->off, char);
}

static bool raw_same(const void *x, const void *y, uint8_t n)
{
	switch (n) {
	case 1:
		return *(const uint8_t *)x == *(const uint8_t *)y;
	case 4: {
		uint32_t a, c;
		memcpy(&a, x, 4);
		memcpy(&c, y, 4);
		return a == c;
	}
	default: {
		uint64_t a, c;
		memcpy(&a, x, 8);
		memcpy(&c, y, 8);
		return a == c;
	}
	}
}

static void put_tag(struct buf *out, size_t idx, size_t *prev, bool unknown)
{
	put_varint(out, (uint64_t)(idx + 1 - *prev) << 1 | unknown);
	*prev = idx + 1;
}

/* Times of a record: the previous record's (last) and this one's (rt), by time slot. */
struct times {
	double *last, *rt;
};

/* A base of time field i: the first tried, or (alt) the other one. The
 * candidates: the time of this record it is declared against (as decoded),
 * when known, and the same field of the previous record. */
static double time_base(const struct rec_bind *b, size_t i, const struct times *tm, bool alt)
{
	double sib = b[i].base >= 0 ? tm->rt[b[b[i].base].tslot] : 0;
	return b[i].base_first != alt && sib != 0 ? sib : tm->last[b[i].tslot];
}

/* The time `base + d` microseconds, d as written. */
static double time_at(double base, int64_t d)
{
	return us_to_sec((int64_t)((uint64_t)sec_to_us(base) + (uint64_t)d));
}

static uint64_t abs64(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/* Writes the fields of cur that differ from base. skip_pv: leave plugin values out. */
static void enc_record(struct buf *out, const struct rec_bind *b, size_t n, const void *cur, const void *base,
		       const struct times *tm, size_t npv, bool skip_pv)
{
	size_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		if (b[i].ctype == REC_C_SKIP || (skip_pv && is_pv(b[i].ctype)))
			continue;
		if (b[i].raw && raw_same(raw_at(cur, &b[i]), raw_at(base, &b[i]), b[i].raw))
			continue; /* most fields of most records: no value to build */
		switch (b[i].kind) {
		case REC_K_INT: {
			int64_t v, bv;
			bool k = get_int(cur, &b[i], npv, &v), bk = get_int(base, &b[i], npv, &bv);
			if (k == bk && (!k || v == bv))
				break;
			put_tag(out, i, &prev, !k);
			if (k)
				put_varint(out, zigzag((int64_t)((uint64_t)v - (uint64_t)(bk ? bv : 0))));
			break;
		}
		case REC_K_DBL: {
			double v, bv;
			bool k = get_dbl(cur, &b[i], npv, &v), bk = get_dbl(base, &b[i], npv, &bv);
			uint64_t x, y;
			memcpy(&x, &v, 8);
			memcpy(&y, &bv, 8);
			if (k == bk && (!k || x == y))
				break;
			put_tag(out, i, &prev, !k);
			if (k)
				put_u64le(out, x);
			break;
		}
		case REC_K_STR: {
			size_t l, bl;
			const char *s = get_str(cur, &b[i], npv, &l), *bs = get_str(base, &b[i], npv, &bl);
			if ((!s && !bs) || (s && bs && l == bl && memcmp(s, bs, l) == 0))
				break;
			put_tag(out, i, &prev, !s);
			if (s)
				put_str(out, s, l > STR_MAX ? STR_MAX : l);
			break;
		}
		case REC_K_TIME: {
			size_t slot = b[i].tslot;
			double v = round_us(get_time(cur, &b[i]));
			double b0 = time_base(b, i, tm, false), b1 = time_base(b, i, tm, true);
			double got = b0;
			if (bits_of(v) != bits_of(b0)) {
				put_tag(out, i, &prev, v == 0);
				got = 0;
				if (v != 0) {
					int64_t us = sec_to_us(v);
					int64_t d0 = (int64_t)((uint64_t)us - (uint64_t)sec_to_us(b0));
					int64_t d1 = (int64_t)((uint64_t)us - (uint64_t)sec_to_us(b1));
					bool k = abs64(d1) < abs64(d0);
					put_varint(out, zigzag(k ? d1 : d0) << 1 | k);
					got = time_at(k ? b1 : b0, k ? d1 : d0);
				}
			}
			/* what the decoder will have: the base of the times that follow */
			tm->rt[slot] = got;
			if (got != 0)
				tm->last[slot] = got;
			break;
		}
		}
	}
	put_varint(out, 0);
}

/* Skips a value of the given kind. */
static void skip_value(struct rcur *c, uint8_t kind)
{
	switch (kind) {
	case REC_K_INT:
	case REC_K_TIME:
		(void)get_varint(c);
		break;
	case REC_K_DBL:
		(void)get_bytes(c, 8);
		break;
	default: {
		uint64_t len = get_varint(c);
		if (len > STR_MAX)
			c->bad = true;
		else
			(void)get_bytes(c, (size_t)len);
	}
	}
}

/* The index of the next field written, SIZE_MAX at the end of the record. */
static size_t next_tag(struct rcur *c, size_t *prev, bool *unknown, size_t n)
{
	uint64_t tag = get_varint(c);
	if (c->bad || tag == 0)
		return SIZE_MAX;
	uint64_t gap = tag >> 1;
	*unknown = tag & 1;
	if (gap == 0 || gap > n - *prev) {
		c->bad = true;
		return SIZE_MAX;
	}
	*prev += (size_t)gap;
	return *prev - 1;
}

/* The value of time field i (written or not), and the bases of the times after it. */
static double dec_time(struct rcur *c, const struct rec_bind *b, size_t i, const struct times *tm, bool written,
		       bool unknown)
{
	double v = time_base(b, i, tm, false);
	if (written && unknown) {
		v = 0;
	} else if (written) {
		uint64_t u = get_varint(c);
		v = time_at(time_base(b, i, tm, u & 1), unzigzag(u >> 1));
	}
	tm->rt[b[i].tslot] = v;
	if (v != 0)
		tm->last[b[i].tslot] = v;
	return v;
}

/* Reads past a record, keeping only the bases of the times that follow. */
static int skip_record(struct rcur *c, const struct rec_bind *b, size_t n, const struct times *tm)
{
	size_t prev = 0;
	bool unknown = false;
	size_t next = next_tag(c, &prev, &unknown, n);
	for (size_t i = 0; i < n && !c->bad; i++) {
		bool written = i == next;
		if (is_time(&b[i]))
			(void)dec_time(c, b, i, tm, written, unknown);
		else if (written && !unknown)
			skip_value(c, b[i].kind);
		if (written)
			next = next_tag(c, &prev, &unknown, n);
	}
	if (next != SIZE_MAX)
		c->bad = true;
	return c->bad ? -1 : 0;
}

/* Reads a record into cur (initialised), copying from base what is not written. */
static int dec_record(struct rcur *c, const struct rec_bind *b, size_t n, void *cur, const void *base,
		      const struct times *tm, size_t npv, bool skip_pv, struct rec_strings *st,
		      const struct snapshot *cgs)
{
	size_t prev = 0;
	bool unknown = false;
	size_t next = next_tag(c, &prev, &unknown, n);
	for (size_t i = 0; i < n && !c->bad; i++) {
		bool written = i == next;
		if (!written && b[i].raw && b[i].ctype != REC_C_MEM) {
			/* base's bytes: what set_int would write from its value */
			memcpy(FIELD(cur, b[i].off, char), CFIELD(base, b[i].off, char), b[i].raw);
		} else if (is_time(&b[i])) {
			if (set_time(cur, &b[i], dec_time(c, b, i, tm, written, unknown)) < 0)
				c->bad = true;
		} else if (b[i].ctype == REC_C_SKIP || b[i].kind == REC_K_TIME || (skip_pv && is_pv(b[i].ctype))) {
			if (written && !unknown)
				skip_value(c, b[i].kind);
		} else if (b[i].kind == REC_K_INT) {
			int64_t bv, v = 0;
			bool bk = get_int(base, &b[i], npv, &bv);
			if (written && !unknown)
				v = (int64_t)((uint64_t)(bk ? bv : 0) + (uint64_t)unzigzag(get_varint(c)));
			if (set_int(cur, &b[i], npv, written ? v : bv, written ? !unknown : bk) < 0)
				c->bad = true;
		} else if (b[i].kind == REC_K_DBL) {
			double bv, v = NAN;
			bool bk = get_dbl(base, &b[i], npv, &bv);
			if (written && !unknown) {
				uint64_t x = get_u64le(c);
				memcpy(&v, &x, 8);
			}
			set_dbl(cur, &b[i], npv, written ? v : bv, written ? !unknown : bk);
		} else {
			size_t len = 0;
			const char *s;
			if (written) {
				s = NULL;
				if (!unknown) {
					uint64_t l = get_varint(c);
					if (l > STR_MAX)
						c->bad = true;
					len = (size_t)l;
					s = (const char *)get_bytes(c, len);
				}
			} else {
				s = get_str(base, &b[i], npv, &len);
			}
			if (!c->bad && set_str(cur, &b[i], npv, s, len, st, cgs) < 0)
				c->bad = true;
		}
		if (written)
			next = next_tag(c, &prev, &unknown, n);
	}
	if (next != SIZE_MAX)
		c->bad = true;
	return c->bad ? -1 : 0;
}

/* What encoding and decoding a sample share. */
struct pass {
	const struct rec_layout *l;
	size_t npv;             /* plugin slots both sides have */
	struct times tm;        /* of task records */
	struct tv_task def;     /* the base of a task not in the previous sample */
};

static void enc_task(struct buf *out, struct pass *ps, const struct tv_task *t, const struct tv_task *base,
		     bool gone)
{
	enc_record(out, ps->l->tb, ps->l->ntb, t, base ? base : &ps->def, &ps->tm, ps->npv, gone);
}

/* A task new since the previous sample is written against the one before it
 * in its list: new tasks are much alike (a burst of the same command). */
static const struct tv_task *neighbour(const struct tv_task *v, size_t i)
{
	return i ? &v[i - 1] : NULL;
}

/* Lists sorted by id: the key is the gap from the previous id (at least 1). */
static int enc_sorted_threads(struct buf *out, struct pass *ps, const struct tv_task *p, const struct tv_task *bp)
{
	int32_t prev = 0;
	size_t j = 0;
	for (size_t i = 0; i < p->nthreads_read; i++) {
		const struct tv_task *t = &p->threads[i];
		if (t->tid <= prev)
			return -1;
		while (bp && j < bp->nthreads_read && bp->threads[j].tid < t->tid)
			j++;
		const struct tv_task *bt = bp && j < bp->nthreads_read && bp->threads[j].tid == t->tid ? &bp->threads[j]
												      : NULL;
		put_varint(out, (uint64_t)(t->tid - prev) << 1 | !bt);
		prev = t->tid;
		enc_task(out, ps, t, bt ? bt : neighbour(p->threads, i), false);
	}
	return 0;
}

/* Lists in any order: the key is the signed step from the previous id. */
static void enc_any(struct buf *out, struct pass *ps, const struct tv_task *v, size_t n, const struct snapshot *bs,
		    const struct tv_task *bp, bool gone)
{
	int32_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tv_task *t = &v[i];
		const struct tv_task *bt = gone ? (bs ? snapshot_find(bs, t->tid) : NULL)
						: (bp ? task_find_thread(bp, t->tid) : NULL);
		put_varint(out, zigzag((int64_t)t->tid - prev) << 1 | !bt);
		prev = t->tid;
		enc_task(out, ps, t, bt ? bt : neighbour(v, i), gone);
	}
}

static int pass_init(struct pass *ps, const struct rec_layout *l, double mono)
{
	ps->l = l;
	ps->npv = l->npvals;
	size_t n = l->nttimes ? l->nttimes : 1;
	ps->tm.last = malloc(n * sizeof(double));
	ps->tm.rt = calloc(n, sizeof(double));
	if (!ps->tm.last || !ps->tm.rt) {
		free(ps->tm.last);
		free(ps->tm.rt);
		return -1;
	}
	/* the first task's times follow the sample's start */
	for (size_t i = 0; i < l->nttimes; i++)
		ps->tm.last[i] = mono;
	task_init(&ps->def);
	return 0;
}

static void pass_free(struct pass *ps)
{
	free(ps->tm.last);
	free(ps->tm.rt);
}

/* The time bases of a sample record: the base sample's times. */
static int sample_times(struct times *tm, const struct rec_layout *l, const struct rec_sample *base)
{
	size_t n = l->nstimes ? l->nstimes : 1;
	tm->last = calloc(n, sizeof(double));
	tm->rt = calloc(n, sizeof(double));
	if (!tm->last || !tm->rt) {
		free(tm->last);
		free(tm->rt);
		return -1;
	}
	for (size_t i = 0; base && i < l->nsb; i++)
		if (is_time(&l->sb[i]))
			tm->last[l->sb[i].tslot] = get_time(base, &l->sb[i]);
	return 0;
}

static void times_free(struct times *tm)
{
	free(tm->last);
	free(tm->rt);
}

static int encode_sample(struct buf *out, const struct rec_layout *l, const struct rec_sample *cur,
			 const struct rec_sample *base, struct rec_jumps *j);

void rec_jumps_free(struct rec_jumps *j)
{
	free(j->v);
	free(j->last);
	memset(j, 0, sizeof(*j));
}

/* Notes a list of exited threads: its bytes, and the time bases after it. */
static void jump_add(struct rec_jumps *j, size_t from, size_t to, const struct times *tm)
{
	if (j->oom)
		return;
	if (j->n == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 16;
		struct rec_jump *v = realloc(j->v, cap * sizeof(*v));
		if (v)
			j->v = v;
		double *last = v ? realloc(j->last, cap * j->ntimes * sizeof(*last)) : NULL;
		if (!last) {
			j->oom = true;
			return;
		}
		j->last = last;
		j->cap = cap;
	}
	j->v[j->n] = (struct rec_jump){from, to};
	memcpy(&j->last[j->n * j->ntimes], tm->last, j->ntimes * sizeof(*tm->last));
	j->n++;
}

/* ---- the group table: a sample's control groups, sorted by path ---- */

/* A group of unknown values: the base of one new in the table. */
static void cgroup_def(struct rec_cgroup *w)
{
	memset(w, 0, sizeof(*w));
	w->g.mem_bytes = w->g.swap_bytes = TV_UNKNOWN;
	cgroup_cpu_unknown(&w->g);
	for (int r = 0; r < TV_RES_N; r++)
		pressure_unknown(&w->g.psi[r]);
}

/* g as the table records it (borrowing its strings). */
static void cgroup_wrap(struct rec_cgroup *w, const struct tv_cgroup *g)
{
	w->g = *g;
	w->parent = g->parent ? (int64_t)g->parent->index + 1 : 0;
}

static int times_init(struct times *tm, size_t n, double first)
{
	tm->last = malloc((n ? n : 1) * sizeof(double));
	tm->rt = calloc(n ? n : 1, sizeof(double));
	if (!tm->last || !tm->rt) {
		times_free(tm);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		tm->last[i] = first;
	return 0;
}

/* The table of s against bs's: a count, then per group a key (its place in
 * bs's table as a step from the one after the previous base; low bit: no
 * base) and its record against the base, or against the group before it. */
static int enc_cgroups(struct buf *out, const struct rec_layout *l, const struct snapshot *s,
		       const struct snapshot *bs)
{
	struct times tm;
	if (times_init(&tm, l->nctimes, round_us(s->mono)) < 0)
		return -1;
	struct rec_cgroup def, prev, cur, base;
	cgroup_def(&def);
	put_varint(out, s->ncgroups);
	int64_t next = 0;
	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct tv_cgroup *g = s->cgroups[i];
		struct tv_cgroup *const *b = bs && bs->ncgroups ? bsearch(g->path, bs->cgroups, bs->ncgroups,
									  sizeof(*bs->cgroups), cmp_cgroup_path)
								: NULL;
		int64_t bi = b ? (int64_t)(b - bs->cgroups) : next;
		put_varint(out, zigzag(bi - next) << 1 | !b);
		if (b) {
			next = bi + 1;
			cgroup_wrap(&base, *b);
		}
		cgroup_wrap(&cur, g);
		enc_record(out, l->cb, l->ncb, &cur, b ? &base : i ? &prev : &def, &tm, 0, false);
		prev = cur;
	}
	times_free(&tm);
	return out->oom ? -1 : 0;
}

/* Reads the table of n bytes at p into s, bs's table as bases. */
static int dec_cgroups(const uint8_t *p, size_t n, const struct rec_layout *l, const struct snapshot *bs,
		       struct snapshot *s, struct rec_strings *st)
{
	struct rcur c = rcur_make(p, n);
	uint64_t count = get_varint(&c);
	struct times tm;
	if (c.bad || count > rcur_left(&c) / 2 || times_init(&tm, l->nctimes, s->mono) < 0)
		return -1;
	if (!(s->cgroups = calloc(count ? count : 1, sizeof(*s->cgroups)))) {
		times_free(&tm);
		return -1;
	}
	struct rec_cgroup def, base, w;
	cgroup_def(&def);
	const struct tv_cgroup *prev = NULL;
	int64_t next = 0;
	for (size_t i = 0; i < count && !c.bad; i++) {
		uint64_t key = get_varint(&c);
		int64_t bi = next + unzigzag(key >> 1);
		bool has = !(key & 1);
		if (has && (!bs || bi < 0 || (uint64_t)bi >= bs->ncgroups))
			break;
		if (has) {
			cgroup_wrap(&base, bs->cgroups[bi]);
			next = bi + 1;
		} else if (prev) {
			cgroup_wrap(&base, prev);
		}
		cgroup_def(&w);
		int rc = dec_record(&c, l->cb, l->ncb, &w, has || prev ? &base : &def, &tm, 0, false, st, NULL);
		struct tv_cgroup *g = malloc(sizeof(*g));
		if (!g) {
			free(w.g.path);
			free(w.g.unit);
			break;
		}
		*g = w.g;
		s->cgroups[s->ncgroups++] = g;
		/* a parent sorts before its children; the table is in path order */
		if (rc < 0 || !g->path || g->path[0] != '/' || w.parent < 0 || (uint64_t)w.parent > i ||
		    (prev && strcmp(prev->path, g->path) >= 0) || (!g->unit && !(g->unit = strdup(g->path))))
			break;
		g->index = i;
		g->parent = w.parent ? s->cgroups[w.parent - 1] : NULL;
		prev = g;
	}
	times_free(&tm);
	return s->ncgroups == count && !c.bad && rcur_left(&c) == 0 && (!count || prev == s->cgroups[count - 1])
		? 0 : -1;
}

/* A snapshot without its groups: a table too long for one value is left out. */
static int without_cgroups(struct rec_sample *tmp, const struct rec_sample *cur)
{
	*tmp = *cur;
	tmp->s.cgroups = NULL;
	tmp->s.ncgroups = 0;
	tmp->cgroups_raw = (struct rec_blob){NULL, 0};
	if (!cur->s.nprocs)
		return 0;
	struct tv_task *v = malloc(cur->s.nprocs * sizeof(*v));
	if (!v)
		return -1;
	memcpy(v, cur->s.procs, cur->s.nprocs * sizeof(*v));
	for (size_t i = 0; i < cur->s.nprocs; i++)
		v[i].cgroup = NULL;
	tmp->s.procs = v;
	return 0;
}

int rec_encode_sample(struct buf *out, const struct rec_layout *l, const struct rec_sample *cur,
		      const struct rec_sample *base, struct rec_jumps *j)
{
	if (j) {
		j->n = 0;
		j->oom = false;
		j->ntimes = l->nttimes ? l->nttimes : 1;
	}
	struct buf table;
	buf_init(&table);
	struct rec_sample tmp = *cur;
	if (cur->s.ncgroups && l->ncb && enc_cgroups(&table, l, &cur->s, base ? &base->s : NULL) < 0) {
		buf_free(&table);
		return -1;
	}
	bool whole = table.len <= STR_MAX;
	if (!whole && without_cgroups(&tmp, cur) < 0) {
		buf_free(&table);
		return -1;
	}
	if (whole)
		tmp.cgroups_raw = (struct rec_blob){(uint8_t *)table.data, table.len};
	int rc = encode_sample(out, l, &tmp, base, j);
	if (!whole)
		free(tmp.s.procs);
	buf_free(&table);
	return rc;
}

static int encode_sample(struct buf *out, const struct rec_layout *l, const struct rec_sample *cur,
			 const struct rec_sample *base, struct rec_jumps *jumps)
{
	size_t start = out->len;
	struct rec_sample def;
	memset(&def, 0, sizeof(def));
	struct times stm;
	struct pass ps;
	if (sample_times(&stm, l, base) < 0)
		return -1;
	if (pass_init(&ps, l, round_us(cur->s.mono)) < 0) {
		times_free(&stm);
		return -1;
	}
	enc_record(out, l->sb, l->nsb, cur, base ? base : &def, &stm, 0, true);
	times_free(&stm);
	if (cur->s.npvals < ps.npv)
		ps.npv = cur->s.npvals;
	const struct snapshot *s = &cur->s, *bs = base ? &base->s : NULL;
	int32_t prev = 0;
	size_t j = 0;
	int rc = 0;
	for (size_t i = 0; i < s->nprocs && rc == 0; i++) {
		const struct tv_task *p = &s->procs[i];
		if (p->tgid <= prev) {
			rc = -1;
			break;
		}
		while (bs && j < bs->nprocs && bs->procs[j].tgid < p->tgid)
			j++;
		const struct tv_task *bp = bs && j < bs->nprocs && bs->procs[j].tgid == p->tgid ? &bs->procs[j] : NULL;
		put_varint(out, (uint64_t)(p->tgid - prev) << 1 | !bp);
		prev = p->tgid;
		enc_task(out, &ps, p, bp ? bp : neighbour(s->procs, i), false);
		rc = enc_sorted_threads(out, &ps, p, bp);
		size_t from = out->len;
		enc_any(out, &ps, p->exited, p->nexited, NULL, bp, false);
		if (jumps && p->nexited)
			jump_add(jumps, from - start, out->len - start, &ps.tm);
	}
	if (rc == 0)
		enc_any(out, &ps, s->gone, s->ngone, bs, NULL, true);
	pass_free(&ps);
	return rc < 0 || out->oom ? -1 : 0;
}

/* Decoding: a task of a list, its key read. */
struct dec {
	struct rcur c;
	struct pass ps;
	struct rec_strings *st;
	const struct snapshot *cgs; /* the sample's group table */
	const uint8_t *start;       /* of the sample's bytes */
	const struct rec_jumps *j;  /* NULL: none */
	size_t jnext;               /* the next of j to come */
	size_t ntasks;              /* the tasks of the lists so far */
	bool too_many;              /* past the layout's max_tasks */
};

/* Counts n more tasks against the layout's limit before they are allocated. */
static bool tasks_ok(struct dec *d, size_t n)
{
	d->ntasks += n;
	if (d->ps.l->max_tasks && d->ntasks > d->ps.l->max_tasks)
		d->too_many = true;
	return !d->too_many;
}

/* Decodes one task; *nt and *ne: how many thread and exited-thread records follow. */
static int dec_task(struct dec *d, struct tv_task *t, const struct tv_task *base, int32_t id, bool gone, size_t *nt,
		    size_t *ne)
{
	size_t npv = d->ps.l->npvals;
	if (npv && !gone && !(t->pvals = calloc(npv, sizeof(*t->pvals))))
		return -1;
	int rc = dec_record(&d->c, d->ps.l->tb, d->ps.l->ntb, t, base ? base : &d->ps.def, &d->ps.tm, npv, gone, d->st, d->cgs);
	/* counts, not lists yet: the lists are read next */
	*nt = t->nthreads_read;
	*ne = t->nexited;
	t->nthreads_read = t->nexited = 0;
	t->tid = id;
	return rc;
}

/* A list's length: at most what the bytes left can hold (two per record). */
static bool count_ok(struct dec *d, size_t n)
{
	return n <= rcur_left(&d->c) / 2;
}

/* Reads the key of a list item: its id, and whether it has a base. */
static bool dec_key(struct dec *d, int32_t *id, bool sorted, bool *fresh)
{
	uint64_t key = get_varint(&d->c);
	*fresh = key & 1;
	int64_t v = sorted ? (int64_t)(key >> 1) : unzigzag(key >> 1);
	if (d->c.bad || (sorted && (key >> 1 < 1 || key >> 1 > UINT32_MAX)) || v < -(int64_t)UINT32_MAX ||
	    v > (int64_t)UINT32_MAX)
		return false;
	v += *id;
	if (v < INT32_MIN || v > INT32_MAX)
		return false;
	*id = (int32_t)v;
	return true;
}

/* The threads or exited threads of p, into v (n of them), tasks of bp as bases. */
static int dec_list(struct dec *d, struct tv_task **v, uint32_t *nv, size_t n, const struct tv_task *bp, bool sorted,
		    int32_t tgid)
{
	*nv = 0;
	*v = NULL;
	if (n == 0)
		return 0;
	if (!count_ok(d, n) || !tasks_ok(d, n) || !(*v = calloc(n, sizeof(**v))))
		return -1;
	int32_t id = 0;
	for (size_t i = 0; i < n; i++) {
		bool fresh;
		if (!dec_key(d, &id, sorted, &fresh))
			return -1;
		const struct tv_task *bt = NULL;
		if (!fresh && (!bp || !(bt = task_find_thread(bp, id))))
			return -1;
		struct tv_task *t = &(*v)[i];
		task_init(t);
		(*nv)++;
		size_t nt, ne;
		if (dec_task(d, t, bt ? bt : neighbour(*v, i), id, false, &nt, &ne) < 0 || nt || ne || t->tgid != tgid)
			return -1;
	}
	return 0;
}

/*
 * The exited threads of a process read past: a base's (rec_decode_base),
 * against which no list is written, only its count (kept in *nv). Only
 * the times are followed, which later records are written against.
 */
static int dec_list_skip(struct dec *d, uint32_t *nv, size_t n)
{
	*nv = 0;
	if (!count_ok(d, n))
		return -1;
	const struct rec_jump *jp = d->j && n && d->jnext < d->j->n ? &d->j->v[d->jnext] : NULL;
	if (jp && jp->from == (size_t)(d->c.p - d->start) && jp->to <= (size_t)(d->c.end - d->start)) {
		/* the writer's own bytes: where the list ends and the times after it are known */
		d->c.p = d->start + jp->to;
		memcpy(d->ps.tm.last, &d->j->last[d->jnext * d->j->ntimes], d->j->ntimes * sizeof(double));
		d->jnext++;
		*nv = (uint32_t)n;
		return 0;
	}
	int32_t id = 0;
	for (size_t i = 0; i < n; i++) {
		bool fresh;
		if (!dec_key(d, &id, false, &fresh) || skip_record(&d->c, d->ps.l->tb, d->ps.l->ntb, &d->ps.tm) < 0)
			return -1;
	}
	*nv = (uint32_t)n;
	return 0;
}

static int dec_procs(struct dec *d, struct snapshot *s, const struct snapshot *bs, size_t n, bool lists)
{
	if (!count_ok(d, n) || !tasks_ok(d, n) || !(s->procs = calloc(n ? n : 1, sizeof(*s->procs))))
		return -1;
	int32_t id = 0;
	for (size_t i = 0; i < n; i++) {
		bool fresh;
		if (!dec_key(d, &id, true, &fresh))
			return -1;
		const struct tv_task *bp = NULL;
		if (!fresh && (!bs || !(bp = snapshot_find(bs, id))))
			return -1;
		struct tv_task *p = &s->procs[i];
		task_init(p);
		s->nprocs++;
		size_t nt, ne;
		/* a process is its group: what finds it by tgid relies on that */
		if (dec_task(d, p, bp ? bp : neighbour(s->procs, i), id, false, &nt, &ne) < 0 || p->tgid != id)
			return -1;
		if (dec_list(d, &p->threads, &p->nthreads_read, nt, bp, true, id) < 0 ||
		    (lists ? dec_list(d, &p->exited, &p->nexited, ne, bp, false, id)
			   : dec_list_skip(d, &p->nexited, ne)) < 0)
			return -1;
	}
	return 0;
}

static int dec_gone(struct dec *d, struct snapshot *s, const struct snapshot *bs, size_t n)
{
	if (n == 0)
		return 0;
	if (!count_ok(d, n) || !tasks_ok(d, n) || !(s->gone = calloc(n, sizeof(*s->gone))))
		return -1;
	int32_t id = 0;
	for (size_t i = 0; i < n; i++) {
		bool fresh;
		if (!dec_key(d, &id, false, &fresh))
			return -1;
		const struct tv_task *bt = NULL;
		if (!fresh && (!bs || !(bt = snapshot_find(bs, id))))
			return -1;
		struct tv_task *g = &s->gone[i];
		task_init(g);
		s->ngone++;
		size_t nt, ne;
		if (dec_task(d, g, bt ? bt : neighbour(s->gone, i), id, true, &nt, &ne) < 0 || nt || ne || g->tgid != id)
			return -1;
	}
	return 0;
}

static int decode(const uint8_t *p, size_t n, const struct rec_layout *l, const struct rec_sample *base,
		  struct rec_strings *st, struct rec_sample *out, bool ended, const struct rec_jumps *j)
{
	memset(out, 0, sizeof(*out));
	struct rec_sample def;
	memset(&def, 0, sizeof(def));
	bool jumps = j && !j->oom && j->ntimes == (l->nttimes ? l->nttimes : 1);
	struct dec d = {.c = rcur_make(p, n), .st = st, .cgs = &out->s, .start = p, .j = jumps ? j : NULL};
	struct times stm;
	for (int r = 0; r < TV_RES_N; r++)
		pressure_unknown(&out->s.pressure[r]);
	machine_unknown(&out->s.machine); /* a writer before them has no such fields */
	if (sample_times(&stm, l, base) < 0)
		return -1;
	int rc = dec_record(&d.c, l->sb, l->nsb, out, base ? base : &def, &stm, 0, true, st, NULL);
	times_free(&stm);
	/* the group table, before the tasks that name its groups */
	struct rec_blob table = out->cgroups_raw;
	out->cgroups_raw = (struct rec_blob){NULL, 0};
	out->s.cgroups = NULL;
	out->s.ncgroups = 0;
	if (rc == 0 && table.p && dec_cgroups(table.p, table.n, l, base ? &base->s : NULL, &out->s, st) < 0)
		rc = -1;
	free(table.p);
	/* the counts were read into the snapshot; the lists fill it again */
	size_t np = out->s.nprocs, ng = out->s.ngone;
	out->s.nprocs = out->s.ngone = 0;
	out->s.procs = NULL;
	out->s.gone = NULL;
	out->s.rejects = NULL;
	out->s.nrejects = 0;
	out->s.ended = NULL;
	out->s.npvals = l->npvals;
	if (rc < 0 || pass_init(&d.ps, l, out->s.mono) < 0) {
		rec_sample_free(out);
		return -1;
	}
	const struct snapshot *bs = base ? &base->s : NULL;
	rc = dec_procs(&d, &out->s, bs, np, ended);
	if (rc == 0 && ended)
		rc = dec_gone(&d, &out->s, bs, ng);
	else if (rc == 0)
		out->s.ngone = ng; /* the count, a field the next sample is written against; no list */
	pass_free(&d.ps);
	if (rc < 0 || d.c.bad || (ended && rcur_left(&d.c) != 0)) {
		rec_sample_free(out);
		return d.too_many ? -2 : -1;
	}
	return 0;
}

int rec_decode_sample(const uint8_t *p, size_t n, const struct rec_layout *l, const struct rec_sample *base,
		      struct rec_strings *st, struct rec_sample *out)
{
	return decode(p, n, l, base, st, out, true, NULL);
}

int rec_decode_base(const uint8_t *p, size_t n, const struct rec_layout *l, const struct rec_sample *base,
		    struct rec_strings *st, struct rec_sample *out, const struct rec_jumps *j)
{
	return decode(p, n, l, base, st, out, false, j);
}

void rec_sample_free(struct rec_sample *s)
{
	snapshot_free(&s->s);
	free(s->cgroups_raw.p);
	memset(s, 0, sizeof(*s));
}
