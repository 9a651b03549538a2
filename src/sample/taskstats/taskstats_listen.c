/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/taskstats/taskstats_listen.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "sample/taskstats/exit_queue.h"
#include "util/clock.h"
#include "util/i18n.h"

#define TL_RCVBUF (8 << 20) /* an exit storm of a few thousand threads a second, between two reads */
#define TL_RBUF 16384
/* Datagrams (one exit record each) read by one recvmmsg, and the room for each: a record
 * is under a kilobyte today; one cut short is counted as lost. */
#define TL_BATCH 64
#define TL_SLOT 4096
/* The listening thread reads what came, then naps this long (ms) before it looks again:
 * records wait in the socket's buffer (TL_RCVBUF) meanwhile. An exit storm sends them one
 * datagram at a time, and a thread woken for each spent more in switches than in reading. */
#define TL_NAP_MS 20
/* batches a take reads itself, at most: a storm of exits does not hold a
 * refresh up (the listening thread reads the rest, for the next take) */
#define TL_TAKE_READS 16
struct ts_listener {
	struct nl_sock *sk;
	int fd;
	uint16_t family;
	char cpus[64];
	int stop[2];          /* a pipe: writing to it ends the thread */
	atomic_bool stopping; /* set with the write: a thread reading a storm's backlog ends too */
	pthread_t thread;
	pthread_mutex_t lock; /* guards queue and lost */
	pthread_mutex_t read; /* guards reading the socket into batch */
	struct exit_queue queue;
	uint64_t lost;
	unsigned char rbuf[TL_RBUF]; /* registration's answers */
	unsigned char batch[TL_BATCH][TL_SLOT];
};

/* The possible CPUs as the kernel lists them ("0-3"); registration wants a subset of them. */
static int tl_possible(char *out, size_t n)
{
	int fd = open("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, out, n - 1);
	close(fd);
	if (r <= 0)
		return -1;
	out[r] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return out[0] ? 0 : -1;
}

/* Sends a (de)registration and waits for its ACK. 0 or a positive errno. */
static int tl_register(struct ts_listener *l, bool reg)
{
	unsigned char req[256];
	uint32_t seq = (uint32_t)getpid() ^ (reg ? 0x5a5a0000u : 0xa5a50000u);
	size_t len = ts_build_listen(req, sizeof(req), l->family, seq, l->cpus, reg);
	if (len == 0 || send(l->fd, req, len, 0) < 0)
		return len ? errno : EINVAL;
	for (int tries = 0; tries < 64; tries++) {
		struct pollfd p = {.fd = l->fd, .events = POLLIN};
		if (poll(&p, 1, 1000) <= 0)
			return ETIMEDOUT;
		ssize_t n = recv(l->fd, l->rbuf, sizeof(l->rbuf), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == ENOBUFS)
				continue;
			return errno;
		}
		struct ts_reply rep;
		if (ts_parse_msg(l->rbuf, (size_t)n, l->family, &rep) > 0 && rep.kind == TS_MSG_ERROR &&
		    rep.seq == seq)
			return rep.error;
		/* an exit record that came first: the ACK follows */
	}
	return ETIMEDOUT;
}

static void final_from(struct ts_final *f, const struct ts_result *r)
{
	f->nvcsw = r->nvcsw;
	f->nivcsw = r->nivcsw;
	f->utime_us = r->utime_us;
	f->stime_us = r->stime_us;
	f->cpu_ns = r->cpu_ns;
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		f->delay_count[c] = r->delay[c].count;
		f->delay_ns[c] = r->delay[c].total_ns;
	}
}

void ts_exit_rec_from(struct ts_exit_rec *out, const struct ts_exit_msg *m, double mono)
{
	out->mono = mono;
	out->pid = m->pid;
	out->tgid = m->r.tgid;
	out->end_tgid = m->tgid;
	out->ppid = m->r.ppid;
	out->uid = m->r.uid;
	out->etime_us = m->r.etime_us;
	out->start_boot_ns = out->leader_boot_ns = out->cgroup_id = 0; /* not in a taskstats record */
	memcpy(out->comm, m->r.comm, sizeof(out->comm));
	out->comm[sizeof(out->comm) - 1] = '\0';
	final_from(&out->r, &m->r);
	if (out->end_tgid > 0) {
		out[1] = (struct ts_exit_rec){.mono = mono, .uid = TV_UNKNOWN, .etime_us = TV_UNKNOWN};
		final_from(&out[1].r, &m->g);
	}
}

static void tl_push(struct ts_listener *l, const struct ts_exit_msg *m, double now)
{
	size_t need = m->tgid > 0 ? 2 : 1; /* ts_exit_entries */
	pthread_mutex_lock(&l->lock);
	struct ts_exit_rec *e = exit_queue_push(&l->queue, need);
	if (e)
		ts_exit_rec_from(e, m, now);
	else
		l->lost++;
	pthread_mutex_unlock(&l->lock);
}

static void tl_lost(struct ts_listener *l, uint64_t n)
{
	pthread_mutex_lock(&l->lock);
	l->lost += n;
	pthread_mutex_unlock(&l->lock);
}

/* Reads a batch of datagrams into the queue, with l->read held; false when
 * none is waiting. */
