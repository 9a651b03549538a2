/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The taskstats API for builds without libnl: always unsupported, so callers need no #ifdef. */
#include "sample/taskstats/taskstats.h"
#include "sample/taskstats/taskstats_listen.h"

#include <stdlib.h>

#include "util/i18n.h"

struct ts_client {
	int unused; /* C needs a member; there is no state to keep */
};

struct ts_client *ts_open(void)
{
	return calloc(1, sizeof(struct ts_client));
}

void ts_close(struct ts_client *c)
{
	free(c);
}

enum ts_state ts_state(const struct ts_client *c)
{
	(void)c;
	return TS_UNSUPPORTED;
}

void ts_refresh_state(struct ts_client *c)
{
	(void)c;
}

const char *ts_message(const struct ts_client *c)
{
	(void)c;
	return _("taskview was built without taskstats support (libnl-genl-3): per-task delays are not available");
}

int ts_query_each(struct ts_client *c, const struct ts_request *req, size_t n, ts_reply_fn fn, void *ctx)
{
	(void)c;
	(void)req;
	(void)n;
	(void)fn;
	(void)ctx;
	return -1;
}

int ts_query_batch(struct ts_client *c, struct ts_query *q, size_t n)
{
	(void)c;
	for (size_t i = 0; i < n; i++) {
		q[i].ok = false;
		ts_result_init(&q[i].r);
	}
	return -1;
}

int ts_tune(struct ts_client *c, int rcvbuf, size_t window)
{
	(void)c;
	(void)rcvbuf;
	(void)window;
	return -1;
}

bool ts_group_counts_exited(const struct ts_client *c)
{
	(void)c;
	return false;
}

bool ts_group_cpu(const struct ts_client *c)
{
	(void)c;
	return false;
}

uint64_t ts_acct_on_since(const struct ts_client *c)
{
	(void)c;
	return 0;
}

struct ts_listener *ts_listen_start(const char **why)
{
	*why = _("taskview was built without taskstats support (libnl-genl-3)");
	return NULL;
}

void ts_listen_stop(struct ts_listener *l)
{
	(void)l;
}

size_t ts_listen_take(struct ts_listener *l, struct ts_exit_rec **out, uint64_t *lost)
{
	(void)l;
	*out = NULL;
	*lost = 0;
	return 0;
}

void ts_listen_give_back(struct ts_listener *l, struct ts_exit_rec *recs)
{
	(void)l;
	(void)recs;
}
