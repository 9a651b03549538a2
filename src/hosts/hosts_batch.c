/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/hosts.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "hosts/describe.h"
#include "hosts/fleet.h"
#include "hosts/hostlist.h"
#include "hosts/link.h"
#include "record/hosts/hosts_writer.h"
#include "render/json.h"
#include "replay.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"

#define HOSTS_FILE_MAX (1u << 20)
/* A host lost after it printed is tried again for this long (a reboot's time). */
#define HOST_AWAY_MAX 300.0

/* What the batch front keeps while the fleet runs. */
struct batch_run {
	const struct app *a;
	const struct cli_opts *o;
	const struct fleet *f;
	struct metrics **m; /* each host's metrics (--format openmetrics, --textfile), or NULL */
	struct metrics_file *file; /* --textfile: every host's metrics in one file */
	bool file_due;      /* a host's metrics changed since the file was written */
	double file_written;
	int64_t *printed; /* each host's samples printed (or taken, for the text file alone) */
	size_t printed_all;
	bool write_failed;
};

/* taskview: HOST: why, with what the remote said made safe to print. */
static void host_say(const char *host, const char *why)
{
	struct buf b;
	buf_init(&b);
	text_sanitize(&b, why, strlen(why), 300, false);
	fprintf(stderr, "taskview: %s: %s\n", host, buf_str(&b));
	buf_free(&b);
}

static int read_hosts_file(struct hostlist *l, const char *path, struct buf *err)
{
	/* a FIFO or a device in its place must not hang the start */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) < 0) {
		buf_addf(err, _("cannot read the hosts file %s: %s"), path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode) || sb.st_size > (off_t)HOSTS_FILE_MAX) {
		buf_addf(err, _("cannot read the hosts file %s: %s"), path,
			 S_ISREG(sb.st_mode) ? _("larger than 1 MiB") : _("not a regular file"));
		close(fd);
		return -1;
	}
	char *p = malloc((size_t)sb.st_size + 1);
	ssize_t n = p ? read(fd, p, (size_t)sb.st_size) : -1;
	close(fd);
	int rc = n < 0 ? -1 : hostlist_add_lines(l, p, (size_t)n, path, err);
	if (n < 0)
		buf_addf(err, _("cannot read the hosts file %s: %s"), path, p ? strerror(errno) : _("out of memory"));
	free(p);
	return rc;
}

/* A host's new pair, printed; -n of each, then it is done. */
static int on_pair(void *ctx, struct fleet_host *h)
{
	struct batch_run *r = ctx;
	size_t i = (size_t)(h - r->f->h);
	struct json_host jh;
	host_describe(&jh, h->l.host, rec_stream_schema(h->l.st), h->clock);
	struct pair_origin from = {.host = &jh};
	struct buf out;
	buf_init(&out);
	/* with --textfile, samples reach stdout only in a --format asked for; -w prints only with -b */
	bool print = (!r->o->textfile || r->o->format_set) && (r->o->batch || !r->o->record);
	int rc = 0;
	if (r->m)
		rc = replay_metrics(print ? &out : NULL, r->m[i], &h->shown, &h->prev.s, r->printed[i] == 0);
	else if (print)
		rc = replay_render_shown(&out, r->a, r->o, &from, &h->shown, &h->cur, h->cur.s.mono - h->prev.s.mono,
					 r->printed_all == 0);
	r->file_due = r->file_due || r->file;
	if (rc == -2) {
		rc = -1; /* told */
	} else if (rc < 0 || out.oom) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		rc = -1;
	} else {
		rc = replay_emit(&out);
	}
	buf_free(&out);
	if (rc < 0) {
		r->write_failed = true;
		return -1;
	}
	r->printed_all++;
	/* -n 0 (-w's default): until stopped */
	return ++r->printed[i] >= r->o->iterations && r->o->iterations > 0;
}

/* --textfile: every host's metrics in one file, at most once an interval (the
 * last time: whenever, at the end), when one changed; a host's part is there
 * from its first pair on, with its last figures while it is away. */
static int file_write_due(struct batch_run *r, double now, bool last)
{
	if (!r->file || !r->file_due || (!last && now - r->file_written < r->o->delay))
		return 0;
	struct om_part *parts = calloc(r->f->n, sizeof(*parts));
	if (!parts) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		return -1;
	}
	size_t n = 0;
	for (size_t i = 0; i < r->f->n; i++)
		if (r->printed[i] > 0)
			metrics_part(r->m[i], &parts[n++]);
	char *err = NULL;
	int rc = metrics_file_write(r->file, parts, n, &err);
	if (rc < 0)
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
	free(err);
	free(parts);
	r->file_due = false;
	r->file_written = now;
	return rc;
}

/* A host that fails before it printed a sample is given up (a wrong key, a
 * missing taskview: a try again says the same); one lost after it printed
 * is tried again, until it has been away for HOST_AWAY_MAX s. A run until
 * stopped (-w without -n) gives no host up: each failure is told, and tried again. */
static bool on_offline(void *ctx, const struct fleet_host *h, double now)
{
	struct batch_run *r = ctx;
	size_t i = (size_t)(h - r->f->h);
	bool until_stopped = r->o->iterations == 0;
	if (!until_stopped && r->printed[i] == 0) {
		host_say(h->name, h->why);
		return true;
	}
	bool give_up = !until_stopped && now - h->last_seen > HOST_AWAY_MAX;
	struct buf b;
	buf_init(&b);
	if (give_up)
		buf_addf(&b, _("%s (no sample for %.0f s: given up)"), h->why, now - h->last_seen);
	else
		buf_addf(&b, _("%s (tried again in %.0f s)"), h->why, h->next_try - now);
	host_say(h->name, b.oom ? h->why : buf_str(&b));
	buf_free(&b);
	return give_up;
}

