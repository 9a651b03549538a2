/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "batch.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"
#include "model/delta.h"
#include "record/codec.h"
#include "record/writer.h"
#include "render/json.h"
#include "render/text.h"
#include "plugin/plugin_host.h"
#include "sample/sampler.h"
#include "sample/taskstats/taskstats.h"
#include "util/i18n.h"
#include "view/rows.h"

static void sleep_until(double mono_deadline)
{
	struct timespec ts = {(time_t)mono_deadline, (long)((mono_deadline - floor(mono_deadline)) * 1e9)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* --stream: waits until mono_deadline; true when standard input closed
 * first (the viewer went), which ends the stream. What comes in is dropped. */
static bool stream_wait(double mono_deadline)
{
	for (;;) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double left = mono_deadline - ((double)now.tv_sec + (double)now.tv_nsec / 1e9);
		if (left <= 0)
			return false;
		struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
		int n = poll(&pfd, 1, (int)ceil(left * 1000));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || pfd.revents & (POLLERR | POLLNVAL))
			return true;
		if (n == 0)
			continue;
		char junk[512];
		ssize_t got = read(STDIN_FILENO, junk, sizeof(junk));
		if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN))
			return true;
	}
}

static void print_pid_list(FILE *f, const struct filter *flt)
{
	for (size_t i = 0; i < flt->npids; i++)
		fprintf(f, "%s%d", i ? "," : "", flt->pids[i]);
}

/* -p named processes but none is shown: say whether they do not exist or
 * -u or -F leaves them out. */
static void batch_none_shown(const struct cli_opts *o, const struct snapshot *s)
{
	bool exists = false;
	for (size_t i = 0; i < o->filter.npids && !exists; i++)
		exists = kill(o->filter.pids[i], 0) == 0 || errno == EPERM;
	if (!exists)
		fprintf(stderr, "%s", _("taskview: no such process: "));
	else if (s->nprocs == 0)
		/* TRANSLATORS: followed by the PID list of -p */
		fprintf(stderr, "%s", _("taskview: none of these processes belongs to the user given with -u: "));
	else
		/* TRANSLATORS: followed by the PID list of -p */
		fprintf(stderr, "%s", _("taskview: none of these processes matches the text given with -F: "));
	print_pid_list(stderr, &o->filter);
	fputc('\n', stderr);
}

static size_t batch_count_shown(const struct snapshot *s, const struct view_opts *vo)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nprocs; i++)
		n += view_wants(vo, &s->procs[i]);
	return n;
}

/* Whether a process of s is in a control group that -c names. */
static bool batch_cgroup_found(const struct snapshot *s, const struct filter *f)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct tv_cgroup *g = s->procs[i].cgroup;
		if (g && filter_matches_cgroup(f, g->path, g->unit))
			return true;
	}
	return false;
}

/* The selection as given, for the recording's description. */
static void describe_filter(struct buf *b, const struct filter *f)
{
	if (f->npids) {
		buf_adds(b, "-p ");
		for (size_t i = 0; i < f->npids; i++)
			buf_addf(b, "%s%d", i ? "," : "", f->pids[i]);
	}
	if (f->uid != TV_UNKNOWN)
		buf_addf(b, "%s-u %lld", b->len ? " " : "", (long long)f->uid);
	if (f->text) {
		buf_adds(b, b->len ? " -F " : "-F ");
		buf_adds(b, f->text);
	}
	if (f->cgroup) {
		buf_adds(b, b->len ? " -c " : "-c ");
		buf_adds(b, f->cgroup);
	}
}

static struct rec_writer *record_open(const struct app *a, const struct cli_opts *o)
{
	struct buf flt;
	buf_init(&flt);
	describe_filter(&flt, &o->filter);
	struct rec_writer_opts wo = {
		.path = o->stream ? _("standard output") : o->record,
		.stream = o->stream,
		.keep_days = o->keep_days,
		.interval = o->delay,
		.threads = o->threads,
		.filter = flt.len ? buf_str(&flt) : NULL,
		.cs = &a->cs,
	};
	char *err = NULL;
	struct rec_writer *w = rec_writer_open(&wo, &err);
	if (!w)
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
	free(err);
	buf_free(&flt);
	return w;
}

/* -F keeps the ended processes whose name matches: their name is all that
 * is known of them (the sampler applies -p and -u). Their control group is
 * not known (its file went with them): -c keeps none, as the view shows none. */
