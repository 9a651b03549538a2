/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The taskstats netlink client. libnl opens the socket and resolves the
 * family; the hot path writes requests and reads replies on the raw fd with
 * the pure parser, because pipelining needs control over sequence numbers,
 * batching and ENOBUFS that libnl's callback loop does not give.
 */
#include "sample/taskstats/taskstats.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include <dirent.h>
#include <pthread.h>

#include "sample/proc/kconfig.h"
#include "sample/taskstats/taskstats_window.h"
#include "util/clock.h"
#include "util/i18n.h"

#define TS_SYSCTL "/proc/sys/kernel/task_delayacct"
#define TS_RCVBUF_WANT (1 << 20) /* the kernel grants twice this */
/*
 * Receive buffer one reply occupies: the ~600-byte message plus the socket
 * buffer overhead the kernel charges (about 1.3 KB measured), with headroom.
 */
#define TS_REPLY_COST 1536
#define TS_WINDOW_MAX 4096
#define TS_REQ_MAX 32    /* one request is 28 bytes */
#define TS_PACK 64       /* requests per send(); the kernel answers each in turn */
#define TS_MAX_TRIES 3
#define TS_WAIT_MS 100
#define TS_RBUF 16384    /* far above one reply, so a newer, longer struct still fits */
#define TS_MMSG 32       /* replies taken per recvmmsg(): one syscall instead of 32 */
#define TS_MSG_SIZE 4096 /* one reply (about 600 bytes today) with room for longer structs */

struct ts_client {
	struct nl_sock *sk;
	int fd;
	uint16_t family;
	bool can_query;
	bool has_fault;        /* fault overrides the sysctl */
	enum ts_state fault;
	enum ts_acct acct;
	bool acct_switch;      /* kernel.task_delayacct exists (5.14 on) */
	bool seen_off;         /* the switch was off at some point while we ran */
	uint64_t on_since;     /* boot ticks when it was seen on after being off */
	bool started_on_by_sysctl; /* on at start, but not from the boot command line */
	bool no_irq_acct;      /* the kernel lacks CONFIG_IRQ_TIME_ACCOUNTING */
	bool group_exited;     /* TGID replies count exited threads' switches */
	bool group_cpu;        /* TGID replies carry the CPU time of every thread, exited ones too */
	uint32_t seq;
	int rcvbuf;
	size_t window, window_fixed;
	char msg[256];
	unsigned char sbuf[TS_PACK * TS_REQ_MAX];
	unsigned char rbuf[TS_RBUF];
	unsigned char *mbuf;     /* TS_MMSG replies of TS_MSG_SIZE */
	struct mmsghdr mm[TS_MMSG];
	struct iovec iov[TS_MMSG];
};

static const char *const ts_msg_off =
	N_("delay accounting is off: switch it on with `sysctl kernel.task_delayacct=1` "
	   "(tasks started while it was off keep showing zeros)");
static const char *const ts_msg_on_late =
	N_("delay accounting was switched on after boot: tasks started before that report zeros "
	   "for every delay but CPU (add `delayacct` to the kernel command line to have it from boot)");
static const char *const ts_msg_off_boot =
	N_("delay accounting is off: the kernel was started with nodelayacct");
static const char *const ts_msg_no_acct =
	N_("the kernel was built without delay accounting (CONFIG_TASK_DELAY_ACCT)");

static enum ts_acct ts_read_acct(void)
{
	char b[8] = "";
	int fd = open(TS_SYSCTL, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? TS_ACCT_ABSENT : TS_ACCT_OFF;
	ssize_t n = read(fd, b, sizeof(b) - 1);
	close(fd);
	/* an unreadable switch cannot vouch for the counters: treat as off */
	return n > 0 && b[0] == '1' ? TS_ACCT_ON : TS_ACCT_OFF;
}

/* Puts the client out of service; detail (may be NULL) follows the translated text after a colon. */
static void ts_fail(struct ts_client *c, enum ts_state s, const char *text, const char *detail)
{
	c->has_fault = true;
	c->fault = s;
	c->can_query = false;
	snprintf(c->msg, sizeof(c->msg), "%s%s%s", _(text), detail ? ": " : "", detail ? detail : "");
}

static int64_t ts_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void ts_set_rcvbuf(struct ts_client *c, int want)
{
	int got = 0;
	socklen_t len = sizeof(got);

	/* FORCE passes rmem_max but needs CAP_NET_ADMIN, which queries need anyway */
	if (want > 0 && setsockopt(c->fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want)) < 0)
		(void)setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want));
	if (getsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &got, &len) == 0)
		c->rcvbuf = got;
	size_t w = c->rcvbuf > 0 ? (size_t)c->rcvbuf / TS_REPLY_COST : 1;
	if (w > TS_WINDOW_MAX)
		w = TS_WINDOW_MAX;
	c->window = c->window_fixed ? c->window_fixed : (w ? w : 1);
}

