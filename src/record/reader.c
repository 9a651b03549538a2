/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/reader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/codec.h"
#include "record/copy.h"
#include "record/crc32c.h"
#include "record/errmsg.h"
#include "record/reader_priv.h"
#include "record/writer.h"
#include "plugin/plugin_host.h"
#include "util/i18n.h"

static int add_file(struct rec_reader *r, const char *path, char **err)
{
	/* O_NONBLOCK: a FIFO would block open() until a writer came */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		*err = rec_err_path(_("cannot read the recording %s: %s"), path, e);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		*err = rec_err_path(_("cannot read the recording %s: not a regular file"), path, 0);
		return -1;
	}
	(void)fcntl(fd, F_SETFL, 0);
	struct rec_rfile *v = realloc(r->files, (r->nfiles + 1) * sizeof(*v));
	char *p = strdup(path);
	if (!v || !p) {
		if (v)
			r->files = v;
		free(p);
		close(fd);
		*err = strdup(_("out of memory"));
		return -1;
	}
	r->files = v;
	v[r->nfiles++] = (struct rec_rfile){p, fd, (uint64_t)sb.st_size};
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The daily files of a directory, oldest first. */
static int add_dir(struct rec_reader *r, const char *dir, char **err)
{
	DIR *d = opendir(dir);
	if (!d) {
		*err = rec_err_path(_("cannot read the recording %s: %s"), dir, errno);
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d))) {
		long day;
		if (!rec_daily_name(de->d_name, &day))
			continue;
		char **v = realloc(names, (n + 1) * sizeof(*v));
		if (!v || !(v[n] = strdup(de->d_name))) {
			names = v ? v : names;
			rc = -1;
			*err = strdup(_("out of memory"));
			break;
		}
		names = v;
		n++;
	}
	closedir(d);
	if (rc == 0 && n == 0) {
		*err = rec_err_path(_("%s: no recordings in this directory"), dir, 0);
		rc = -1;
	}
	if (names)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		size_t l = strlen(dir) + strlen(names[i]) + 2;
		char *path = malloc(l);
		if (!path) {
			*err = strdup(_("out of memory"));
			rc = -1;
			break;
		}
		snprintf(path, l, "%s/%s", dir, names[i]);
		char *ferr = NULL;
		/* one unreadable day does not hide the others */
		if (add_file(r, path, &ferr) < 0 && r->warn)
			r->warn(r->ctx, ferr ? ferr : "");
		free(ferr);
		free(path);
	}
	if (rc == 0 && r->nfiles == 0) {
		/* the reasons were said, one a file */
		*err = rec_err_path(_("%s: none of the daily files in this directory can be read"), dir, 0);
		rc = -1;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* A reader of path, its files open, not scanned yet (NULL: *err says why). */
static struct rec_reader *reader_new(const char *path, const char *host, rec_warn_fn warn, void *ctx, char **err)
{
	*err = NULL;
	if (!zs_available()) {
		*err = strdup(_("replay needs taskview built with libzstd"));
		return NULL;
	}
	struct rec_reader *r = calloc(1, sizeof(*r));
	if (!r) {
		*err = strdup(_("out of memory"));
		return NULL;
	}
	r->cur = REC_NONE;
	if (host && !(r->host = strdup(host))) {
		free(r);
		*err = strdup(_("out of memory"));
		return NULL;
	}
	buf_init(&r->payload);
	buf_init(&r->raw);
	r->warn = warn;
	r->ctx = ctx;
	r->st = rec_strings_new();
	r->z = zs_in_new();
	if (!r->st || !r->z) {
		*err = strdup(_("out of memory"));
		goto fail;
	}
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		if (add_dir(r, path, err) < 0)
			goto fail;
	} else if (add_file(r, path, err) < 0) {
		goto fail;
	}
	return r;
fail:
	rec_reader_close(r);
	return NULL;
}

/* Warnings of the scan are held until the path proves to be a recording. */
struct held {
	char **v;
	size_t n;
	rec_warn_fn warn;
	void *ctx;
};

static void hold_warning(void *ctx, const char *msg)
{
	struct held *h = ctx;
	char **v = realloc(h->v, (h->n + 1) * sizeof(*v));
	if (!v)
		return;
	h->v = v;
	if ((v[h->n] = strdup(msg)))
		h->n++;
}

