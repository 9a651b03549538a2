/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/host_rec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/i18n.h"
#include "util/text.h"

/* What its reader says, with its name before it. */
static void host_rec_warn(void *ctx, const char *msg)
{
	const struct host_rec *h = ctx;
	struct buf b;
	buf_init(&b);
	buf_adds(&b, h->prefix);
	buf_adds(&b, msg);
	h->warn(h->warn_ctx, b.oom ? msg : buf_str(&b));
	buf_free(&b);
}

/* Each sample's time taken and the clock up to it. */
static int host_rec_index(struct host_rec *h)
{
	h->n = rec_reader_count(h->r);
	h->taken = malloc((h->n ? h->n : 1) * sizeof(*h->taken));
	h->clock = malloc((h->n ? h->n : 1) * sizeof(*h->clock));
	if (!h->taken || !h->clock)
		return -1;
	double at = -INFINITY, clock = -INFINITY;
	for (size_t i = 0; i < h->n; i++) {
		double t = rec_reader_taken(h->r, i), c = rec_reader_clock(h->r, i);
		at = isfinite(t) ? fmax(at, t) : at;
		clock = isfinite(c) ? fmax(clock, c) : clock;
		h->taken[i] = at;
		h->clock[i] = clock;
	}
	return 0;
}

int host_rec_open(struct host_rec *const *v, const char *const *hosts, size_t n, const char *path, rec_warn_fn warn,
		  void *ctx)
{
	struct rec_host_open *o = calloc(n ? n : 1, sizeof(*o));
	if (!o) {
		warn(ctx, _("out of memory"));
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct host_rec *h = v[i];
		memset(h, 0, sizeof(*h));
		h->warn = warn;
		h->warn_ctx = ctx;
		struct buf b;
		buf_init(&b);
		text_sanitize(&b, hosts[i], strlen(hosts[i]), 80, false);
		buf_adds(&b, ": ");
		h->prefix = b.oom ? NULL : strdup(buf_str(&b));
		buf_free(&b);
		rc = h->prefix ? rc : -1;
		o[i] = (struct rec_host_open){.host = hosts[i], .warn = host_rec_warn, .ctx = h};
	}
	if (rc == 0)
		rc = rec_reader_open_hosts(path, o, n);
	for (size_t i = 0; i < n; i++) {
		struct host_rec *h = v[i];
		h->r = o[i].r;
		if (rc == 0 && !h->r && o[i].err)
			/* one host that cannot be read does not hide the others */
			host_rec_warn(h, o[i].err);
		else if (rc == 0 && (!h->r || host_rec_index(h) < 0))
			rc = -1;
		free(o[i].err);
	}
	free(o);
	if (rc < 0)
		warn(ctx, _("out of memory"));
	return rc;
}

void host_rec_close(struct host_rec *h)
{
	rec_reader_close(h->r);
	free(h->prefix);
	free(h->taken);
	free(h->clock);
	memset(h, 0, sizeof(*h));
}
