/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/writer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "record/codec.h"
#include "record/crc32c.h"
#include "record/errmsg.h"
#include "record/format.h"
#include "record/lockfile.h"
#include "record/schema.h"
#include "record/zstream.h"
#include "util/i18n.h"

#define ZSTD_LEVEL 3

struct rec_writer {
	char *path;
	bool is_dir;
	bool stream;              /* standard output: w->fd is 1, never closed here */
	int keep_days;
	int fd;
	long day;                 /* of the open daily file */
	char *file;               /* the file open now */
	struct rec_schema schema;
	struct rec_layout layout;
	struct zs_out *z;
	struct rec_sample base;   /* the previous sample, as a reader decodes it */
	bool have_base;
	unsigned in_block;        /* samples in the current block; 0: the next starts one */
	uint64_t block_raw;
	uint64_t seq;
	struct buf raw, frame;
	struct rec_jumps jumps;   /* of raw: for the base's decoding */
	struct buf chunk;         /* raw compressed: kept, as raw is, so a storm's megabytes are not mapped afresh */
	struct rec_strings *strings;
	char *note;               /* said with the next sample written (an old file kept) */
};

static long day_of(int year, int mon, int mday)
{
	struct tm tm = {.tm_year = year - 1900, .tm_mon = mon - 1, .tm_mday = mday, .tm_hour = 12};
	return (long)(timegm(&tm) / 86400);
}

