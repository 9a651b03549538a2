/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The task iterator loaded through its generated skeleton. Each pass opens
 * a new iterator descriptor on the attached link and reads it to its end:
 * the kernel runs the program once per task while the read goes on.
 */
#include "sample/bpf/bpf_tasks.h"

#include <errno.h>
#include "config.h"
#if TV_HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "sample/bpf/task_rec_util.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "sample/bpf/task_iter.skel.h"

struct bpf_tasks {
	struct task_iter *skel;
	struct task_rec *recs;
	size_t nrecs, cap;  /* records, and room for them */
	struct task_rec_key *keys; /* nrecs of them, sorted; room for cap */
};

/* libbpf's messages would land on the screen; failing to load only means /proc */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The kernel's inode number of the initial PID namespace (PROC_PID_INIT_INO). */
#define INIT_PID_NS_INO 0xEFFFFFFCu

/*
 * The iterator sees the initial namespace's IDs: inside a PID namespace,
 * /proc's differ. A /proc mounted for the namespace lists one ID in NSpid,
 * as the initial one's does: the namespace's own inode tells them apart.
 */
bool bpf_initial_pid_ns(void)
{
	struct stat sb;
	if (stat("/proc/self/ns/pid", &sb) < 0 || sb.st_ino != INIT_PID_NS_INO)
		return false;
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool initial = false;
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "NSpid:", 6) == 0) {
			int a, b;
			initial = sscanf(line + 6, "%d %d", &a, &b) == 1;
			break;
		}
	}
	if (f)
		fclose(f);
	return initial;
}

struct bpf_tasks *bpf_tasks_open(const char **why)
{
	*why = NULL;
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		*why = _("the kernel has no BTF");
		return NULL;
	}
	if (!bpf_initial_pid_ns()) {
		*why = _("inside a PID namespace");
		return NULL;
	}
	struct bpf_tasks *b = calloc(1, sizeof(*b));
	if (!b) {
		*why = _("out of memory");
		return NULL;
	}
	libbpf_set_print(quiet);
	b->skel = task_iter__open_and_load();
	if (!b->skel || task_iter__attach(b->skel) != 0) {
		/* EPERM: no CAP_BPF and CAP_PERFMON; else a kernel that refuses the program */
		*why = errno == EPERM || errno == EACCES ? _("no permission for BPF")
							 : _("the kernel refused the BPF task iterator");
		bpf_tasks_free(b);
		return NULL;
	}
	/* loading parsed the kernel's BTF (megabytes), freed since: give the pages back */
#if TV_HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
	return b;
}

void bpf_tasks_free(struct bpf_tasks *b)
{
	if (!b)
		return;
	task_iter__destroy(b->skel);
	free(b->recs);
	free(b->keys);
	free(b);
}

/* Room for at least one more chunk of records. */
static int grow(struct bpf_tasks *b, size_t want)
{
	if (b->cap >= want)
		return 0;
	size_t cap = b->cap ? b->cap : 1024;
	while (cap < want)
		cap *= 2;
	struct task_rec *v = realloc(b->recs, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	b->recs = v;
	struct task_rec_key *k = realloc(b->keys, cap * sizeof(*k));
	if (!k)
		return -ENOMEM;
	b->keys = k;
	b->cap = cap;
	return 0;
}

long bpf_tasks_read(struct bpf_tasks *b, double *mono)
{
	b->nrecs = 0;
	int fd = bpf_iter_create(bpf_link__fd(b->skel->links.tv_tasks));
	if (fd < 0)
		return -errno;
	double t0 = clock_now(CLOCK_MONOTONIC);
	size_t bytes = 0;
	long ret = 0;
	for (;;) {
		/* the kernel hands out whole records: read many at once */
		if (grow(b, bytes / sizeof(struct task_rec) + 256) < 0) {
			ret = -ENOMEM;
			break;
		}
		size_t room = b->cap * sizeof(struct task_rec) - bytes;
		ssize_t n = read(fd, (char *)b->recs + bytes, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		bytes += (size_t)n;
	}
	close(fd);
	*mono = (t0 + clock_now(CLOCK_MONOTONIC)) / 2;
	if (ret < 0 || bytes % sizeof(struct task_rec) != 0)
		return ret < 0 ? ret : -EPROTO;
	b->nrecs = bytes / sizeof(struct task_rec);
	task_rec_index(b->recs, b->nrecs, b->keys);
	return (long)b->nrecs;
}

const struct task_rec_key *bpf_tasks_group(const struct bpf_tasks *b, int tgid, size_t *n)
{
	return task_rec_group(b->keys, b->nrecs, tgid, n);
}

const struct task_rec *bpf_tasks_rec(const struct bpf_tasks *b, const struct task_rec_key *k)
{
	return &b->recs[k->idx];
}
