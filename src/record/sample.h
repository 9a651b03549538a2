/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One recorded sample: the snapshot and what batch output says of it besides. */
#ifndef TV_RECORD_SAMPLE_H
#define TV_RECORD_SAMPLE_H

#include "model/snapshot.h"

struct rec_sample {
	struct snapshot s;
	/* the state of delay accounting as JSON output names it ("on",
	 * "no-permission", ...) and its message; NULL when not known. In a
	 * replayed sample, these and the snapshot's user names and exits_why
	 * belong to the reader. */
	const char *delay_state;
	const char *delay_message;
};

/* Frees the snapshot; the strings stay with their owner. */
void rec_sample_free(struct rec_sample *s);

#endif