/* Discards whatever an earlier, abandoned batch left behind. */
static void ts_drain(struct ts_client *c)
{
	for (;;) {
		ssize_t n = recv(c->fd, c->rbuf, sizeof(c->rbuf), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EINTR && errno != ENOBUFS))
			return;
	}
}

/* One batch in flight: what was asked, when each was sent, where replies go. */
struct ts_batch {
	const struct ts_request *req;
	double *sent;      /* per query: when the kernel answered it (inside send) */
	ts_reply_fn fn;
	void *ctx;
};

/* Sends pending queries until the window is full. 0, 1 when the kernel was short of memory, -1 on failure. */
static int ts_send_window(struct ts_client *c, struct ts_window *w, struct ts_batch *b)
{
	for (;;) {
		size_t used = 0, i, k = 0;
		size_t order[TS_PACK];

		while (sizeof(c->sbuf) - used >= TS_REQ_MAX && k < TS_PACK && (i = tswin_next(w)) != TSWIN_NONE) {
			used += ts_build_request(c->sbuf + used, sizeof(c->sbuf) - used, c->family,
						 tswin_seq(w, i), b->req[i].id, b->req[i].tgid);
			order[k++] = i;
		}
		if (used == 0)
			return 0;
		ssize_t n;
		/* the kernel answers each request inside send(), one after the
		 * other: each is stamped at its share of the call, so that a call
		 * held up (preempted on a busy machine) does not time the first
		 * request of a pack at its end, or the last at its start */
		double t0 = clock_now(CLOCK_MONOTONIC);
		do
			n = send(c->fd, c->sbuf, used, 0);
		while (n < 0 && errno == EINTR);
		double t1 = clock_now(CLOCK_MONOTONIC);
		for (size_t j = 0; j < k; j++)
			b->sent[order[j]] = t0 + (t1 - t0) * ((double)j + 0.5) / (double)k;
		if (n < 0)
			return errno == ENOBUFS || errno == ENOMEM || errno == EAGAIN ? 1 : -1;
	}
}

/* Hides counters the kernel is not updating, so they read as unknown, not as zero. */
static void ts_mask(const struct ts_client *c, struct ts_result *r)
{
	int first = c->acct == TS_ACCT_ON ? TV_DELAY_NCLASS
		  : c->acct == TS_ACCT_OFF ? TV_DELAY_CPU + 1 : 0;

	for (int k = first; k < TV_DELAY_NCLASS; k++)
		r->delay[k] = (struct ts_delay){TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN};
	/* without IRQ time accounting the kernel reports an irq delay of 0 that means nothing */
	if (c->no_irq_acct)
		r->delay[TV_DELAY_IRQ] = (struct ts_delay){TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN};
}

/* Settles the query a reply belongs to. false when the reply says we may not ask at all. */
static bool ts_handle(const struct ts_client *c, struct ts_window *w, struct ts_batch *b, struct ts_reply *rep)
{
	size_t i;

	switch (rep->kind) {
	case TS_MSG_STATS:
		i = tswin_answer(w, rep->seq);
		if (i != TSWIN_NONE && rep->id == b->req[i].id && rep->is_tgid == b->req[i].tgid) {
			ts_mask(c, &rep->r);
			b->fn(b->ctx, i, &rep->r, b->sent[i]);
		}
		return true;
	case TS_MSG_ERROR:
		switch (rep->error) {
		case 0: /* an ACK; we never ask for one */
			return true;
		case EPERM:
		case EACCES:
			tswin_answer(w, rep->seq);
			return false;
		case EAGAIN: /* the reply could not be queued */
		case ENOBUFS:
		case ENOMEM:
			tswin_retry(w, rep->seq);
			return true;
		default: /* ESRCH: the task is gone */
			tswin_answer(w, rep->seq);
			return true;
		}
	case TS_MSG_INVALID:
		tswin_answer(w, rep->seq);
		return true;
	case TS_MSG_OTHER:
		break;
	}
	return true;
}

