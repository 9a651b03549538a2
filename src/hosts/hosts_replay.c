/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch output from a recording of several hosts (taskview --host ... -w):
 * each host's samples with the one -d before it, in the order the viewer
 * took them, printed as the live run printed them, with each host's own
 * times. -n is a number of samples of each host, as live.
 */
#include "hosts/hosts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "hosts/describe.h"
#include "hosts/host_rec.h"
#include "metrics.h"
#include "record/reader.h"
#include "render/json.h"
#include "replay.h"
#include "util/i18n.h"
#include "util/text.h"

/* One host of the recording, and where its replay is. */
struct host_replay {
	const char *name;        /* the top reader's */
	struct host_rec rec;
	struct rec_reader *r;    /* rec's */
	struct rec_info info;
	unsigned k;
	size_t i;                /* the next sample to show */
	int64_t printed;
	struct metrics *m;       /* --format openmetrics, --textfile */
};

static void host_warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "taskview: %s\n", msg);
}

/* Prints h's sample i with the one k before it; 1 printed, 0 not pairable, -1 failed (told). */
static int host_print(struct host_replay *h, const struct app *a, const struct cli_opts *o, bool first)
{
	struct rec_sample prev, cur;
	if (!rec_reader_pairable(h->r, h->i, h->k) || rec_reader_pair(h->r, h->i, h->k, &prev, &cur) < 0)
		return 0;
	struct json_host jh;
	host_describe(&jh, h->name, rec_reader_schema(h->r, h->i), h->rec.clock[h->i]);
	struct pair_origin from = {.host = &jh, .filter = &o->filter};
	struct buf out;
	buf_init(&out);
	struct shown v;
	int rc = shown_build(&v, &prev.s, &cur.s, &a->cs, &o->filter, o->threads);
	if (rc == 0) {
		rc = h->m ? replay_metrics(o->textfile && !o->format_set ? NULL : &out, h->m, &v, &prev.s, h->printed == 0)
			  : replay_render_shown(&out, a, o, &from, &v, &cur, cur.s.mono - prev.s.mono, first);
		shown_free(&v);
	}
	rec_sample_free(&prev);
	rec_sample_free(&cur);
	if (rc == -1 || (rc == 0 && out.oom)) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		rc = -1;
	} else if (rc == 0) {
		rc = replay_emit(&out);
	}
	buf_free(&out);
	return rc < 0 ? -1 : 1;
}

/* The host whose next sample was taken first (the lowest place); NULL when none is left. */
static struct host_replay *host_next(struct host_replay *v, size_t n, const struct cli_opts *o, double to)
{
	struct host_replay *best = NULL;
	for (size_t j = 0; j < n; j++) {
		struct host_replay *h = &v[j];
		if (!h->r || h->i >= rec_reader_count(h->r) || rec_reader_wall(h->r, h->i) > to ||
		    (o->iterations && h->printed >= o->iterations))
			continue;
		if (!best || rec_reader_place(h->r, h->i) < rec_reader_place(best->r, best->i))
			best = h;
	}
	return best;
}

static int metrics_write(struct host_replay *v, size_t n, const char *path)
{
	struct metrics_file *file = metrics_file_new(path);
	struct om_part *parts = calloc(n ? n : 1, sizeof(*parts));
	size_t k = 0;
	for (size_t j = 0; parts && j < n; j++)
		if (v[j].printed > 0)
			metrics_part(v[j].m, &parts[k++]);
	char *err = NULL;
	int rc = file && parts ? metrics_file_write(file, parts, k, &err) : -1;
	if (rc < 0)
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
	free(err);
	free(parts);
	metrics_file_free(file);
	return rc;
}

int hosts_replay_run(const struct cli_opts *o, struct rec_reader *top)
{
	const char *const *names;
	size_t n = rec_reader_hosts(top, &names);
	struct host_replay *v = calloc(n, sizeof(*v));
	struct app a;
	bool have_app = false;
	int rc = 0;
	if (!v) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return 1;
	}
	struct rec_info all = {.first = INFINITY};
	struct host_rec **recs = calloc(n ? n : 1, sizeof(*recs));
	if (!recs) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		rc = 1;
	}
	for (size_t j = 0; j < n && rc == 0; j++) {
		v[j].name = names[j];
		recs[j] = &v[j].rec;
	}
	if (rc == 0 && host_rec_open(recs, names, n, o->replay, host_warn, NULL) < 0)
		rc = 1;
	free(recs);
	for (size_t j = 0; j < n && rc == 0; j++) {
		struct host_replay *h = &v[j];
		if (!(h->r = h->rec.r))
			continue; /* told: the others are printed */
		rec_reader_info(h->r, &h->info);
		if (h->info.nsamples && h->info.first < all.first)
			all = h->info;
		rc = replay_step(o, &h->info, &h->k);
		if (rc == 0 && (o->format == CLI_FORMAT_OPENMETRICS || o->textfile) && !(h->m = metrics_new_part(o, h->name))) {
			fprintf(stderr, "taskview: %s\n", _("out of memory"));
			rc = 1;
		}
	}
	double from = -INFINITY, to = INFINITY;
	if (rc == 0 && isfinite(all.first))
		rc = replay_range(o, &all, &from, &to);
	if (rc == 0 && (rc = app_init_replay(&a, o, NULL, NULL)) == 0)
		have_app = true;
	for (size_t j = 0; j < n && rc == 0; j++)
		if (v[j].r)
			v[j].i = isfinite(from) ? rec_reader_find(v[j].r, from) : 0;
	size_t printed = 0;
	struct host_replay *h;
	while (rc == 0 && (h = host_next(v, n, o, to))) {
		int p = host_print(h, &a, o, printed == 0);
		if (p < 0)
			rc = 1;
		else if (p > 0) {
			h->printed++;
			printed++;
			h->i += h->k;
		} else {
			h->i++; /* the first after a break, or a lost one: the next may pair */
		}
	}
	if (rc == 0 && o->textfile && metrics_write(v, n, o->textfile) < 0)
		rc = 1;
	/* a host of which nothing could be shown is told; the others were printed */
	for (size_t j = 0; j < n && rc == 0; j++) {
		if (!v[j].r || v[j].printed)
			continue;
		fprintf(stderr, "taskview: %s%s\n", v[j].rec.prefix, replay_none_why(v[j].r, from, to, v[j].k));
		rc = 1;
	}
	for (size_t j = 0; j < n && rc == 0; j++)
		if (!v[j].r)
			rc = 1;
	for (size_t j = 0; j < n; j++) {
		metrics_free(v[j].m);
		host_rec_close(&v[j].rec);
	}
	free(v);
	if (have_app)
		app_free(&a);
	return rc;
}