static void hold_begin(struct rec_reader *r, struct held *h)
{
	*h = (struct held){.warn = r->warn, .ctx = r->ctx};
	r->warn = hold_warning;
	r->ctx = h;
}

/* r scanned (rc: rec_scan's): r, or NULL with *err saying why; the warnings
 * held are told where it is a recording, or its description is damaged. */
static struct rec_reader *reader_scanned(struct rec_reader *r, int rc, struct held *h, const char *path, char **err)
{
	r->warn = h->warn;
	r->ctx = h->ctx;
	/* a recording whose description is damaged is not "not a recording":
	 * say so, with the warnings that tell where */
	bool damaged = r->nruns == 0 && r->schemas_damaged > 0;
	if (rc == 0 && damaged)
		*err = rec_err_path(_("%s: no sample can be read: the description of the recorded fields is damaged"), path, 0);
	else if (rc == 0 && r->nruns == 0 && r->newer_why) {
		char tmp[1024];
		snprintf(tmp, sizeof(tmp), _("%s: cannot be replayed: %s"), path, r->newer_why);
		*err = strdup(tmp);
	} else if (rc == 0 && r->nruns == 0 && r->host)
		*err = rec_err_path(_("%s: no sample of this host can be read"), path, 0);
	else if (rc == 0 && r->nruns == 0 && r->nhosts == 0)
		*err = rec_err_path(_("%s: not a taskview recording"), path, 0);
	else if (rc < 0)
		*err = strdup(_("out of memory"));
	for (size_t i = 0; i < h->n; i++) {
		if ((!*err || damaged) && r->warn)
			r->warn(r->ctx, h->v[i]);
		free(h->v[i]);
	}
	free(h->v);
	if (*err) {
		rec_reader_close(r);
		return NULL;
	}
	return r;
}

struct rec_reader *rec_reader_open(const char *path, rec_warn_fn warn, void *ctx, char **err)
{
	struct rec_reader *r = reader_new(path, NULL, warn, ctx, err);
	if (!r)
		return NULL;
	struct held h;
	hold_begin(r, &h);
	return reader_scanned(r, rec_scan(&r, 1), &h, path, err);
}

struct rec_reader *rec_reader_open_host(const char *path, const char *host, rec_warn_fn warn, void *ctx, char **err)
{
	struct rec_host_open one = {.host = host, .warn = warn, .ctx = ctx};
	if (rec_reader_open_hosts(path, &one, 1) < 0) {
		*err = strdup(_("out of memory"));
		return NULL;
	}
	*err = one.err;
	return one.r;
}

int rec_reader_open_hosts(const char *path, struct rec_host_open *v, size_t n)
{
	struct rec_reader **rs = calloc(n ? n : 1, sizeof(*rs));
	struct held *held = calloc(n ? n : 1, sizeof(*held));
	if (!rs || !held) {
		free(rs);
		free(held);
		return -1;
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		v[i].r = reader_new(path, v[i].host, v[i].warn, v[i].ctx, &v[i].err);
		if (v[i].r) {
			hold_begin(v[i].r, &held[i]);
			rs[m++] = v[i].r;
		}
	}
	int rc = rec_scan(rs, m);
	for (size_t i = 0; i < n; i++)
		if (v[i].r)
			v[i].r = reader_scanned(v[i].r, rc, &held[i], path, &v[i].err);
	free(rs);
	free(held);
	return 0;
}

void rec_reader_close(struct rec_reader *r)
{
	if (!r)
		return;
	if (r->cur != REC_NONE)
		rec_sample_free(&r->have);
	for (size_t i = 0; i < r->nfiles; i++) {
		close(r->files[i].fd);
		free(r->files[i].path);
	}
	free(r->files);
	for (size_t i = 0; i < r->nruns; i++) {
		rec_layout_free(&r->runs[i].layout);
		rec_schema_free(&r->runs[i].schema);
		buf_free(&r->runs[i].bytes);
	}
	free(r->runs);
	free(r->v);
	free(r->slot_ids);
	free(r->slot_cols);
	free(r->newer_why);
	for (size_t i = 0; i < r->nhosts; i++)
		free(r->hosts[i]);
	free(r->hosts);
	free(r->host);
	rec_strings_free(r->st);
	zs_in_free(r->z);
	buf_free(&r->payload);
	buf_free(&r->raw);
	free(r);
}

