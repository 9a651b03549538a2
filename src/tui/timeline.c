/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen over a recording: the sample on screen is a pair from the
 * reader (the sample and the one k before it), shown as batch replay shows
 * it, ended tasks included. Stepping loads another pair; there is no
 * refresh and nothing is read from /proc.
 */
#include "tui/timeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hosts/fleet.h"
#include "record/when.h"
#include "replay.h"
#include "tui/screen/status.h"
#include "tui/view.h"
#include "util/i18n.h"

void tui_replay_time(char *out, size_t n, double wall)
{
	time_t s = (time_t)floor(wall);
	struct tm tm;
	if (!isfinite(wall) || !localtime_r(&s, &tm) || strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(out, n, "-");
}

static void replay_release(struct tui_replay *rp)
{
	if (!rp->have)
		return;
	shown_free(&rp->shown);
	rec_sample_free(&rp->prev);
	rec_sample_free(&rp->cur);
	rp->have = false;
}

/* Shows sample i when it pairs with the one k before it: 1 shown, 0 it
 * cannot be (a break, a lost sample), -1 out of memory. */
static int replay_load(struct tui *t, size_t i)
{
	struct tui_replay *rp = t->replay;
	struct rec_sample prev, cur;
	if (!rec_reader_pairable(rp->r, i, rp->k) || rec_reader_pair(rp->r, i, rp->k, &prev, &cur) < 0)
		return 0;
	/* the rows point into the sample on screen: drop them first */
	rows_free(&t->rows);
	replay_release(rp);
	t->have_cur = false;
	t->ended = NULL;
	/* the PIDs select what is read, as live; user and text are the view's */
	struct filter pids;
	filter_init(&pids);
	pids.pids = t->filter.pids;
	pids.npids = t->filter.npids;
	rp->prev = prev;
	rp->cur = cur;
	if (shown_build(&rp->shown, &rp->prev.s, &rp->cur.s, &t->app->cs, &pids, true) < 0) {
		rec_sample_free(&rp->prev);
		rec_sample_free(&rp->cur);
		tui_status(t, ROLE_ERROR, "%s", _("out of memory"));
		return -1;
	}
	rp->have = true;
	rp->i = i;
	t->cur = rp->shown.s;
	t->have_cur = true;
	t->ended = &rp->shown;
	tui_rebuild(t);
	return 1;
}

static bool replay_in_range(const struct tui_replay *rp, size_t i)
{
	double w = rec_reader_wall(rp->r, i);
	return w >= rp->from && w <= rp->to;
}

/* The first sample from i on (dir 1) or back (dir -1) that can be shown. */
static int replay_seek(struct tui *t, size_t i, int dir)
{
	struct tui_replay *rp = t->replay;
	size_t n = rec_reader_count(rp->r);
	for (; i < n; i = dir > 0 ? i + 1 : i - 1) {
		if (replay_in_range(rp, i)) {
			int rc = replay_load(t, i);
			if (rc != 0)
				return rc;
		}
		if (i == 0 && dir < 0)
			break;
	}
	return 0;
}

/* What the keys of a recording say on the hosts' screen. */
static bool replay_fleet_refuse(struct tui *t)
{
	if (!tui_fleet_live(t))
		return false;
	/* TRANSLATORS: b, f, J or d on the hosts' screen (--host) */
	tui_status(t, ROLE_STATUS, "%s", _("the hosts' screen is live: b, f and J step through a recording, -d sets the hosts' interval"));
	return true;
}

int tui_replay_start(struct tui *t)
{
	struct tui_replay *rp = t->replay;
	if (rp->tape)
		return tui_tape_start(t);
	if (rp->fleet)
		return tui_fleet_begin(t); /* samples come as the hosts send them */
	size_t i = isfinite(rp->from) ? rec_reader_find(rp->r, rp->from) : 0;
	int rc = replay_seek(t, i, 1);
	if (rc == 0)
		tui_status(t, ROLE_ERROR, "%s", replay_none_why(rp->r, rp->from, rp->to, rp->k));
	return rc > 0 ? 0 : -1;
}

void tui_replay_free(struct tui *t)
{
	if (!t->replay)
		return;
	rows_free(&t->rows);
	if (!t->replay->fleet)
		replay_release(t->replay);
	t->have_cur = false;
	t->ended = NULL;
}

/* Where the screen is now, on the status line. */
static void replay_say_where(struct tui *t)
{
	const struct tui_replay *rp = t->replay;
	char when[64];
	tui_replay_time(when, sizeof(when), rec_reader_wall(rp->r, rp->i));
	/* TRANSLATORS: replay status: the time of the sample shown, its number and how many there are */
	tui_status(t, ROLE_STATUS, _("%s: sample %zu of %zu"), when, rp->i + 1, rec_reader_count(rp->r));
}

void tui_replay_step(struct tui *t, int dir)
{
	struct tui_replay *rp = t->replay;
	if (!rp) {
		tui_status(t, ROLE_STATUS, "%s", _("b, f and J step through a recording (taskview -r PATH)"));
		return;
	}
	if (replay_fleet_refuse(t))
		return;
	if (rp->tape) {
		tui_tape_step(t, dir);
		return;
	}
	size_t n = rec_reader_count(rp->r);
	int rc = 0;
	/* samples that way in the range that could not be shown: damaged, or
	 * after damage, or the first of a run */
	size_t left = 0, lost = 0;
	if (dir > 0 && rp->i + rp->k < n) {
		rc = replay_seek(t, rp->i + rp->k, 1);
		for (size_t j = rp->i + rp->k; rc == 0 && j < n && replay_in_range(rp, j); j++, left++)
			lost += rec_reader_lost(rp->r, j);
	} else if (dir < 0 && rp->i >= rp->k) {
		rc = replay_seek(t, rp->i - rp->k, -1);
		for (size_t j = rp->i - rp->k; rc == 0 && replay_in_range(rp, j); j--, left++) {
			lost += rec_reader_lost(rp->r, j);
			if (j == 0)
				break;
		}
	}
	if (rc < 0)
		return;
	if (rc == 0 && lost)
		/* TRANSLATORS: b or f in a replay: samples are there, but damaged or
		 * recorded against damaged ones */
		tui_status(t, ROLE_STATUS, "%s",
			   dir > 0 ? _("no sample after this one can be shown: the rest of the recording is damaged")
				   : _("no sample before this one can be shown: that part of the recording is damaged"));
	else if (rc == 0 && left > (dir > 0 ? 0 : rp->k))
		tui_status(t, ROLE_STATUS, "%s",
			   dir > 0 ? _("this is the last sample of the recording that can be shown")
				   : _("this is the first sample of the recording that can be shown"));
	else if (rc == 0)
		tui_status(t, ROLE_STATUS, "%s",
			   dir > 0 ? _("this is the last sample of the recording")
				   : _("this is the first sample of the recording"));
	else
		replay_say_where(t);
}

/* Local midnight of the day of wall: a clock time typed is on that day. */
static double replay_day_start(double wall)
{
	time_t s = (time_t)floor(wall);
	struct tm tm;
	if (!localtime_r(&s, &tm))
		return wall;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	time_t d = mktime(&tm);
	return d == (time_t)-1 ? wall : (double)d;
}

void tui_replay_jump(struct tui *t, const char *text)
{
	struct tui_replay *rp = t->replay;
	if (!rp) {
		tui_replay_step(t, 0);
		return;
	}
	if (replay_fleet_refuse(t))
		return;
	struct when w;
	if (!when_parse(text, &w)) {
		/* TRANSLATORS: J in a replay; keep HH:MM, HH:MM:SS and YYYY-MM-DD as they are */
		tui_status(t, ROLE_ERROR, _("bad time '%s' (HH:MM, HH:MM:SS or YYYY-MM-DD HH:MM)"), text);
		return;
	}
	if (rp->tape) {
		tui_tape_jump(t, when_resolve(&w, replay_day_start(rp->fleet->at)));
		return;
	}
	double at = when_resolve(&w, replay_day_start(rec_reader_wall(rp->r, rp->i)));
	size_t n = rec_reader_count(rp->r);
	size_t i = rec_reader_find(rp->r, at);
	int rc = i < n ? replay_seek(t, i, 1) : 0;
	/* after the last sample that can be shown: that one */
	if (rc == 0 && n)
		rc = replay_seek(t, i < n ? i : n - 1, -1);
	if (rc > 0)
		replay_say_where(t);
	else if (rc == 0)
		tui_status(t, ROLE_ERROR, _("no sample of the recording near %s"), text);
}

void tui_replay_set_step(struct tui *t, double seconds)
{
	struct tui_replay *rp = t->replay;
	if (replay_fleet_refuse(t))
		return;
	if (rp->tape) {
		tui_tape_set_step(t, seconds);
		return;
	}
	double m = seconds / rp->info.interval;
	if (!(m >= 0.99) || fabs(m - round(m)) > 0.01 || m > 1e6) {
		tui_status(t, ROLE_ERROR, _("%g s is not a multiple of the recording's interval (%g s)"), seconds,
			   rp->info.interval);
		return;
	}
	unsigned k = (unsigned)lround(m);
	unsigned was = rp->k;
	rp->k = k;
	/* the sample on screen again, its rates over the new step */
	int rc = replay_seek(t, rp->i, 1);
	if (rc == 0) {
		rp->k = was;
		(void)replay_seek(t, rp->i, 1);
		/* TRANSLATORS: d in a replay: no sample pairs with the one that many intervals before it */
		tui_status(t, ROLE_ERROR, _("no sample of the recording can be shown with a step of %g s"), seconds);
		return;
	}
	if (rc > 0)
		/* TRANSLATORS: d in a replay: rates are now over this many seconds */
		tui_status(t, ROLE_STATUS, _("stepping %g s"), k * rp->info.interval);
}

bool tui_replay_refuse(struct tui *t, const char *why)
{
	if (!t->replay)
		return false;
	if (tui_fleet_live(t))
		/* TRANSLATORS: affinity, environment and the like on the hosts' screen (--host) */
		why = _("on the hosts' screen only a signal (k) and nice (F7, F8) act on a host's task: ssh to the host for the rest");
	tui_status(t, ROLE_ERROR, "%s", why);
	return true;
}