/*
 * Reads every reply already queued. Returns how many messages it handled,
 * or -1 on a socket failure or a permission refusal; *overflow is set when
 * the kernel dropped replies.
 */
/* Handles the messages of one datagram. false when the kernel says we may not ask. */
static bool ts_read_datagram(struct ts_client *c, struct ts_window *w, struct ts_batch *b, const unsigned char *p,
			     size_t n, int *handled)
{
	size_t off = 0;
	while (off < n) {
		struct ts_reply rep;
		ssize_t k = ts_parse_msg(p + off, n - off, c->family, &rep);

		if (k <= 0)
			break;
		off += (size_t)k;
		(*handled)++;
		if (!ts_handle(c, w, b, &rep)) {
			ts_fail(c, TS_NO_PERMISSION,
				N_("per-task delays need CAP_NET_ADMIN in the initial user namespace: "
				   "run as root; taskview(1), DELAY ACCOUNTING, gives the other ways"), NULL);
			return false;
		}
	}
	return true;
}

static int ts_read_ready(struct ts_client *c, struct ts_window *w, struct ts_batch *b, bool *overflow)
{
	int handled = 0;

	for (;;) {
		/* every reply is a datagram of its own: take many per syscall */
		for (int i = 0; i < TS_MMSG; i++) {
			c->iov[i] = (struct iovec){c->mbuf + (size_t)i * TS_MSG_SIZE, TS_MSG_SIZE};
			c->mm[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = &c->iov[i], .msg_iovlen = 1}};
		}
		int n = recvmmsg(c->fd, c->mm, TS_MMSG, MSG_DONTWAIT, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) { /* reported once; the queued replies follow */
				*overflow = true;
				continue;
			}
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return handled;
			return -1;
		}
		if (n == 0)
			return handled;
		for (int i = 0; i < n; i++) {
			/* a reply longer than the room is a struct from a far newer kernel: it is not read */
			if (c->mm[i].msg_hdr.msg_flags & MSG_TRUNC)
				continue;
			if (!ts_read_datagram(c, w, b, c->iov[i].iov_base, c->mm[i].msg_len, &handled))
				return -1;
		}
		if (n < TS_MMSG)
			return handled;
	}
}

static int ts_run(struct ts_client *c, struct ts_window *w, struct ts_batch *b, size_t n)
{
	/* generous: the kernel answers inside send(), ~10 us per query */
	int64_t deadline = ts_now_ms() + 1000 + (int64_t)(n / 50);

	while (!tswin_done(w)) {
		bool overflow = false;
		int s = ts_send_window(c, w, b);
		if (s < 0)
			return -1;
		int r = ts_read_ready(c, w, b, &overflow);
		if (r < 0)
			return -1;
		if (overflow || s == 1) {
			/* all that will come has been read: the rest was dropped */
			tswin_lost(w, true);
			continue;
		}
		int64_t left = deadline - ts_now_ms();
		if (left <= 0) {
			tswin_abandon(w);
			break;
		}
		if (r == 0 && w->inflight > 0) {
			struct pollfd p = {.fd = c->fd, .events = POLLIN};
			int pr = poll(&p, 1, (int)(left < TS_WAIT_MS ? left : TS_WAIT_MS));
			if (pr == 0)
				tswin_lost(w, false);
			else if (pr < 0 && errno != EINTR)
				return -1;
		}
	}
	return 0;
}

int ts_query_each(struct ts_client *c, const struct ts_request *req, size_t n, ts_reply_fn fn, void *ctx)
{
	struct ts_window w;

	if (!c->can_query)
		return -1;
	if (n == 0)
		return 0;
	struct ts_batch b = {.req = req, .sent = calloc(n, sizeof(double)), .fn = fn, .ctx = ctx};
	if (!b.sent || tswin_init(&w, n, c->seq, c->window, TS_MAX_TRIES) < 0) {
		free(b.sent);
		return -1;
	}
	c->seq += (uint32_t)n; /* a late reply of this batch cannot match the next one */
	ts_drain(c);
	int rc = ts_run(c, &w, &b, n);
	tswin_free(&w);
	free(b.sent);
	return rc;
}

static void ts_fill_query(void *ctx, size_t i, struct ts_result *r, double mono)
{
	struct ts_query *q = ctx;
	q[i].ok = true;
	q[i].r = *r;
	q[i].mono = mono;
}