static bool tl_read_batch(struct ts_listener *l)
{
	struct mmsghdr mm[TL_BATCH];
	struct iovec iov[TL_BATCH];
	for (;;) {
		for (int i = 0; i < TL_BATCH; i++) {
			iov[i] = (struct iovec){l->batch[i], TL_SLOT};
			mm[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = &iov[i], .msg_iovlen = 1}};
		}
		int got = recvmmsg(l->fd, mm, TL_BATCH, MSG_DONTWAIT, NULL);
		if (got < 0) {
			if (errno == ENOBUFS) { /* the kernel dropped records: say so, go on */
				tl_lost(l, 1);
				continue;
			}
			if (errno == EINTR)
				continue;
			return false; /* EAGAIN: all read */
		}
		double now = clock_now(CLOCK_MONOTONIC);
		for (int i = 0; i < got; i++) {
			if (mm[i].msg_hdr.msg_flags & MSG_TRUNC) {
				tl_lost(l, 1);
				continue;
			}
			size_t n = mm[i].msg_len, off = 0;
			while (off < n) {
				struct ts_exit_msg m;
				bool is_exit;
				ssize_t k = ts_parse_exit(l->batch[i] + off, n - off, l->family, &m, &is_exit);
				if (k <= 0)
					break;
				off += (size_t)k;
				if (is_exit)
					tl_push(l, &m, now);
			}
		}
		return got > 0;
	}
}

static void *tl_run(void *arg)
{
	struct ts_listener *l = arg;
	struct pollfd p[2] = {{.fd = l->fd, .events = POLLIN}, {.fd = l->stop[0], .events = POLLIN}};

	for (;;) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			return NULL;
		if (p[1].revents)
			return NULL;
		/* the lock for one batch at a time: a take waits for one, not
		 * for a storm of exits to end */
		bool more = true;
		while (more && !atomic_load(&l->stopping)) {
			pthread_mutex_lock(&l->read);
			more = tl_read_batch(l);
			pthread_mutex_unlock(&l->read);
		}
		/* a nap, ended by a stop */
		if (poll(&p[1], 1, TL_NAP_MS) > 0)
			return NULL;
	}
}

struct ts_listener *ts_listen_start(const char **why)
{
	struct ts_listener *l = calloc(1, sizeof(*l));
	*why = NULL;
	if (!l)
		return NULL;
	l->fd = -1;
	l->stop[0] = l->stop[1] = -1;
	pthread_mutex_init(&l->lock, NULL);
	pthread_mutex_init(&l->read, NULL);
	if (tl_possible(l->cpus, sizeof(l->cpus)) < 0) {
		*why = _("the list of possible CPUs is unreadable");
		goto fail;
	}
	l->sk = nl_socket_alloc();
	if (!l->sk || genl_connect(l->sk) < 0) {
		*why = _("cannot open a generic netlink socket");
		goto fail;
	}
	int fam = genl_ctrl_resolve(l->sk, TASKSTATS_GENL_NAME);
	if (fam < 0) {
		*why = _("the kernel offers no taskstats here");
		goto fail;
	}
	l->family = (uint16_t)fam;
	l->fd = nl_socket_get_fd(l->sk);
	int want = TL_RCVBUF;
	if (setsockopt(l->fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want)) < 0)
		(void)setsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want));
	int err = tl_register(l, true);
	if (err) {
		*why = err == EPERM || err == EACCES
			? _("exit records need CAP_NET_ADMIN")
			: err == EINVAL ? _("exit records are not available inside a user or pid namespace")
					: _("the kernel refused to send exit records");
		goto fail;
	}
	if (pipe2(l->stop, O_CLOEXEC) < 0 || pthread_create(&l->thread, NULL, tl_run, l) != 0) {
		tl_register(l, false);
		*why = _("out of memory");
		goto fail;
	}
	return l;
fail:
	if (l->stop[0] >= 0) {
		close(l->stop[0]);
		close(l->stop[1]);
	}
	if (l->sk)
		nl_socket_free(l->sk);
	pthread_mutex_destroy(&l->lock);
	pthread_mutex_destroy(&l->read);
	free(l);
	return NULL;
}

void ts_listen_stop(struct ts_listener *l)
{
	if (!l)
		return;
	ssize_t w;
	atomic_store(&l->stopping, true);
	do
		w = write(l->stop[1], "x", 1);
	while (w < 0 && errno == EINTR);
	pthread_join(l->thread, NULL);
	tl_register(l, false);
	close(l->stop[0]);
	close(l->stop[1]);
	nl_socket_free(l->sk);
	pthread_mutex_destroy(&l->lock);
	pthread_mutex_destroy(&l->read);
	exit_queue_free(&l->queue);
	free(l);
}

size_t ts_listen_take(struct ts_listener *l, struct ts_exit_rec **out, uint64_t *lost)
{
	/* the records still on the socket too: the listening thread may not
	 * have run since they came (a busy machine), and a thread whose query
	 * failed, or that a listing no longer finds, must find its record here */
	pthread_mutex_lock(&l->read);
	for (int i = 0; i < TL_TAKE_READS && tl_read_batch(l); i++)
		;
	pthread_mutex_unlock(&l->read);
	pthread_mutex_lock(&l->lock);
	size_t n = exit_queue_take(&l->queue, out);
	*lost = l->lost;
	l->lost = 0;
	pthread_mutex_unlock(&l->lock);
	return n;
}

void ts_listen_give_back(struct ts_listener *l, struct ts_exit_rec *recs)
{
	pthread_mutex_lock(&l->lock);
	recs = exit_queue_give_back(&l->queue, recs);
	pthread_mutex_unlock(&l->lock);
	free(recs);
}
