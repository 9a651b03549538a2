/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The index of a recording, from frame headers alone. A header that does not
 * check out is damage: the scan looks for the next good header and reports
 * the stretch once, with the samples it held (from the sample numbers on both
 * sides) and when they were. A frame whose end is not followed by a header
 * has its payload checked at once: a frame cut short by a crash, with a
 * restarted recorder's frames after it, must not swallow them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/codec.h"
#include "record/crc32c.h"
#include "record/format.h"
#include "record/hosts/hostframe.h"
#include "record/reader_priv.h"
#include "util/i18n.h"

#define SCAN_WINDOW 65536

int rec_pread(const struct rec_rfile *f, void *p, size_t n, uint64_t off)
{
	char *q = p;
	while (n) {
		ssize_t k = pread(f->fd, q, n, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		q += k;
		n -= (size_t)k;
		off += (uint64_t)k;
	}
	return 0;
}

void rec_warnf(const struct rec_reader *r, const char *fmt, ...)
{
	if (!r->warn)
		return;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->warn(r->ctx, msg);
}

void rec_fmt_time(char *out, size_t len, double wall)
{
	time_t t = (time_t)wall;
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(out, len, "?");
}

/* What the scan knows between frames. */
struct scan {
	size_t run;              /* the run samples belong to now; REC_NONE: unknown */
	bool broken;             /* damage since the last sample: the next one cannot continue a block */
	uint64_t orphans;        /* samples skipped for want of a readable run */
	/* a damaged stretch, reported when the next sample that can be read
	 * (or the end) is seen */
	bool damaged, torn;
	bool hosts_full;         /* REC_HOSTS_MAX was reached (said once) */
	uint32_t dfile;
	uint64_t doff, dbytes;
	size_t dprev;            /* the last sample before it; REC_NONE: none */
};

static int header_at(const struct rec_rfile *f, uint64_t off, struct rec_frame *fr)
{
	uint8_t h[REC_HDR_MAX];
	size_t n = f->size - off < sizeof(h) ? (size_t)(f->size - off) : sizeof(h);
	if (off >= f->size || n < REC_HDR_LEN || rec_pread(f, h, n, off) < 0)
		return -1;
	return rec_frame_unpack(h, n, fr);
}

/* The offset of the next good header at or after off; the file's size when none. */
static uint64_t resync(const struct rec_rfile *f, uint64_t off)
{
	static const size_t mlen = sizeof(REC_MAGIC) - 1;
	uint8_t *w = malloc(SCAN_WINDOW);
	if (!w)
		return f->size;
	while (off < f->size) {
		size_t n = f->size - off < SCAN_WINDOW ? (size_t)(f->size - off) : SCAN_WINDOW;
		if (rec_pread(f, w, n, off) < 0)
			break;
		for (size_t i = 0; i + mlen <= n; i++) {
			struct rec_frame fr;
			if (memcmp(w + i, REC_MAGIC, mlen) == 0 && header_at(f, off + i, &fr) == 0) {
				free(w);
				return off + i;
			}
		}
		if (n < SCAN_WINDOW)
			break;
		off += n - mlen + 1;
	}
	free(w);
	return f->size;
}

static bool payload_ok(struct rec_reader *r, const struct rec_rfile *f, uint64_t off, const struct rec_frame *fr)
{
	buf_reset(&r->payload);
	buf_pad(&r->payload, 0, fr->len);
	if (r->payload.oom || rec_pread(f, r->payload.data, fr->len, off + fr->hlen) < 0)
		return false;
	return crc32c(0, r->payload.data, fr->len) == fr->crc;
}

static const struct rec_entry *last_entry(const struct rec_reader *r)
{
	return r->n ? &r->v[r->n - 1] : NULL;
}

/* Reports the damaged stretch; next: the first sample after it, or NULL. */
static void damage_report(struct rec_reader *r, struct scan *sc, const struct rec_entry *next)
{
	if (!sc->damaged)
		return;
	sc->damaged = false;
	const struct rec_entry *prev = sc->dprev != REC_NONE ? &r->v[sc->dprev] : NULL;
	const struct rec_rfile *f = &r->files[sc->dfile];
	const char *file = f->path;
	char t0[64], t1[64];
	/* samples indexed since the damage began are lost too: their block's
	 * stream is broken */
	size_t from = prev ? sc->dprev + 1 : 0, to = next ? (size_t)(next - r->v) : r->n;
	uint64_t intact = to - from;
	if (r->host) {
		/* one host of several: it tells only what it knows it lost, a gap in its
		 * samples' numbers or samples written against the damage; the file's reader
		 * tells every stretch (one before its first sample or after its last, or
		 * between two of its connections, may have been another host's) */
		bool gap = prev && next && prev->run == next->run && next->seq > prev->seq + 1;
		if (!gap && intact == 0)
			return;
	} else if (sc->doff == 0 && sc->dbytes == f->size) {
		/* nothing in it was a frame: it is something else */
		rec_warnf(r, _("%s: not a taskview recording: skipped"), file);
		return;
	} else if (r->nhosts && !prev && !next) {
		/* the hosts' readers say which of their samples it took */
		if (sc->torn)
			rec_warnf(r, _("%s: the last frame is cut short (the recorder stopped while writing it, or is "
				       "writing it now)"), file);
		else
			rec_warnf(r, _("%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped"), file, sc->dbytes,
				  sc->doff);
		return;
	}
	if (sc->torn && !next) {
		rec_warnf(r, _("%s: the last sample is cut short (the recorder stopped while writing it, or is "
			       "writing it now)"), file);
		return;
	}
	rec_fmt_time(t0, sizeof(t0), prev ? (double)prev->wall_ns / 1e9 : 0);
	rec_fmt_time(t1, sizeof(t1), next ? (double)next->wall_ns / 1e9 : 0);
	if (prev && next && prev->run == next->run && next->seq > prev->seq) {
		uint64_t lost = next->seq - prev->seq - 1;
		if (intact == 0 || intact > lost)
			rec_warnf(r, P_("%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: %" PRIu64
					" sample lost, between %s and %s",
					"%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: %" PRIu64
					" samples lost, between %s and %s", lost),
				  file, sc->dbytes, sc->doff, lost, t0, t1);
		else
			/* TRANSLATORS: the last number is how many of the samples lost are
			 * undamaged themselves */
			rec_warnf(r, P_("%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: %" PRIu64
					" sample lost, between %s and %s (%" PRIu64 " of them intact, but written "
					"against a damaged one)",
					"%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: %" PRIu64
					" samples lost, between %s and %s (%" PRIu64 " of them intact, but written "
					"against a damaged one)", lost),
				  file, sc->dbytes, sc->doff, lost, t0, t1, intact);
	} else if (prev && next) {
		rec_warnf(r, _("%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: what was recorded "
			       "between %s and %s is lost"), file, sc->dbytes, sc->doff, t0, t1);
	} else if (next) {
		rec_warnf(r, _("%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: what was recorded "
			       "before %s is lost"), file, sc->dbytes, sc->doff, t1);
	} else if (prev) {
		rec_warnf(r, _("%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: what the file holds "
			       "after %s is lost"), file, sc->dbytes, sc->doff, t0);
	} else {
		rec_warnf(r, _("%s: %" PRIu64 " damaged bytes at offset %" PRIu64 " skipped: no sample of the file "
			       "can be read"), file, sc->dbytes, sc->doff);
	}
}

/* A stretch is torn when it is the end of the file and the start of a frame
 * that did not get all written: its header's bytes, or a whole header. */
static bool torn_at(const struct rec_rfile *f, uint64_t off, uint64_t next, bool header_ok)
{
	if (next != f->size)
		return false;
	if (header_ok)
		return true;
	uint8_t h[REC_HDR_LEN];
	size_t n = (size_t)(f->size - off);
	size_t m = n < 4 ? n : 4;
	return n < REC_HDR_LEN && rec_pread(f, h, n, off) == 0 && memcmp(h, REC_MAGIC, m) == 0;
}

static void damage_add(struct rec_reader *r, struct scan *sc, uint32_t file, uint64_t off, uint64_t bytes, bool torn)
{
	/* damage in the same file with no sample readable since is one stretch:
	 * the samples between are lost with it; the file's reader of a recording
	 * of hosts (which reads no sample) tells each stretch of bytes */
	bool apart = !r->host && r->nhosts && off != sc->doff + sc->dbytes;
	if (sc->damaged && (sc->dfile != file || apart))
		damage_report(r, sc, NULL);
	if (!sc->damaged) {
		sc->damaged = true;
		sc->dfile = file;
		sc->doff = off;
		sc->dbytes = 0;
		sc->dprev = r->n ? r->n - 1 : REC_NONE;
	}
	sc->dbytes += bytes;
	sc->torn = torn;
	sc->broken = true;
}

/* Finds the run a schema describes, adding it when new. REC_NONE when unreadable. */
static size_t run_of(struct rec_reader *r, const struct rec_rfile *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < r->nruns; i++)
		if (r->runs[i].bytes.len == n && memcmp(r->runs[i].bytes.data, p, n) == 0)
			return i;
	struct rec_run *v = realloc(r->runs, (r->nruns + 1) * sizeof(*v));
	if (!v)
		return REC_NONE;
	r->runs = v;
	struct rec_run *run = &v[r->nruns];
	memset(run, 0, sizeof(*run));
	char *err = NULL;
	int rc = rec_schema_decode(p, n, &run->schema, &err);
	if (rc < 0) {
		rec_warnf(r, _("%s: a part of the recording is skipped: %s"), f->path, err ? err : "");
		if (rc == -2 && !r->newer_why) {
			r->newer_why = err; /* why nothing can be read, when nothing else can */
			err = NULL;
		}
		free(err);
		return REC_NONE;
	}
	buf_init(&run->bytes);
	buf_add(&run->bytes, p, n);
	if (run->bytes.oom) {
		rec_schema_free(&run->schema);
		buf_free(&run->bytes);
		return REC_NONE;
	}
	return r->nruns++;
}

