/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "render/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "render/format.h"
#include "render/table.h"
#include "util/i18n.h"
#include "util/text.h"
#include "view/noted.h"

static void text_header(struct buf *out, const struct snapshot *s, const struct rows *rows,
			const struct text_opts *o)
{
	char when[64];
	time_t t = (time_t)s->wall;
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	/* what is printed below: after the filters and --top, no group rows */
	size_t nthreads = 0, nprocs = 0;
	for (size_t i = 0; i < rows->n; i++) {
		nthreads += rows->v[i].is_thread;
		nprocs += !rows->v[i].is_thread && !rows->v[i].group;
	}
	char procs[48], running[48], threads[48], sprocs[48], sthreads[48], a[24], b[24];
	snprintf(procs, sizeof(procs), P_("%zu process", "%zu processes", s->sys_procs), s->sys_procs);
	/* TRANSLATORS: %s is a number, or "-" when it is not known */
	snprintf(running, sizeof(running), P_("%s running", "%s running", format_count_plural(s->sys_running)),
		 format_count(a, sizeof(a), s->sys_running));
	/* TRANSLATORS: %s is a number, or "-" when it is not known */
	snprintf(threads, sizeof(threads), P_("%s thread", "%s threads", format_count_plural(s->sys_threads)),
		 format_count(b, sizeof(b), s->sys_threads));
	snprintf(sprocs, sizeof(sprocs), P_("%zu process", "%zu processes", nprocs), nprocs);
	snprintf(sthreads, sizeof(sthreads), P_("%s thread", "%s threads", nthreads),
		 format_count(b, sizeof(b), nthreads));
	/* TRANSLATORS: first line of batch text output. In order: version, date and time,
	   interval in seconds, "N processes", "N threads", "N running" (threads, on a CPU
	   or waiting for one) on the system, then "N processes", "N threads" shown below */
	buf_addf(out, _("taskview %s - %s, interval %.2f s, %s, %s (%s); shown: %s, %s"),
		 TV_VERSION, when, o->interval, procs, threads, running, sprocs, sthreads);
	if (o->host)
		/* TRANSLATORS: after the first line of a replayed sample; %s is a host name */
		text_sanitize_in(out, _("; recorded on %s"), o->host, 64, o->utf8);
	if (o->on_host) {
		/* TRANSLATORS: after the first line of a sample of another host (--host); %s is its name */
		text_sanitize_in(out, _("; host %s"), o->on_host, 255, o->utf8);
		if (isfinite(o->clock_offset) && fabs(o->clock_offset) > 2.0)
			/* TRANSLATORS: after "; host NAME" when its clock is off by more than two seconds */
			buf_addf(out, _("; its clock %+.1f s"), o->clock_offset);
	}
	buf_addc(out, '\n');
}

void text_render_sample(struct buf *out, const struct snapshot *s, const struct rows *rows,
			const struct colset *cs, const struct colsel *sel, const struct text_opts *o)
{
	text_header(out, s, rows, o);
	size_t *widths = calloc(sel->n ? sel->n : 1, sizeof(*widths));
	if (!widths)
		return;
	for (size_t c = 0; c < sel->n; c++) {
		const struct column *col = &cs->cols[sel->idx[c]];
		widths[c] = format_col_width(col, o->utf8);
		/* the last string column takes what it needs */
		if (c + 1 == sel->n && col->align == COL_ALIGN_LEFT)
			widths[c] = 0;
	}
	for (size_t c = 0; c < sel->n; c++) {
		const struct column *col = &cs->cols[sel->idx[c]];
		const char *h = _(col->header);
		if (c)
			buf_addc(out, ' ');
		if (widths[c])
			text_fit(out, h, widths[c], col->align == COL_ALIGN_LEFT, o->utf8);
		else
			text_sanitize(out, h, strlen(h), SIZE_MAX, o->utf8);
	}
	buf_addc(out, '\n');
	for (size_t r = 0; r < rows->n; r++) {
		const struct row *row = &rows->v[r];
		bool tree_done = false;
		char lead[PREFIX_MAX];
		size_t line_start = out->len;
		char mark[PREFIX_MAX + 64];
		bool marked = false;
		for (size_t c = 0; c < sel->n; c++) {
			const struct column *col = &cs->cols[sel->idx[c]];
			struct tv_value v = column_value(col, row->task);
			const char *prefix = NULL;
			/* thread rows are indented under their process in the first name
			 * column; in the group view every row, as on the screen */
			if ((row->is_thread || row->tree) && !tree_done && v.kind == TV_V_STR && col->type == COL_STRING &&
			    col->align == COL_ALIGN_LEFT && (strcmp(col->id, "command") == 0 || strcmp(col->id, "comm") == 0)) {
				if (row->tree) {
					table_tree_prefix(lead, sizeof(lead), row, o->utf8);
					prefix = lead;
				} else {
					prefix = format_tree_prefix(row->last_thread, o->utf8);
				}
				tree_done = true;
			}
			/* an ended task is marked where its name is */
			if (row->exited && !marked && col->type == COL_STRING &&
			    (strcmp(col->id, "command") == 0 || strcmp(col->id, "comm") == 0)) {
				if (v.kind == TV_V_UNKNOWN)
					v = value_str("-");
				/* TRANSLATORS: before the name of a task that ended (batch replay) */
				snprintf(mark, sizeof(mark), "%s%s", prefix ? prefix : "", _("(exited) "));
				prefix = mark;
				marked = true;
			}
			if (c)
				buf_addc(out, ' ');
			if (widths[c]) {
				format_cell(out, col, &v, widths[c], prefix, o->utf8);
			} else {
				if (prefix)
					buf_adds(out, prefix);
				if (v.kind == TV_V_STR)
					text_sanitize(out, v.s, strlen(v.s), SIZE_MAX, o->utf8);
				else
					format_cell(out, col, &v, format_col_width(col, o->utf8), NULL, o->utf8);
			}
		}
		/* no trailing blanks */
		while (out->len > line_start && out->data[out->len - 1] == ' ')
			out->len--;
		buf_addc(out, '\n');
	}
	free(widths);
	size_t *noted = s->nrejects ? malloc(s->nrejects * sizeof(*noted)) : NULL;
	size_t nnoted = noted ? noted_pick(s, rows, noted) : 0;
	for (size_t i = 0; i < nnoted; i++) {
		/* TRANSLATORS: batch output, a line after the table */
		buf_adds(out, _("note: "));
		format_reject(out, &s->rejects[noted[i]]);
		buf_addc(out, '\n');
	}
	free(noted);
}
