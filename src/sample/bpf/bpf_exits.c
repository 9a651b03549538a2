/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exit program loaded through its generated skeleton, and its ring
 * buffer drained by a thread of its own every DRAIN_MS and at each take. The
 * ring is small: the kernel maps all of it into taskview twice (its pages
 * follow themselves, so a record is never split), resident from the start,
 * so it holds a few hundred milliseconds of an exit storm, not a refresh's.
 * The records are turned into the exit listener's entries, so the sampler
 * handles both sources alike, through the same queue (exit_queue.h says
 * who owns the entries).
 */
#include "sample/bpf/bpf_exits.h"

#include <errno.h>
#include <fcntl.h>
#include "config.h"
#if TV_HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "sample/bpf/bpf_tasks.h"
#include "sample/bpf/exit_rec.h"
#include "sample/taskstats/exit_queue.h"
#include "util/i18n.h"
#include "sample/bpf/exits.skel.h"

/* the ring (a power of two of pages): about 400 ms of 20,000 exits a second */
#define RING_BYTES (2u << 20)
#define DRAIN_MS 20

struct bpf_exits {
	struct exits *skel;
	struct ring_buffer *rb;
	int stop[2];           /* a pipe: writing to it ends the thread */
	bool running;
	pthread_t thread;
	pthread_mutex_t lock;  /* guards the ring's reading, queue and lost */
	struct exit_queue queue;
	uint64_t lost;         /* dropped by the reader since the last take */
	uint64_t ring_lost;    /* the program's count at the last take */
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The /proc side's unknown for a counter the kernel does not keep. */
static void counts_to(struct ts_final *f, const struct exit_counts *c)
{
	f->nvcsw = (int64_t)c->nvcsw;
	f->nivcsw = (int64_t)c->nivcsw;
	f->utime_us = (int64_t)(c->utime_ns / 1000);
	f->stime_us = (int64_t)(c->stime_ns / 1000);
	f->cpu_ns = (int64_t)c->runtime_ns;
	for (int k = 0; k < TV_DELAY_NCLASS; k++) {
		bool known = k < EXIT_REC_NDELAY && (c->delay_known >> k & 1) && c->delay_count[k] <= INT64_MAX &&
			     c->delay_ns[k] <= INT64_MAX;
		f->delay_count[k] = known ? (int64_t)c->delay_count[k] : TV_UNKNOWN;
		f->delay_ns[k] = known ? (int64_t)c->delay_ns[k] : TV_UNKNOWN;
	}
}

/* The entries of one record (2 with the group's totals), as ts_exit_rec_from makes them of a message. */
static void rec_to(struct ts_exit_rec *out, const struct exit_rec *r, bool group)
{
	double mono = (double)r->when_ns / 1e9;
	*out = (struct ts_exit_rec){
		.mono = mono,
		.pid = r->tid,
		.tgid = r->tgid,
		.end_tgid = group ? r->tgid : 0,
		.ppid = r->ppid,
		.uid = r->uid,
		.etime_us = (int64_t)(r->etime_ns / 1000),
		.start_boot_ns = r->start_boot_ns,
		.leader_boot_ns = r->leader_boot_ns,
		.cgroup_id = r->cgroup_id,
	};
	memcpy(out->comm, r->comm, sizeof(r->comm));
	out->comm[sizeof(r->comm)] = '\0';
	counts_to(&out->r, &r->own);
	if (group) {
		out[1] = (struct ts_exit_rec){.mono = mono, .uid = TV_UNKNOWN, .etime_us = TV_UNKNOWN};
		counts_to(&out[1].r, &r->group);
	}
}

static int on_record(void *ctx, void *data, size_t len)
{
	struct bpf_exits *b = ctx;
	const struct exit_rec *r = data;
	if (len < EXIT_REC_SHORT) {
		b->lost++;
		return 0;
	}
	bool group = (r->flags & EXIT_REC_GROUP) && len >= sizeof(*r);
	struct ts_exit_rec *e = exit_queue_push(&b->queue, group ? 2 : 1);
	if (e)
		rec_to(e, r, group);
	else
		b->lost++;
	return 0;
}

static void *drain(void *arg)
{
	struct bpf_exits *b = arg;
	struct pollfd p = {.fd = b->stop[0], .events = POLLIN};
	for (;;) {
		int r = poll(&p, 1, DRAIN_MS);
		if (r > 0 || (r < 0 && errno != EINTR))
			return NULL;
		pthread_mutex_lock(&b->lock);
		ring_buffer__consume(b->rb);
		pthread_mutex_unlock(&b->lock);
	}
}

struct bpf_exits *bpf_exits_open(const char **why)
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
	struct bpf_exits *b = calloc(1, sizeof(*b));
	if (!b) {
		*why = _("out of memory");
		return NULL;
	}
	b->stop[0] = b->stop[1] = -1;
	pthread_mutex_init(&b->lock, NULL);
	libbpf_set_print(quiet);
	b->skel = exits__open();
	if (b->skel)
		bpf_map__set_max_entries(b->skel->maps.tv_exit_ring, RING_BYTES);
	if (!b->skel || exits__load(b->skel) != 0 || exits__attach(b->skel) != 0 ||
	    !(b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.tv_exit_ring), on_record, b, NULL))) {
		*why = errno == EPERM || errno == EACCES ? _("no permission for BPF")
							 : _("the kernel refused the BPF exit program");
		bpf_exits_free(b);
		return NULL;
	}
	if (pipe2(b->stop, O_CLOEXEC) < 0 || pthread_create(&b->thread, NULL, drain, b) != 0) {
		*why = _("out of memory");
		bpf_exits_free(b);
		return NULL;
	}
	b->running = true;
	/* loading parsed the kernel's BTF (megabytes), freed since: give the pages back */
#if TV_HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
	return b;
}

void bpf_exits_free(struct bpf_exits *b)
{
	if (!b)
		return;
	if (b->running) {
		ssize_t w;
		do
			w = write(b->stop[1], "x", 1);
		while (w < 0 && errno == EINTR);
		pthread_join(b->thread, NULL);
	}
	if (b->stop[0] >= 0) {
		close(b->stop[0]);
		close(b->stop[1]);
	}
	pthread_mutex_destroy(&b->lock);
	ring_buffer__free(b->rb);
	exits__destroy(b->skel);
	exit_queue_free(&b->queue);
	free(b);
}

size_t bpf_exits_take(struct bpf_exits *b, struct ts_exit_rec **out, uint64_t *lost)
{
	/* what came since the thread's last drain too: every exit before the call */
	pthread_mutex_lock(&b->lock);
	ring_buffer__consume(b->rb);
	uint64_t ring_lost = __atomic_load_n(&b->skel->bss->tv_exit_lost, __ATOMIC_RELAXED);
	*lost = b->lost + (ring_lost - b->ring_lost);
	b->ring_lost = ring_lost;
	b->lost = 0;
	size_t n = exit_queue_take(&b->queue, out);
	pthread_mutex_unlock(&b->lock);
	return n;
}

void bpf_exits_give_back(struct bpf_exits *b, struct ts_exit_rec *recs)
{
	pthread_mutex_lock(&b->lock);
	recs = exit_queue_give_back(&b->queue, recs);
	pthread_mutex_unlock(&b->lock);
	free(recs);
}
