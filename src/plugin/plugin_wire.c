/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Frames and fields between taskview and its plugin helper; see plugin_wire.h. */
#include "plugin/plugin_wire.h"

#include <stdlib.h>
#include <string.h>

#define WIRE_NULL_LEN UINT32_MAX

size_t wire_begin(struct buf *b, uint32_t type)
{
	size_t start = b->len;
	wire_u32(b, type);
	wire_u32(b, 0);
	return start;
}

void wire_end(struct buf *b, size_t start)
{
	if (b->oom || b->len < start + WIRE_HEADER_SIZE)
		return;
	uint32_t len = (uint32_t)(b->len - start - WIRE_HEADER_SIZE);
	memcpy(b->data + start + 4, &len, sizeof(len));
}

void wire_u8(struct buf *b, uint8_t v)
{
	buf_add(b, &v, sizeof(v));
}

void wire_u16(struct buf *b, uint16_t v)
{
	buf_add(b, &v, sizeof(v));
}

void wire_u32(struct buf *b, uint32_t v)
{
	buf_add(b, &v, sizeof(v));
}

void wire_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}

void wire_f64(struct buf *b, double v)
{
	buf_add(b, &v, sizeof(v));
}

void wire_bytes(struct buf *b, const char *s, size_t len)
{
	wire_u32(b, (uint32_t)len);
	buf_add(b, s, len);
}

void wire_str(struct buf *b, const char *s)
{
	if (!s)
		wire_u32(b, WIRE_NULL_LEN);
	else
		wire_bytes(b, s, strlen(s));
}

void wire_put_task(struct buf *b, int32_t tid, int32_t tgid, bool is_thread, const char *comm, size_t len)
{
	unsigned char rec[13];
	uint32_t l = (uint32_t)len;
	memcpy(rec, &tid, 4);
	memcpy(rec + 4, &tgid, 4);
	rec[8] = is_thread;
	memcpy(rec + 9, &l, 4);
	buf_add(b, rec, sizeof(rec));
	buf_add(b, comm, len);
}

void wire_put_value(struct buf *b, uint32_t task, uint32_t col, uint8_t tag, const void *v, size_t len)
{
	unsigned char rec[21];
	size_t n = 9;
	memcpy(rec, &task, 4);
	memcpy(rec + 4, &col, 4);
	rec[8] = tag;
	if (tag == WIRE_STRING) {
		uint32_t l = (uint32_t)len;
		memcpy(rec + 9, &l, 4);
		n += 4;
	} else {
		memcpy(rec + 9, v, 8);
		n += 8;
	}
	buf_add(b, rec, n);
	if (tag == WIRE_STRING)
		buf_add(b, v, len);
}

void wire_get_task(struct wire_reader *r, int32_t *tid, int32_t *tgid, bool *is_thread, char *comm, size_t cap)
{
	*tid = (int32_t)wire_get_u32(r);
	*tgid = (int32_t)wire_get_u32(r);
	*is_thread = wire_get_u8(r) != 0;
	uint32_t len = wire_get_u32(r);
	comm[0] = '\0';
	if (r->bad || len > r->left) {
		r->bad = true;
		return;
	}
	size_t keep = len < cap - 1 ? len : cap - 1;
	memcpy(comm, r->p, keep);
	comm[keep] = '\0';
	r->p += len;
	r->left -= len;
}

int wire_frame(const void *buf, size_t len, uint32_t *type, struct wire_reader *r, size_t *total)
{
	if (len < WIRE_HEADER_SIZE)
		return 0;
	uint32_t plen;
	memcpy(type, buf, sizeof(*type));
	memcpy(&plen, (const unsigned char *)buf + 4, sizeof(plen));
	if (plen > WIRE_PAYLOAD_MAX)
		return -1;
	if (len - WIRE_HEADER_SIZE < plen)
		return 0;
	*r = (struct wire_reader){.p = (const unsigned char *)buf + WIRE_HEADER_SIZE, .left = plen};
	*total = WIRE_HEADER_SIZE + (size_t)plen;
	return 1;
}

/* Copies n bytes out of the payload, or marks it bad and gives zeros. */
static void take(struct wire_reader *r, void *out, size_t n)
{
	if (r->bad || r->left < n) {
		r->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
}

uint8_t wire_get_u8(struct wire_reader *r)
{
	uint8_t v;
	take(r, &v, sizeof(v));
	return v;
}

uint16_t wire_get_u16(struct wire_reader *r)
{
	uint16_t v;
	take(r, &v, sizeof(v));
	return v;
}

uint32_t wire_get_u32(struct wire_reader *r)
{
	uint32_t v;
	take(r, &v, sizeof(v));
	return v;
}

uint64_t wire_get_u64(struct wire_reader *r)
{
	uint64_t v;
	take(r, &v, sizeof(v));
	return v;
}

double wire_get_f64(struct wire_reader *r)
{
	double v;
	take(r, &v, sizeof(v));
	return v;
}

char *wire_get_str(struct wire_reader *r, size_t max, bool *was_null)
{
	*was_null = false;
	uint32_t len = wire_get_u32(r);
	if (r->bad)
		return NULL;
	if (len == WIRE_NULL_LEN) {
		*was_null = true;
		return NULL;
	}
	if (len > max || len > r->left || memchr(r->p, '\0', len)) {
		r->bad = true;
		return NULL;
	}
	char *s = malloc((size_t)len + 1);
	if (!s) {
		r->bad = true;
		return NULL;
	}
	memcpy(s, r->p, len);
	s[len] = '\0';
	r->p += len;
	r->left -= len;
	return s;
}

char *wire_get_bytes(struct wire_reader *r, size_t max, size_t *len)
{
	*len = 0;
	uint32_t n = wire_get_u32(r);
	if (r->bad || n > max || n > r->left) {
		r->bad = true;
		return NULL;
	}
	char *s = malloc((size_t)n + 1);
	if (!s) {
		r->bad = true;
		return NULL;
	}
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	r->left -= n;
	*len = n;
	return s;
}

bool wire_done(const struct wire_reader *r)
{
	return !r->bad && r->left == 0;
}
