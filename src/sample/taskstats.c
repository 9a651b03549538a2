/*
 * The taskstats netlink client. libnl opens the socket and resolves the
 * family; the hot path writes requests and reads replies on the raw fd with
 * the pure parser, because pipelining needs control over sequence numbers,
 * batching and ENOBUFS that libnl's callback loop does not give.
 */
#include "sample/taskstats.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "sample/taskstats_window.h"
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

enum ts_acct { TS_ACCT_ON, TS_ACCT_OFF, TS_ACCT_ABSENT };

struct ts_client {
	struct nl_sock *sk;
	int fd;
	uint16_t family;
	bool can_query;
	bool has_fault;        /* fault overrides the sysctl */
	enum ts_state fault;
	enum ts_acct acct;
	uint32_t seq;
	int rcvbuf;
	size_t window, window_fixed;
	char msg[256];
	unsigned char sbuf[TS_PACK * TS_REQ_MAX];
	unsigned char rbuf[TS_RBUF];
};

static const char *const ts_msg_off =
	N_("delay accounting is off: switch it on with `sysctl kernel.task_delayacct=1` "
	   "(tasks started while it was off keep showing zeros)");
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

/* Sends pending queries until the window is full. 0, 1 when the kernel was short of memory, -1 on failure. */
static int ts_send_window(struct ts_client *c, struct ts_window *w, const struct ts_query *q)
{
	for (;;) {
		size_t used = 0, i;

		while (sizeof(c->sbuf) - used >= TS_REQ_MAX && (i = tswin_next(w)) != TSWIN_NONE)
			used += ts_build_request(c->sbuf + used, sizeof(c->sbuf) - used, c->family,
						 tswin_seq(w, i), q[i].id, q[i].tgid);
		if (used == 0)
			return 0;
		ssize_t n;
		do
			n = send(c->fd, c->sbuf, used, 0);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return errno == ENOBUFS || errno == ENOMEM || errno == EAGAIN ? 1 : -1;
	}
}

/* Settles the query a reply belongs to. false when the reply says we may not ask at all. */
static bool ts_handle(struct ts_window *w, struct ts_query *q, const struct ts_reply *rep)
{
	size_t i;

	switch (rep->kind) {
	case TS_MSG_STATS:
		i = tswin_answer(w, rep->seq);
		if (i != TSWIN_NONE && rep->id == q[i].id && rep->is_tgid == q[i].tgid) {
			q[i].ok = true;
			q[i].r = rep->r;
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
static int ts_read_ready(struct ts_client *c, struct ts_window *w, struct ts_query *q, bool *overflow)
{
	int handled = 0;

	for (;;) {
		ssize_t n = recv(c->fd, c->rbuf, sizeof(c->rbuf), MSG_DONTWAIT);
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
		size_t off = 0;
		while (off < (size_t)n) {
			struct ts_reply rep;
			ssize_t k = ts_parse_msg(c->rbuf + off, (size_t)n - off, c->family, &rep);

			if (k <= 0)
				break;
			off += (size_t)k;
			handled++;
			if (!ts_handle(w, q, &rep)) {
				ts_fail(c, TS_NO_PERMISSION,
					N_("per-task delays need CAP_NET_ADMIN in the initial user namespace: "
					   "run as root; taskview(1), DELAY ACCOUNTING, gives the other ways"), NULL);
				return -1;
			}
		}
	}
}

/* Hides counters the kernel is not updating, so they read as unknown, not as zero. */
static void ts_mask(const struct ts_client *c, struct ts_result *r)
{
	int first = c->acct == TS_ACCT_ON ? TV_DELAY_NCLASS
		  : c->acct == TS_ACCT_OFF ? TV_DELAY_CPU + 1 : 0;

	for (int k = first; k < TV_DELAY_NCLASS; k++)
		r->delay[k] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN};
}

static int ts_run(struct ts_client *c, struct ts_window *w, struct ts_query *q, size_t n)
{
	/* generous: the kernel answers inside send(), ~10 us per query */
	int64_t deadline = ts_now_ms() + 1000 + (int64_t)(n / 50);

	while (!tswin_done(w)) {
		bool overflow = false;
		int s = ts_send_window(c, w, q);
		if (s < 0)
			return -1;
		int r = ts_read_ready(c, w, q, &overflow);
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

int ts_query_batch(struct ts_client *c, struct ts_query *q, size_t n)
{
	struct ts_window w;
	int rc;

	for (size_t i = 0; i < n; i++) {
		q[i].ok = false;
		ts_result_init(&q[i].r);
	}
	if (!c->can_query)
		return -1;
	if (n == 0)
		return 0;
	if (tswin_init(&w, n, c->seq, c->window, TS_MAX_TRIES) < 0)
		return -1;
	c->seq += (uint32_t)n; /* a late reply of this batch cannot match the next one */
	ts_drain(c);
	rc = ts_run(c, &w, q, n);
	tswin_free(&w);
	for (size_t i = 0; i < n; i++) {
		if (rc < 0)
			q[i].ok = false;
		if (q[i].ok)
			ts_mask(c, &q[i].r);
		else
			ts_result_init(&q[i].r);
	}
	return rc;
}

struct ts_client *ts_open(void)
{
	struct ts_client *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	c->fd = -1;
	c->seq = (uint32_t)getpid() << 16; /* any start works; this one eases reading traces */
	c->acct = ts_read_acct();
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
	c->can_query = true;
	ts_set_rcvbuf(c, TS_RCVBUF_WANT);

	/* the only way to learn whether we may ask is to ask */
	struct ts_query self = {.id = (int32_t)getpid()};
	int rc = ts_query_batch(c, &self, 1);
	if (rc < 0 && !c->has_fault)
		ts_fail(c, TS_UNSUPPORTED, N_("the taskstats socket failed"), strerror(errno));
	else if (rc == 0 && !self.ok)
		ts_fail(c, TS_UNSUPPORTED, N_("the kernel did not answer a taskstats query about taskview itself"), NULL);
	return c;
}

void ts_close(struct ts_client *c)
{
	if (!c)
		return;
	if (c->sk)
		nl_socket_free(c->sk);
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
	c->acct = ts_read_acct();
}

const char *ts_message(const struct ts_client *c)
{
	if (c->has_fault)
		return c->msg;
	switch (c->acct) {
	case TS_ACCT_ON:
		return "";
	case TS_ACCT_OFF:
		return _(ts_msg_off);
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
