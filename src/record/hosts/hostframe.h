/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording of several hosts (taskview --host ... -w FILE) holds each
 * host's frames as they came, each inside a frame of type REC_FRAME_HOST:
 * its payload is the host's name as given (varint length, bytes) and then
 * the host's frame, header and payload, unchanged. The outer header takes
 * the inner one's sample number, and as its time the time here when the
 * frame was taken: the host's clock against this one's. So recording costs
 * no decoding, and a reader of one host indexes the inner frames where they
 * lie.
 */
#ifndef TV_RECORD_HOSTS_HOSTFRAME_H
#define TV_RECORD_HOSTS_HOSTFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "record/format.h"
#include "util/buf.h"

#define REC_HOST_NAME_MAX 255
/* What a reader reads of a host frame's payload to find its host and its frame's header. */
#define REC_HOST_PREFIX_MAX (2 + REC_HOST_NAME_MAX + REC_HDR_MAX)

/* Appends the host frame of host around frame (len bytes: inner's header
 * and payload). Returns 0, or -1 when the name is empty or longer than
 * REC_HOST_NAME_MAX, or the frame does not fit one. */
int rec_hostframe_pack(struct buf *out, const char *host, const uint8_t *frame, size_t len,
		       const struct rec_frame *inner, int64_t taken_ns);

struct rec_hostframe {
	const char *name;  /* in the bytes given, not NUL-terminated */
	size_t name_len;
	size_t inner;      /* where the host's frame starts in the payload */
	struct rec_frame f; /* its header */
};

/* Reads the first n bytes of a host frame's payload of len bytes (n: all of
 * it, or at least REC_HOST_PREFIX_MAX). Returns 0, or -1 when they are not
 * a host's name and a frame header whose frame ends where the payload does. */
int rec_hostframe_unpack(const uint8_t *p, size_t n, size_t len, struct rec_hostframe *out);

#endif
