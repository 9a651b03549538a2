/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One recorded sample: the snapshot and what batch output says of it besides. */
#ifndef TV_RECORD_SAMPLE_H
#define TV_RECORD_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* Bytes a record carries as one value. */
struct rec_blob {
	uint8_t *p;
	size_t n;
};

/* A control group as the group table records it: the group, and its
 * parent's place in the table plus one (0: none). */
struct rec_cgroup {
	struct tv_cgroup g;
	int64_t parent;
};

struct rec_sample {
	struct snapshot s;
	/* the state of delay accounting as JSON output names it ("on",
	 * "no-permission", ...) and its message; NULL when not known. In a
	 * replayed sample, these and the snapshot's user names and exits_why
	 * belong to the reader. */
	const char *delay_state;
	const char *delay_message;
	/* the sample's group table as written: only inside the codec (empty
	 * in every sample it hands out) */
	struct rec_blob cgroups_raw;
};

/* Frees the snapshot; the strings stay with their owner. */
void rec_sample_free(struct rec_sample *s);

#endif
