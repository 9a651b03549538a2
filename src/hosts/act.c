/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts/act.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"
#include "util/i18n.h"
#include "util/num.h"

#define ACT_SPEC_MAX 96

int act_parse(const char *spec, struct act_req *out)
{
	char s[ACT_SPEC_MAX];
	if (strlen(spec) >= sizeof(s) || strncmp(spec, "signal:", 7) != 0)
		return -1;
	strcpy(s, spec + 7);
	char *f[3];
	size_t n = 0;
	for (char *p = s; n < 3; n++) {
		f[n] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != 2 || strchr(f[2], ':'))
		return -1;
	int64_t sig, pid, start;
	/* start: a reading of /proc/PID/stat, below 2^63 */
	if (!num_parse_int(f[0], 1, 64, &sig) || !num_parse_int(f[1], 1, 4194304, &pid) ||
	    !num_parse_int(f[2], 0, INT64_MAX, &start))
		return -1;
	*out = (struct act_req){(int)sig, (int32_t)pid, (uint64_t)start};
	return 0;
}

void act_format(struct buf *b, const struct act_req *r)
{
	buf_addf(b, "signal:%d:%d:%" PRIu64, r->sig, r->pid, r->start_ticks);
}

/* 0 when pid is still the process that started at start; ESRCH when it is
 * gone or another's by now; else why its start time cannot be read (/proc
 * mounted with hidepid: EACCES or ENOENT, as the kernel says). */
static int act_same(int32_t pid, uint64_t start)
{
	char name[32], buf[1024];
	snprintf(name, sizeof(name), "/proc/%d/stat", pid);
	ssize_t n = proc_read_at(AT_FDCWD, name, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT || n == -ESRCH ? ESRCH : (int)-n;
	struct proc_stat st;
	if (proc_parse_stat(buf, (size_t)n, &st) < 0)
		return EIO;
	return st.start_ticks == start ? 0 : ESRCH;
}

/* 0 or an errno; ESRCH when the process is gone or its PID is another's now.
 * Through a pidfd where the kernel has them: the check cannot race a reuse. */
static int act_signal(const struct act_req *r)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, r->pid, 0);
	if (fd >= 0) {
		int e = act_same(r->pid, r->start_ticks);
		if (!e && syscall(SYS_pidfd_send_signal, fd, r->sig, NULL, 0) < 0)
			e = errno;
		close(fd);
		return e;
	}
#endif
	int e = act_same(r->pid, r->start_ticks);
	return e ? e : kill(r->pid, r->sig) < 0 ? errno : 0;
}

int act_run(const struct act_req *r, FILE *err)
{
	int e = act_signal(r);
	if (e == ESRCH)
		/* TRANSLATORS: on a host acted on from another's hosts' screen */
		fprintf(err, _("taskview: process %d has exited\n"), r->pid);
	else if (e)
		/* TRANSLATORS: %1$d a signal's number, %2$d a PID, %3$s why (strerror) */
		fprintf(err, _("taskview: cannot send signal %d to process %d: %s\n"), r->sig, r->pid, strerror(e));
	return e ? 1 : 0;
}