int ts_query_batch(struct ts_client *c, struct ts_query *q, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		q[i].ok = false;
		q[i].mono = 0;
		ts_result_init(&q[i].r);
	}
	struct ts_request *req = calloc(n ? n : 1, sizeof(*req));
	if (!req)
		return -1;
	for (size_t i = 0; i < n; i++)
		req[i] = (struct ts_request){q[i].id, q[i].tgid};
	int rc = ts_query_each(c, req, n, ts_fill_query, q);
	free(req);
	for (size_t i = 0; rc < 0 && i < n; i++) {
		q[i].ok = false;
		ts_result_init(&q[i].r);
	}
	return rc;
}

#define TS_PROBE_SPIN_NS 2000000 /* CPU time the probe thread burns before it exits */

static int64_t ts_thread_cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void *ts_probe_thread(void *arg)
{
	(void)arg;
	/* each sleep is a voluntary switch of this thread alone */
	for (int i = 0; i < 20; i++) {
		struct timespec d = {0, 100000};
		nanosleep(&d, NULL);
	}
	while (ts_thread_cpu_ns() < TS_PROBE_SPIN_NS)
		;
	return NULL;
}

/* Sums nvcsw and CPU time over taskview's live threads; -1 on failure. */
static int ts_live_sums(struct ts_client *c, int64_t *nvcsw, int64_t *cpu_ns)
{
	DIR *d = opendir("/proc/self/task");
	struct ts_query q[64];
	size_t n = 0;
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < 64)
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			q[n++] = (struct ts_query){.id = (int32_t)atoi(e->d_name)};
	closedir(d);
	if (ts_query_batch(c, q, n) < 0)
		return -1;
	*nvcsw = *cpu_ns = 0;
	for (size_t i = 0; i < n; i++) {
		if (!q[i].ok || q[i].r.nvcsw == TV_UNKNOWN || q[i].r.cpu_ns == TV_UNKNOWN)
			return -1;
		*nvcsw += q[i].r.nvcsw;
		*cpu_ns += q[i].r.cpu_ns;
	}
	return 0;
}

/*
 * Do group replies count what exited threads did? A thread of ours sleeps 20
 * times, burns 2 ms of CPU and exits; afterwards the group's switches and CPU
 * time exceed the sums over the live threads by that much only if they do
 * (switches: kernels differ; CPU time: not when delay accounting is off on
 * kernels before 5.14). Live threads are asked first, so what they do in
 * between only makes the excess smaller.
 */
static void ts_probe_group(struct ts_client *c)
{
	pthread_t th;
	int64_t vol, cpu;
	if (pthread_create(&th, NULL, ts_probe_thread, NULL) != 0)
		return;
	pthread_join(th, NULL);
	struct ts_query g = {.id = (int32_t)getpid(), .tgid = true};
	if (ts_live_sums(c, &vol, &cpu) < 0 || ts_query_batch(c, &g, 1) < 0 || !g.ok)
		return;
	c->group_exited = g.r.nvcsw != TV_UNKNOWN && g.r.nvcsw - vol >= 10;
	c->group_cpu = g.r.cpu_ns != TV_UNKNOWN && g.r.cpu_ns - cpu >= TS_PROBE_SPIN_NS / 2;
}

/* The kernel's command line, "" when unreadable. */
static void ts_read_cmdline(char *b, size_t size)
{
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, b, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	b[n > 0 ? n : 0] = '\0';
}

/* Delay accounting at open: the switch, or what the kernel had before there was one. */
static void ts_open_acct(struct ts_client *c)
{
	c->acct = ts_read_acct();
	c->acct_switch = c->acct != TS_ACCT_ABSENT;
	if (!c->acct_switch) {
		char cmdline[4096];
		struct utsname u;
		ts_read_cmdline(cmdline, sizeof(cmdline));
		c->acct = uname(&u) == 0
			? ts_acct_without_switch(u.release, cmdline, kconfig_running("CONFIG_TASK_DELAY_ACCT"))
			: TS_ACCT_ABSENT;
	}
	c->seen_off = c->acct == TS_ACCT_OFF;
}

/* Was delay accounting asked for on the kernel command line? */
static bool ts_acct_from_boot(void)
{
	char b[4096];
	ts_read_cmdline(b, sizeof(b));
	return ts_cmdline_has(b, "delayacct");
}

