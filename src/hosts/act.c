/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/act.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "model/task.h"
#include "sample/memory/anatomy.h"
#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"
#include "util/i18n.h"
#include "util/num.h"

#define ACT_SPEC_MAX 96
#define ACT_NICE_MIN (-20)
#define ACT_NICE_MAX 19

static const char *const act_names[] = {[ACT_SIGNAL] = "signal", [ACT_RENICE] = "renice", [ACT_ANATOMY] = "anatomy"};

int act_parse(const char *spec, struct act_req *out)
{
	char s[ACT_SPEC_MAX];
	enum act_kind kind = ACT_SIGNAL;
	size_t len = 0;
	for (size_t k = 0; k < sizeof(act_names) / sizeof(*act_names) && !len; k++) {
		size_t l = strlen(act_names[k]);
		if (strncmp(spec, act_names[k], l) == 0 && spec[l] == ':') {
			kind = (enum act_kind)k;
			len = l + 1;
		}
	}
	if (!len || strlen(spec) >= sizeof(s))
		return -1;
	strcpy(s, spec + len);
	/* VALUE:PID:START, or PID:START for anatomy */
	size_t want = kind == ACT_ANATOMY ? 2 : 3;
	char *f[3];
	size_t n = 0;
	for (char *p = s; n < want; n++) {
		f[n] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != want - 1 || strchr(f[n], ':'))
		return -1;
	char **id = f + (want - 2);
	int64_t v = 0, pid, start;
	/* a signal's number, or a step within the 40 nice values; start: a reading of /proc/PID/stat */
	bool ok = kind == ACT_ANATOMY || (kind == ACT_SIGNAL ? num_parse_int(f[0], 1, 64, &v)
							     : num_parse_int(f[0], -39, 39, &v) && v != 0);
	if (!ok || !num_parse_int(id[0], 1, 4194304, &pid) || !num_parse_int(id[1], 0, INT64_MAX, &start))
		return -1;
	*out = (struct act_req){kind, (int)v, (int32_t)pid, (uint64_t)start};
	return 0;
}

void act_format(struct buf *b, const struct act_req *r)
{
	if (r->kind == ACT_ANATOMY)
		buf_addf(b, "anatomy:%d:%" PRIu64, r->pid, r->start_ticks);
	else
		buf_addf(b, "%s:%d:%d:%" PRIu64, act_names[r->kind], r->value, r->pid, r->start_ticks);
}

/* 0 when the process of dir (its /proc directory, or AT_FDCWD and name
 * /proc/PID/stat) is the one that started at start; ESRCH when it is gone or
 * another's by now; else why its start time cannot be read (/proc mounted
 * with hidepid: EACCES or ENOENT, as the kernel says). */
static int act_same_at(int dir, const char *name, uint64_t start)
{
	char buf[1024];
	ssize_t n = proc_read_at(dir, name, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT || n == -ESRCH ? ESRCH : (int)-n;
	struct proc_stat st;
	if (proc_parse_stat(buf, (size_t)n, &st) < 0)
		return EIO;
	return st.start_ticks == start ? 0 : ESRCH;
}

static int act_same(int32_t pid, uint64_t start)
{
	char name[32];
	snprintf(name, sizeof(name), "/proc/%d/stat", pid);
	return act_same_at(AT_FDCWD, name, start);
}

/* 0 or an errno; ESRCH when the process is gone or its PID is another's now.
 * Through a pidfd where the kernel has them: the check cannot race a reuse. */
static int act_signal(const struct act_req *r)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, r->pid, 0);
	if (fd >= 0) {
		int e = act_same(r->pid, r->start_ticks);
		if (!e && syscall(SYS_pidfd_send_signal, fd, r->value, NULL, 0) < 0)
			e = errno;
		close(fd);
		return e;
	}
#endif
	int e = act_same(r->pid, r->start_ticks);
	return e ? e : kill(r->pid, r->value) < 0 ? errno : 0;
}

/* One thread one step from its own value; at a limit it stays, with ERANGE (*at: its value). */
static int act_renice_thread(int32_t tid, int step, int *at)
{
	errno = 0;
	int now = getpriority(PRIO_PROCESS, (id_t)tid);
	if (now == -1 && errno)
		return errno;
	*at = now;
	if (now + step < ACT_NICE_MIN || now + step > ACT_NICE_MAX)
		return ERANGE;
	return setpriority(PRIO_PROCESS, (id_t)tid, now + step) < 0 ? errno : 0;
}

/* Every thread of the process (a nice value is a thread's), after the check
 * that it is the same process: 0, or the first errno (*at: that thread's
 * value; *set: the errno is setpriority's, not the check's). */
static int act_renice(const struct act_req *r, int *at, bool *set)
{
	/* its start time and its threads through one directory: a PID used
	 * again in between would not be this directory's (it reads ESRCH).
	 * setpriority takes a bare TID: a thread ID used again in the instant
	 * between the listing and the call would be stepped instead */
	char path[32];
	snprintf(path, sizeof(path), "/proc/%d", r->pid);
	int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return errno == ENOENT ? ESRCH : errno;
	int e = act_same_at(dir, "stat", r->start_ticks);
	int tasks = e ? -1 : openat(dir, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!e && tasks < 0)
		e = errno == ENOENT ? ESRCH : errno;
	close(dir);
	DIR *d = e ? NULL : fdopendir(tasks);
	if (!e && !d) {
		e = errno;
		close(tasks);
	}
	if (e)
		return e;
	int first = 0;
	size_t done = 0;
	for (struct dirent *de; (de = readdir(d));) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		if (*end || tid <= 0)
			continue;
		int was = 0, te = act_renice_thread((int32_t)tid, r->value, &was);
		/* a thread that ended meanwhile is no failure */
		if (te && te != ESRCH && !first) {
			first = te;
			*at = was;
		}
		done += !te;
	}
	closedir(d);
	*set = true;
	return first ? first : done ? 0 : ESRCH;
}

