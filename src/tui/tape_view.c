/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * taskview -r FILE of a recording of hosts: the hosts' screen at a moment
 * of the recording viewer's clock (hosts/tape.h). b and f move the moment
 * by the step, across stretches in which no host has a new pair; J moves it
 * to a time; d sets the step. Nothing is sent to the hosts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "hosts/tape.h"
#include "tui/screen/status.h"
#include "tui/timeline.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "util/i18n.h"

/* The hosts' pairs at the moment at, merged and on screen. 0, or -1 out of memory (told). */
static int tape_view_show(struct tui *t, double at)
{
	struct tui_replay *rp = t->replay;
	/* the rows point into the merged sample, which points into the pairs: they go first */
	tui_fleet_unshow(t);
	if (tape_show(rp->tape, rp->fleet, at) < 0 || tui_fleet_show(t) < 0) {
		tui_status(t, ROLE_ERROR, "%s", _("out of memory"));
		return -1;
	}
	return 0;
}

static void tape_say_where(struct tui *t)
{
	const struct tui_replay *rp = t->replay;
	char when[64];
	tui_replay_time(when, sizeof(when), rp->fleet->at);
	/* TRANSLATORS: b, f or J over a recording of hosts: the moment shown, and the step */
	tui_status(t, ROLE_STATUS, _("%s, stepping %g s"), when, rp->tape->step);
}

int tui_tape_start(struct tui *t)
{
	int rc = tui_fleet_begin(t);
	return rc < 0 ? rc : tape_view_show(t, t->replay->tape->start);
}

void tui_tape_step(struct tui *t, int dir)
{
	const struct tape *tp = t->replay->tape;
	double now = t->replay->fleet->at, at = now + dir * tp->step;
	if (dir > 0 && now >= tp->end) {
		/* TRANSLATORS: f over a recording of hosts */
		tui_status(t, ROLE_STATUS, "%s", _("this is the end of the recording"));
		return;
	}
	if (dir < 0 && now <= tp->start) {
		/* TRANSLATORS: b over a recording of hosts: no host has a pair before */
		tui_status(t, ROLE_STATUS, "%s", _("this is the start of the recording"));
		return;
	}
	/* a stretch in which no host has a new pair is crossed at once, either way: back, to
	 * the last moment before the pairs on screen came */
	if (dir > 0) {
		at = fmin(fmax(at, tape_next(tp, now)), tp->end);
	} else {
		double came = tape_prev(tp, nextafter(now, INFINITY));
		if (at >= came)
			at = tape_prev(tp, came);
		at = fmax(at, tp->start);
	}
	if (tape_view_show(t, at) == 0)
		tape_say_where(t);
}

void tui_tape_jump(struct tui *t, double at)
{
	const struct tape *tp = t->replay->tape;
	if (tape_view_show(t, fmin(fmax(at, tp->start), tp->end)) == 0)
		tape_say_where(t);
}

void tui_tape_set_step(struct tui *t, double seconds)
{
	struct tape *tp = t->replay->tape;
	if (tape_set_step(tp, seconds) < 0) {
		/* TRANSLATORS: d over a recording of hosts: no sample pairs with the one that far before it */
		tui_status(t, ROLE_ERROR, _("no sample of the recording can be shown with a step of %g s"), seconds);
		return;
	}
	/* the moment on screen again, each host's rates over the new step */
	if (tape_view_show(t, fmax(t->replay->fleet->at, tp->start)) == 0)
		tape_say_where(t);
}

/* What its reader says while the screen starts goes to the status line. */
static void tape_warn(void *ctx, const char *msg)
{
	tui_msgs_add(ctx, msg);
}

int tui_tape_run(const struct cli_opts *o, struct tui_msgs *msgs, const struct rec_reader *top)
{
	struct fleet f;
	struct tape tp;
	struct app a;
	memset(&a, 0, sizeof(a));
	/* the hosts first: the columns name them (HOST); the rates are derived
	 * for the columns, which are a's once app_init_replay has made them */
	int rc = tape_open(&tp, &f, o, top, &a.cs, tape_warn, msgs);
	if (rc == 0) {
		rc = app_init_replay(&a, o, tui_fleet_columns, &f);
		if (rc == 0) {
			struct tui_replay rp = {.fleet = &f, .tape = &tp};
			rc = tui_run(&a, o, msgs, &rp);
		}
		/* the samples borrow the columns and the readers' strings: the fleet goes first */
		fleet_free(&f);
		app_free(&a);
	} else {
		fleet_free(&f);
	}
	tape_free(&tp);
	return rc;
}