int hosts_gather(struct hostlist *l, const struct cli_opts *o)
{
	struct buf err;
	buf_init(&err);
	int rc = 0;
	for (size_t i = 0; i < o->nhosts && rc == 0; i++)
		rc = hostlist_add_csv(l, o->hosts[i], &err);
	if (rc == 0 && o->hosts_file)
		rc = read_hosts_file(l, o->hosts_file, &err);
	if (rc == 0 && l->n == 0) {
		buf_adds(&err, _("no host given"));
		rc = -1;
	}
	if (rc < 0)
		fprintf(stderr, "taskview: %s\n", buf_str(&err));
	buf_free(&err);
	return rc;
}

/* The signal that ends a run (SIGINT, SIGTERM, SIGHUP), or 0: the recording
 * is then synced and closed, and the streams ended, before it ends us. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void stop_catch(void)
{
	/* poll returns at once all the same (it is never restarted); a write to stdout is; a
	 * second signal ends us at once, while the first one's ending syncs the file */
	struct sigaction sa = {.sa_handler = on_stop, .sa_flags = SA_RESTART | SA_RESETHAND};
	sigemptyset(&sa.sa_mask);
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
		struct sigaction old;
		/* one ignored (nohup, a shell's background job) stays so */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* Ends us as the signal asked, its default action restored. */
static void stop_raise(void)
{
	if (!stop_signal)
		return;
	signal(stop_signal, SIG_DFL);
	raise(stop_signal);
}

/* Whether the run goes on: a host still has samples to give. */
static bool run_goes_on(const struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (!f->h[i].done)
			return true;
	return false;
}

int hosts_run(const struct cli_opts *o)
{
	struct fleet f;
	int rc = fleet_open(&f, o);
	if (rc) {
		fleet_free(&f);
		return rc;
	}
	struct app a;
	rc = app_init_replay(&a, o, NULL, NULL);
	if (rc) {
		fleet_free(&f);
		return rc;
	}
	struct batch_run r = {.a = &a, .o = o, .f = &f, .printed = calloc(f.n, sizeof(*r.printed))};
	int *fds = calloc(2 * f.n, sizeof(*fds));
	struct pollfd *pfd = calloc(2 * f.n, sizeof(*pfd));
	bool oom = !r.printed || !fds || !pfd;
	/* each host's counters its own, every series labelled with its name */
	if (!oom && (o->format == CLI_FORMAT_OPENMETRICS || o->textfile)) {
		r.m = calloc(f.n, sizeof(*r.m));
		for (size_t i = 0; r.m && i < f.n && !oom; i++)
			oom = !(r.m[i] = metrics_new_part(o, f.h[i].name));
		oom = oom || !r.m || (o->textfile && !(r.file = metrics_file_new(o->textfile)));
	}
	if (oom) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		rc = 1;
		goto out;
	}
	stop_catch();
	if (o->record) {
		char *err = NULL;
		if (!(f.rec = rec_hosts_writer_open(o->record, &err))) {
			fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
			free(err);
			rc = 1;
			goto out;
		}
	}
	f.threads = o->threads;
	/* a recorder without -b prints nothing, and without --textfile sums nothing */
	f.no_view = o->record && !o->batch && !r.m;
	/* a script's run ends: a host that never answers is given up as a silent one */
	f.connect_wait = f.silence;
	f.watch = (struct fleet_watch){.ctx = &r, .pair = on_pair, .offline = on_offline};
	fleet_start(&f, &a.cs, clock_now(CLOCK_MONOTONIC));
	while (!stop_signal && run_goes_on(&f)) {
		size_t np = fleet_fds(&f, fds);
		for (size_t i = 0; i < np; i++)
			pfd[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
		/* a quarter second at most: silence, tries and ends are checked as time passes */
		if (poll(pfd, np, 250) < 0 && errno != EINTR) {
			fprintf(stderr, "taskview: poll: %s\n", strerror(errno));
			rc = 1;
			break;
		}
		/* stopped: nothing more is read, and no host is told as lost */
		if (stop_signal)
			break;
		if (fleet_pump(&f, clock_now(CLOCK_MONOTONIC), true) < 0) {
			if (!r.write_failed)
				fprintf(stderr, "taskview: %s\n", _("out of memory"));
			rc = 1;
			break;
		}
		if (f.rec_err) {
			fprintf(stderr, "taskview: %s\n", f.rec_err);
			rc = 1;
			break;
		}
		if (file_write_due(&r, clock_now(CLOCK_MONOTONIC), false) < 0) {
			rc = 1;
			break;
		}
	}
	/* -n samples of each: the last ones too */
	if (rc == 0 && file_write_due(&r, clock_now(CLOCK_MONOTONIC), true) < 0)
		rc = 1;
	for (size_t i = 0; i < f.n && rc == 0 && !stop_signal; i++)
		if (r.printed[i] < o->iterations)
			rc = 1;
out:
	/* the metrics borrow the hosts' names from the fleet, the samples the columns from a */
	for (size_t i = 0; r.m && i < f.n; i++)
		metrics_free(r.m[i]);
	free(r.m);
	metrics_file_free(r.file);
	/* the streams go before the file they write to */
	struct rec_hosts_writer *rec = f.rec;
	fleet_free(&f);
	rec_hosts_writer_close(rec);
	free(r.printed);
	free(fds);
	free(pfd);
	app_free(&a);
	stop_raise();
	return rc;
}