void rec_reader_info(const struct rec_reader *r, struct rec_info *info)
{
	memset(info, 0, sizeof(*info));
	info->nsamples = r->n;
	info->nruns = r->nruns;
	if (r->nruns) {
		const struct rec_schema *s = &r->runs[0].schema;
		info->host = rec_schema_prop(s, "host");
		info->kernel = rec_schema_prop(s, "kernel");
		info->version = rec_schema_prop(s, "taskview");
		info->filter = rec_schema_prop(s, "filter");
		const char *iv = rec_schema_prop(s, "interval"), *th = rec_schema_prop(s, "threads");
		info->interval = iv ? strtod(iv, NULL) : NAN;
		if (!(info->interval > 0) || !isfinite(info->interval))
			info->interval = NAN;
		info->threads = th && strcmp(th, "1") == 0;
	}
	if (r->n) {
		info->first = rec_reader_wall(r, 0);
		info->last = rec_reader_wall(r, r->n - 1);
	}
}

size_t rec_reader_count(const struct rec_reader *r)
{
	return r->n;
}

double rec_reader_wall(const struct rec_reader *r, size_t i)
{
	return i < r->n ? (double)r->v[i].wall_ns / 1e9 : NAN;
}

size_t rec_reader_find(const struct rec_reader *r, double wall)
{
	int64_t ns = (int64_t)ceil(wall * 1e9);
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->v[mid].wall_ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool rec_reader_pairable(const struct rec_reader *r, size_t i, unsigned k)
{
	if (k == 0 || i >= r->n || i < k)
		return false;
	const struct rec_entry *a = &r->v[i - k], *b = &r->v[i];
	return !a->lost && !b->lost && a->segment == b->segment;
}

bool rec_reader_lost(const struct rec_reader *r, size_t i)
{
	return i < r->n && r->v[i].lost;
}

/* Marks the samples from i to the end of its block lost, and says so. */
static void lose(struct rec_reader *r, size_t i)
{
	size_t block = r->v[i].block, end = i;
	while (end < r->n && r->v[end].block == block && !r->v[end].lost) {
		r->v[end].lost = true;
		end++;
	}
	char t0[64], t1[64];
	rec_fmt_time(t0, sizeof(t0), rec_reader_wall(r, i));
	rec_fmt_time(t1, sizeof(t1), rec_reader_wall(r, end - 1));
	size_t n = end - i;
	rec_warnf(r, P_("%s: a damaged sample at offset %llu: %zu sample lost, from %s to %s",
			"%s: a damaged sample at offset %llu: %zu samples lost, from %s to %s", n),
		  r->files[r->v[i].file].path, (unsigned long long)r->v[i].off, n, t0, t1);
}

/* Makes sample i the one decoded (r->have). */
static int decode_to(struct rec_reader *r, size_t i)
{
	if (i >= r->n || r->v[i].lost)
		return -1;
	if (r->cur == i)
		return 0;
	size_t block = r->v[i].block, j;
	if (r->cur != REC_NONE && r->cur < i && r->v[r->cur].block == block) {
		j = r->cur + 1;
	} else {
		if (r->cur != REC_NONE)
			rec_sample_free(&r->have);
		r->cur = REC_NONE;
		j = block;
		zs_in_restart(r->z);
	}
	for (; j <= i; j++) {
		const struct rec_entry *e = &r->v[j];
		if (e->lost) {
			if (r->cur != REC_NONE)
				rec_sample_free(&r->have);
			r->cur = REC_NONE;
			return -1;
		}
		const struct rec_rfile *f = &r->files[e->file];
		const struct rec_layout *l = &r->runs[e->run].layout;
		struct rec_sample next;
		buf_reset(&r->payload);
		buf_pad(&r->payload, 0, e->len);
		bool ok = !r->payload.oom && rec_pread(f, r->payload.data, e->len, e->off + e->hlen) == 0 &&
			  crc32c(0, r->payload.data, e->len) == e->crc &&
			  zs_in_chunk(r->z, r->payload.data, e->len, &r->raw, REC_SAMPLE_MAX) == 0 &&
			  rec_decode_sample((const uint8_t *)r->raw.data, r->raw.len, l,
					    r->cur == REC_NONE ? NULL : &r->have, r->st, &next) == 0;
		if (r->cur != REC_NONE)
			rec_sample_free(&r->have);
		r->cur = REC_NONE;
		if (!ok) {
			lose(r, j);
			return -1;
		}
		r->have = next;
		r->cur = j;
	}
	return 0;
}

/* Runs recorded before the field: the kernel's threads are kthreadd (PID 2)
 * and its children. */
static void guess_kthreads(const struct rec_reader *r, size_t i, struct rec_sample *s)
{
	if (r->runs[r->v[i].run].kthreads)
		return;
	for (size_t j = 0; j < s->s.nprocs; j++)
		s->s.procs[j].kthread = s->s.procs[j].tgid == 2 || s->s.procs[j].ppid == 2;
}

int rec_reader_get(struct rec_reader *r, size_t i, struct rec_sample *out)
{
	memset(out, 0, sizeof(*out));
	if (decode_to(r, i) < 0 || rec_sample_copy(out, &r->have) < 0)
		return -1;
	guess_kthreads(r, i, out);
	return 0;
}

int rec_reader_pair(struct rec_reader *r, size_t i, unsigned k, struct rec_sample *prev, struct rec_sample *cur)
{
	memset(prev, 0, sizeof(*prev));
	memset(cur, 0, sizeof(*cur));
	if (!rec_reader_pairable(r, i, k) || decode_to(r, i - k) < 0 || rec_sample_copy(prev, &r->have) < 0)
		goto fail;
	struct rec_sample acc;
	memset(&acc, 0, sizeof(acc));
	acc.s.npvals = r->nslots;
	acc.s.exits_watched = true;
	int rc = 0;
	for (size_t j = i - k + 1; j < i && rc == 0; j++)
		rc = decode_to(r, j) < 0 || rec_ended_collect(&acc, &r->have) < 0 ? -1 : 0;
	if (rc == 0)
		rc = decode_to(r, i) < 0 || rec_sample_copy(cur, &r->have) < 0 || rec_merge_ended(cur, &acc) < 0 ? -1 : 0;
	rec_sample_free(&acc);
	if (rc == 0) {
		guess_kthreads(r, i - k, prev);
		guess_kthreads(r, i, cur);
		return 0;
	}
fail:
	rec_sample_free(prev);
	rec_sample_free(cur);
	return -1;
}

int rec_reader_columns(struct rec_reader *r, struct colset *cs)
{
	for (size_t i = 0; i < r->nslots; i++) {
		const struct rec_col *c = r->slot_cols[i];
		if (colset_index(cs, c->id) >= 0)
			continue; /* never shadow a column of this build */
		struct column col = {
			.id = c->id,
			.header = c->header,
			.desc = c->desc,
			.type = c->type,
			.width = c->width > 0 ? c->width : 1,
			.align = c->align,
			.sort_descending = c->sort_descending,
			.needs = NEED_PLUGIN,
			.cost = N_("recorded"),
			.get = plugin_column_get,
			.arg = (int)i,
			.applies = c->applies,
			.counter = c->counter,
		};
		if (colset_add(cs, &col) < 0)
			return -1;
	}
	return 0;
}

size_t rec_reader_hosts(const struct rec_reader *r, const char *const **names)
{
	*names = (const char *const *)r->hosts;
	return r->nhosts;
}

double rec_reader_taken(const struct rec_reader *r, size_t i)
{
	return r->v[i].taken_ns ? (double)r->v[i].taken_ns / 1e9 : NAN;
}

double rec_reader_clock(const struct rec_reader *r, size_t i)
{
	return r->v[i].taken_ns ? (double)(r->v[i].wall_ns - r->v[i].taken_ns) / 1e9 : NAN;
}

const struct rec_schema *rec_reader_schema(const struct rec_reader *r, size_t i)
{
	return &r->runs[r->v[i].run].schema;
}

uint64_t rec_reader_place(const struct rec_reader *r, size_t i)
{
	return (uint64_t)r->v[i].file << 48 | r->v[i].off;
}
