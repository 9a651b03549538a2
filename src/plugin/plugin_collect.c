/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One refresh of plugin values: the tasks go to the helper in one WIRE_COLLECT,
 * each plugin answers with its values and the CPU time its callbacks took.
 * A plugin whose answer does not come (a crash, an exit, a hang past its
 * deadline) or comes malformed is disabled and the helper started again
 * without it; so is, without a restart, one that wrote output or went over
 * its CPU budget too often.
 */
#include "plugin/plugin_host.h"
#include "plugin/plugin_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/i18n.h"

#define REASON_MAX 1200
/* A helper that ends between refreshes (killed by someone, out of memory) is
 * started again this many times, then plugins are given up. */
#define IDLE_DEATHS_MAX 3

static bool applies_to(enum col_applies a, bool is_thread)
{
	return a == COL_ROWS_BOTH || (a == COL_ROWS_THREAD) == is_thread;
}

static bool slot_shown(const bool *shown, const struct plugin *p, uint32_t k)
{
	return !shown || shown[p->first_slot + k];
}

static bool col_wanted(const struct plugin *p, uint32_t k, const struct tv_task *t, const bool *shown)
{
	return slot_shown(shown, p, k) && applies_to(p->cols[k].applies, t->is_thread);
}

static bool plugin_wants(const struct plugin *p, const struct tv_task *t, const bool *shown)
{
	for (uint32_t k = 0; k < p->ncols; k++)
		if (col_wanted(p, k, t, shown))
			return true;
	return false;
}

/* Asked this refresh: loaded, enabled, with a column shown. */
static bool plugin_asked(const struct plugin *p, const bool *shown)
{
	if (!p->loaded || p->disabled)
		return false;
	for (uint32_t k = 0; k < p->ncols; k++)
		if (slot_shown(shown, p, k))
			return true;
	return false;
}

static void round_clear(struct plugin_round *r)
{
	free(r->expect);
	memset(r, 0, sizeof(*r));
}

static bool round_pending(const struct plugin_round *r)
{
	return r->next < r->nexpect;
}

/* The wait for the next answer begins: its deadline, and where the helper stands. */
static void wait_begin(struct plugin_host *h, double now)
{
	struct plugin_round *r = &h->round;
	r->deadline = now + plugin_deadline_s(h->v[r->expect[r->next]].ncalls);
	plugin_child_look(h->child, now, &r->asked);
	r->last = r->asked;
}

/* Past the deadline, whether the helper is kept off the CPUs rather than hung. */
static bool starved(struct plugin_host *h, const struct plugin *p, double now)
{
	struct plugin_round *r = &h->round;
	return plugin_child_starved(h->child, &r->asked, &r->last, p->ncalls, now);
}

/* Sends the tasks to the plugins of the round not answered yet. */
static int round_send(struct plugin_host *h)
{
	struct plugin_round *r = &h->round;
	r->seq = ++h->seq;
	struct buf b;
	buf_init(&b);
	size_t f = wire_begin(&b, WIRE_COLLECT);
	wire_u32(&b, r->seq);
	wire_u32(&b, (uint32_t)(r->nexpect - r->next));
	for (size_t j = r->next; j < r->nexpect; j++) {
		const struct plugin *p = &h->v[r->expect[j]];
		wire_u32(&b, (uint32_t)r->expect[j]);
		wire_u32(&b, p->ncols);
		for (uint32_t k = 0; k < p->ncols; k++)
			wire_u8(&b, slot_shown(r->shown, p, k));
	}
	wire_u32(&b, (uint32_t)r->ntasks);
	for (size_t i = 0; i < r->ntasks; i++) {
		const struct tv_task *t = r->tasks[i];
		const char *comm = task_comm(t);
		wire_put_task(&b, t->tid, t->tgid, t->is_thread, comm, strlen(comm));
	}
	wire_end(&b, f);
	double now = clock_now(CLOCK_MONOTONIC);
	int rc = plugin_child_send(h->child, &b, now + PLUGIN_DEADLINE_S);
	buf_free(&b);
	wait_begin(h, now);
	return rc;
}

/* A helper that is gone before it was asked anything: no plugin to blame. */
static int child_ready(struct plugin_host *h)
{
	if (h->child && plugin_child_alive(h->child))
		return 0;
	if (h->child) {
		char status[128];
		plugin_child_status(h->child, status, sizeof(status));
		if (++h->idle_deaths > IDLE_DEATHS_MAX) {
			char reason[256];
			snprintf(reason, sizeof(reason), _("the plugin helper keeps ending between refreshes (%s)"), status);
			plugin_host_stop_child(h, 0);
			for (size_t i = 0; i < h->n; i++)
				if (h->v[i].loaded)
					plugin_disable(h, &h->v[i], reason);
			return -1;
		}
		plugin_say(h, _("the plugin helper ended between refreshes (%s); it is started again"), status);
	}
	return plugin_host_restart(h);
}

