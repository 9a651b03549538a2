/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/bytes.h"

void put_varint(struct buf *b, uint64_t v)
{
	/* most of a sample's bytes are varints: written in place when the
	 * buffer has room for the longest (10 bytes and buf's NUL) */
	bool in_place = !b->oom && b->len + 11 <= b->cap;
	uint8_t tmp[10];
	uint8_t *p = in_place ? (uint8_t *)b->data + b->len : tmp;
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	if (!in_place) {
		buf_add(b, tmp, n);
		return;
	}
	b->len += n;
	b->data[b->len] = '\0';
}

void put_u8(struct buf *b, uint8_t v)
{
	buf_add(b, &v, 1);
}

void put_u16le(struct buf *b, uint16_t v)
{
	uint8_t t[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	buf_add(b, t, 2);
}

void put_u32le(struct buf *b, uint32_t v)
{
	uint8_t t[4];
	le32_to(t, v);
	buf_add(b, t, 4);
}

void put_u64le(struct buf *b, uint64_t v)
{
	uint8_t t[8];
	le64_to(t, v);
	buf_add(b, t, 8);
}

void put_str(struct buf *b, const char *s, size_t len)
{
	put_varint(b, len);
	buf_add(b, s, len);
}

uint64_t get_varint(struct rcur *c)
{
	uint64_t v = 0;
	for (unsigned shift = 0; !c->bad && shift < 64; shift += 7) {
		if (c->p >= c->end)
			break;
		uint8_t byte = *c->p++;
		/* the tenth byte may carry only the top bit */
		if (shift == 63 && byte > 1)
			break;
		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

const uint8_t *get_bytes(struct rcur *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *p = c->p;
	c->p += n;
	return p;
}

uint8_t get_u8(struct rcur *c)
{
	const uint8_t *p = get_bytes(c, 1);
	return p ? p[0] : 0;
}

uint16_t get_u16le(struct rcur *c)
{
	const uint8_t *p = get_bytes(c, 2);
	return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}

uint32_t get_u32le(struct rcur *c)
{
	const uint8_t *p = get_bytes(c, 4);
	return p ? le32_at(p) : 0;
}

uint64_t get_u64le(struct rcur *c)
{
	const uint8_t *p = get_bytes(c, 8);
	return p ? le64_at(p) : 0;
}

uint32_t le32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t le64_at(const uint8_t *p)
{
	return (uint64_t)le32_at(p) | (uint64_t)le32_at(p + 4) << 32;
}

void le32_to(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void le64_to(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
