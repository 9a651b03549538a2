/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive main loop: sample on schedule, handle keys in between. */
#include "tui/tui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "plugin/plugin_host.h"
#include "sample/background.h"
#include "sample/sampler.h"
#include "tui/keys/actions.h"
#include "tui/keys/keymap.h"
#include "tui/prefs.h"
#include "tui/timeline.h"
#include "tui/sampling.h"
#include "tui/screen/screen.h"
#include "tui/state.h"
#include "util/clock.h"
#include "util/i18n.h"

/* The TUI's own copy of the command-line filter: keys change it. */
static int tui_copy_filter(struct filter *dst, const struct filter *src)
{
	filter_init(dst);
	dst->uid = src->uid;
	dst->self = src->self;
	if (src->npids) {
		dst->pids = malloc(src->npids * sizeof(*dst->pids));
		if (!dst->pids)
			return -1;
		memcpy(dst->pids, src->pids, src->npids * sizeof(*dst->pids));
		dst->npids = src->npids;
	}
	return filter_set_text(dst, src->text) < 0 ? -1 : filter_set_cgroup(dst, src->cgroup);
}

static bool tui_color_wanted(const struct cli_opts *o)
{
	/* NO_COLOR: any non-empty value asks for monochrome */
	const char *nc = getenv("NO_COLOR");
	return !o->no_color && !(nc && *nc);
}

/* How long a quit waits for the sampling thread to stop its refresh, at most (seconds). */
#define TUI_STOP_WAIT 0.5

/* Frees what the screen held; false when the sampling thread did not stop in
 * time and was abandoned with the sampler (the caller then ends the process). */
static bool tui_free(struct tui *t)
{
	/* a plugin call in progress gives up; the sampling thread ends first */
	atomic_store(&t->stopping, true);
	if (!background_stop(t->bg, TUI_STOP_WAIT))
		return false;
	tui_replay_free(t);
	rows_free(&t->rows);
	if (t->have_cur)
		snapshot_free(&t->cur);
	if (t->have_prev)
		snapshot_free(&t->prev);
	system_free(&t->sys_prev);
	system_free(&t->sys_cur);
	sampler_free(t->sampler);
	filter_free(&t->filter);
	expset_free(&t->expanded);
	expset_free(&t->collapsed);
	pathset_free(&t->collapsed_groups);
	free(t->sel_group);
	tags_free(&t->tags);
	free(t->plugin_shown);
	free(t->search);
	free(t->config_path);
	buf_free(&t->status);
	return true;
}

/* A slow plugin keeps taskview from quitting no longer than its quit (sampling runs on its own thread). */
static bool tui_plugins_interrupted(void *ctx)
{
	struct tui *t = ctx;
	return term_quit_signal() || atomic_load(&t->stopping);
}

/* Milliseconds until the next sample is due; keys are read until then. */
static int tui_wait_ms(const struct tui *t)
{
	/* wake at least once a second: a signal must not wait for a long delay;
	 * a sample being taken wakes the loop itself when it arrives */
	if (t->frozen || t->sampling || t->replay)
		return 1000; /* a replay samples nothing: it waits for keys */
	double ms = (t->next_due - clock_now(CLOCK_MONOTONIC)) * 1000.0;
	if (ms < 0)
		return 0;
	return ms > 1000 ? 1000 : (int)ceil(ms);
}

