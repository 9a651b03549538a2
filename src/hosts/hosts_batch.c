/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/hosts.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "hosts/hostlist.h"
#include "hosts/link.h"
#include "hosts/remote.h"
#include "render/json.h"
#include "replay.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/text.h"

#define HOSTS_FILE_MAX (1u << 20)
/* A host that sends nothing for this long (or three intervals) is given up. */
#define HOST_SILENCE_MIN 15.0

struct host_run {
	struct link l;
	struct rec_sample prev;
	double last_sample;     /* CLOCK_MONOTONIC of the last sample taken (the start before one) */
	/* its clock minus this one's, at least: the most of (a sample's time there - its arrival
	 * here) so far, each short of the truth by the time the sample took to come */
	double clock;
	bool have_prev, done, failed;
	uint64_t prev_seq;
	int64_t printed;
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

static int no_columns(void *ctx, struct colset *cs)
{
	(void)ctx;
	(void)cs;
	return 0;
}

/* What the host's description says of it, and its clock against this one. */
static void host_described(const struct link *l, double clock, struct json_host *jh)
{
	*jh = (struct json_host){
		.name = l->host,
		.hostname = rec_stream_prop(l->st, "host"),
		.version = rec_stream_prop(l->st, "taskview"),
		.kernel = rec_stream_prop(l->st, "kernel"),
		.boot_id = rec_stream_prop(l->st, "boot_id"),
		.cpus = link_cpus(l),
		.clock = clock,
	};
}

/* Prints cur, its rates over prev, as one sample of host's. Returns 0, or -1
 * after an error (told). */
static int print_pair(const struct app *a, const struct cli_opts *o, const struct json_host *host,
		      struct rec_sample *prev, struct rec_sample *cur, bool first)
{
	struct buf out;
	buf_init(&out);
	/* the remote applied the selection: every task it sent is shown */
	struct pair_origin from = {.host = host};
	int rc = replay_render_pair(&out, a, o, &from, prev, cur, first);
	if (rc < 0 || out.oom) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		rc = -1;
	} else if (fwrite(out.data ? out.data : "", 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		fprintf(stderr, "taskview: ");
		fprintf(stderr, _("write error: %s\n"), strerror(errno));
		rc = -1;
	}
	buf_free(&out);
	return rc;
}

/* Takes the samples h's stream holds; prints each with the one before it. */
static int take_samples(struct host_run *h, const struct app *a, const struct cli_opts *o, double now,
			size_t *printed_all)
{
	for (;;) {
		struct rec_sample cur;
		uint64_t seq;
		char *why = NULL;
		int rc = link_next(&h->l, &cur, &seq, &h->clock, &why);
		if (rc < 0) {
			host_say(h->l.host, why ? why : _("out of memory"));
			free(why);
			h->failed = true;
			link_stop(&h->l);
			return 0;
		}
		if (rc == 0)
			return 0;
		h->last_sample = now;
		if (h->have_prev && seq == h->prev_seq + 1 && !h->done) {
			struct json_host jh;
			host_described(&h->l, h->clock, &jh);
			if (print_pair(a, o, &jh, &h->prev, &cur, *printed_all == 0) < 0) {
				rec_sample_free(&cur);
				return -1;
			}
			++*printed_all;
			if (++h->printed >= o->iterations) {
				h->done = true;
				link_stop(&h->l);
			}
		}
		if (h->have_prev)
			rec_sample_free(&h->prev);
		h->prev = cur;
		h->prev_seq = seq;
		h->have_prev = true;
	}
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

int hosts_run(const struct cli_opts *o)
{
	struct hostlist hl;
	hostlist_init(&hl);
	if (hosts_gather(&hl, o) < 0) {
		hostlist_free(&hl);
		return 2;
	}
	struct app a;
	int rc = app_init_replay(&a, o, no_columns, NULL);
	if (rc) {
		hostlist_free(&hl);
		return rc;
	}
	struct host_run *h = calloc(hl.n, sizeof(*h));
	struct pollfd *pfd = calloc(hl.n * 2, sizeof(*pfd));
	if (!h || !pfd) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		rc = 1;
		goto out;
	}
	const char *ssh = getenv("TASKVIEW_SSH"), *remote = getenv("TASKVIEW_REMOTE");
	double silence = fmax(HOST_SILENCE_MIN, 3 * o->delay);
	for (size_t i = 0; i < hl.n; i++) {
		h[i].l.to = h[i].l.from = h[i].l.err = -1;
		h[i].clock = -INFINITY;
	}
	for (size_t i = 0; i < hl.n; i++) {
		struct remote_argv av;
		h[i].last_sample = clock_now(CLOCK_MONOTONIC);
		if (remote_argv_build(&av, ssh, remote, hl.v[i], o) < 0 ||
		    link_start(&h[i].l, hl.v[i], av.v, h[i].last_sample) < 0) {
			host_say(hl.v[i], h[i].l.why ? h[i].l.why : _("out of memory"));
			h[i].failed = true;
		}
		remote_argv_free(&av);
	}
	size_t printed_all = 0;
	for (;;) {
		size_t np = 0, open = 0;
		for (size_t i = 0; i < hl.n; i++) {
			if (h[i].done || h[i].failed) {
				link_reap(&h[i].l); /* no zombie stays for the rest of the run */
				continue;
			}
			open++;
			if (h[i].l.from >= 0)
				pfd[np++] = (struct pollfd){.fd = h[i].l.from, .events = POLLIN};
			if (h[i].l.err >= 0)
				pfd[np++] = (struct pollfd){.fd = h[i].l.err, .events = POLLIN};
		}
		if (!open)
			break;
		/* a quarter second at most: silence and ends are checked as time passes */
		if (poll(pfd, np, 250) < 0 && errno != EINTR) {
			fprintf(stderr, "taskview: poll: %s\n", strerror(errno));
			rc = 1;
			break;
		}
		double now = clock_now(CLOCK_MONOTONIC);
		for (size_t i = 0; i < hl.n && rc == 0; i++) {
			struct host_run *x = &h[i];
			if (x->done || x->failed)
				continue;
			int alive = link_pump(&x->l, now);
			if (take_samples(x, &a, o, now, &printed_all) < 0)
				rc = 1;
			if (x->done || x->failed)
				continue;
			if (!alive) {
				host_say(x->l.host, x->l.why ? x->l.why : _("the connection closed"));
				x->failed = true;
			} else if (now - x->last_sample > silence) {
				/* samples, not bytes: a host that trickles bytes is silent too */
				char why[128];
				snprintf(why, sizeof(why), _("no sample for %.0f s: given up"), now - x->last_sample);
				host_say(x->l.host, why);
				x->failed = true;
				link_stop(&x->l);
			}
		}
		if (rc)
			break;
	}
	for (size_t i = 0; i < hl.n && rc == 0; i++)
		if (h[i].failed)
			rc = 1;
out:
	for (size_t i = 0; h && i < hl.n; i++) {
		if (h[i].have_prev)
			rec_sample_free(&h[i].prev);
		link_free(&h[i].l);
	}
	free(h);
	free(pfd);
	app_free(&a);
	hostlist_free(&hl);
	return rc;
}
