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

/* The host a sample came from (--host); its strings are raw remote bytes or NULL. */
struct json_host {
	const char *name;      /* as given to --host */
	const char *hostname, *version, *kernel, *boot_id; /* as the remote says */
	long cpus;             /* online there; -1 when not said */
	double clock;          /* its clock minus this one's, at least (a sample's time there less its
				* arrival here, the most of them so far), s */
};

/* sel NULL: every column of cs. host: with --host, named on the sample and
 * on each task, described in "remote"; NULL: this machine's. Appends
 * exactly one line. */
void json_render_sample(struct buf *out, const struct snapshot *s, double interval, const struct rows *rows,
			const struct colset *cs, const struct colsel *sel, const struct json_state *extra,
			const struct json_host *host);

#endif
