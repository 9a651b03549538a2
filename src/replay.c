/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch output from a recording: each sample with the one -d before it,
 * rates derived by the model as for a live run, filtered and sorted by the
 * view, printed by the same renderers. Tasks that ended in the interval are
 * listed too, marked: processes among the processes, threads (with -H) under
 * their process. As metrics (--format openmetrics), the samples feed the
 * exporter as live ones would, so a recording can be exported after the fact.
 */
#include "replay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "hosts/hosts.h"
#include "metrics.h"
#include "record/reader.h"
#include "record/when.h"
#include "render/json.h"
#include "render/text.h"
#include "util/i18n.h"
#include "view/rows.h"
#include "view/shown.h"

static void replay_warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "taskview: %s\n", msg);
}

static int add_columns(void *ctx, struct colset *cs)
{
	return rec_reader_columns(ctx, cs);
}

int replay_step(const struct cli_opts *o, const struct rec_info *info, unsigned *k)
{
	*k = 1;
	if (!o->delay_set)
		return 0;
	double m = o->delay / info->interval;
	if (!(m >= 0.99) || fabs(m - round(m)) > 0.01 || m > 1e6) {
		fprintf(stderr, "taskview: ");
		fprintf(stderr, _("-d %g is not a multiple of the recording's interval (%g s)\n"), o->delay,
			info->interval);
		return 2;
	}
	*k = (unsigned)lround(m);
	return 0;
}

int replay_range(const struct cli_opts *o, const struct rec_info *info, double *from, double *to)
{
	*from = -INFINITY;
	*to = INFINITY;
	struct when w;
	if (o->begin && when_parse(o->begin, &w))
		*from = when_resolve(&w, info->first);
	if (o->end && when_parse(o->end, &w))
		*to = when_resolve(&w, isfinite(*from) ? *from : info->first);
	if (*to < *from) {
		fprintf(stderr, "taskview: ");
		fprintf(stderr, _("--end %s is before --begin %s\n"), o->end, o->begin ? o->begin : "");
		return 2;
	}
	return 0;
}

const char *replay_none_why(const struct rec_reader *r, double from, double to, unsigned k)
{
	size_t n = rec_reader_count(r);
	if (n == 0)
		return _("the recording holds no sample");
	size_t i = isfinite(from) ? rec_reader_find(r, from) : 0;
	if (i >= n || rec_reader_wall(r, i) > to)
		return _("no sample of the recording is in the range asked for");
	if (n <= k)
		/* TRANSLATORS: rates need two samples: the one shown and the one before it */
		return _("the recording holds too few samples: each is shown with the one before it");
	return _("no sample of the recording can be shown: none can be read with the one before it");
}

int replay_metrics(struct buf *out, struct metrics *m, const struct shown *v, const struct snapshot *prev,
			  bool first)
{
	struct snapshot sel = v->s;
	sel.nprocs = v->nlive;
	sel.gone = v->procs + v->nlive;
	sel.ngone = v->s.nprocs - v->nlive;
	char *err = NULL;
	if (metrics_sample(m, first ? &sel : prev, &sel, out, &err) < 0) {
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
		free(err);
		return -2;
	}
	return 0;
}

int replay_render_shown(struct buf *out, const struct app *a, const struct cli_opts *o, const struct pair_origin *from,
			struct shown *v, const struct rec_sample *cur, double interval, bool first)
{
	struct rows rows = {0};
	struct view_opts vo = {
		.cs = &a->cs,
		.sort_col = a->sort_col,
		.reverse = a->reverse,
		.all_threads = o->threads,
		.groups = o->group == CLI_GROUP_CGROUP,
	};
	if (rows_build(&v->s, &vo, &rows) < 0)
		return -1;
	shown_mark(v, &rows);
	if (o->format == CLI_FORMAT_JSON) {
		struct json_state js = {"delayacct", cur->delay_state, cur->delay_message};
		json_render_sample(out, &v->s, interval, &rows, &a->cs, &a->sel, cur->delay_state ? &js : NULL,
				   from->host);
	} else {
		struct text_opts to = {.utf8 = a->utf8, .interval = interval, .host = from->recorded_on};
		if (from->host) {
			to.on_host = from->host->name;
			to.clock_offset = from->host->clock;
		}
		if (!first)
			buf_addc(out, '\n');
		text_render_sample(out, &v->s, &rows, &a->cs, &a->sel, &to);
	}
	rows_free(&rows);
	return out->oom ? -1 : 0;
}

