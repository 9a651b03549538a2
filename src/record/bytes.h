/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Little-endian integers and LEB128 varints, written into a struct buf and
 * read from a bounded cursor. A read past the end, or an over-long varint,
 * sets the cursor's bad flag and returns 0: callers check it once per record.
 */
#ifndef TV_RECORD_BYTES_H
#define TV_RECORD_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

struct rcur {
	const uint8_t *p, *end;
	bool bad;
};

static inline struct rcur rcur_make(const void *data, size_t len)
{
	const uint8_t *p = data;
	return (struct rcur){p, p + len, false};
}

static inline size_t rcur_left(const struct rcur *c)
{
	return c->bad ? 0 : (size_t)(c->end - c->p);
}

/* Signed values as unsigned: small magnitudes of either sign stay short. */
static inline uint64_t zigzag(int64_t v)
{
	return v < 0 ? ~((uint64_t)v << 1) : (uint64_t)v << 1;
}

static inline int64_t unzigzag(uint64_t u)
{
	return (int64_t)((u >> 1) ^ (0 - (u & 1)));
}

void put_varint(struct buf *b, uint64_t v);
void put_u8(struct buf *b, uint8_t v);
void put_u16le(struct buf *b, uint16_t v);
void put_u32le(struct buf *b, uint32_t v);
void put_u64le(struct buf *b, uint64_t v);
void put_str(struct buf *b, const char *s, size_t len); /* varint length, bytes */

uint64_t get_varint(struct rcur *c);
uint8_t get_u8(struct rcur *c);
uint16_t get_u16le(struct rcur *c);
uint32_t get_u32le(struct rcur *c);
uint64_t get_u64le(struct rcur *c);
/* n bytes in place, or NULL (bad set) when fewer are left. */
const uint8_t *get_bytes(struct rcur *c, size_t n);

/* Fixed-width values in a byte array (frame headers). */
uint32_t le32_at(const uint8_t *p);
uint64_t le64_at(const uint8_t *p);
void le32_to(uint8_t *p, uint32_t v);
void le64_to(uint8_t *p, uint64_t v);

#endif
