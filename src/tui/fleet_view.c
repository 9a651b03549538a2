/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * taskview --host without -b: the screen over several hosts. Each host's
 * last pair of samples, its rates from its own clock, is merged into one
 * table with a HOST column (hosts/fleet.h); the screen then sorts, filters,
 * searches and folds it as a replay's sample. k sends a signal to a host's
 * process, F7 and F8 step its nice value, and the detail panel has its
 * address space read, through its host (hosts/act.h); nothing else acts on
 * the tasks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "hosts/fleet.h"
#include "tui/screen/status.h"
#include "tui/timeline.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "util/clock.h"
#include "util/i18n.h"

/* The merged table is built again at most this often (s): 32 hosts sending
 * at -d 1 would otherwise rebuild it 32 times a second. */
#define FLEET_MERGE_EVERY 0.25

int tui_fleet_columns(void *ctx, struct colset *cs)
{
	const struct fleet *f = ctx;
	struct column host = column_host((const char *const *)f->names.v, f->n);
	return colset_add(cs, &host);
}

int tui_fleet_begin(struct tui *t)
{
	/* columns from the settings file (chosen on this machine's screen): HOST
	 * first all the same; -o is the user's whole choice */
	struct app *a = t->app;
	int host = colset_index(&a->cs, "host");
	if (t->opts->columns || host < 0 || colsel_has(&a->sel, host))
		return 0;
	int *v = realloc(a->sel.idx, (a->sel.n + 1) * sizeof(*v));
	if (!v)
		return -1;
	memmove(v + 1, v, a->sel.n * sizeof(*v));
	v[0] = host;
	a->sel.idx = v;
	a->sel.n++;
	return 0;
}

struct fleet *tui_fleet(const struct tui *t)
{
	return t->replay ? t->replay->fleet : NULL;
}

struct fleet *tui_fleet_live(const struct tui *t)
{
	return t->replay && !t->replay->tape ? t->replay->fleet : NULL;
}

/* The address space a host read for the detail panel, kept for it to take. */
static void fleet_anatomy_told(struct tui *t, const struct fleet_act *a, const char *why)
{
	struct fleet_anatomy *fa = &t->replay->an;
	if (fa->ready)
		anatomy_free(&fa->an.a);
	fa->asked = fa->ready = false;
	/* an answer for a process the panel no longer shows is dropped */
	if (a->host != fa->host || a->req.pid != fa->pid || a->req.start_ticks != fa->start_ticks)
		return;
	anatomy_init(&fa->an.a);
	fa->an.err = 0;
	fa->why[0] = '\0';
	if (!why && (a->l.out_over || act_answer_parse(a->l.out, a->l.nout, &fa->an.a, &fa->an.pg, &fa->an.err) < 0))
		/* TRANSLATORS: the detail panel on the hosts' screen: the host's answer is not one */
		why = _("its answer cannot be read");
	if (why)
		snprintf(fa->why, sizeof(fa->why), "%s", why);
	fa->ready = true;
}

int tui_fleet_ask_anatomy(struct tui *t, int32_t tgid, uint64_t start, const char **why)
{
	struct fleet_anatomy *fa = &t->replay->an;
	if (fa->asked)
		return 0;
	struct act_req r = {ACT_ANATOMY, 0, task_id_pid(tgid), start};
	char what[64];
	snprintf(what, sizeof(what), "anatomy %d", r.pid);
	if (fleet_act(t->replay->fleet, task_id_host(tgid), &r, what, clock_now(CLOCK_MONOTONIC), why) < 0)
		return -1;
	fa->asked = true;
	fa->host = task_id_host(tgid);
	fa->pid = r.pid;
	fa->start_ticks = start;
	fa->an.tgid = tgid;
	return 0;
}

/* An action's answer (k on a host's task), on the status line. */
static void fleet_told(void *ctx, const struct fleet_act *a, const char *why)
{
	struct tui *t = ctx;
	if (a->kind == ACT_ANATOMY) {
		fleet_anatomy_told(t, a, why);
		return;
	}
	const char *host = t->replay->fleet->names.v[a->host];
	/* a refusal stays until a key is pressed: another host's "sent" does not hide it */
	if (!why && t->status.len && t->status_role == ROLE_ERROR && t->status_until == 0)
		return;
	if (why)
		/* TRANSLATORS: k on the hosts' screen, not done: the host, what ("SIGTERM to 123 (nginx)"), and why */
		tui_status(t, ROLE_ERROR, _("%s: %s: %s"), host, a->what, why);
	else if (a->kind == ACT_SIGNAL)
		/* TRANSLATORS: k on the hosts' screen, done: the host, then what ("SIGTERM to 123 (nginx)") */
		tui_status(t, ROLE_STATUS, _("%s: sent %s"), host, a->what);
	else
		/* TRANSLATORS: F7 or F8 on the hosts' screen, done: the host, then what ("nice +1 for 123 (nginx)") */
		tui_status(t, ROLE_STATUS, _("%s: set %s"), host, a->what);
}

int tui_fleet_collect(struct tui *t)
{
	struct tui_replay *rp = t->replay;
	double now = clock_now(CLOCK_MONOTONIC);
	size_t acting = rp->fleet->nacts;
	fleet_acts_pump(rp->fleet, now, fleet_told, t);
	bool told = rp->fleet->nacts < acting;
	/* samples are taken only to be merged at once: a pair taken frees the one the table shows */
	bool take = now - rp->merged_at >= FLEET_MERGE_EVERY;
	int changed = fleet_pump(rp->fleet, now, take);
	if (changed < 0) {
		tui_status(t, ROLE_ERROR, "%s", _("out of memory"));
		return -1;
	}
	if (!take)
		return told;
	rp->merged_at = now;
	/* the ages of the states not live go on: drawn again (a prompt matches
	 * again only then, not every quarter second) */
	if (!changed)
		return told || !fleet_all_live(rp->fleet) ? 1 : 0;
	tui_fleet_unshow(t);
	if (tui_fleet_show(t) < 0) {
		tui_status(t, ROLE_ERROR, "%s", _("out of memory"));
		return -1;
	}
	t->refreshes++;
	return 2;
}

void tui_fleet_unshow(struct tui *t)
{
	/* the rows point into the merged sample */
	rows_free(&t->rows);
	t->have_cur = false;
	t->ended = NULL;
}

int tui_fleet_show(struct tui *t)
{
	struct fleet *f = t->replay->fleet;
	if (fleet_merge(f) < 0)
		return -1;
	t->cur = f->merged.s;
	if (f->recorded)
		t->cur.wall = f->at; /* the moment shown, as the detail panel's title names it */
	t->have_cur = true;
	t->ended = &f->merged;
	tui_rebuild(t);
	return 0;
}

int tui_fleet_run(const struct cli_opts *o, struct tui_msgs *msgs)
{
	struct fleet f;
	int rc = fleet_open(&f, o);
	if (rc) {
		fleet_free(&f);
		return rc;
	}
	struct app a;
	rc = app_init_replay(&a, o, tui_fleet_columns, &f);
	if (rc == 0) {
		fleet_start(&f, &a.cs, clock_now(CLOCK_MONOTONIC));
		struct tui_replay rp = {.fleet = &f};
		rc = tui_run(&a, o, msgs, &rp);
		if (rp.an.ready)
			anatomy_free(&rp.an.an.a);
	}
	/* the samples borrow the columns: the fleet goes first */
	fleet_free(&f);
	app_free(&a);
	return rc;
}
