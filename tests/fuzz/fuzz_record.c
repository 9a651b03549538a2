/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording's schema and two samples, as the reader decodes them once a
 * frame's checksum and decompression passed: input = u32 LE length, schema
 * payload, u32 LE length, first sample, then the second sample (decoded
 * against the first). Promises: what decodes keeps its order (processes by
 * id, threads by id, a process its own group), and writes back to the same
 * bytes (encode, decode, encode again).
 */
#include <string.h>

#include "fuzz.h"
#include "record/bytes.h"
#include "record/codec.h"
#include "record/schema.h"

static void check_sample(const struct rec_sample *d)
{
	for (size_t i = 0; i < d->s.nprocs; i++) {
		const struct tv_task *p = &d->s.procs[i];
		FUZZ_CHECK(i == 0 || d->s.procs[i - 1].tgid < p->tgid);
		FUZZ_CHECK(p->tid == p->tgid);
		FUZZ_CHECK(strlen(task_comm(p)) < TV_COMM_MAX);
		for (size_t j = 0; j < p->nthreads_read; j++) {
			FUZZ_CHECK(j == 0 || p->threads[j - 1].tid < p->threads[j].tid);
			FUZZ_CHECK(p->threads[j].tgid == p->tgid);
		}
		for (size_t j = 0; j < p->nexited; j++)
			FUZZ_CHECK(p->exited[j].tgid == p->tgid);
	}
	for (size_t i = 0; i < d->s.ngone; i++)
		FUZZ_CHECK(d->s.gone[i].tid == d->s.gone[i].tgid);
}

/* Encoding a decoded sample and decoding that gives a sample that encodes the same. */
static void check_rewrite(const struct rec_layout *l, const struct rec_sample *d, const struct rec_sample *base,
			  struct rec_strings *st)
{
	struct buf a, b;
	buf_init(&a);
	buf_init(&b);
	FUZZ_CHECK(rec_encode_sample(&a, l, d, base, NULL) == 0);
	struct rec_sample again;
	FUZZ_CHECK(rec_decode_sample((const uint8_t *)a.data, a.len, l, base, st, &again) == 0);
	check_sample(&again);
	FUZZ_CHECK(rec_encode_sample(&b, l, &again, base, NULL) == 0);
	FUZZ_CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
	rec_sample_free(&again);
	buf_free(&a);
	buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rcur c = rcur_make(data, size);
	uint32_t n = get_u32le(&c);
	const uint8_t *schema = get_bytes(&c, n);
	if (!schema)
		return 0;
	struct rec_schema s;
	char *err = NULL;
	if (rec_schema_decode(schema, n, &s, &err) < 0) {
		FUZZ_CHECK(err && *err);
		free(err);
		return 0;
	}
	/* the plugin slots: the columns' order, as a reader of one run gives them */
	const char **ids = calloc(s.ncols ? s.ncols : 1, sizeof(*ids));
	FUZZ_CHECK(ids != NULL);
	for (size_t i = 0; i < s.ncols; i++)
		ids[i] = s.cols[i].id;
	struct rec_layout l;
	if (rec_layout_bind(&l, &s, ids, s.ncols, &err) < 0) {
		free(err);
		free(ids);
		rec_schema_free(&s);
		return 0;
	}
	struct rec_strings *st = rec_strings_new();
	FUZZ_CHECK(st != NULL);
	uint32_t n1 = get_u32le(&c);
	const uint8_t *first = get_bytes(&c, n1);
	struct rec_sample d0, d1;
	if (first && rec_decode_sample(first, n1, &l, NULL, st, &d0) == 0) {
		check_sample(&d0);
		check_rewrite(&l, &d0, NULL, st);
		size_t rest = rcur_left(&c);
		if (rec_decode_sample(c.p, rest, &l, &d0, st, &d1) == 0) {
			check_sample(&d1);
			check_rewrite(&l, &d1, &d0, st);
			rec_sample_free(&d1);
		}
		rec_sample_free(&d0);
	}
	rec_strings_free(st);
	rec_layout_free(&l);
	free(ids);
	rec_schema_free(&s);
	return 0;
}