static int tui_loop(struct tui *t)
{
	bool dirty = true;
	/* -n N: quit after N refreshes after the first screen, as top does; 0 runs until quit */
	int64_t limit = t->opts->iterations > 0 ? t->opts->iterations : -1;
	while (!t->quit && !term_quit_signal()) {
		if (tui_tick(t) < 0)
			return 1;
		if (dirty)
			tui_draw(t);
		dirty = false;
		int key = tui_key_wait(t, tui_wait_ms(t));
		if (key == TERM_KEY_WAKE) {
			int c = tui_collect(t);
			if (c < 0)
				return 1;
			dirty |= c > 0;
			if (c == 2 && limit > 0 && t->refreshes > limit)
				t->quit = true;
			continue;
		}
		if (key == ERR) {
			if (t->status.len && t->status_until && clock_now(CLOCK_MONOTONIC) >= t->status_until)
				dirty = true; /* a hint faded */
			dirty |= tui_stale_age(t) > 0; /* the age of stale figures goes on */
			continue;
		}
		dirty = true;
		if (key == KEY_RESIZE)
			continue;
		/* an error stays until the user has seen it and pressed a key */
		if (t->status_until == 0)
			buf_reset(&t->status);
		if (key == KEY_MOUSE)
			tui_mouse(t);
		else
			tui_act(t, keymap_action(key, tui_recording(t)), key);
	}
	return 0;
}

int tui_run(struct app *a, const struct cli_opts *o, struct tui_msgs *msgs, struct tui_replay *replay)
{
	struct tui t;
	memset(&t, 0, sizeof(t));
	t.app = a;
	t.opts = o;
	t.msgs = msgs;
	t.replay = replay;
	buf_init(&t.status);
	expset_init(&t.expanded);
	expset_init(&t.collapsed);
	tags_init(&t.tags);
	t.mouse = !o->no_mouse;
	t.delay = o->delay;
	t.all_threads = o->threads;
	int rc = 1;
	char *err = NULL;
	/* the settings file is read here, not in main: batch mode ignores it */
	struct prefs prefs;
	prefs_load(&t, &prefs);
	if (tui_copy_filter(&t.filter, &o->filter) < 0) {
		fprintf(stderr, "taskview: %s\n", _("out of memory"));
		goto out;
	}
	/* a replay's samples come from the recording */
	t.sampler = replay ? NULL : sampler_new(&err);
	if (!t.sampler && !replay) {
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
		goto out;
	}
	if (t.sampler) {
		sampler_set_plugins(t.sampler, a->plugins, plugin_host_nslots(a->plugins));
		plugin_host_set_interrupt(a->plugins, tui_plugins_interrupted, &t);
	}
	tui_columns_changed(&t);

	struct buf msg;
	buf_init(&msg);
	struct term_opts to = {.color = tui_color_wanted(o), .utf8 = a->utf8, .mouse = t.mouse};
	if (term_open(&to, &msg) < 0) {
		fprintf(stderr, "taskview: %s\n", buf_str(&msg));
		buf_free(&msg);
		goto out;
	}
	buf_free(&msg);
	tui_fit_columns(&t);
	if (replay) {
		if (tui_replay_start(&t) < 0) {
			term_close();
			fprintf(stderr, "taskview: %s\n", buf_str(&t.status));
			goto out;
		}
		/* the settings are the live screen's: a replay leaves them as they are */
		rc = tui_loop(&t);
		term_close();
		if (rc)
			fprintf(stderr, "taskview: %s\n", buf_str(&t.status));
		goto out;
	}
	system_read(&t.sys_cur);
	/* from here on samples are taken on a thread of their own */
	t.bg = background_start(t.sampler);
	if (!t.bg || tui_sample(&t, false) < 0) {
		term_close();
		fprintf(stderr, "taskview: %s\n", t.bg ? buf_str(&t.status) : _("out of memory"));
		goto out;
	}
	rc = tui_loop(&t);
	term_close();
	if (rc)
		fprintf(stderr, "taskview: %s\n", buf_str(&t.status));
	else if (!term_quit_signal())
		prefs_save(&t, &prefs);
out:
	prefs_free(&prefs);
	free(err);
	tui_msgs_flush(msgs, stderr);
	int sig = term_quit_signal();
	if (!tui_free(&t)) {
		/* the sampling thread is inside a refresh that did not stop (a read
		 * stuck on a busy machine): the terminal is restored and the
		 * settings saved, and nothing it uses may be freed under it */
		fflush(NULL);
		if (sig)
			term_reraise(sig);
		_exit(rc);
	}
	if (sig)
		term_reraise(sig);
	return rc;
}