struct ts_client *ts_open(void)
{
	struct ts_client *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	c->fd = -1;
	c->seq = (uint32_t)getpid() << 16; /* any start works; this one eases reading traces */
	ts_open_acct(c);
	c->sk = nl_socket_alloc();
	if (!c->sk) {
		free(c);
		return NULL;
	}
	err = genl_connect(c->sk);
	if (err < 0) {
		ts_fail(c, TS_UNSUPPORTED, N_("cannot open a generic netlink socket"), nl_geterror(err));
		return c;
	}
	err = genl_ctrl_resolve(c->sk, TASKSTATS_GENL_NAME);
	if (err < 0) {
		ts_fail(c, TS_UNSUPPORTED,
			N_("the kernel offers no taskstats here (built without CONFIG_TASKSTATS, "
			   "or a network namespace on a kernel older than 2022)"), NULL);
		return c;
	}
	c->family = (uint16_t)err;
	c->fd = nl_socket_get_fd(c->sk);
	c->mbuf = malloc((size_t)TS_MMSG * TS_MSG_SIZE);
	if (!c->mbuf) {
		ts_fail(c, TS_UNSUPPORTED, N_("the taskstats socket failed"), strerror(ENOMEM));
		return c;
	}
	c->can_query = true;
	ts_set_rcvbuf(c, TS_RCVBUF_WANT);

	/* the only way to learn whether we may ask is to ask */
	struct ts_query self = {.id = (int32_t)getpid()};
	int rc = ts_query_batch(c, &self, 1);
	if (rc < 0 && !c->has_fault)
		ts_fail(c, TS_UNSUPPORTED, N_("the taskstats socket failed"), strerror(errno));
	else if (rc == 0 && !self.ok)
		ts_fail(c, TS_UNSUPPORTED, N_("the kernel did not answer a taskstats query about taskview itself"), NULL);
	if (c->can_query) {
		ts_probe_group(c);
		c->no_irq_acct = kconfig_running("CONFIG_IRQ_TIME_ACCOUNTING") == KCONFIG_NO;
		c->started_on_by_sysctl = c->acct_switch && c->acct == TS_ACCT_ON && !ts_acct_from_boot();
	}
	return c;
}

void ts_close(struct ts_client *c)
{
	if (!c)
		return;
	if (c->sk)
		nl_socket_free(c->sk);
	free(c->mbuf);
	free(c);
}

enum ts_state ts_state(const struct ts_client *c)
{
	if (c->has_fault)
		return c->fault;
	switch (c->acct) {
	case TS_ACCT_ON:
		return TS_ON;
	case TS_ACCT_OFF:
		return TS_OFF;
	case TS_ACCT_ABSENT:
		break;
	}
	return TS_UNSUPPORTED;
}

void ts_refresh_state(struct ts_client *c)
{
	if (!c->acct_switch)
		return; /* fixed at boot */
	enum ts_acct was = c->acct;
	c->acct = ts_read_acct();
	if (c->acct == TS_ACCT_OFF)
		c->seen_off = true;
	if (c->acct == TS_ACCT_ON && was != TS_ACCT_ON && c->seen_off) {
		/* from now on; a task started between the last read and this one
		 * counts as started before: unknown rather than a wrong zero */
		long hz = sysconf(_SC_CLK_TCK);
		c->on_since = (uint64_t)(clock_now(CLOCK_BOOTTIME) * (double)(hz > 0 ? hz : 100));
	}
}

bool ts_group_counts_exited(const struct ts_client *c)
{
	return c->group_exited;
}

bool ts_group_cpu(const struct ts_client *c)
{
	return c->group_cpu;
}

uint64_t ts_acct_on_since(const struct ts_client *c)
{
	return c->on_since;
}

const char *ts_message(const struct ts_client *c)
{
	if (c->has_fault)
		return c->msg;
	switch (c->acct) {
	case TS_ACCT_ON:
		return c->started_on_by_sysctl || c->on_since ? _(ts_msg_on_late) : "";
	case TS_ACCT_OFF:
		return c->acct_switch ? _(ts_msg_off) : _(ts_msg_off_boot);
	case TS_ACCT_ABSENT:
		break;
	}
	return _(ts_msg_no_acct);
}

int ts_tune(struct ts_client *c, int rcvbuf, size_t window)
{
	if (c->fd < 0)
		return -1;
	c->window_fixed = window;
	ts_set_rcvbuf(c, rcvbuf);
	return c->rcvbuf;
}