/* Stores one value of p into task i of the refresh (when it is still there). */
static int value_get(struct plugin_round *r, const struct plugin *p, struct wire_reader *rd)
{
	uint32_t i = wire_get_u32(rd), k = wire_get_u32(rd);
	uint8_t tag = wire_get_u8(rd);
	if (rd->bad || i >= r->ntasks || k >= p->ncols)
		return -1;
	const struct plugin_colinfo *c = &p->cols[k];
	struct tv_pvalue v = {.known = true, .i = TV_UNKNOWN, .f = NAN};
	bool null;
	switch (tag) {
	case WIRE_INT:
		if (c->type != TASKVIEW_TYPE_INTEGER && c->type != TASKVIEW_TYPE_BYTES)
			return -1;
		v.i = (int64_t)wire_get_u64(rd);
		if (v.i == INT64_MIN)
			return -1;
		break;
	case WIRE_FLOAT:
		if (c->type != TASKVIEW_TYPE_FLOAT && c->type != TASKVIEW_TYPE_PERCENT)
			return -1;
		v.f = wire_get_f64(rd);
		if (!isfinite(v.f))
			return -1;
		break;
	case WIRE_STRING:
		if (c->type != TASKVIEW_TYPE_STRING)
			return -1;
		v.s = wire_get_str(rd, PLUGIN_STRING_MAX, &null);
		if (!v.s)
			return -1;
		break;
	default:
		return -1;
	}
	if (rd->bad)
		return -1;
	struct tv_task *t = r->tasks ? r->tasks[i] : NULL;
	if (!t) { /* a refresh that is over: read, checked, dropped */
		free(v.s);
		return 0;
	}
	if (!col_wanted(p, k, t, r->shown)) {
		free(v.s);
		return -1; /* the helper sends only what was asked for */
	}
	if (!t->pvals) { /* out of memory when the refresh began: unknown */
		free(v.s);
		return 0;
	}
	struct tv_pvalue *slot = &t->pvals[p->first_slot + k];
	free(slot->s);
	*slot = v;
	return 0;
}

/* The answer of p: its values and CPU time. -1 when malformed. */
static int values_get(struct plugin_round *r, struct plugin *p, size_t index, uint32_t type, struct wire_reader *rd,
                      char **output)
{
	*output = NULL;
	if (type != WIRE_VALUES)
		return -1;
	uint32_t seq = wire_get_u32(rd), idx = wire_get_u32(rd);
	uint64_t cpu = wire_get_u64(rd);
	uint32_t n = wire_get_u32(rd);
	if (rd->bad || seq != r->seq || idx != index || cpu > INT64_MAX)
		return -1;
	for (uint32_t e = 0; e < n; e++)
		if (value_get(r, p, rd) < 0)
			return -1;
	if (plugin_answer_output(rd, output) < 0 || !wire_done(rd)) {
		free(*output);
		*output = NULL;
		return -1;
	}
	p->cpu_ns = (int64_t)cpu;
	return 0;
}

/* Its values of this refresh go too: a disabled plugin's columns show unknown. */
static void clear_values(struct plugin_round *r, const struct plugin *p)
{
	for (size_t i = 0; r->tasks && i < r->ntasks; i++)
		if (r->tasks[i]->pvals)
			plugin_values_clear(r->tasks[i]->pvals + p->first_slot, p->ncols);
}

static void charge(struct plugin_host *h, struct plugin *p)
{
	int64_t budget = plugin_budget_ns(p->ncalls);
	if (p->cpu_ns <= budget) {
		p->over_budget = 0;
		return;
	}
	if (++p->over_budget < TASKVIEW_PLUGIN_BUDGET_REFRESHES)
		return;
	char reason[REASON_MAX];
	snprintf(reason, sizeof(reason),
	         P_("its callbacks took more CPU time than their budget in %d refresh in a row (last %.1f ms, budget %.1f ms: %d ms plus %d us per task, %zu tasks)",
	            "its callbacks took more CPU time than their budget in %d refreshes in a row (last %.1f ms, budget %.1f ms: %d ms plus %d us per task, %zu tasks)",
	            TASKVIEW_PLUGIN_BUDGET_REFRESHES),
	         TASKVIEW_PLUGIN_BUDGET_REFRESHES, (double)p->cpu_ns / 1e6, (double)budget / 1e6,
	         TASKVIEW_PLUGIN_BUDGET_MS, TASKVIEW_PLUGIN_BUDGET_US_PER_TASK, p->ncalls);
	plugin_disable(h, p, reason);
}