static void on_schema(struct rec_reader *r, struct scan *sc, const struct rec_rfile *f, uint64_t off,
		      const struct rec_frame *fr)
{
	const struct rec_entry *last = last_entry(r);
	size_t run = REC_NONE;
	if (payload_ok(r, f, off, fr))
		run = run_of(r, f, (const uint8_t *)r->payload.data, fr->len);
	else if (last && sc->run == last->run && fr->seq == last->seq + 1)
		run = sc->run; /* damaged, but the samples go on from the last ones: the same run */
	else {
		r->schemas_damaged++;
		rec_warnf(r, _("%s: the description of a part of the recording is damaged (at offset %" PRIu64 ")"),
			  f->path, off);
	}
	if (run != sc->run)
		sc->broken = true;
	sc->run = run;
}

static int on_sample(struct rec_reader *r, struct scan *sc, uint32_t fi, uint64_t off, const struct rec_frame *fr)
{
	if (sc->run == REC_NONE) {
		sc->orphans++;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		struct rec_entry *v = realloc(r->v, cap * sizeof(*v));
		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	const struct rec_entry *last = last_entry(r);
	/* one host of several: damage between two of its samples that follow each other took none of its own */
	bool broken = sc->broken && !r->host;
	bool follows = last && !broken && last->run == sc->run && fr->seq == last->seq + 1;
	/* a gap that damage since explains is told with the damage */
	bool told = broken || (r->host && sc->damaged);
	if (last && !told && last->run == sc->run && fr->seq != last->seq + 1 && fr->seq > last->seq) {
		char t[64];
		rec_fmt_time(t, sizeof(t), (double)fr->wall_ns / 1e9);
		uint64_t missing = fr->seq - last->seq - 1;
		rec_warnf(r, P_("%s: %" PRIu64 " sample missing before %s", "%s: %" PRIu64 " samples missing before %s",
				missing), r->files[fi].path, missing, t);
	}
	struct rec_entry *e = &r->v[r->n];
	*e = (struct rec_entry){
		.wall_ns = fr->wall_ns,
		.off = off,
		.seq = fr->seq,
		.len = fr->len,
		.crc = fr->crc,
		.file = fi,
		.run = (uint32_t)sc->run,
		.hlen = fr->hlen,
	};
	if (fr->flags & REC_FLAG_BLOCK_START)
		e->block = r->n;
	else
		e->block = follows && !last->lost ? last->block : REC_NONE;
	e->lost = e->block == REC_NONE;
	e->segment = follows && !last->lost && !e->lost ? last->segment : (last ? last->segment + 1 : 0);
	r->n++;
	/* samples after damage that cannot be read without it are part of it */
	if (!e->lost)
		damage_report(r, sc, e);
	sc->broken = false;
	return 0;
}

/* A host a host frame names: noted when new (REC_HOSTS_MAX at most). Returns 0, or -1 out of memory. */
static int note_host(struct rec_reader *r, struct scan *sc, const struct rec_hostframe *hf)
{
	for (size_t i = r->nhosts; i-- > 0;)
		if (strlen(r->hosts[i]) == hf->name_len && memcmp(r->hosts[i], hf->name, hf->name_len) == 0)
			return 0;
	if (r->nhosts == REC_HOSTS_MAX) {
		if (!sc->hosts_full && !r->host)
			rec_warnf(r, _("%s: more than %d hosts: the others are skipped"), r->files[0].path, REC_HOSTS_MAX);
		sc->hosts_full = true;
		return 0;
	}
	char **v = realloc(r->hosts, (r->nhosts + 1) * sizeof(*v));
	if (!v)
		return -1;
	r->hosts = v;
	if (!(v[r->nhosts] = strndup(hf->name, hf->name_len)))
		return -1;
	r->nhosts++;
	return 0;
}

/* The readers indexed by one pass over their files (the same files): the
 * file's own, and each host's of a recording of hosts. */
struct scan_set {
	struct rec_reader **r;
	struct scan *sc;
	size_t n;
};

static void damage_add_all(struct scan_set *set, uint32_t fi, uint64_t off, uint64_t bytes, bool torn)
{
	for (size_t i = 0; i < set->n; i++)
		damage_add(set->r[i], &set->sc[i], fi, off, bytes, torn);
}

/* A host's frame: noted by the file's reader; indexed in place by the reader of its host. */
static int on_host(struct scan_set *set, uint32_t fi, uint64_t off, const struct rec_frame *fr)
{
	const struct rec_rfile *f = &set->r[0]->files[fi];
	uint8_t p[REC_HOST_PREFIX_MAX];
	size_t n = fr->len < sizeof(p) ? fr->len : sizeof(p);
	struct rec_hostframe hf;
	if (rec_pread(f, p, n, off + fr->hlen) < 0 || rec_hostframe_unpack(p, n, fr->len, &hf) < 0 ||
	    memchr(hf.name, '\0', hf.name_len)) {
		/* its header checks out, its inside does not: whose it was is not known */
		damage_add_all(set, fi, off, fr->hlen + fr->len, false);
		return 0;
	}
	uint64_t in = off + fr->hlen + hf.inner;
	for (size_t i = 0; i < set->n; i++) {
		struct rec_reader *r = set->r[i];
		struct scan *sc = &set->sc[i];
		if (!r->host) {
			if (note_host(r, sc, &hf) < 0)
				return -1;
			continue;
		}
		if (strlen(r->host) != hf.name_len || memcmp(r->host, hf.name, hf.name_len) != 0)
			continue;
		if (hf.f.type == REC_FRAME_SCHEMA)
			on_schema(r, sc, &r->files[fi], in, &hf.f);
		else if (hf.f.type == REC_FRAME_SAMPLE) {
			size_t n0 = r->n;
			if (on_sample(r, sc, fi, in, &hf.f) < 0)
				return -1;
			if (r->n > n0)
				r->v[n0].taken_ns = fr->wall_ns;
		}
	}
	return 0;
}

/* A frame of the file's own samples: the file's reader's (a host's reader reads only its host's). */
static int on_own(struct scan_set *set, uint32_t fi, uint64_t off, const struct rec_frame *fr)
{
	for (size_t i = 0; i < set->n; i++) {
		struct rec_reader *r = set->r[i];
		if (r->host)
			continue;
		if (fr->type == REC_FRAME_SCHEMA)
			on_schema(r, &set->sc[i], &r->files[fi], off, fr);
		else if (on_sample(r, &set->sc[i], fi, off, fr) < 0)
			return -1;
	}
	return 0;
}

static int scan_file(struct scan_set *set, uint32_t fi)
{
	struct rec_reader *r = set->r[0]; /* reads the frames' headers for all */
	const struct rec_rfile *f = &r->files[fi];
	uint64_t off = 0;
	struct rec_frame fr, after;
	bool have = false; /* fr holds the header at off, read as the previous frame's follower */
	while (off < f->size) {
		if (!have && header_at(f, off, &fr) < 0) {
			uint64_t next = resync(f, off + 1);
			damage_add_all(set, fi, off, next - off, torn_at(f, off, next, false));
			off = next;
			continue;
		}
		uint64_t end = off + fr.hlen + fr.len;
		have = end < f->size && header_at(f, end, &after) == 0;
		if (end > f->size || (end < f->size && !have && !payload_ok(r, f, off, &fr))) {
			/* cut short: what follows may be a restarted recorder's frames */
			uint64_t next = resync(f, off + 1);
			damage_add_all(set, fi, off, next - off, torn_at(f, off, next, end > f->size));
			off = next;
			have = false;
			continue;
		}
		int rc = 0;
		if (fr.type == REC_FRAME_HOST)
			rc = on_host(set, fi, off, &fr);
		else if (fr.type == REC_FRAME_SCHEMA || fr.type == REC_FRAME_SAMPLE)
			rc = on_own(set, fi, off, &fr);
		/* other types: later versions' additions, skipped */
		if (rc < 0)
			return -1;
		off = end;
		fr = after;
	}
	return 0;
}

/* Plugin columns of every run get one slot each, by id. */
static int bind_runs(struct rec_reader *r)
{
	for (size_t i = 0; i < r->nruns; i++) {
		const struct rec_schema *s = &r->runs[i].schema;
		for (size_t j = 0; j < s->ncols; j++) {
			size_t k = 0;
			while (k < r->nslots && strcmp(r->slot_ids[k], s->cols[j].id) != 0)
				k++;
			if (k < r->nslots)
				continue;
			const char **ids = realloc(r->slot_ids, (r->nslots + 1) * sizeof(*ids));
			if (!ids)
				return -1;
			r->slot_ids = ids;
			const struct rec_col **cols = realloc(r->slot_cols, (r->nslots + 1) * sizeof(*cols));
			if (!cols)
				return -1;
			r->slot_cols = cols;
			ids[r->nslots] = s->cols[j].id;
			cols[r->nslots++] = &s->cols[j];
		}
	}
	for (size_t i = 0; i < r->nruns; i++) {
		const struct rec_schema *s = &r->runs[i].schema;
		for (size_t j = 0; j < s->ntf; j++)
			r->runs[i].kthreads |= strcmp(s->tf[j].name, "kthread") == 0;
		char *err = NULL;
		r->runs[i].usable = rec_layout_bind(&r->runs[i].layout, &r->runs[i].schema, r->slot_ids, r->nslots, &err) == 0;
		if (!r->runs[i].usable) {
			rec_warnf(r, "%s", err ? err : _("out of memory"));
			free(err);
		}
	}
	for (size_t i = 0; i < r->n; i++)
		r->v[i].lost |= !r->runs[r->v[i].run].usable;
	return 0;
}

/* Whether the readers were opened on the same files, in the same order.
 * Each then holds as much of each file as the first one saw (a file being
 * recorded grows between the opens). */
static bool same_files(struct rec_reader *const *rs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (rs[i]->nfiles != rs[0]->nfiles)
			return false;
		for (uint32_t k = 0; k < rs[0]->nfiles; k++) {
			struct stat a, b;
			if (fstat(rs[i]->files[k].fd, &a) < 0 || fstat(rs[0]->files[k].fd, &b) < 0 ||
			    a.st_dev != b.st_dev || a.st_ino != b.st_ino)
				return false;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (uint32_t k = 0; k < rs[0]->nfiles; k++)
			rs[i]->files[k].size = rs[0]->files[k].size;
	return true;
}

int rec_scan(struct rec_reader **rs, size_t n)
{
	if (n == 0)
		return 0;
	/* a daily file that came or went between the opens: each reads its own */
	if (!same_files(rs, n)) {
		for (size_t i = 0; i < n; i++)
			if (rec_scan(&rs[i], 1) < 0)
				return -1;
		return 0;
	}
	struct scan one, *sc = n == 1 ? &one : calloc(n, sizeof(*sc));
	if (!sc)
		return -1;
	for (size_t i = 0; i < n; i++)
		sc[i] = (struct scan){.run = REC_NONE};
	struct scan_set set = {.r = rs, .sc = sc, .n = n};
	int rc = 0;
	for (uint32_t fi = 0; fi < rs[0]->nfiles && rc == 0; fi++) {
		/* a daily file goes on with the run of the one before; its own
		 * schema frame says so, or starts another */
		rc = scan_file(&set, fi);
		for (size_t i = 0; i < n && rc == 0; i++)
			damage_report(rs[i], &sc[i], NULL);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		/* in a recording of hosts, a sample of no host is the inside of a host
		 * frame whose header is damaged, and that damage is told */
		if (sc[i].orphans && !rs[i]->nhosts && !rs[i]->host)
			rec_warnf(rs[i], P_("%" PRIu64 " sample without a readable description skipped",
					    "%" PRIu64 " samples without a readable description skipped", sc[i].orphans),
				  sc[i].orphans);
		rc = bind_runs(rs[i]);
	}
	if (sc != &one)
		free(sc);
	return rc;
}