static void gone_matching(struct snapshot *s, const struct filter *f)
{
	size_t k = 0;
	for (size_t i = 0; i < s->ngone; i++) {
		if (!f->cgroup && filter_matches_text(f, task_comm(&s->gone[i]), NULL))
			s->gone[k++] = s->gone[i];
		else
			task_clear(&s->gone[i], 0);
	}
	s->ngone = k;
}

/* -F keeps the live processes it names (matched by the view, not the
 * sampler: the name, command line and thread names are read first; the
 * sampler applies -p, -u and -c), so that a recording holds the selection
 * its header names. */
static void procs_matching(struct snapshot *s, const struct filter *f)
{
	if (!f->text)
		return;
	size_t k = 0;
	for (size_t i = 0; i < s->nprocs; i++) {
		if (filter_matches_task(f, &s->procs[i]))
			s->procs[k++] = s->procs[i];
		else
			task_clear(&s->procs[i], s->npvals);
	}
	s->nprocs = k;
}

/* Records s as sampled, before anything is derived from it; its times are
 * rounded as the recording keeps them, so that what is printed now is what
 * a replay prints. */
static int record_append(struct rec_writer *w, const struct app *a, const struct cli_opts *o, struct snapshot *s)
{
	rec_round_times(s);
	procs_matching(s, &o->filter);
	gone_matching(s, &o->filter);
	struct rec_sample rs = {.s = *s};
	rs.delay_state = app_delay_state(a, &rs.delay_message);
	char *err = NULL;
	int rc = rec_writer_append(w, &rs, &err);
	if (rc != 0)
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
	free(err);
	return rc < 0 ? -1 : 0;
}