/* Why the helper failed p, for its message; kills the helper. */
static void failure_reason(struct plugin_host *h, enum child_wait w, double waited, char *reason, size_t len)
{
	struct plugin_child *c = h->child;
	char *output = plugin_child_leftover(c);
	char status[128];
	if (w == CHILD_TIMEOUT) {
		plugin_child_kill(c);
		snprintf(reason, len, _("no answer within %.1f s of wall-clock time (it loops or blocks); the plugin helper was killed"),
		         waited);
	} else if (w == CHILD_DIED) {
		plugin_child_reap(c, 0.5);
		plugin_child_status(c, status, sizeof(status));
		snprintf(reason, len, _("the plugin helper ended while it ran (%s)"), status);
	} else {
		plugin_child_kill(c);
		snprintf(reason, len, "%s", _("the plugin helper sent malformed data while it ran"));
	}
	if (output) {
		size_t l = strlen(reason);
		snprintf(reason + l, len - l, _("; its last output: %s"), output);
		free(output);
	}
}

/* Waits for the answers still owed, handles each. Returns when all came (or
 * their plugins were disabled) or when h->interrupted says so. */
static void round_run(struct plugin_host *h)
{
	struct plugin_round *r = &h->round;
	while (round_pending(r)) {
		size_t index = r->expect[r->next];
		struct plugin *p = &h->v[index];
		if (!h->child) { /* no helper could be started: all were disabled */
			r->next = r->nexpect;
			break;
		}
		uint32_t type = 0;
		struct wire_reader rd;
		enum child_wait w = plugin_child_wait(h->child, r->deadline, h->interrupted, h->ictx, &type, &rd);
		if (w == CHILD_INTERRUPTED)
			return;
		double now = clock_now(CLOCK_MONOTONIC);
		if (w == CHILD_TIMEOUT && starved(h, p, now)) {
			r->deadline = now + PLUGIN_STARVED_STEP_S;
			continue;
		}
		char reason[REASON_MAX];
		if (w == CHILD_FRAME) {
			char *output;
			int ok = values_get(r, p, index, type, &rd, &output);
			plugin_child_consume(h->child);
			if (ok == 0 && output) {
				snprintf(reason, sizeof(reason),
				         _("it wrote to standard output or error, which plugins must not do: %s"), output);
				plugin_disable(h, p, reason);
				clear_values(r, p);
			} else if (ok == 0) {
				charge(h, p);
				if (p->disabled)
					clear_values(r, p);
			}
			free(output);
			if (ok == 0) {
				r->next++;
				if (round_pending(r))
					wait_begin(h, clock_now(CLOCK_MONOTONIC));
				continue;
			}
			w = CHILD_BAD;
		}
		/* a crash, an exit, a hang or garbage: this plugin's doing */
		failure_reason(h, w, now - r->asked.at, reason, sizeof(reason));
		plugin_disable(h, p, reason);
		clear_values(r, p);
		r->next++;
		if (plugin_host_restart(h) < 0) {
			r->next = r->nexpect;
			break;
		}
		/* the rest of the refresh goes to the new helper */
		while (round_pending(r) && h->v[r->expect[r->next]].disabled)
			r->next++;
		if (round_pending(r) && (!r->tasks || round_send(h) < 0))
			r->next = r->nexpect;
	}
	round_clear(r);
}

void plugin_host_collect_all(struct plugin_host *h, struct tv_task *const *tasks, size_t n, const bool *shown)
{
	if (!h || h->nslots == 0)
		return;
	/* answers owed to an earlier refresh come first (and go nowhere) */
	if (round_pending(&h->round)) {
		round_run(h);
		if (round_pending(&h->round))
			return;
	}
	size_t *ask = malloc(h->n * sizeof(*ask));
	size_t nask = 0;
	for (size_t i = 0; ask && i < h->n; i++)
		if (plugin_asked(&h->v[i], shown))
			ask[nask++] = i;
	if (!nask) {
		free(ask);
		return;
	}
	/* allocated only where some plugin column is wanted: hidden columns cost nothing */
	for (size_t j = 0; j < nask; j++)
		h->v[ask[j]].ncalls = 0;
	for (size_t i = 0; i < n; i++) {
		struct tv_task *t = tasks[i];
		for (size_t j = 0; j < nask; j++) {
			struct plugin *p = &h->v[ask[j]];
			if (!plugin_wants(p, t, shown))
				continue;
			p->ncalls++;
			if (!t->pvals && (t->pvals = calloc(h->nslots, sizeof(*t->pvals))))
				plugin_values_clear(t->pvals, h->nslots);
		}
	}
	h->round = (struct plugin_round){.expect = ask, .nexpect = nask, .tasks = tasks, .ntasks = n, .shown = shown};
	int sent = child_ready(h) < 0 ? -1 : round_send(h);
	if (sent < 0 && h->child) {
		/* the helper took no request: it is gone or stuck between refreshes,
		 * which no plugin can be blamed for; once more with a new one */
		plugin_child_kill(h->child);
		sent = child_ready(h) < 0 ? -1 : round_send(h);
	}
	if (sent < 0) {
		round_clear(&h->round);
		return;
	}
	round_run(h);
	/* the refresh is the caller's again: later answers to it are dropped */
	h->round.tasks = NULL;
	h->round.shown = NULL;
}
