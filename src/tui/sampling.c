/* Taking samples for the screen. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "model/delta.h"
#include "plugin/plugin_host.h"
#include "sample/sampler.h"
#include "tui/sampling.h"
#include "tui/status.h"
#include "tui/view.h"
#include "util/clock.h"
#include "util/i18n.h"

int tui_sample(struct tui *t, bool immediate)
{
	struct sample_opts so;
	tui_sample_opts(t, &so);
	struct snapshot s;
	char *err = NULL;
	/* a scheduled sample replaces prev: free it first, so that no more than
	 * two samples are ever held (they are most of taskview's memory) */
	if (!immediate && t->have_prev) {
		snapshot_free(&t->prev);
		t->have_prev = false;
	}
	if (sampler_take(t->sampler, &so, &s, &err) < 0) {
		tui_status(t, ROLE_ERROR, "%s", err ? err : _("out of memory"));
		free(err);
		return -1;
	}
	/* the rows point into cur: drop them before cur goes */
	rows_free(&t->rows);
	if (!t->have_cur) {
		delta_apply(NULL, &s, &t->app->cs);
		t->cur = s;
		t->have_cur = true;
	} else if (immediate && t->have_prev) {
		/* rates over prev → now: at least one full interval, never a
		 * noisy fraction of one; tasks new to prev show "-" */
		delta_apply(&t->prev, &s, &t->app->cs);
		snapshot_free(&t->cur);
		t->cur = s;
	} else {
		delta_apply(&t->cur, &s, &t->app->cs);
		t->prev = t->cur;
		t->have_prev = true;
		t->cur = s;
	}
	if (!immediate) {
		system_free(&t->sys_prev);
		t->sys_prev = t->sys_cur;
		t->sys_cur = (struct sys_info){0};
		system_read(&t->sys_cur);
	}
	t->next_due = (t->cur.mono > 0 ? t->cur.mono : clock_now(CLOCK_MONOTONIC)) + t->delay;
	tui_rebuild(t);
	return 0;
}

void tui_columns_changed(struct tui *t)
{
	struct app *a = t->app;
	t->needs = app_needs(a);
	app_open_taskstats(a, t->needs);
	sampler_set_taskstats(t->sampler, a->ts);
	free(t->plugin_shown);
	t->plugin_shown = app_plugin_shown(a);
}