static long local_day(double wall)
{
	time_t t = (time_t)floor(wall);
	struct tm tm;
	if (!localtime_r(&t, &tm))
		return 0;
	return day_of(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

/* The value of n ASCII digits at p; -1 when one is anything else (a sign or a space too). */
static int digits_at(const char *p, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

bool rec_daily_name(const char *name, long *day)
{
	size_t pl = strlen(REC_FILE_PREFIX);
	if (strncmp(name, REC_FILE_PREFIX, pl) != 0 || strlen(name + pl) < 10)
		return false;
	/* exactly YYYY-MM-DD: --keep removes what matches, and nothing else may */
	const char *p = name + pl;
	int y = digits_at(p, 4), m = digits_at(p + 5, 2), d = digits_at(p + 8, 2);
	if (y < 0 || m < 1 || m > 12 || d < 1 || d > 31 || p[4] != '-' || p[7] != '-' ||
	    strcmp(p + 10, REC_FILE_SUFFIX) != 0)
		return false;
	*day = day_of(y, m, d);
	return true;
}

/* Removes the daily files older than keep_days days before today. */
static void keep_recent(struct rec_writer *w, long today)
{
	if (!w->is_dir || w->keep_days <= 0)
		return;
	DIR *d = opendir(w->path);
	if (!d)
		return;
	int dfd = dirfd(d);
	struct dirent *de;
	while ((de = readdir(d))) {
		long day;
		if (!rec_daily_name(de->d_name, &day) || day > today - w->keep_days)
			continue;
		if (unlinkat(dfd, de->d_name, 0) < 0 && errno != ENOENT && !w->note) {
			/* the first one is said: the disk fills up, and the user should know why */
			int e = errno;
			char file[PATH_MAX];
			snprintf(file, sizeof(file), "%s/%s", w->path, de->d_name);
			w->note = rec_err_path(_("--keep cannot remove the old recording %s: %s"), file, e);
		}
	}
	closedir(d);
}

/* Writes all of len bytes; -1 with errno. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_frame(struct rec_writer *w, uint8_t type, uint8_t flags, int64_t wall_ns, const struct buf *payload)
{
	struct rec_frame f = {
		.type = type,
		.flags = flags,
		.len = (uint32_t)payload->len,
		.crc = crc32c(0, payload->data, payload->len),
		.seq = w->seq,
		.wall_ns = wall_ns,
	};
	uint8_t hdr[REC_HDR_LEN];
	rec_frame_pack(hdr, &f);
	/* one write: a frame is either whole in the file or the tail a crash cut */
	buf_reset(&w->frame);
	buf_add(&w->frame, hdr, sizeof(hdr));
	buf_add(&w->frame, payload->data, payload->len);
	if (w->frame.oom) {
		errno = ENOMEM;
		return -1;
	}
	return write_all(w->fd, w->frame.data, w->frame.len);
}

static int open_file(struct rec_writer *w, const char *file, double wall, char **err)
{
	int fd = rec_lockfile_open(file, w->is_dir, err);
	if (fd < 0)
		return -1;
	w->fd = fd;
	free(w->file);
	w->file = strdup(file);
	/* each file describes its run: it can be read alone */
	struct buf b;
	buf_init(&b);
	rec_schema_encode(&b, &w->schema);
	int rc = write_frame(w, REC_FRAME_SCHEMA, 0, rec_sec_to_ns(wall), &b);
	buf_free(&b);
	if (rc < 0) {
		*err = rec_err_path(_("cannot write the recording %s: %s"), file, errno);
		return -1;
	}
	w->in_block = 0;
	return 0;
}

static void close_file(struct rec_writer *w)
{
	if (w->fd < 0)
		return;
	if (w->stream) {
		w->fd = -1;
		return;
	}
	(void)fdatasync(w->fd);
	close(w->fd);
	w->fd = -1;
}

/* The file for a sample at wall: the same, or the day's in a directory. */
static int file_for(struct rec_writer *w, double wall, char **err)
{
	if (w->stream)
		return 0;
	if (!w->is_dir) {
		if (w->fd >= 0)
			return 0;
		return open_file(w, w->path, wall, err);
	}
	long day = local_day(wall);
	if (w->fd >= 0 && day == w->day)
		return 0;
	close_file(w);
	time_t t = (time_t)floor(wall);
	struct tm tm;
	localtime_r(&t, &tm);
	char name[64];
	strftime(name, sizeof(name), REC_FILE_PREFIX "%Y-%m-%d" REC_FILE_SUFFIX, &tm);
	size_t l = strlen(w->path) + strlen(name) + 2;
	char *file = malloc(l);
	if (!file) {
		*err = strdup(_("out of memory"));
		return -1;
	}
	snprintf(file, l, "%s/%s", w->path, name);
	int rc = open_file(w, file, wall, err);
	free(file);
	if (rc == 0) {
		w->day = day;
		keep_recent(w, day);
	}
	return rc;
}

/* A stream opens with its description, as a file does. */
static int stream_start(struct rec_writer *w, char **err)
{
	w->stream = true;
	w->fd = STDOUT_FILENO;
	struct buf b;
	buf_init(&b);
	rec_schema_encode(&b, &w->schema);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	int rc = write_frame(w, REC_FRAME_SCHEMA, 0, rec_sec_to_ns((double)ts.tv_sec + (double)ts.tv_nsec / 1e9), &b);
	buf_free(&b);
	if (rc < 0)
		*err = rec_err_path(_("cannot write the recording %s: %s"), w->path, errno);
	return rc;
}

/* The boot's ID, so that a viewer can tell a host's reboot from a new stream. */
static void boot_id(char *out, size_t len)
{
	out[0] = '\0';
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, out, len - 1);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

static void set_props(struct rec_writer *w, const struct rec_writer_opts *o)
{
	struct utsname u;
	char tmp[64];
	uint64_t run = 0;
	if (getrandom(&run, sizeof(run), GRND_NONBLOCK) != (ssize_t)sizeof(run))
		run = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid();
	rec_schema_set(&w->schema, "taskview", TV_VERSION);
	if (uname(&u) == 0) {
		rec_schema_set(&w->schema, "host", u.nodename);
		rec_schema_set(&w->schema, "kernel", u.release);
		rec_schema_set(&w->schema, "machine", u.machine);
	}
	snprintf(tmp, sizeof(tmp), "%016" PRIx64, run);
	rec_schema_set(&w->schema, "run", tmp);
	snprintf(tmp, sizeof(tmp), "%.17g", o->interval);
	rec_schema_set(&w->schema, "interval", tmp);
	rec_schema_set(&w->schema, "threads", o->threads ? "1" : "0");
	boot_id(tmp, sizeof(tmp));
	if (tmp[0])
		rec_schema_set(&w->schema, "boot_id", tmp);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > 0) {
		snprintf(tmp, sizeof(tmp), "%ld", ncpu);
		rec_schema_set(&w->schema, "cpus", tmp);
	}
	if (o->filter && *o->filter)
		rec_schema_set(&w->schema, "filter", o->filter);
}

struct rec_writer *rec_writer_open(const struct rec_writer_opts *o, char **err)
{
	*err = NULL;
	if (!zs_available()) {
		*err = strdup(_("recording needs taskview built with libzstd"));
		return NULL;
	}
	struct rec_writer *w = calloc(1, sizeof(*w));
	if (!w) {
		*err = strdup(_("out of memory"));
		return NULL;
	}
	w->fd = -1;
	buf_init(&w->raw);
	buf_init(&w->frame);
	w->path = strdup(o->path);
	w->keep_days = o->keep_days;
	struct stat sb;
	/* a directory for daily files is made when missing (not its parents),
	 * closed to others like the files in it (0640); a name of a recording
	 * file (.tvr) is taken for a file, never made a directory */
	size_t plen = strlen(o->path);
	bool file_name = plen >= 4 && strcmp(o->path + plen - 4, ".tvr") == 0;
	if (o->keep_days > 0 && !file_name && mkdir(o->path, 0750) < 0 && errno != EEXIST) {
		*err = rec_err_path(_("cannot make the directory %s to record to: %s"), o->path, errno);
		goto fail;
	}
	w->is_dir = stat(o->path, &sb) == 0 && S_ISDIR(sb.st_mode);
	if (o->keep_days > 0 && !w->is_dir) {
		*err = rec_err_path(_("--keep needs a directory to record to, and %s is not one"), o->path, 0);
		goto fail;
	}
	w->z = zs_out_new(ZSTD_LEVEL);
	w->strings = rec_strings_new();
	char *berr = NULL;
	if (!w->path || !w->z || !w->strings || rec_schema_build(&w->schema, o->cs) < 0) {
		*err = strdup(_("out of memory"));
		goto fail;
	}
	/* the values go to the slots the sampler fills */
	size_t nslots = 0;
	for (size_t i = 0; i < w->schema.ncols; i++)
		if (w->schema.cols[i].slot + 1 > nslots)
			nslots = w->schema.cols[i].slot + 1;
	const char **ids = calloc(nslots ? nslots : 1, sizeof(*ids));
	for (size_t i = 0; ids && i < nslots; i++)
		ids[i] = "";
	for (size_t i = 0; ids && i < w->schema.ncols; i++)
		ids[w->schema.cols[i].slot] = w->schema.cols[i].id;
	int brc = ids ? rec_layout_bind(&w->layout, &w->schema, ids, nslots, &berr) : -1;
	free(ids);
	free(berr);
	if (brc < 0) {
		*err = strdup(_("out of memory"));
		goto fail;
	}
	set_props(w, o);
	if (o->stream) {
		if (stream_start(w, err) < 0)
			goto fail;
		return w;
	}
	/* fail now, not at the first sample, when the place cannot be written */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (file_for(w, (double)ts.tv_sec + (double)ts.tv_nsec / 1e9, err) < 0)
		goto fail;
	return w;
fail:
	rec_writer_close(w);
	return NULL;
}

int rec_writer_append(struct rec_writer *w, const struct rec_sample *s, char **err)
{
	*err = NULL;
	if (file_for(w, s->s.wall, err) < 0)
		return -1;
	if (w->in_block >= REC_BLOCK_SAMPLES || w->block_raw >= REC_BLOCK_BYTES) {
		/* a block ends: what it holds survives a power loss from now on */
		if (!w->stream)
			(void)fdatasync(w->fd);
		w->in_block = 0;
	}
	bool start = w->in_block == 0 || !w->have_base;
	if (w->raw.oom) /* memory ran out for the last one: this one may find it */
		buf_free(&w->raw);
	buf_reset(&w->raw);
	if (rec_encode_sample(&w->raw, &w->layout, s, start ? NULL : &w->base, &w->jumps) < 0) {
		*err = strdup(_("cannot record a sample: tasks out of order, or out of memory"));
		return -1;
	}
	if (w->raw.len > REC_SAMPLE_MAX) {
		/* its number is skipped, so a reader says a sample is missing; the
		 * next starts a block, against nothing left out */
		char tmp[256];
		snprintf(tmp, sizeof(tmp), _("a sample of %zu MiB is left out of the recording: a sample may take %u MiB"),
			 (w->raw.len + (1u << 20) - 1) >> 20, REC_SAMPLE_MAX >> 20);
		*err = strdup(tmp);
		w->seq++;
		w->in_block = 0;
		return 1;
	}
	/* the next sample is written against this one as a reader will see it */
	struct rec_sample seen;
	if (rec_decode_base((const uint8_t *)w->raw.data, w->raw.len, &w->layout, start ? NULL : &w->base, w->strings,
			    &seen, &w->jumps) < 0) {
		*err = strdup(_("cannot record a sample: it does not read back"));
		return -1;
	}
	if (start)
		zs_out_restart(w->z);
	buf_reset(&w->chunk);
	int rc = zs_out_chunk(w->z, w->raw.data, w->raw.len, &w->chunk);
	if (rc == 0)
		rc = write_frame(w, REC_FRAME_SAMPLE, start ? REC_FLAG_BLOCK_START : 0, rec_sec_to_ns(s->s.wall), &w->chunk);
	int e = errno;
	if (w->chunk.oom) /* a buf that ran out stays out: the next sample starts anew */
		buf_free(&w->chunk);
	if (w->have_base)
		rec_sample_free(&w->base);
	w->base = seen;
	w->have_base = true;
	if (rc < 0) {
		/* the stream now holds what the file lacks: start afresh */
		w->in_block = 0;
		*err = rec_err_path(_("cannot write the recording %s: %s"), w->file ? w->file : w->path, e);
		return -1;
	}
	w->in_block = start ? 1 : w->in_block + 1;
	w->block_raw = (start ? 0 : w->block_raw) + w->raw.len;
	w->seq++;
	if (w->note) {
		*err = w->note;
		w->note = NULL;
		return 1;
	}
	return 0;
}

void rec_writer_close(struct rec_writer *w)
{
	if (!w)
		return;
	close_file(w);
	if (w->have_base)
		rec_sample_free(&w->base);
	rec_layout_free(&w->layout);
	rec_schema_free(&w->schema);
	zs_out_free(w->z);
	rec_strings_free(w->strings);
	buf_free(&w->raw);
	rec_jumps_free(&w->jumps);
	buf_free(&w->chunk);
	buf_free(&w->frame);
	free(w->file);
	free(w->note);
	free(w->path);
	free(w);
}
