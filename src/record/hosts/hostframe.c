/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/hosts/hostframe.h"

#include <string.h>

#include "record/bytes.h"
#include "record/crc32c.h"

int rec_hostframe_pack(struct buf *out, const char *host, const uint8_t *frame, size_t len,
		       const struct rec_frame *inner, int64_t taken_ns)
{
	size_t nl = strlen(host);
	if (nl == 0 || nl > REC_HOST_NAME_MAX || len > REC_PAYLOAD_MAX)
		return -1;
	struct buf pl;
	buf_init(&pl);
	put_str(&pl, host, nl);
	buf_add(&pl, frame, len);
	if (pl.oom) {
		buf_free(&pl);
		return -1;
	}
	struct rec_frame f = {
		.type = REC_FRAME_HOST,
		.len = (uint32_t)pl.len,
		.crc = crc32c(0, pl.data, pl.len),
		.seq = inner->seq,
		.wall_ns = taken_ns,
	};
	uint8_t hdr[REC_HDR_LEN];
	rec_frame_pack(hdr, &f);
	buf_add(out, hdr, sizeof(hdr));
	buf_add(out, pl.data, pl.len);
	buf_free(&pl);
	return out->oom ? -1 : 0;
}

int rec_hostframe_unpack(const uint8_t *p, size_t n, size_t len, struct rec_hostframe *out)
{
	memset(out, 0, sizeof(*out));
	if (n > len)
		n = len;
	struct rcur c = rcur_make(p, n);
	uint64_t nl = get_varint(&c);
	if (c.bad || nl == 0 || nl > REC_HOST_NAME_MAX)
		return -1;
	const uint8_t *name = get_bytes(&c, (size_t)nl);
	if (!name)
		return -1;
	out->name = (const char *)name;
	out->name_len = (size_t)nl;
	out->inner = (size_t)(c.p - p);
	if (rec_frame_unpack(c.p, rcur_left(&c), &out->f) < 0)
		return -1;
	/* the host's frame is the rest of the payload, exactly */
	if ((uint64_t)out->inner + out->f.hlen + out->f.len != len)
		return -1;
	return 0;
}