/* The answer's first word and version: a later version may add fields after
 * the ones this one reads. */
#define ACT_ANSWER "taskview-anatomy 1"

static void answer_kib(FILE *out, int64_t kib)
{
	if (kib == TV_UNKNOWN)
		fputs(" -", out);
	else
		fprintf(out, " %" PRId64, kib);
}

/* The process's mappings by kind, read only while its PID is the process
 * that started at the time given (checked before and after the read). */
static void act_anatomy(const struct act_req *r, FILE *out)
{
	struct anatomy a;
	struct anatomy_pages pg;
	anatomy_init(&a);
	int e = act_same(r->pid, r->start_ticks);
	if (!e)
		e = anatomy_read(r->pid, &a, &pg);
	if (!e)
		e = act_same(r->pid, r->start_ticks);
	fprintf(out, ACT_ANSWER " %d", e);
	if (!e) {
		for (int k = 0; k < ANAT_NKIND; k++)
			fprintf(out, " %" PRId64 " %zu", a.kib[k], a.count[k]);
		fprintf(out, " %d", pg.err);
		for (int k = 0; k < ANAT_NKIND; k++)
			answer_kib(out, pg.kib[k]);
		answer_kib(out, pg.tables_kib);
	}
	fputc('\n', out);
	fflush(out);
	anatomy_free(&a);
}

/* The next field of an answer: a number within [min, max], or "-" (unknown) where dash is allowed. */
static bool answer_field(const char **p, const char *end, int64_t min, int64_t max, bool dash, int64_t *v)
{
	while (*p < end && **p == ' ')
		(*p)++;
	const char *w = *p;
	while (*p < end && **p != ' ' && **p != '\n')
		(*p)++;
	size_t n = (size_t)(*p - w);
	char tmp[24];
	if (n == 0 || n >= sizeof(tmp))
		return false;
	memcpy(tmp, w, n);
	tmp[n] = '\0';
	if (dash && strcmp(tmp, "-") == 0) {
		*v = TV_UNKNOWN;
		return true;
	}
	return num_parse_int(tmp, min, max, v);
}

int act_answer_parse(const char *buf, size_t n, struct anatomy *a, struct anatomy_pages *pg, int *err)
{
	const size_t head = sizeof(ACT_ANSWER) - 1;
	const char *nl = memchr(buf, '\n', n);
	if (!nl || (size_t)(nl - buf) < head || memcmp(buf, ACT_ANSWER, head) != 0 || buf[head] != ' ')
		return -1;
	const char *p = buf + head, *end = nl;
	int64_t v, c;
	/* sizes in KiB: up to 2^57 (a 64-bit address space is 2^47 KiB at most) */
	const int64_t big = INT64_C(1) << 57;
	if (!answer_field(&p, end, 0, 4095, false, &v))
		return -1;
	*err = (int)v;
	if (*err)
		return 0;
	for (int k = 0; k < ANAT_NKIND; k++) {
		if (!answer_field(&p, end, 0, big, false, &v) || !answer_field(&p, end, 0, INT32_MAX, false, &c))
			return -1;
		a->kib[k] = v;
		a->count[k] = (size_t)c;
	}
	if (!answer_field(&p, end, 0, 4095, false, &v))
		return -1;
	pg->err = (int)v;
	for (int k = 0; k < ANAT_NKIND; k++) {
		if (!answer_field(&p, end, 0, big, true, &v))
			return -1;
		pg->kib[k] = v;
	}
	if (!answer_field(&p, end, 0, big, true, &v))
		return -1;
	pg->tables_kib = v;
	return 0;
}

int act_run(const struct act_req *r, FILE *out, FILE *err)
{
	if (r->kind == ACT_ANATOMY) {
		/* the answer says why it could not be read: the panel words it */
		act_anatomy(r, out);
		return 0;
	}
	int at = 0;
	bool set = false;
	int e = r->kind == ACT_SIGNAL ? act_signal(r) : act_renice(r, &at, &set);
	if (e == ESRCH)
		/* TRANSLATORS: on a host acted on from another's hosts' screen */
		fprintf(err, _("taskview: process %d has exited\n"), r->pid);
	else if (e && r->kind == ACT_RENICE && !set)
		/* TRANSLATORS: its /proc entry cannot be read (hidepid): %s is why (strerror) */
		fprintf(err, _("taskview: cannot check process %d: %s\n"), r->pid, strerror(e));
	else if (e && r->kind == ACT_SIGNAL)
		/* TRANSLATORS: %1$d a signal's number, %2$d a PID, %3$s why (strerror) */
		fprintf(err, _("taskview: cannot send signal %d to process %d: %s\n"), r->value, r->pid, strerror(e));
	else if (e == ERANGE)
		fprintf(err, _("taskview: process %d has a thread at nice %d already, the limit\n"), r->pid, at);
	else if (e == EACCES && r->value < 0)
		fprintf(err, _("taskview: cannot lower the nice value of process %d: that needs CAP_SYS_NICE (root) or a higher RLIMIT_NICE\n"),
			r->pid);
	else if (e == EPERM)
		fprintf(err, _("taskview: cannot renice process %d: it belongs to another user; that needs CAP_SYS_NICE (root)\n"),
			r->pid);
	else if (e)
		fprintf(err, _("taskview: cannot renice process %d: %s\n"), r->pid, strerror(e));
	return e ? 1 : 0;
}