/* cur, its rates over prev, as replay_render_shown prints it. */
static int replay_render_pair(struct buf *out, const struct app *a, const struct cli_opts *o,
			      const struct pair_origin *from, struct rec_sample *prev, struct rec_sample *cur, bool first)
{
	struct shown v;
	if (shown_build(&v, &prev->s, &cur->s, &a->cs, from->filter, o->threads) < 0)
		return -1;
	int rc = replay_render_shown(out, a, o, from, &v, cur, cur->s.mono - prev->s.mono, first);
	shown_free(&v);
	return rc;
}

/* Formats one sample; returns -1 when out of memory, -2 after another error (told). */
static int replay_render(struct buf *out, const struct app *a, const struct cli_opts *o, const struct rec_info *info,
			 struct metrics *m, struct rec_sample *prev, struct rec_sample *cur, bool first)
{
	if (m) {
		struct shown v;
		if (shown_build(&v, &prev->s, &cur->s, &a->cs, &o->filter, o->threads) < 0)
			return -1;
		int rc = replay_metrics(out, m, &v, &prev->s, first);
		shown_free(&v);
		return rc < 0 ? rc : out->oom ? -1 : 0;
	}
	struct pair_origin from = {.recorded_on = info->host, .filter = &o->filter};
	return replay_render_pair(out, a, o, &from, prev, cur, first);
}

int replay_emit(const struct buf *out)
{
	if (fwrite(out->data ? out->data : "", 1, out->len, stdout) == out->len && fflush(stdout) == 0)
		return 0;
	fprintf(stderr, "taskview: ");
	fprintf(stderr, _("write error: %s\n"), strerror(errno));
	return -1;
}

int replay_run(const struct cli_opts *o)
{
	char *err = NULL;
	struct rec_reader *r = rec_reader_open(o->replay, replay_warn, NULL, &err);
	if (!r) {
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
		free(err);
		return 1;
	}
	const char *const *hosts;
	if (rec_reader_hosts(r, &hosts) > 0) {
		int hrc = hosts_replay_run(o, r);
		rec_reader_close(r);
		return hrc;
	}
	struct rec_info info;
	rec_reader_info(r, &info);
	struct app a;
	unsigned k;
	double from, to;
	int rc = replay_step(o, &info, &k);
	if (rc == 0)
		rc = replay_range(o, &info, &from, &to);
	if (rc) {
		rec_reader_close(r);
		return rc;
	}
	rc = app_init_replay(&a, o, add_columns, r);
	struct metrics *m = NULL;
	if (rc == 0 && (o->format == CLI_FORMAT_OPENMETRICS || o->textfile) && !(m = metrics_new(o))) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		rc = 1;
	}
	size_t n = rec_reader_count(r), printed = 0;
	struct buf out;
	buf_init(&out);
	/* the first sample of the range is shown with the one k before it, even
	 * when that one is before the range */
	for (size_t i = isfinite(from) ? rec_reader_find(r, from) : 0; rc == 0 && i < n; ) {
		if (rec_reader_wall(r, i) > to || (o->iterations && printed >= (size_t)o->iterations))
			break;
		struct rec_sample prev, cur;
		if (!rec_reader_pairable(r, i, k) || rec_reader_pair(r, i, k, &prev, &cur) < 0) {
			i++; /* the first after a break, or a lost one: the next may pair */
			continue;
		}
		buf_reset(&out);
		int r_rc = replay_render(&out, &a, o, &info, m, &prev, &cur, printed == 0);
		if (r_rc == -1)
			fprintf(stderr, "taskview: %s\n", _("out of memory"));
		if (r_rc < 0)
			rc = 1;
		rec_sample_free(&prev);
		rec_sample_free(&cur);
		if (rc == 0 && replay_emit(&out) < 0)
			rc = 1;
		printed++;
		i += k;
	}
	if (rc == 0 && printed == 0) {
		fprintf(stderr, "taskview: %s\n", replay_none_why(r, from, to, k));
		rc = 1;
	}
	buf_free(&out);
	metrics_free(m);
	app_free(&a);
	rec_reader_close(r);
	return rc;
}
