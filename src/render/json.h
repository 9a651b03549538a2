/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch JSON Lines output: one object per sample. */
#ifndef TV_RENDER_JSON_H
#define TV_RENDER_JSON_H

#include "model/column.h"
#include "model/snapshot.h"
#include "util/buf.h"
#include "view/rows.h"

struct json_state {
	const char *name;     /* e.g. "delayacct" */
	const char *state;
	const char *message;  /* may be NULL */
};

/* One resource's pressure as a JSON object: some and full, each null when unknown. */
void json_add_pressure(struct buf *out, const struct tv_pressure *p);

/* sel NULL: every column of cs. host: the host the sample came from
 * (--host), on the sample and on each task; NULL: this one. Appends exactly
 * one line. */
void json_render_sample(struct buf *out, const struct snapshot *s, double interval, const struct rows *rows,
			const struct colset *cs, const struct colsel *sel, const struct json_state *extra,
			const char *host);

#endif
