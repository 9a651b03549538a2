/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch text output: a header line and fixed-width columns. */
#ifndef TV_RENDER_TEXT_H
#define TV_RENDER_TEXT_H

#include <stdbool.h>

#include "model/column.h"
#include "model/snapshot.h"
#include "util/buf.h"
#include "view/rows.h"

struct text_opts {
	bool utf8;            /* terminal/locale can show UTF-8 */
	double interval;      /* seconds measured */
	const char *host;     /* a replay: the host recorded (raw bytes), or NULL */
	const char *on_host;  /* --host: the host as named there, or NULL */
	double clock_offset;  /* --host: its clock minus this one's, s (said past two seconds) */
};

void text_render_sample(struct buf *out, const struct snapshot *s, const struct rows *rows,
			const struct colset *cs, const struct colsel *sel, const struct text_opts *o);

#endif