int batch_run(struct app *a, const struct cli_opts *o)
{
	bool json = o->format == CLI_FORMAT_JSON;
	bool om = o->format == CLI_FORMAT_OPENMETRICS;
	/* --stream: a recording of what the viewer's columns need, on standard output */
	bool record = o->record || o->stream;
	if (o->stream && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "taskview: %s\n", _("--stream writes samples for another taskview: send them to a pipe"));
		return 2;
	}
	/* a recording without -b prints nothing */
	bool print = o->batch;
	/* with --textfile, samples reach stdout only in a --format asked for */
	bool rows_out = print && !om && (!o->textfile || o->format_set);
	/* a stream for a viewer's group view (--host --group cgroup) sends the groups too */
	bool groups = (rows_out || o->stream) && o->group == CLI_GROUP_CGROUP;
	/* metrics alone need no column: no command lines, users or plugins */
	unsigned needs = rows_out || record ? app_needs(a) : NEED_STAT;
	/* the group view needs every process's group, and each group's CPU;
	 * a recording keeps the groups' CPU for a group view of its replay */
	if (groups)
		needs |= NEED_CGROUP | NEED_CGROUP_CPU;
	if (record)
		needs |= NEED_CGROUP_CPU;
	/* JSON group rows carry the group's memory and pressure whatever the columns, as the
	 * viewer's group rows do */
	if (groups && (json || o->stream))
		needs |= NEED_CGROUP_MEM | NEED_CGROUP_PSI;
	/* JSON carries the shown columns, as text does (-o all: every one); a
	 * recording reads what every column needs, to be replayed with any */
	bool every = o->record;
	if (every)
		for (size_t i = 0; i < a->cs.n; i++)
			needs |= a->cs.cols[i].needs;
	struct metrics *m = NULL;
	if (om || o->textfile) {
		m = metrics_new(o);
		if (!m) {
			fprintf(stderr, "taskview: %s\n", _("out of memory"));
			return 1;
		}
		needs |= metrics_needs();
	}
	app_open_taskstats(a, json || record ? (needs | NEED_DELAY) : needs);

	char *err = NULL;
	struct sampler *s = sampler_new(&err);
	if (!s) {
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
		free(err);
		metrics_free(m);
		return 1;
	}
	sampler_set_taskstats(s, a->ts);
	size_t nslots = plugin_host_nslots(a->plugins);
	sampler_set_plugins(s, a->plugins, nslots);
	bool *pshown;
	if (every)
		pshown = NULL;
	else if (!rows_out)
		pshown = nslots ? calloc(nslots, sizeof(*pshown)) : NULL;
	else
		pshown = app_plugin_shown(a);

	/* the text filter is matched by the view: against the command line and
	 * the names of every thread, which are then read */
	bool text = o->filter.text != NULL;
	/* a recording holds every row a replay can show, printed now or not */
	bool every_row = rows_out || record;
	struct sample_opts so = {
		.needs = needs | (text ? NEED_CMDLINE : 0),
		.filter = &o->filter,
		.all_threads = o->threads && every_row,
		.plugin_shown = pshown,
		/* every row is printed or recorded; a command line stuck behind a
		 * hung process is not waited for longer than this */
		.details_all = every_row,
		.cmdline_wait = 1.0,
		.stacks_budget = sampler_stacks_budget(o->delay),
		.thread_names = text,
		.keep_exited = record,
		/* a host's row on the viewer's screen: the machine's CPU and memory */
		.machine = o->stream,
	};
	struct view_opts vo = {
		.cs = &a->cs,
		.sort_col = a->sort_col,
		.reverse = a->reverse,
		.all_threads = o->threads,
		.filter = &o->filter,
		.groups = groups,
	};
	if (a->ts && print && !json && !om && (needs & NEED_DELAY) && ts_state(a->ts) != TS_ON)
		fprintf(stderr, "taskview: %s\n", ts_message(a->ts));

	struct snapshot prev, cur;
	int rc = 0;
	struct rec_writer *w = NULL;
	if (record && !(w = record_open(a, o))) {
		rc = 1;
		goto out;
	}
	/* the priming read: every printed sample carries rates measured over one delay */
	if (sampler_take(s, &so, &prev, &err) < 0) {
		fprintf(stderr, "taskview: %s\n", err);
		rc = 1;
		goto out;
	}
	if (o->filter.npids && batch_count_shown(&prev, &vo) == 0) {
		batch_none_shown(o, &prev);
		snapshot_free(&prev);
		rc = 1;
		goto out;
	}
	/* a group may start later (a service, a job): said, and the samples go on */
	if (o->filter.cgroup && !batch_cgroup_found(&prev, &o->filter))
		fprintf(stderr, _("taskview: no process is in a control group whose path or name contains \"%s\" (-c)\n"),
			o->filter.cgroup);
	if (w && record_append(w, a, o, &prev) < 0) {
		snapshot_free(&prev);
		rc = 1;
		goto out;
	}
	struct buf out;
	buf_init(&out);
	/* a recording without -n goes on until stopped */
	for (int64_t it = 0; it < o->iterations || o->iterations == 0; it++) {
		if (!o->stream)
			sleep_until(prev.mono + o->delay);
		else if (stream_wait(prev.mono + o->delay))
			break;
		if (sampler_take(s, &so, &cur, &err) < 0) {
			fprintf(stderr, "taskview: %s\n", err);
			rc = 1;
			break;
		}
		if (w && record_append(w, a, o, &cur) < 0) {
			snapshot_free(&cur);
			rc = 1;
			break;
		}
		if (!print) {
			snapshot_free(&prev);
			prev = cur;
			continue;
		}
		delta_apply(&prev, &cur, &a->cs);
		buf_reset(&out);
		if (m) {
			char *merr = NULL;
			if (metrics_sample(m, &prev, &cur, om ? &out : NULL, &merr) < 0) {
				fprintf(stderr, "taskview: %s\n", merr ? merr : _("out of memory"));
				free(merr);
				rc = 1;
				snapshot_free(&cur);
				break;
			}
		}
		struct rows rows;
		if (rows_out && rows_build(&cur, &vo, &rows) < 0) {
			rc = 1;
			snapshot_free(&cur);
			break;
		}
		double interval = cur.mono - prev.mono;
		if (!rows_out) {
			/* metrics only */
		} else if (json) {
			const char *msg = NULL;
			const char *state = app_delay_state(a, &msg);
			struct json_state js = {"delayacct", state, msg};
			json_render_sample(&out, &cur, interval, &rows, &a->cs, &a->sel, &js, NULL);
		} else {
			struct text_opts to = {.utf8 = a->utf8, .interval = interval};
			if (it)
				buf_addc(&out, '\n');
			text_render_sample(&out, &cur, &rows, &a->cs, &a->sel, &to);
		}
		if (rows_out)
			rows_free(&rows);
		snapshot_free(&prev);
		prev = cur;
		/* a closed pipe or a full disk ends the run, whether or not SIGPIPE would */
		if (fwrite(out.data ? out.data : "", 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
			fprintf(stderr, "taskview: ");
			fprintf(stderr, _("write error: %s\n"), strerror(errno));
			rc = 1;
			break;
		}
	}
	buf_free(&out);
	snapshot_free(&prev);
	if (ferror(stdout))
		rc = 1;
out:
	rec_writer_close(w);
	free(err);
	free(pshown);
	sampler_free(s);
	metrics_free(m);
	return rc;
}
